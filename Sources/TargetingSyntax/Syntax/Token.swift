import TargetingBase

/// The reserved words of the rules and tests language.
package enum Keyword: String, Hashable, Sendable, CaseIterable {
    case attribute, input, segment, audience, placement, test, split, everyone, flow, paywall, nothing
    case experiment, holdout
    case and, or, not, `in`, has, any, all, none, contains, starts, ends, with, between, `is`, set
    case one, of, ignoring, `case`, `true`, `false`, now, profile, given, events, expect

    /// Every keyword by its spelling.
    package static let byName: [String: Keyword] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}

/// Punctuation and operator tokens.
package enum Punctuation: String, Hashable, Sendable {
    case equalEqual = "=="
    case notEqual = "!="
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="
    case arrow = "->"
    case equal = "="
    case leftParen = "("
    case rightParen = ")"
    case leftBracket = "["
    case rightBracket = "]"
    case leftBrace = "{"
    case rightBrace = "}"
    case comma = ","
    case colon = ":"
    case slash = "/"
    case percent = "%"
    case plus = "+"
    case minus = "-"
}

/// The kind of a token.
package enum TokenKind: Hashable, Sendable {
    /// A bare name `[A-Za-z_][A-Za-z0-9_.]*` that is not a keyword.
    case identifier
    /// A name in backticks; `value` holds the name without them.
    case quotedName
    /// A reserved word.
    case keyword(Keyword)
    /// A string literal; `value` holds the decoded text.
    case string
    /// A number literal `[0-9]+(\.[0-9]+)?` (a sign is a separate token).
    case number
    /// A date or RFC 3339 timestamp literal.
    case date
    /// A duration such as `7d`, `12h`, `30m`, `10s`.
    case duration
    /// Punctuation or an operator.
    case punctuation(Punctuation)
    /// The pattern of `matches`, `/…/`; `value` holds the text between the slashes as written.
    case pattern
    /// The end of the file.
    case endOfFile
}

/// One token with its source text and span.
package struct Token: Hashable, Sendable {
    /// What kind of token this is.
    package var kind: TokenKind
    /// The exact source text.
    package var text: String
    /// The decoded value (string literals and backticked names), else the text.
    package var value: String
    /// Where the token is.
    package var range: SourceRange

    /// Creates a token.
    package init(kind: TokenKind, text: String, value: String, range: SourceRange) {
        self.kind = kind
        self.text = text
        self.value = value
        self.range = range
    }

    /// Whether the token is the given keyword.
    package func isKeyword(_ keyword: Keyword) -> Bool { kind == .keyword(keyword) }

    /// Whether the token is the bare name `word` (a word with a meaning in one place only, such
    /// as `no match` and `from` in an expectation, without being reserved).
    package func isIdentifier(_ word: String) -> Bool { kind == .identifier && text == word }

    /// Whether the token is the given punctuation.
    package func isPunctuation(_ punctuation: Punctuation) -> Bool { kind == .punctuation(punctuation) }

    /// The token as a word of an operator's spelling (`ComparisonOperator.words`): the spelling
    /// of a keyword or punctuation, nil for any other token.
    package var operatorWord: String? {
        switch kind {
        case .keyword(let keyword): keyword.rawValue
        case .punctuation(let punctuation): punctuation.rawValue
        case .identifier: ComparisonOperator.unreservedWords.contains(text) ? text : nil
        case .quotedName, .string, .number, .date, .duration, .pattern, .endOfFile: nil
        }
    }

    /// A short description for messages, e.g. "`->`" or "end of file".
    package var describedForMessage: String {
        switch kind {
        case .endOfFile: return "end of file"
        case .string: return "string literal"
        case .pattern: return "pattern `\(text)`"
        default: return "`\(text)`"
        }
    }
}

/// A `#` comment, kept for the formatter.
package struct Comment: Hashable, Sendable {
    /// The text from `#` to the end of the line (without the line break).
    package var text: String
    /// Where it is.
    package var range: SourceRange
}
