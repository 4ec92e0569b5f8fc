import TargetingBase
import TargetingSyntax

/// One compiled comparison: which slot, and the typed test.
package struct CompiledTest: Hashable, Sendable {
    /// The typed test: one case per type of value tested, each with the tests of that type.
    package enum Kind: Hashable, Sendable {
        /// `is set`: whether the slot holds a value, fitting or not.
        case presence
        /// A test of a string; under `ignoring case` (`fold`) the value is lowercased first.
        case text(TextTest, fold: Bool)
        case number(OrderedTest<Double>)
        /// `==` on a boolean.
        case bool(Bool)
        case date(InstantTest)
        case version(OrderedTest<SemanticVersion>)
        /// A test of a set of strings; under `ignoring case` (`fold`) each member is lowercased first.
        case members(MembersTest, fold: Bool)
    }

    /// Index into the program's slots (`-1` for `now`).
    package var slot: Int
    /// The test.
    package var kind: Kind
    /// For `!=`, `not in` and `is not set`: the result is negated, but only for a fitting value
    /// (`is not set` negates presence; see `outcome`).
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

extension CompiledTest {
    /// The two-valued outcome of a test of `kind` on `value` at `now` (README, *Segments and
    /// audiences*): `Evaluator.compare`'s answer, negated for a negated test, and false when
    /// that has none (a missing or mistyped value), negated or not. `is set` is no exception:
    /// its answer is presence, which `is not set` negates. Every evaluation path decides here.
    @inline(__always)
    package static func outcome(_ kind: Kind, negated: Bool, on value: SlotValue, now: Int64) -> Bool {
        guard let result = Evaluator.compare(value, kind, now: now) else { return false }
        return result != negated
    }

    /// Whether this test holds for `value` at `now` (`outcome`).
    package func holds(_ value: SlotValue, now: Int64) -> Bool {
        CompiledTest.outcome(kind, negated: negated, on: value, now: now)
    }
}

/// A compiled boolean condition over slots and segments (by index).
package indirect enum Condition: Hashable, Sendable {
    case and([Condition])
    case or([Condition])
    case not(Condition)
    case segment(Int)
    case test(CompiledTest)
    /// Prerequisite `index` of the program (`Program.prerequisites`).
    case prerequisite(Int)
}

extension Condition {
    /// Calls `body` with the index of each prerequisite the condition names (not those of the
    /// segments it names; its depth is bounded by the parser's nesting limit).
    package func forEachPrerequisite(_ body: (Int) -> Void) {
        switch self {
        case .and(let items), .or(let items): for item in items { item.forEachPrerequisite(body) }
        case .not(let inner): inner.forEachPrerequisite(body)
        case .segment, .test: break
        case .prerequisite(let index): body(index)
        }
    }
}
