/// Strict UTF-8 checks over raw bytes (no overlong forms, no surrogates, nothing past U+10FFFF):
/// the one validator the lexer and the JSON parser share.
package enum UTF8Validation {
    /// The index just past the well-formed UTF-8 sequence that starts at `index`, or nil when
    /// the sequence there is broken (the lead byte is what a message should name).
    @inlinable
    package static func endOfSequence<Bytes: RandomAccessCollection>(in bytes: Bytes, at index: Int) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let lead = bytes[index]
        if lead < 0x80 { return index + 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.endIndex else { return nil }
        for step in 1..<length {
            let byte = bytes[index + step]
            let (min, max) = step == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            if byte < min || byte > max { return nil }
        }
        return index + length
    }

    /// The offset of the first byte that does not start a valid UTF-8 sequence (the lead byte of
    /// a broken sequence), or nil if all is valid.
    package static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            guard let next = endOfSequence(in: bytes, at: index) else { return index }
            index = next
        }
        return nil
    }

    /// The byte length of the UTF-8 sequence that starts with `lead` (1 for a stray byte).
    package static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF7: 4
        default: 1
        }
    }
}
