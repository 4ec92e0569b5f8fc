import TargetingBase
import TargetingSyntax

/// What a comparison tests once checked: its operator applied to literals read as values of the
/// type of its subject, grouped by that type. The checker accepts a comparison's literals by
/// the readers below (`fits`), and the engine lowers a comparison through `init(_:subjectType:)`,
/// so every test holds values of its own type and nothing is left to guess.
package enum TypedTest: Hashable, Sendable {
    /// `is set` (`is not set`): presence, whatever the type (also when nothing fixes one).
    case presence
    /// A test of a string.
    case string(Text)
    /// A test of a number.
    case number(Ordered<Double>)
    /// `==` (`!=`) on a boolean.
    case bool(Bool)
    /// A test of an instant.
    case date(Instant)
    /// A test of a version.
    case version(Ordered<SemanticVersion>)
    /// A test of a set of strings.
    case set(Members)

    /// The tests of a string; literals as written (`ignoring case` folds them where compiled).
    package enum Text: Hashable, Sendable {
        case equals(String)
        case isIn([String])
        case contains(String)
        case startsWith(String)
        case endsWith(String)
        /// The pattern, compiled (case-insensitive under `ignoring case`).
        case matches(MatchPattern)
    }

    /// The tests of an ordered type that has lists (numbers, versions).
    package enum Ordered<Value: Hashable & Sendable>: Hashable, Sendable {
        case equals(Value)
        case order(Ordering, Value)
        case between(Value, Value)
        case isIn([Value])
    }

    /// The tests of an instant (no lists).
    package enum Instant: Hashable, Sendable {
        case equals(DateOperand)
        case order(Ordering, DateOperand)
        case between(DateOperand, DateOperand)
    }

    /// The tests of a set of strings.
    package enum Members: Hashable, Sendable {
        case has(String)
        case hasAny([String])
        case hasAll([String])
        case hasNone([String])
    }
}

extension TypedTest {
    /// The test `comparison` makes of a subject of `type` (nil: nothing fixes it); nil when the
    /// operator does not apply to the type or a literal is not a value of it, which the checker
    /// reports (so a checked rule set has a typed test for each of its comparisons).
    package init?(_ comparison: Comparison, subjectType type: ValueType?) {
        let operands = comparison.operands
        let list = comparison.list?.items ?? []
        func one<Value>(_ read: (Literal) -> Value?) -> Value? {
            operands.count == 1 ? read(operands[0]) : nil
        }
        func two<Value>(_ read: (Literal) -> Value?) -> (Value, Value)? {
            guard operands.count == 2, let low = read(operands[0]), let high = read(operands[1]) else { return nil }
            return (low, high)
        }
        func all<Value>(_ read: (Literal) -> Value?) -> [Value]? {
            var values: [Value] = []
            values.reserveCapacity(list.count)
            for literal in list {
                guard let value = read(literal) else { return nil }
                values.append(value)
            }
            return values
        }
        func ordered(_ ordering: Ordering) -> TypedTest? {
            switch type {
            case .number: one(TypedTest.number).map { .number(.order(ordering, $0)) }
            case .date: one(TypedTest.date).map { .date(.order(ordering, $0)) }
            case .version: one(TypedTest.version).map { .version(.order(ordering, $0)) }
            case .string, .bool, .set, nil: nil
            }
        }
        func text(_ test: (String) -> Text) -> TypedTest? {
            guard type == .string else { return nil }
            return one(TypedTest.string).map { .string(test($0)) }
        }
        func members(_ test: (String) -> Members) -> TypedTest? {
            guard type == .set else { return nil }
            return one(TypedTest.string).map { .set(test($0)) }
        }
        func memberList(_ test: ([String]) -> Members) -> TypedTest? {
            guard type == .set else { return nil }
            return all(TypedTest.string).map { .set(test($0)) }
        }
        let typed: TypedTest?
        switch comparison.op {
        case .isSet, .isNotSet:
            typed = .presence
        case .equal, .notEqual:
            switch type {
            case .string: typed = one(TypedTest.string).map { .string(.equals($0)) }
            case .number: typed = one(TypedTest.number).map { .number(.equals($0)) }
            case .bool: typed = one(TypedTest.bool).map { .bool($0) }
            case .date: typed = one(TypedTest.date).map { .date(.equals($0)) }
            case .version: typed = one(TypedTest.version).map { .version(.equals($0)) }
            case .set, nil: typed = nil
            }
        case .less: typed = ordered(.less)
        case .lessOrEqual: typed = ordered(.lessOrEqual)
        case .greater: typed = ordered(.greater)
        case .greaterOrEqual: typed = ordered(.greaterOrEqual)
        case .between:
            switch type {
            case .number: typed = two(TypedTest.number).map { .number(.between($0.0, $0.1)) }
            case .date: typed = two(TypedTest.date).map { .date(.between($0.0, $0.1)) }
            case .version: typed = two(TypedTest.version).map { .version(.between($0.0, $0.1)) }
            case .string, .bool, .set, nil: typed = nil
            }
        case .isIn, .isNotIn:
            switch type {
            case .string: typed = all(TypedTest.string).map { .string(.isIn($0)) }
            case .number: typed = all(TypedTest.number).map { .number(.isIn($0)) }
            case .version: typed = all(TypedTest.version).map { .version(.isIn($0)) }
            case .bool, .date, .set, nil: typed = nil
            }
        case .contains: typed = text(Text.contains)
        case .startsWith: typed = text(Text.startsWith)
        case .endsWith: typed = text(Text.endsWith)
        case .matches:
            let ignoringCase = comparison.ignoringCase
            typed = type == .string ? one { TypedTest.pattern($0, ignoringCase: ignoringCase) }.map { .string(.matches($0)) } : nil
        case .has: typed = members(Members.has)
        case .hasAny: typed = memberList(Members.hasAny)
        case .hasAll: typed = memberList(Members.hasAll)
        case .hasNone: typed = memberList(Members.hasNone)
        }
        guard let typed else { return nil }
        self = typed
    }

