import TargetingBase

/// Turns the bytes of a rules or tests file into tokens and comments.
///
/// Works over UTF-8 bytes (so CRLF is two line-break bytes, not one character), tracks line and
/// column incrementally, and reports malformed input as diagnostics instead of stopping: a bad
/// character is skipped, a bad string literal still yields a string token.
package final class Lexer {
    /// The tokens, ending with `.endOfFile`.
    package private(set) var tokens: [Token] = []
    /// The comments, in order.
    package private(set) var comments: [Comment] = []
    /// Lexical errors.
    package private(set) var diagnostics: [Diagnostic] = []

    private let file: SourceFile
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var column = 1

    /// Lexes a whole file.
    package static func lex(_ file: SourceFile) -> Lexer {
        let lexer = Lexer(file: file)
        lexer.run()
        return lexer
    }

    private init(file: SourceFile) {
        self.file = file
        self.bytes = file.bytes
    }

    private var here: SourcePosition { SourcePosition(offset: offset, line: line, column: column) }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        let index = offset + ahead
        return index < bytes.count ? bytes[index] : nil
    }

    /// Moves forward `count` bytes that hold no line break.
    private func advance(_ count: Int = 1) {
        let end = min(offset + count, bytes.count)
        while offset < end {
            if bytes[offset] & 0xC0 != 0x80 { column += 1 }
            offset += 1
        }
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func emit(_ kind: TokenKind, from start: SourcePosition, value: String? = nil, raw known: String? = nil) {
        let raw = known ?? text(start.offset, offset)
        tokens.append(Token(kind: kind, text: raw, value: value ?? raw, range: SourceRange(file: file.path, start: start, end: here)))
    }

    private func run() {
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            let position = file.position(ofOffset: bad)
            diagnostics.append(.invalidUTF8(byte: bytes[bad], at: SourceRange(file: file.path, start: position, end: position)))
            tokens.append(Token(kind: .endOfFile, text: "", value: "", range: SourceRange(file: file.path, start: position, end: position)))
            return
        }
        while let byte = peek() {
            switch byte {
            case 0x0A:
                offset += 1; line += 1; column = 1
            case 0x0D:
                offset += 1
                if peek() == 0x0A { offset += 1 }
                line += 1; column = 1
            case 0x20, 0x09:
                advance()
            case UInt8(ascii: "#"):
                let start = here
                var end = offset
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                advance(end - offset)
                comments.append(Comment(text: text(start.offset, offset), range: SourceRange(file: file.path, start: start, end: here)))
            case UInt8(ascii: "\""):
                lexString()
            case UInt8(ascii: "`"):
                lexQuotedName()
            case UInt8(ascii: "/") where patternMayFollow:
                lexPattern()
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                lexNumberLike()
            default:
                if let control = controlCharacter(at: offset) {
                    let start = here
                    advance(control.value < 0x80 ? 1 : 2)
                    diagnostics.append(.controlCharacterBetweenTokens(control, at: SourceRange(file: file.path, start: start, end: here)))
                } else if Lexer.isNameStart(byte) {
                    lexName()
                } else if !lexPunctuation(byte) {
                    let start = here
                    let scalarLength = UTF8Validation.sequenceLength(byte)
                    let shown = text(offset, min(offset + scalarLength, bytes.count))
                    advance(scalarLength)
                    diagnostics.append(.unexpectedCharacter(shown, at: SourceRange(file: file.path, start: start, end: here)))
                }
            }
        }
        tokens.append(Token(kind: .endOfFile, text: "", value: "", range: SourceRange(file: file.path, start: here, end: here)))
    }

    /// The control character (general category Cc: U+0000–U+001F, U+007F, U+0080–U+009F)
    /// starting at byte `index`, or nil. Tab, LF and CR are included; callers handle them first.
    private func controlCharacter(at index: Int) -> Unicode.Scalar? {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return Unicode.Scalar(byte) }
        if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
            return Unicode.Scalar(bytes[index + 1])
        }
        return nil
    }

    package static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    package static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == 0x2E
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func lexName() {
        let start = here
        var end = offset
        while end < bytes.count, Lexer.isNameContinue(bytes[end]) { end += 1 }
        advance(end - offset)
        let name = text(start.offset, offset)
        if let keyword = Keyword.byName[name] {
            emit(.keyword(keyword), from: start, raw: name)
        } else {
            emit(.identifier, from: start, raw: name)
        }
    }

    private func lexPunctuation(_ byte: UInt8) -> Bool {
        let start = here
        let next = peek(1)
        let two: Punctuation?
        switch (byte, next) {
        case (UInt8(ascii: "="), UInt8(ascii: "=")): two = .equalEqual
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): two = .notEqual
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): two = .lessEqual
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): two = .greaterEqual
        case (UInt8(ascii: "-"), UInt8(ascii: ">")): two = .arrow
        default: two = nil
        }
        if let two {
            advance(2)
            emit(.punctuation(two), from: start)
            return true
        }
        let one: Punctuation?
        switch byte {
        case UInt8(ascii: "<"): one = .less
        case UInt8(ascii: ">"): one = .greater
        case UInt8(ascii: "="): one = .equal
        case UInt8(ascii: "("): one = .leftParen
        case UInt8(ascii: ")"): one = .rightParen
        case UInt8(ascii: "["): one = .leftBracket
        case UInt8(ascii: "]"): one = .rightBracket
        case UInt8(ascii: "{"): one = .leftBrace
        case UInt8(ascii: "}"): one = .rightBrace
        case UInt8(ascii: ","): one = .comma
        case UInt8(ascii: ":"): one = .colon
        case UInt8(ascii: "/"): one = .slash
        case UInt8(ascii: "%"): one = .percent
        case UInt8(ascii: "+"): one = .plus
        case UInt8(ascii: "-"): one = .minus
        default: one = nil
        }
        guard let one else { return false }
        advance()
        emit(.punctuation(one), from: start)
        return true
    }

    private func digitRun(from index: Int) -> Int {
        var end = index
        while end < bytes.count, Lexer.isDigit(bytes[end]) { end += 1 }
        return end
    }

    private func lexNumberLike() {
        let start = here
        let digitsEnd = digitRun(from: offset)
        // A date: YYYY-MM-DD, optionally followed by THH:MM:SS[.fff](Z|±HH:MM).
        if digitsEnd - offset == 4, isDatePattern(at: offset) {
            var end = offset + 10
            if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "T") || bytes[end] == UInt8(ascii: "t"), Lexer.isDigit(bytes[end + 1]) {
                end += 1
                while end < bytes.count, Lexer.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ":") || bytes[end] == UInt8(ascii: ".") { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: "Z") || bytes[end] == UInt8(ascii: "z") {
                    end += 1
                } else if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-"), Lexer.isDigit(bytes[end + 1]) {
                    end += 1
                    while end < bytes.count, Lexer.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ":") { end += 1 }
                }
            }
            advance(end - offset)
            emit(.date, from: start)
            return
        }
        var end = digitsEnd
        if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "."), Lexer.isDigit(bytes[end + 1]) {
            end = digitRun(from: end + 1)
        }
        var kind = TokenKind.number
        if end < bytes.count, [UInt8(ascii: "d"), UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s")].contains(bytes[end]),
           end + 1 >= bytes.count || !Lexer.isNameContinue(bytes[end + 1]) {
            end += 1
            kind = .duration
        }
        advance(end - offset)
        if let next = peek(), Lexer.isNameContinue(next) {
            // `7days`, `12abc`: a malformed literal; swallow the rest of it.
            var tail = offset
            while tail < bytes.count, Lexer.isNameContinue(bytes[tail]) { tail += 1 }
            advance(tail - offset)
            let range = SourceRange(file: file.path, start: start, end: here)
            diagnostics.append(.malformedNumber(text(start.offset, offset), at: range))
        }
        emit(kind, from: start)
    }

    private func isDatePattern(at index: Int) -> Bool {
        guard index + 10 <= bytes.count else { return false }
        let shape: [Bool] = [true, true, true, true, false, true, true, false, true, true]
        for (step, isDigit) in shape.enumerated() {
            let byte = bytes[index + step]
            if isDigit ? !Lexer.isDigit(byte) : byte != UInt8(ascii: "-") { return false }
        }
        return index + 10 == bytes.count || !Lexer.isNameStart(bytes[index + 10]) || bytes[index + 10] == UInt8(ascii: "T") || bytes[index + 10] == UInt8(ascii: "t")
    }

    private func lexString() {
        let start = here
        advance()
        var value: [UInt8] = []
        var runStart = offset
        while true {
            guard let byte = peek(), byte != 0x0A, byte != 0x0D else {
                diagnostics.append(.unterminatedString(at: SourceRange(file: file.path, start: start, end: here)))
                value.append(contentsOf: bytes[runStart..<offset])
                emit(.string, from: start, value: String(decoding: value, as: UTF8.self))
                return
            }
            if byte == UInt8(ascii: "\"") {
                value.append(contentsOf: bytes[runStart..<offset])
                advance()
                emit(.string, from: start, value: String(decoding: value, as: UTF8.self))
                return
            }
            if byte == UInt8(ascii: "\\") {
                value.append(contentsOf: bytes[runStart..<offset])
                lexEscape(into: &value)
                runStart = offset
                continue
            }
            if byte != 0x09, let control = controlCharacter(at: offset) {
                let at = here
                value.append(contentsOf: bytes[runStart..<offset])
                advance(control.value < 0x80 ? 1 : 2)
                diagnostics.append(.controlCharacterInString(control, at: SourceRange(file: file.path, start: at, end: here)))
                runStart = offset
                continue
            }
            advance()
        }
    }

    private func lexEscape(into value: inout [UInt8]) {
        let start = here
        advance()
        guard let byte = peek(), byte != 0x0A, byte != 0x0D else {
            diagnostics.append(.invalidEscape("\\", at: SourceRange(file: file.path, start: start, end: here)))
            return
        }
        switch byte {
        case UInt8(ascii: "\""): value.append(byte); advance()
        case UInt8(ascii: "\\"): value.append(byte); advance()
        case UInt8(ascii: "n"): value.append(0x0A); advance()
        case UInt8(ascii: "t"): value.append(0x09); advance()
        case UInt8(ascii: "u"):
            advance()
            guard peek() == UInt8(ascii: "{") else {
                diagnostics.append(.invalidEscape("\\u", at: SourceRange(file: file.path, start: start, end: here)))
                return
            }
            advance()
            var hexEnd = offset
            while hexEnd < bytes.count, Lexer.isHexDigit(bytes[hexEnd]) { hexEnd += 1 }
            let hex = text(offset, hexEnd)
            advance(hexEnd - offset)
            guard peek() == UInt8(ascii: "}") else {
                diagnostics.append(.invalidEscape("\\u{\(hex)", at: SourceRange(file: file.path, start: start, end: here)))
                return
            }
            advance()
            if hex.count >= 1, hex.count <= 6, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) {
                value.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                diagnostics.append(.invalidEscape("\\u{\(hex)}", at: SourceRange(file: file.path, start: start, end: here)))
            }
        default:
            let length = UTF8Validation.sequenceLength(byte)
            let shown = text(offset, min(offset + length, bytes.count))
            advance(length)
            diagnostics.append(.invalidEscape("\\" + shown, at: SourceRange(file: file.path, start: start, end: here)))
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// Whether a `/` here opens a pattern: it follows the operator word `matches` (and not an
    /// input's element name, where `/` separates a screen from an element).
    private var patternMayFollow: Bool {
        guard let last = tokens.last, last.kind == .identifier, last.text == ComparisonOperator.matches.rawValue else { return false }
        guard tokens.count >= 2 else { return true }
        let before = tokens[tokens.count - 2]
        return !before.isKeyword(.input) && !before.isPunctuation(.slash)
    }

    /// Lexes `/…/` on one line; `\` escapes the next character (so `\/` is a slash). The
    /// pattern language itself is read later, by `PatternParser`.
    private func lexPattern() {
        let start = here
        advance()
        var end = offset
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != 0x0A, bytes[end] != 0x0D {
            end += bytes[end] == UInt8(ascii: "\\") && end + 1 < bytes.count && bytes[end + 1] != 0x0A && bytes[end + 1] != 0x0D ? 2 : 1
        }
        let body = text(offset, min(end, bytes.count))
        advance(min(end, bytes.count) - offset)
        if peek() == UInt8(ascii: "/") {
            advance()
        } else {
            diagnostics.append(.unterminatedPattern(at: SourceRange(file: file.path, start: start, end: here)))
        }
        emit(.pattern, from: start, value: body)
    }

    private func lexQuotedName() {
        let start = here
        advance()
        var end = offset
        while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        let name = text(offset, end)
        advance(end - offset)
        if peek() == UInt8(ascii: "`") {
            advance()
        } else {
            diagnostics.append(.unterminatedQuotedName(at: SourceRange(file: file.path, start: start, end: here)))
        }
        emit(.quotedName, from: start, value: name)
    }
}
