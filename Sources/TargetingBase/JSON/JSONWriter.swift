/// Writes `JSONValue`s as compact RFC 8259 JSON text without recursion.
package enum JSONWriter {
    /// Compact JSON text (no spaces), object members in their stored order; non-finite numbers are written as null.
    package static func write(_ value: JSONValue) -> String {
        render(value, sortKeys: false)
    }

    /// Compact JSON text with object members sorted by key (UTF-8 byte order) at every level.
    package static func writeSorted(_ value: JSONValue) -> String {
        render(value, sortKeys: true)
    }

    /// One pending piece of output; containers push their parts in reverse so they pop in order.
    private enum Step {
        case value(JSONValue)
        case key(String)
        case byte(UInt8)
    }

    /// Appends compact JSON text of `value` to `output`, as `write(_:)` spells it.
    package static func append(_ value: JSONValue, to output: inout [UInt8]) {
        append(value, sortKeys: false, to: &output)
    }

    /// Appends the JSON text of `number`, as `write(_:)` spells it.
    package static func appendNumber(_ number: Double, to output: inout [UInt8]) {
        output.append(contentsOf: numberText(number).utf8)
    }

    private static func render(_ root: JSONValue, sortKeys: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        append(root, sortKeys: sortKeys, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func append(_ root: JSONValue, sortKeys: Bool, to output: inout [UInt8]) {
        var steps: [Step] = [.value(root)]
        while let step = steps.popLast() {
            switch step {
            case .byte(let byte):
                output.append(byte)
            case .key(let key):
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
            case .value(let value):
                switch value {
                case .null:
                    output.append(contentsOf: "null".utf8)
                case .bool(let flag):
                    output.append(contentsOf: (flag ? "true" : "false").utf8)
                case .number(let number):
                    output.append(contentsOf: numberText(number).utf8)
                case .string(let text):
                    appendString(text, to: &output)
                case .array(let elements):
                    output.append(UInt8(ascii: "["))
                    steps.append(.byte(UInt8(ascii: "]")))
                    for index in elements.indices.reversed() {
                        steps.append(.value(elements[index]))
                        if index > elements.startIndex {
                            steps.append(.byte(UInt8(ascii: ",")))
                        }
                    }
                case .object(let stored):
                    let members = sortKeys ? sortedByKeyBytes(stored) : stored
                    output.append(UInt8(ascii: "{"))
                    steps.append(.byte(UInt8(ascii: "}")))
                    for index in members.indices.reversed() {
                        steps.append(.value(members[index].value))
                        steps.append(.key(members[index].key))
                        if index > members.startIndex {
                            steps.append(.byte(UInt8(ascii: ",")))
                        }
                    }
                }
            }
        }
    }

    /// Members ordered by the UTF-8 bytes of their keys; equal keys keep their relative order.
    package static func sortedByKeyBytes(_ members: [JSONMember]) -> [JSONMember] {
        let indexed = members.enumerated().sorted { lhs, rhs in
            if lhs.element.key.utf8.elementsEqual(rhs.element.key.utf8) {
                return lhs.offset < rhs.offset
            }
            return lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
        }
        return indexed.map(\.element)
    }

    /// The JSON text of a number: integral values below 2^53 in magnitude without a fraction, others in shortest round-trip form.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded(.towardZero) == number && number.magnitude < 9_007_199_254_740_992 {
            // Also turns -0 into "0".
            return String(Int64(number))
        }
        // For finite values Swift's shortest round-trip description ("0.1", "1e+20", "5e-324",
        // "9007199254740992.0") always has digits on both sides of any "." and an exponent made of
        // "e", a sign and digits, so it is already valid JSON and parses back to the same value.
        return number.description
    }

    /// Appends `text` as a JSON string literal (quoted and escaped).
    package static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // `withUTF8` reaches the bytes of small (inline) strings too, which
        // `withContiguousStorageIfAvailable` does not; it copies only a bridged string.
        var text = text
        text.withUTF8 { appendEscaped($0, to: &output) }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x09: output.append(UInt8(ascii: "t"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            default:
                output.append(contentsOf: "u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
            index += 1
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
    }
}
