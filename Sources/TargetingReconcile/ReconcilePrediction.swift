import TargetingEngine

/// What the rules made of a shown line's placement, for the profile as it stood before the line
/// at the line's `at`.
package enum ReconcilePrediction: Hashable, Sendable {
    /// The rules declare no placement of the line's name.
    case unknownPlacement
    /// No decision could be made: a draw needs a key the profile lacks.
    case undecided(ResolveError)
    /// The rules' decision; its `outcome` is nil when no row matched.
    case decided(Decision)

    /// The decision, when one was made.
    package var decision: Decision? {
        switch self {
        case .unknownPlacement, .undecided: nil
        case .decided(let decision): decision
        }
    }

    /// What the rules would show: nil for an unknown placement, no decision, or no row matched.
    package var outcome: ReconcileOutcome? { decision.flatMap(ReconcileOutcome.init) }
}
