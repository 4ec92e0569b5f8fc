import TargetingEngine

/// The two-valued truth of one comparison, as the evaluator computes it.
enum AtomTruth {
    /// Whether `test` holds for `value` at `now`.
    static func holds(_ test: CompiledTest, _ value: SlotValue, now: Int64) -> Bool {
        if case .isSet = test.kind { return value.isPresent != test.negated }
        guard let result = Evaluator.compare(value, test.kind, now: now) else { return false }
        return result != test.negated
    }
}
