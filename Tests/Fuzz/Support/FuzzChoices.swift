/// Reads the fuzzer's bytes as a sequence of choices, so that a mutation of the bytes is a
/// mutation of a structured input (a rule set, a profile) rather than of its text. When the
/// bytes run out every choice is 0: the first, simplest alternative.
package struct FuzzChoices {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    package var isExhausted: Bool { offset >= bytes.count }

    /// The next byte (0 when none is left).
    package mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `0..<count` (0 when `count` is 0 or 1).
    package mutating func below(_ count: Int) -> Int {
        guard count > 1 else { return 0 }
        if count <= 256 { return Int(byte()) % count }
        return (Int(byte()) << 8 | Int(byte())) % count
    }

    /// A number in `range`.
    package mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability about `percent` in 100.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `options`.
    package mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
}