    /// Whether `literal` is a value of `type` in a rule's comparison (a pattern is one of a
    /// string). A date literal that is no valid instant is of the right kind here: the checker
    /// reports it as an invalid date on its own.
    package static func fits(_ literal: Literal, _ type: ValueType) -> Bool {
        switch type {
        case .string: string(literal) != nil || isPattern(literal)
        case .set: string(literal) != nil
        case .number: number(literal) != nil
        case .bool: bool(literal) != nil
        case .date: date(literal) != nil || isInvalidDate(literal)
        case .version: version(literal) != nil
        }
    }

    /// The text of a string literal.
    static func string(_ literal: Literal) -> String? {
        if case .string(let text) = literal.value { return text }
        return nil
    }

    /// The value of a number literal.
    static func number(_ literal: Literal) -> Double? {
        if case .number(let value) = literal.value { return value }
        return nil
    }

    /// The value of `true` or `false`.
    static func bool(_ literal: Literal) -> Bool? {
        if case .bool(let flag) = literal.value { return flag }
        return nil
    }

    /// The instant of a valid date literal, or `now ± d`.
    static func date(_ literal: Literal) -> DateOperand? {
        switch literal.value {
        case .date(let ms?): .fixed(ms)
        case .now(let offset): .relative(offset)
        case .date(nil), .string, .number, .bool, .pattern: nil
        }
    }

    /// The version a string literal spells.
    static func version(_ literal: Literal) -> SemanticVersion? {
        string(literal).flatMap { SemanticVersion(parsing: $0) }
    }

    /// The compiled pattern of a `/…/` literal, when it compiles.
    static func pattern(_ literal: Literal, ignoringCase: Bool) -> MatchPattern? {
        guard case .pattern(let source) = literal.value, case .success(let pattern) = MatchPattern.compile(source, ignoringCase: ignoringCase) else {
            return nil
        }
        return pattern
    }

    static func isPattern(_ literal: Literal) -> Bool {
        if case .pattern = literal.value { return true }
        return false
    }

    static func isInvalidDate(_ literal: Literal) -> Bool {
        if case .date(nil) = literal.value { return true }
        return false
    }
}
