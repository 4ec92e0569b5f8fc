import TargetingEngine

/// The columns that decide one placement for a profile, once `SQLCompiler.addDecision` has
/// added them to a chain: the deciding row (`<prefix>r`, NULL when no row matches) and, for each
/// split row, its bucket (`<prefix>b<row>`); an experiment row reads the experiment's shared
/// bucket, or its sticky bucket while the profile's assignment sticks.
struct SQLDecidingColumns {
    let placement: Program.Placement
    let prefix: String
    let shared: SQLSharedDraws

    /// The column holding the deciding row's index.
    var rowColumn: String { prefix + "r" }

    /// The column holding split row `number`'s bucket.
    func splitBucket(_ number: Int) -> String { "\(prefix)b\(number)" }

    /// Whether the holdout can hold a profile out of this placement in the query compiled.
    var heldOutIsDrawn: Bool { placement.isCoveredByHoldout && shared.holdout != nil }

    /// For a row of a sticky experiment: the condition that the profile's recorded assignment
    /// decides it (the assignment sticks, and the holdout does not hold the profile out).
    func stuck(_ row: Program.Row) -> String? {
        guard row.guards.contains(.assignment), let plan = row.split else { return nil }
        let live = "(\(shared.stickyColumn(plan.id)) IS NOT NULL)"
        return placement.isCoveredByHoldout ? "(\(live) AND NOT \(SQLCompiler.holdoutColumn))" : live
    }

    /// Whether a sticky experiment's recorded assignment decided the placement (the deciding
    /// row is a sticky experiment's, and the assignment sticks); nil when no row of the
    /// placement is a sticky experiment's, so none can.
    var stuckDecision: String? {
        let cases = placement.rows.enumerated().compactMap { number, row in
            stuck(row).map { "WHEN \(rowColumn) = \(number) THEN \($0)" }
        }
        return cases.isEmpty ? nil : "CASE " + cases.joined(separator: " ") + " ELSE FALSE END"
    }

    /// The bucket that picks split or experiment row `number`'s variant.
    func bucket(_ number: Int, _ plan: SplitPlan) -> String {
        guard plan.isExperiment else { return splitBucket(number) }
        guard let stuck = stuck(placement.rows[number]) else { return shared.bucketColumn(plan.id) }
        return "(CASE WHEN \(stuck) THEN \(shared.stickyColumn(plan.id)) ELSE \(shared.bucketColumn(plan.id)) END)"
    }

    /// A value per deciding row: `CASE WHEN r = 0 THEN value(0, row 0) … END`, NULL when no row
    /// matches (or `null` when the placement has no row).
    func perRow(null: String, _ value: (Int, Program.Row) -> String) -> String {
        let cases = placement.rows.enumerated().map { "WHEN \(rowColumn) = \($0.offset) THEN \(value($0.offset, $0.element))" }
        return cases.isEmpty ? null : "CASE " + cases.joined(separator: " ") + " END"
    }

    /// A value per decision: `value(choice)` for the choice the profile's row, variant and
    /// holdout draw make, the choice of no match (`Choice()`, or held out) when no row matches.
    /// Used to number a profile's summary entry.
    func perChoice(_ value: (Choice) -> String) -> String {
        func heldOutOrNot(_ choice: (Bool) -> Choice, appliesWhenHeldOut: Bool) -> String {
            let kept = value(choice(false))
            guard heldOutIsDrawn, appliesWhenHeldOut else { return kept }
            let held = value(choice(true))
            return held == kept ? kept : "CASE WHEN \(SQLCompiler.holdoutColumn) THEN \(held) ELSE \(kept) END"
        }
        let rows = placement.rows.enumerated().map { number, row in
            let applies = row.admitsHeldOut
            let chosen: String
            if let plan = row.split {
                chosen = plan.sqlChoose(bucket: bucket(number, plan)) { step in
                    heldOutOrNot({ Choice(row: number, step: step, heldOut: $0) }, appliesWhenHeldOut: applies)
                }
            } else {
                chosen = heldOutOrNot({ Choice(row: number, heldOut: $0) }, appliesWhenHeldOut: applies)
            }
            return "WHEN \(rowColumn) = \(number) THEN \(chosen)"
        }
        let none = heldOutOrNot({ Choice(heldOut: $0) }, appliesWhenHeldOut: true)
        return rows.isEmpty ? none : "CASE " + rows.joined(separator: " ") + " ELSE \(none) END"
    }
}
