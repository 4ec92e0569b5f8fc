import TargetingBase

/// A literal operand of a comparison.
package struct Literal: Hashable, Sendable {
    /// The value of a literal.
    package enum Value: Hashable, Sendable {
        /// A string literal.
        case string(String)
        /// A number literal.
        case number(Double)
        /// `true` or `false`.
        case bool(Bool)
        /// A date or timestamp literal in Unix ms; nil when the text is not a valid date.
        case date(Int64?)
        /// `now`, optionally shifted by a duration (ms).
        case now(offset: Int64)
        /// The pattern of `matches`: the text between the slashes, as written.
        case pattern(String)
    }

    /// The value.
    package var value: Value
    /// The exact source text (kept for the formatter and messages).
    package var text: String
    /// Where it is written.
    package var range: SourceRange

    /// Creates a literal.
    package init(value: Value, text: String, range: SourceRange) {
        self.value = value
        self.text = text
        self.range = range
    }

    /// The kind of literal, for messages: "string", "number", "boolean", "date".
    package var kindName: String {
        switch value {
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .date, .now: "date"
        case .pattern: "pattern"
        }
    }
}

/// A bracketed list of literals, `[a, b, c]`.
package struct ListLiteral: Hashable, Sendable {
    /// The items, in order.
    package var items: [Literal]
    /// Where the list is written, brackets included.
    package var range: SourceRange

    /// Creates a list literal.
    package init(items: [Literal], range: SourceRange) {
        self.items = items
        self.range = range
    }
}

extension Literal {
    /// A weight (`40%` of a split, an experiment, a layer or the holdout) as a whole number: 0
    /// when the literal is not a number from 0 to 100 (the checker reports that).
    package var weightValue: Int {
        if case .number(let value) = value, value.isFinite, value >= 0, value <= 100 { return Int(value) }
        return 0
    }
}
