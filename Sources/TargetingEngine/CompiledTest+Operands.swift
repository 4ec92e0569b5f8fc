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
        case .presence: .presence
        case .text(.matches(let pattern), _): .pattern(pattern)
        case .text(let test, _): .text(test.literals)
        case .number(let test): .numbers(test.literals)
        case .bool(let flag): .bool(flag)
        case .date(let test): .instants(test.literals)
        case .version(let test): .versions(test.literals)
        case .members(let test, _): .members(test.literals)
        }
    }
}
