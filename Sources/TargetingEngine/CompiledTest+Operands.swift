import TargetingBase

extension CompiledTest {
    /// The literals a test compares with, grouped by the type of value the test looks at.
    package enum Operands: Hashable, Sendable {
        /// `is set`: presence, no literal.
        case presence
        /// A test of a string with text literals (folded under `ignoring case`).
        case text([String])
        /// `matches`: a test of a string with a pattern.
        case pattern(MatchPattern)
        /// A test of a number.
        case numbers([Double])
        /// `==` on a boolean.
        case bool(Bool)
        /// A test of an instant.
        case instants([DateOperand])
        /// A test of a version.
        case versions([SemanticVersion])
        /// A test of a set of strings, with the members it looks for (folded under `ignoring case`).
        case members([String])
    }
}

extension CompiledTest.Kind {
    /// The test's literals by the type it tests (the analysis draws its candidate values from them).
    package var operands: CompiledTest.Operands {
        switch self {
        case .isSet: .presence
        case .stringEquals(let text, _), .contains(let text, _), .startsWith(let text, _), .endsWith(let text, _): .text([text])
        case .stringIn(let texts, _): .text(texts.items)
        case .matches(let pattern): .pattern(pattern)
        case .numberEquals(let value), .numberOrder(_, let value): .numbers([value])
        case .numberBetween(let low, let high): .numbers([low, high])
        case .numberIn(let values): .numbers(Array(values))
        case .boolEquals(let flag): .bool(flag)
        case .dateEquals(let instant), .dateOrder(_, let instant): .instants([instant])
        case .dateBetween(let low, let high): .instants([low, high])
        case .versionEquals(let version), .versionOrder(_, let version): .versions([version])
        case .versionBetween(let low, let high): .versions([low, high])
        case .versionIn(let versions): .versions(Array(versions))
        case .has(let text, _): .members([text])
        case .hasAny(let texts, _), .hasAll(let texts, _), .hasNone(let texts, _): .members(texts.items)
        }
    }
}
