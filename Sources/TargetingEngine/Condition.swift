import TargetingBase
import TargetingSyntax

/// One compiled comparison: which slot, and the typed test.
package struct CompiledTest: Hashable, Sendable {
    /// The typed test.
    package enum Kind: Hashable, Sendable {
        case stringEquals(String, fold: Bool)
        case stringIn(ExactStringSet, fold: Bool)
        case contains(String, fold: Bool)
        case startsWith(String, fold: Bool)
        case endsWith(String, fold: Bool)
        /// The whole (trimmed) value matches the pattern, lowercased first under `ignoring case`.
        case matches(MatchPattern)
        case numberEquals(Double)
        case numberOrder(Ordering, Double)
        case numberBetween(Double, Double)
        case numberIn(Set<Double>)
        case boolEquals(Bool)
        case dateEquals(DateOperand)
        case dateOrder(Ordering, DateOperand)
        case dateBetween(DateOperand, DateOperand)
        case versionEquals(SemanticVersion)
        case versionOrder(Ordering, SemanticVersion)
        case versionBetween(SemanticVersion, SemanticVersion)
        case versionIn(Set<SemanticVersion>)
        case has(String, fold: Bool)
        case hasAny(ExactStringSet, fold: Bool)
        case hasAll(ExactStringSet, fold: Bool)
        case hasNone(ExactStringSet, fold: Bool)
        case isSet
    }

    /// Index into the program's slots (`-1` for `now`).
    package var slot: Int
    /// The test.
    package var kind: Kind
    /// For `!=`, `not in` and `is not set`: the result is negated, but only for a fitting value
    /// (`is not set` negates presence).
    package var negated: Bool
    /// The comparison it came from (for explanations).
    package var source: Comparison

    /// Creates a compiled test (the analysis builds the key tests of `by KEY` with it).
    package init(slot: Int, kind: Kind, negated: Bool, source: Comparison) {
        self.slot = slot
        self.kind = kind
        self.negated = negated
        self.source = source
    }
}

/// A compiled boolean condition over slots and segments (by index).
package indirect enum Condition: Hashable, Sendable {
    case and([Condition])
    case or([Condition])
    case not(Condition)
    case segment(Int)
    case test(CompiledTest)
}
