/// What `reconcile` found: each placement's shown lines by class, and each experiment's
/// sample-ratio check.
package struct ReconcileReport: Hashable, Sendable {
    /// Every placement the rules declare, in declaration order (those never shown with 0 lines),
    /// then the undeclared placements the lines name, in the order first seen.
    package var placements: [PlacementReconciliation]
    /// Every experiment the rules declare, in declaration order.
    package var experiments: [SampleRatioCheck]

    /// The shown lines replayed.
    package var shown: Int { placements.reduce(0) { $0 + $1.shown } }

    /// The shown lines that do not match.
    package var mismatches: Int { placements.reduce(0) { $0 + $1.mismatches } }

    /// Whether every shown line matches (true when there are none).
    package var allMatch: Bool { mismatches == 0 }

    /// The lines of `kind` over every placement.
    package func count(_ kind: ReconcileClass) -> Int { placements.reduce(0) { $0 + $1.count(kind) } }
}
