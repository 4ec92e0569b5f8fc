import TargetingBase

/// A comparison operator of SPEC §4.4.
package enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case between = "between"
    case isIn = "in"
    case isNotIn = "not in"
    case contains = "contains"
    case startsWith = "starts with"
    case endsWith = "ends with"
    case has = "has"
    case hasAny = "has any"
    case hasAll = "has all"
    case hasNone = "has none"
    case isSet = "is set"
    case isNotSet = "is not set"

    /// The operands the operator takes.
    package enum Arity: Hashable, Sendable { case none, one, two, list }

    /// The operands the operator takes.
    package var arity: Arity {
        switch self {
        case .isSet, .isNotSet: .none
        case .between: .two
        case .isIn, .isNotIn, .hasAny, .hasAll, .hasNone: .list
        default: .one
        }
    }

    /// Whether the operator orders values (`<`, `<=`, `>`, `>=`, `between`).
    package var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: true
        default: false
        }
    }
}

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
