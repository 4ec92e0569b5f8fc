/// A JSON syntax error with a 1-based line and column (columns count Unicode scalars) and a lowercase message without final period.
///
/// Lines are separated by LF, CRLF or a lone CR. A leading UTF-8 byte order mark is not counted as a column,
/// but it is counted in `byteOffset`, which is the 0-based offset of the offending byte in the input.
package struct JSONParseError: Error, Hashable, Sendable {
    /// What went wrong, e.g. "duplicate key `id`" or "unexpected end of input".
    package var message: String
    /// The 1-based line of the offending position.
    package var line: Int
    /// The 1-based column of the offending position, counted in Unicode scalars.
    package var column: Int
    /// The 0-based byte offset of the offending position in the input.
    package var byteOffset: Int
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes that never recurses and reports precise error positions.
package struct JSONParser {
    /// Parses exactly one JSON value (surrounding white space allowed; a leading UTF-8 BOM is skipped); nesting deeper than `maxDepth` arrays/objects and duplicate keys in one object are errors.
    ///
    /// With the default `maxDepth` of 64, 64 nested arrays/objects parse and 65 fail at the 65th opening
    /// bracket. Parsing itself never recurses, but comparing or releasing a value nested tens of thousands of
    /// levels deep uses stack space per level, so keep `maxDepth` modest. A duplicate key is reported at the
    /// second occurrence; keys are compared by their UTF-8 bytes after unescaping.
    package static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 64) -> Result<JSONValue, JSONParseError> {
        if let result = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0, maxDepth: maxDepth) }) {
            return result
        }
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth) }
    }

    /// Parses exactly one JSON value from the UTF-8 form of `text`, with the same rules as the byte variant.
    package static func parse(_ text: String, maxDepth: Int = 64) -> Result<JSONValue, JSONParseError> {
        var text = text
        return text.withUTF8 { parse(buffer: $0, maxDepth: maxDepth) }
    }

    /// The JSON number starting at `start` in `bytes` and the index just past it, read exactly as
    /// `parse` reads numbers; nil when no valid, finite number starts there.
    package static func number(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (value: Double, end: Int)? {
        guard start < bytes.count else { return nil }
        return try? JSONParserState.number(in: bytes, at: start, end: bytes.count)
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONValue, JSONParseError> {
        var state = JSONParserState(bytes: buffer, maxDepth: Swift.max(0, maxDepth))
        do {
            return .success(try state.parseDocument())
        } catch {
            return .failure(JSONParseError(error, in: buffer))
        }
    }
}

extension JSONParseError {
    /// Builds the package error, computing line and column from the byte offset.
    init(_ failure: JSONSyntaxFailure, in bytes: UnsafeBufferPointer<UInt8>) {
        let offset = Swift.min(Swift.max(0, failure.offset), bytes.count)
        var line = 1
        var lineStart = 0
        if JSONParserState.hasByteOrderMark(bytes), offset >= 3 {
            lineStart = 3
        }
        var index = lineStart
        while index < offset {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            } else if byte == UInt8(ascii: "\r") {
                let followedByLineFeed = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")
                if !followedByLineFeed {
                    line += 1
                    lineStart = index + 1
                }
            }
            index += 1
        }
        var column = 1
        index = lineStart
        while index < offset {
            // Every byte that is not a UTF-8 continuation byte starts a new scalar.
            if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.init(message: failure.message, line: line, column: column, byteOffset: offset)
    }
}

/// An error found while parsing, located by byte offset only.
struct JSONSyntaxFailure: Error {
    var message: String
    var offset: Int
}

/// A key compared and hashed by its UTF-8 bytes, so canonically equivalent but different keys stay distinct.
private struct JSONByteKey: Hashable {
    let text: String

    static func == (lhs: JSONByteKey, rhs: JSONByteKey) -> Bool {
        JSONParserState.sameBytes(lhs.text, rhs.text)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for byte in text.utf8 {
            hasher.combine(byte)
        }
    }
}

/// The mutable state of one parse: an explicit container stack instead of recursion.
struct JSONParserState {
    /// One open array or object.
    private struct Frame {
        let isObject: Bool
        /// Index in `values` where this container's elements start.
        let valueStart: Int
        /// Index in `keys` where this object's keys start.
        let keyStart: Int
        /// Built once an object has many keys, to keep duplicate detection linear.
        var keySet: Set<JSONByteKey>?
    }

    /// Objects with fewer keys than this check duplicates by a linear scan.
    private static let linearKeyLimit = 16

    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    private let maxDepth: Int
    private var pos = 0
    private var frames: [Frame] = []
    private var values: [JSONValue] = []
    private var keys: [String] = []
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.end = bytes.count
        self.maxDepth = maxDepth
    }

    /// Whether two strings have identical UTF-8 bytes (unlike `==`, which uses canonical equivalence).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        if let compared, let result = compared {
            return result
        }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }

    static func hasByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    // MARK: Document structure

    mutating func parseDocument() throws(JSONSyntaxFailure) -> JSONValue {
        if Self.hasByteOrderMark(bytes) {
            pos = 3
        }
        valueLoop: while true {
            // A value is expected here.
            skipWhitespace()
            guard pos < end else { throw unexpectedEnd() }
            let byte = bytes[pos]
            switch byte {
            case UInt8(ascii: "["):
                try openContainer(isObject: false)
                pos += 1
                skipWhitespace()
                if pos < end && bytes[pos] == UInt8(ascii: "]") {
                    pos += 1
                    closeContainer()
                } else {
                    continue valueLoop
                }
            case UInt8(ascii: "{"):
                try openContainer(isObject: true)
                pos += 1
                skipWhitespace()
                if pos < end && bytes[pos] == UInt8(ascii: "}") {
                    pos += 1
                    closeContainer()
                } else {
                    try parseMemberKey(afterComma: false)
                    continue valueLoop
                }
            case UInt8(ascii: "\""):
                values.append(.string(try parseString()))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                values.append(.number(try parseNumber()))
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                values.append(try parseLiteral())
            case UInt8(ascii: "+"):
                throw JSONSyntaxFailure(message: "a number must not start with `+`", offset: pos)
            case UInt8(ascii: "."):
                throw JSONSyntaxFailure(message: "a number must not start with `.`", offset: pos)
            default:
                throw JSONSyntaxFailure(message: "expected a value but found \(try describeCharacter(at: pos))", offset: pos)
            }

            // A value was just completed.
            while true {
                skipWhitespace()
                guard !frames.isEmpty else {
                    if pos < end {
                        throw JSONSyntaxFailure(
                            message: "expected end of input but found \(try describeCharacter(at: pos))", offset: pos)
                    }
                    return values.removeLast()
                }
                guard pos < end else { throw unexpectedEnd() }
                let next = bytes[pos]
                if frames[frames.count - 1].isObject {
                    if next == UInt8(ascii: ",") {
                        pos += 1
                        skipWhitespace()
                        try parseMemberKey(afterComma: true)
                        continue valueLoop
                    }
                    if next == UInt8(ascii: "}") {
                        pos += 1
                        closeContainer()
                        continue
                    }
                    throw JSONSyntaxFailure(message: "expected `,` or `}` after object member", offset: pos)
                } else {
                    if next == UInt8(ascii: ",") {
                        pos += 1
                        continue valueLoop
                    }
                    if next == UInt8(ascii: "]") {
                        pos += 1
                        closeContainer()
                        continue
                    }
                    throw JSONSyntaxFailure(message: "expected `,` or `]` after array element", offset: pos)
                }
            }
        }
    }

    private mutating func openContainer(isObject: Bool) throws(JSONSyntaxFailure) {
        // Checked before descending, so arbitrarily deep input fails at the first level too many.
        if frames.count >= maxDepth {
            throw JSONSyntaxFailure(message: "nesting deeper than \(maxDepth) levels", offset: pos)
        }
        frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count, keySet: nil))
    }

    private mutating func closeContainer() {
        let frame = frames.removeLast()
        let count = values.count - frame.valueStart
        if frame.isObject {
            var members: [JSONMember] = []
            members.reserveCapacity(count)
            for index in 0..<count {
                members.append(JSONMember(key: keys[frame.keyStart + index], value: values[frame.valueStart + index]))
            }
            keys.removeLast(keys.count - frame.keyStart)
            values.removeLast(count)
            values.append(.object(members))
        } else {
            let elements = Array(values[frame.valueStart...])
            values.removeLast(count)
            values.append(.array(elements))
        }
    }

    /// Parses `"key"` and the following `:`; white space before the key was already skipped.
    private mutating func parseMemberKey(afterComma: Bool) throws(JSONSyntaxFailure) {
        guard pos < end else { throw unexpectedEnd() }
        guard bytes[pos] == UInt8(ascii: "\"") else {
            let expected = afterComma ? "a string key" : "a string key or `}`"
            throw JSONSyntaxFailure(message: "expected \(expected) but found \(try describeCharacter(at: pos))", offset: pos)
        }
        let keyOffset = pos
        let key = try parseString()
        try registerKey(key, at: keyOffset)
        skipWhitespace()
        guard pos < end else { throw unexpectedEnd() }
        guard bytes[pos] == UInt8(ascii: ":") else {
            throw JSONSyntaxFailure(message: "expected `:` after object key", offset: pos)
        }
        pos += 1
    }

    private mutating func registerKey(_ key: String, at offset: Int) throws(JSONSyntaxFailure) {
        let frameIndex = frames.count - 1
        let keyStart = frames[frameIndex].keyStart
        var isDuplicate = false
        if frames[frameIndex].keySet != nil {
            isDuplicate = frames[frameIndex].keySet!.insert(JSONByteKey(text: key)).inserted == false
        } else if keys.count - keyStart < Self.linearKeyLimit {
            var index = keyStart
            while index < keys.count {
                if Self.sameBytes(keys[index], key) {
                    isDuplicate = true
                    break
                }
                index += 1
            }
        } else {
            var set = Set<JSONByteKey>(minimumCapacity: (keys.count - keyStart) * 2)
            for existing in keys[keyStart...] {
                set.insert(JSONByteKey(text: existing))
            }
            isDuplicate = set.insert(JSONByteKey(text: key)).inserted == false
            frames[frameIndex].keySet = set
        }
        if isDuplicate {
            throw JSONSyntaxFailure(message: "duplicate key `\(Self.displayed(key))`", offset: offset)
        }
        keys.append(key)
    }

    // MARK: Scalars

    private mutating func skipWhitespace() {
        while pos < end {
            switch bytes[pos] {
            case 0x20, 0x0A, 0x0D, 0x09:
                pos += 1
            default:
                return
            }
        }
    }

    private mutating func parseLiteral() throws(JSONSyntaxFailure) -> JSONValue {
        let start = pos
        var index = pos
        while index < end, Self.isWordByte(bytes[index]) {
            index += 1
        }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
        let value: JSONValue
        if Self.matches(word, 0x74, 0x72, 0x75, 0x65) {
            value = .bool(true)
        } else if Self.matches(word, 0x66, 0x61, 0x6C, 0x73, 0x65) {
            value = .bool(false)
        } else if Self.matches(word, 0x6E, 0x75, 0x6C, 0x6C) {
            value = .null
        } else {
            var text = String(decoding: word.prefix(24), as: UTF8.self)
            if word.count > 24 {
                text += "…"
            }
            throw JSONSyntaxFailure(message: "invalid literal `\(text)`", offset: start)
        }
        pos = index
        return value
    }

    /// Whether `word` is exactly the given ASCII bytes.
    private static func matches(_ word: UnsafeBufferPointer<UInt8>, _ expected: UInt8...) -> Bool {
        guard word.count == expected.count else { return false }
        for index in 0..<word.count where word[index] != expected[index] {
            return false
        }
        return true
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private mutating func parseNumber() throws(JSONSyntaxFailure) -> Double {
        let (value, next) = try Self.number(in: bytes, at: pos, end: end)
        pos = next
        return value
    }

    /// The number starting at `start` and the index just past it: the one reading of JSON
    /// numbers, shared by the parser and by `JSONParser.number(in:at:)`.
    static func number(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) throws(JSONSyntaxFailure) -> (value: Double, end: Int) {
        func unexpectedEnd() -> JSONSyntaxFailure { JSONSyntaxFailure(message: "unexpected end of input", offset: end) }
        var index = start
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < end else { throw unexpectedEnd() }
        guard Self.isDigit(bytes[index]) else {
            throw JSONSyntaxFailure(message: "expected a digit after `-`", offset: index)
        }
        let integerStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < end && Self.isDigit(bytes[index]) {
                throw JSONSyntaxFailure(message: "leading zeros are not allowed in numbers", offset: integerStart)
            }
        } else {
            while index < end && Self.isDigit(bytes[index]) {
                index += 1
            }
        }
        let integerDigits = index - integerStart
        var isInteger = true
        if index < end && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < end else { throw unexpectedEnd() }
            guard Self.isDigit(bytes[index]) else {
                throw JSONSyntaxFailure(message: "expected a digit after the decimal point", offset: index)
            }
            while index < end && Self.isDigit(bytes[index]) {
                index += 1
            }
        }
        if index < end && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < end && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard index < end else { throw unexpectedEnd() }
            guard Self.isDigit(bytes[index]) else {
                throw JSONSyntaxFailure(message: "expected a digit in the exponent", offset: index)
            }
            while index < end && Self.isDigit(bytes[index]) {
                index += 1
            }
        }
        if isInteger && integerDigits <= 15 {
            // Exact: every integer below 10^15 is representable, so this equals Double(String).
            var magnitude: Int64 = 0
            for digitIndex in integerStart..<index {
                magnitude = magnitude * 10 + Int64(bytes[digitIndex] &- UInt8(ascii: "0"))
            }
            let result = Double(magnitude)
            return (negative ? -result : result, index)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let result = Double(text), result.isFinite else {
            throw JSONSyntaxFailure(message: "number is not finite", offset: start)
        }
        return (result, index)
    }

    // MARK: Strings

    /// Parses a string starting at the opening quote at `pos`.
    private mutating func parseString() throws(JSONSyntaxFailure) -> String {
        let quote = pos
        var index = pos + 1
        var runStart = index
        var usesScratch = false
        while true {
            guard index < end else {
                throw JSONSyntaxFailure(message: "unterminated string", offset: quote)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                break
            }
            if byte == UInt8(ascii: "\\") {
                if !usesScratch {
                    scratch.removeAll(keepingCapacity: true)
                    usesScratch = true
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index = try parseEscape(at: index)
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw JSONSyntaxFailure(
                    message: "unescaped control character \(Self.scalarName(UInt32(byte))) in string", offset: index)
            }
            if byte < 0x80 {
                index += 1
            } else {
                index = try validateUTF8Sequence(at: index)
            }
        }
        pos = index + 1
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
        if usesScratch {
            scratch.append(contentsOf: run)
            return String(decoding: scratch, as: UTF8.self)
        }
        return String(decoding: run, as: UTF8.self)
    }

    /// Decodes the escape sequence at `index` (a backslash) into `scratch`, returning the index after it.
    private mutating func parseEscape(at index: Int) throws(JSONSyntaxFailure) -> Int {
        guard index + 1 < end else { throw unexpectedEnd() }
        let escaped = bytes[index + 1]
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            scratch.append(escaped)
        case UInt8(ascii: "b"):
            scratch.append(0x08)
        case UInt8(ascii: "f"):
            scratch.append(0x0C)
        case UInt8(ascii: "n"):
            scratch.append(0x0A)
        case UInt8(ascii: "r"):
            scratch.append(0x0D)
        case UInt8(ascii: "t"):
            scratch.append(0x09)
        case UInt8(ascii: "u"):
            let first = try hexQuad(at: index + 2, escapeOffset: index)
            var scalar = first
            var next = index + 6
            if (0xD800...0xDBFF).contains(first) {
                guard next + 1 < end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                    throw unpairedSurrogate(at: index)
                }
                let second = try hexQuad(at: next + 2, escapeOffset: next)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw unpairedSurrogate(at: index)
                }
                scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                next += 6
            } else if (0xDC00...0xDFFF).contains(first) {
                throw unpairedSurrogate(at: index)
            }
            appendUTF8(scalar)
            return next
        default:
            if escaped >= 0x21 && escaped <= 0x7E {
                throw JSONSyntaxFailure(message: "invalid escape sequence `\\\(Character(Unicode.Scalar(escaped)))`", offset: index)
            }
            throw JSONSyntaxFailure(message: "invalid escape sequence", offset: index)
        }
        return index + 2
    }

    /// Reads four hex digits at `index` for the `\u` escape starting at `escapeOffset`.
    private func hexQuad(at index: Int, escapeOffset: Int) throws(JSONSyntaxFailure) -> UInt32 {
        var value: UInt32 = 0
        for offset in index..<(index + 4) {
            guard offset < end else { throw unexpectedEnd() }
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw JSONSyntaxFailure(message: "invalid `\\u` escape: expected 4 hex digits", offset: escapeOffset)
            }
            value = value << 4 | digit
        }
        return value
    }

    private func unpairedSurrogate(at index: Int) -> JSONSyntaxFailure {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + 6)]), as: UTF8.self)
        return JSONSyntaxFailure(message: "unpaired surrogate `\(text)`", offset: index)
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Validates the UTF-8 sequence whose lead byte is at `index` and returns the index after it;
    /// the error names the lead byte.
    private func validateUTF8Sequence(at index: Int) throws(JSONSyntaxFailure) -> Int {
        guard let next = UTF8Validation.endOfSequence(in: bytes, at: index) else { throw invalidByte(at: index) }
        return next
    }

    private func invalidByte(at index: Int) -> JSONSyntaxFailure {
        JSONSyntaxFailure(message: "invalid UTF-8 byte 0x\(Self.hex(UInt32(bytes[index]), width: 2))", offset: index)
    }

    // MARK: Messages

    private func unexpectedEnd() -> JSONSyntaxFailure {
        JSONSyntaxFailure(message: "unexpected end of input", offset: end)
    }

    /// Describes the character at `index` for a message: "`x`" for visible ASCII, otherwise "U+XXXX".
    private func describeCharacter(at index: Int) throws(JSONSyntaxFailure) -> String {
        let byte = bytes[index]
        if byte < 0x80 {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "`") {
                return "`\(Character(Unicode.Scalar(byte)))`"
            }
            return Self.scalarName(UInt32(byte))
        }
        let next = try validateUTF8Sequence(at: index)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<next]), as: UTF8.self)
        return Self.scalarName(text.unicodeScalars.first?.value ?? 0xFFFD)
    }

    static func scalarName(_ value: UInt32) -> String {
        "U+" + hex(value, width: 4).uppercased()
    }

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }

    /// A key made safe for a one-line message: control characters escaped, long keys shortened.
    static func displayed(_ key: String) -> String {
        var result = ""
        var count = 0
        for scalar in key.unicodeScalars {
            if count == 40 {
                result += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u" + hex(scalar.value, width: 4)
            } else {
                result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return result
    }
}
