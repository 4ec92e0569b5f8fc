import TargetingBase

/// What a comparison looks at: an attribute or the clock.
package enum ComparisonSubject: Hashable, Sendable {
    /// A profile attribute.
    case attribute(AttributeReference)
    /// `now`, the evaluation time.
    case now(SourceRange)

    /// Where the subject is written.
    package var range: SourceRange {
        switch self {
        case .attribute(let reference): reference.range
        case .now(let range): range
        }
    }
}

/// One comparison, e.g. `experience == "pro"` or `interests has any ["a", "b"] ignoring case`.
package struct Comparison: Hashable, Sendable {
    /// The left-hand side.
    package var subject: ComparisonSubject
    /// The operator.
    package var op: ComparisonOperator
    /// Where the operator is written (its first word).
    package var operatorRange: SourceRange
    /// Single operands (one, or two for `between`).
    package var operands: [Literal]
    /// The list operand of `in`, `not in`, `has any/all/none`.
    package var list: ListLiteral?
    /// Where `ignoring case` is written, when it follows the comparison.
    package var ignoringCaseRange: SourceRange?
    /// The whole comparison.
    package var range: SourceRange

    /// Creates a comparison.
    package init(subject: ComparisonSubject, op: ComparisonOperator, operatorRange: SourceRange, operands: [Literal],
                list: ListLiteral?, ignoringCaseRange: SourceRange?, range: SourceRange) {
        self.subject = subject
        self.op = op
        self.operatorRange = operatorRange
        self.operands = operands
        self.list = list
        self.ignoringCaseRange = ignoringCaseRange
        self.range = range
    }

    /// Whether `ignoring case` follows.
    package var ignoringCase: Bool { ignoringCaseRange != nil }

    /// Every literal of the comparison, single operands and list items alike.
    package var literals: [Literal] { operands + (list?.items ?? []) }
}
