/// The members of a JSON object found by their structure alone: each key (one without
/// escapes) and the byte range of its value. Nothing inside a value is checked here: each is
/// read on its own afterwards, by the reader it needs. Any input it does not take (a key with
/// an escape, a malformed structure) gives nil, and the caller reads the whole body with the
/// JSON parser, which names the error.
enum TopLevelMembers {
    static func ranges(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: String, range: Range<Int>)]? {
        var index = 0
        func skipBlanks() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }
        skipBlanks()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var members: [(key: String, range: Range<Int>)] = []
        skipBlanks()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            skipBlanks()
            return index == bytes.count ? members : nil
        }
        while true {
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index + 1
            var keyEnd = keyStart
            while keyEnd < bytes.count, bytes[keyEnd] != UInt8(ascii: "\"") {
                guard bytes[keyEnd] != UInt8(ascii: "\\"), bytes[keyEnd] >= 0x20 else { return nil }
                keyEnd += 1
            }
            guard keyEnd < bytes.count else { return nil }
            guard let key = String(validating: bytes[keyStart..<keyEnd], as: UTF8.self) else { return nil }
            index = keyEnd + 1
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipBlanks()
            let valueStart = index
            guard skipValue(bytes, &index) else { return nil }
            members.append((key, valueStart..<index))
            skipBlanks()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { return nil }
            index += 1
            skipBlanks()
            return index == bytes.count ? members : nil
        }
    }

    /// Moves past one value: a string, an object or array (to its matching close, strings
    /// inside skipped whole), or a run of other characters (numbers, `true`, `false`, `null`).
    static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString(bytes, &index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString(bytes, &index) else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    guard depth <= 64 else { return false }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { index += 1; return true }
                default:
                    break
                }
                index += 1
            }
            return false
        default:
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return index > start
                default: index += 1
                }
            }
            return index > start
        }
    }

    static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): index += 1; return true
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return false
    }
}
