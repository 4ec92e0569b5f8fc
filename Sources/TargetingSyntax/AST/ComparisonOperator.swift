import TargetingBase

/// A comparison operator of the rules language, with what it means stated once: how it is
/// spelled, the operands it takes, the attribute types it applies to and the type it gives an
/// undeclared attribute. The parser, the checker, the formatter and the language server read
/// these facts from here; each is a switch without `default:`, so a new operator must be given
/// every one of them.
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
    case matches = "matches"
    case has = "has"
    case hasAny = "has any"
    case hasAll = "has all"
    case hasNone = "has none"
    case isSet = "is set"
    case isNotSet = "is not set"

    /// The operands the operator takes.
    package enum Arity: Hashable, Sendable {
        /// None: `is set`, `is not set`.
        case none
        /// One literal.
        case one
        /// Two literals joined by `and` (`between`).
        case two
        /// A list literal.
        case list
        /// A pattern `/…/` (`matches`).
        case pattern
    }

    /// What the operator does with its literals.
    package enum OperandRole: Hashable, Sendable {
        /// No literals.
        case none
        /// Values the attribute (or a member of a set) may hold, so held to a `one of` list.
        case values
        /// Bounds a value is ordered against.
        case bounds
        /// A fragment of the text (`contains`, `starts with`, `ends with`): not a value.
        case fragment
        /// A pattern the whole text must match (`matches`): not a value.
        case pattern
    }
}

extension ComparisonOperator {
    /// Every operator with its words, split once: the parser asks for them at every comparison.
    private static let spelled: [(op: ComparisonOperator, words: [String])] = allCases.map { op in
        (op, op.rawValue.split(separator: " ").map(String.init))
    }

    /// The words (tokens) the operator is written with: `["starts", "with"]`, `["<="]`.
    package var words: [String] {
        for entry in ComparisonOperator.spelled where entry.op == self { return entry.words }
        return rawValue.split(separator: " ").map(String.init)
    }

    /// The operator words that are not reserved (`matches`): a bare name with that spelling is
    /// an operator word where an operator may follow, and an attribute name elsewhere.
    package static let unreservedWords: Set<String> = Set(allCases.flatMap(\.words)).filter { word in
        Keyword(rawValue: word) == nil && Punctuation(rawValue: word) == nil
    }

    /// The word between the two operands of a `.two` operator (`between 1 and 5`).
    package static let boundsJoiner = Keyword.and

    /// The operands the operator takes.
    package var arity: Arity {
        switch self {
        case .isSet, .isNotSet: .none
        case .between: .two
        case .matches: .pattern
        case .isIn, .isNotIn, .hasAny, .hasAll, .hasNone: .list
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .contains, .startsWith, .endsWith, .has: .one
        }
    }

    /// What the operator does with its literals.
    package var operandRole: OperandRole {
        switch self {
        case .isSet, .isNotSet: .none
        case .equal, .notEqual, .isIn, .isNotIn, .has, .hasAny, .hasAll, .hasNone: .values
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: .bounds
        case .contains, .startsWith, .endsWith: .fragment
        case .matches: .pattern
        }
    }

    /// Whether the operator is the negation of another (`!=`, `not in`, `is not set`): its
    /// outcome is that one's, negated for a fitting value (for `is not set`, presence negated).
    package var isNegation: Bool {
        switch self {
        case .notEqual, .isNotIn, .isNotSet: true
        case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .isIn, .contains, .startsWith, .endsWith, .matches,
             .has, .hasAny, .hasAll, .hasNone, .isSet: false
        }
    }

    /// Whether the operator orders values (`<`, `<=`, `>`, `>=`, `between`).
    package var isOrdering: Bool { operandRole == .bounds }

    /// The attribute types the operator applies to.
    package var operandTypes: Set<ValueType> {
        switch self {
        case .equal, .notEqual: [.string, .number, .bool, .date, .version]
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: [.number, .date, .version]
        case .isIn, .isNotIn: [.string, .number, .version]
        case .contains, .startsWith, .endsWith, .matches: [.string]
        case .has, .hasAny, .hasAll, .hasNone: [.set]
        case .isSet, .isNotSet: Set(ValueType.allCases)
        }
    }

    /// Whether the operator applies to an attribute of `type`.
    package func applies(to type: ValueType) -> Bool { operandTypes.contains(type) }

    /// The type an undeclared attribute is taken to have when compared by this operator with
    /// `literal` (its first literal, nil when it has none): `has` makes a set and `contains` a
    /// string whatever the literal; ordering by a string makes a version, the only type a string
    /// orders; otherwise the literal's type. Nil when nothing fixes it (`is set`, no literal).
    package func inferredType(literal: Literal?) -> ValueType? {
        switch self {
        case .has, .hasAny, .hasAll, .hasNone: return .set
        case .contains, .startsWith, .endsWith, .matches: return .string
        case .isSet, .isNotSet: return nil
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between:
            guard let literal else { return nil }
            if case .string = literal.value { return .version }
            return literal.valueType
        case .equal, .notEqual, .isIn, .isNotIn:
            return literal?.valueType
        }
    }

    /// Whether the type the operator infers comes from its operator alone (`has`, `contains`),
    /// not from its literal.
    package var infersFromOperator: Bool {
        switch self {
        case .has, .hasAny, .hasAll, .hasNone, .contains, .startsWith, .endsWith, .matches: true
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .isIn, .isNotIn, .isSet, .isNotSet: false
        }
    }

    /// The operators whose words begin with `words`.
    package static func beginning(with words: some Collection<String>) -> [ComparisonOperator] {
        spelled.compactMap { $0.words.starts(with: words) ? $0.op : nil }
    }
}

extension Comparison {
    /// The type an undeclared attribute on the left is taken to have from this comparison,
    /// and where that is written (the operator, or the literal that fixes it); nil when the
    /// comparison does not fix one.
    package var inferredSubjectType: (type: ValueType, range: SourceRange)? {
        let literal = literals.first
        guard let type = op.inferredType(literal: literal) else { return nil }
        return (type, op.infersFromOperator ? operatorRange : literal?.range ?? operatorRange)
    }

    /// The type the first comparison of `comparisons` with the custom attribute `key` on its
    /// left that fixes one gives it (as `inferredSubjectType`).
    package static func inferredType(of key: String, in comparisons: some Sequence<Comparison>) -> (type: ValueType, range: SourceRange)? {
        for comparison in comparisons {
            guard case .attribute(let reference) = comparison.subject, reference.target == .custom(key),
                  let inferred = comparison.inferredSubjectType else { continue }
            return inferred
        }
        return nil
    }
}

extension Literal {
    /// The attribute type the literal is a value of (a string is a `string`).
    package var valueType: ValueType {
        switch value {
        case .string, .pattern: .string
        case .number: .number
        case .bool: .bool
        case .date, .now: .date
        }
    }
}
