import TargetingBase

/// Lexical and syntax errors.
extension Diagnostic {
    static func invalidUTF8(byte: UInt8, at range: SourceRange) -> Diagnostic {
        let hex = String(byte, radix: 16, uppercase: false)
        return Diagnostic(.error, .invalidUtf8, "file is not valid UTF-8: invalid byte `0x\(hex.count == 1 ? "0" + hex : hex)`", at: range)
    }

    static func unexpectedCharacter(_ text: String, at range: SourceRange) -> Diagnostic {
        let shown = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } ? text
            : text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined()
        return Diagnostic(.error, .unexpectedCharacter, "unexpected character `\(shown)`", at: range)
    }

    static func malformedNumber(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .malformedNumber, "malformed literal `\(text)`", at: range,
                   help: "numbers are written `12` or `-3.5`, durations `7d`, `12h`, `30m` or `10s`")
    }

    static func unterminatedString(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unterminatedString, "unterminated string literal", at: range,
                   help: "close it with `\"` on the same line; write a line break as `\\n`")
    }

    static func unterminatedPattern(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unterminatedPattern, "unterminated pattern", at: range,
                   help: "close it with `/` on the same line; write a slash inside it as `\\/`")
    }

    static func controlCharacterInString(_ scalar: Unicode.Scalar, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .controlCharacter, "control character \(codePoint(scalar)) in a string literal", at: range,
                   help: "write it as an escape such as `\\n`, `\\t` or `\\u{…}`")
    }

    static func controlCharacterBetweenTokens(_ scalar: Unicode.Scalar, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .controlCharacter, "control character \(codePoint(scalar)) between tokens", at: range,
                   help: "white space between tokens is space, tab and line breaks")
    }

    /// `U+000C`: a scalar's code point as messages write it.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    }

    static func invalidEscape(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidEscape, "invalid escape `\(text)` in a string literal", at: range,
                   help: "the escapes are `\\\"`, `\\\\`, `\\n`, `\\t` and `\\u{…}`")
    }

    static func unterminatedQuotedName(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unterminatedName, "unterminated backticked name", at: range)
    }

    static func expected(_ what: String, found token: Token) -> Diagnostic {
        Diagnostic(.error, .syntax, "expected \(what), found \(token.describedForMessage)", at: token.range)
    }

    static func expectedPattern(after op: String, found token: Token) -> Diagnostic {
        var help = "write the pattern between slashes, such as `/[a-z]+@example\\.com/`"
        if token.kind == .string { help = "a pattern is written between slashes, not quotes: `/\(token.value)/`" }
        return Diagnostic(.error, .syntax, "expected a pattern `/…/` after `\(op)`, found \(token.describedForMessage)", at: token.range, help: help)
    }

    static func expectedDeclaration(found token: Token, suggestion: String? = nil) -> Diagnostic {
        Diagnostic(.error, .syntax, "expected a declaration (`attribute`, `input`, `segment`, `audience`, `placement`, `experiment` or `holdout`), found \(token.describedForMessage)", at: token.range,
                   help: suggestion.map { "did you mean `\($0)`?" })
    }

    /// A word after a complete expression that is close to a keyword of expressions: most
    /// likely a misspelled operator (`betwen`) or `and`/`or` (`adn`).
    static func misspelledKeyword(_ token: Token, suggestion: String) -> Diagnostic {
        Diagnostic(.error, .syntax, "unexpected \(token.describedForMessage) after the expression", at: token.range,
                   help: "did you mean `\(suggestion)`?")
    }

    static func testInRulesFile(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "`test` blocks belong in `.tests` files", at: range)
    }

    static func expectedComparison(after name: String, found token: Token) -> Diagnostic {
        Diagnostic(.error, .syntax, "expected a comparison operator after `\(name)`, found \(token.describedForMessage)", at: token.range)
    }

    static func singleEqualsInComparison(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "expected a comparison operator, found `=`", at: range, help: "compare with `==`")
    }

    static func unknownType(_ name: String, at range: SourceRange) -> Diagnostic {
        let help = Suggestion.nearest(to: name, in: ValueType.allCases.map(\.rawValue)).map { "did you mean `\($0)`?" }
        return Diagnostic(.error, .unknownType, "unknown type `\(name)`", at: range, help: help ?? "types are `string`, `number`, `bool`, `date`, `version` and `set`")
    }

    static func reservedWord(_ word: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .reservedWord, "`\(word)` is a reserved word and cannot be used as a name", at: range)
    }

    static func invalidName(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidName, "invalid name `\(name)`", at: range,
                   help: "names of segments, audiences and placements are letters, digits and `_`")
    }

    static func nestingTooDeep(limit: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .nestingTooDeep, "expression nests deeper than \(limit) levels", at: range)
    }

    static func nestedSplit(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "a variant cannot be a split", at: range)
    }

    static func numberOutOfRange(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .numberOutOfRange, "number literal is too large", at: range)
    }

    static func invalidDuration(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidDuration, "invalid duration `\(text)`", at: range,
                   help: "a duration is a whole number followed by `d`, `h`, `m` or `s`, at most 2^63 − 1 milliseconds")
    }

    static func bareDuration(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "a duration is only allowed after `now +` or `now -`", at: range,
                   help: "write `now - \(text)`")
    }

    package static func fileTooLarge(limit: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .fileTooLarge, "rule file is larger than \(limit / (1024 * 1024)) MiB", at: range)
    }

    // In `.tests` files.

    package static func expectedTest(found token: Token) -> Diagnostic {
        Diagnostic(.error, .syntax, "expected `test`, found \(token.describedForMessage)", at: token.range,
                   help: "a tests file holds `test \"name\" { … }` blocks")
    }

    package static func negatedPlacementExpectation(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "`expect not` applies to audiences and segments, not to placements", at: range,
                   help: "expect what the placement shows instead, e.g. `expect p -> nothing`")
    }

    package static func fromWithNoMatch(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "`no match` has no deciding audience, so it takes no `from`", at: range)
    }

    package static func splitInExpectation(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .syntax, "expect the destination a split chooses, not the split", at: range,
                   help: "write `flow \"…\"`, `paywall \"…\"` or `nothing`")
    }
}
