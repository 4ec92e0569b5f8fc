import TargetingEngine

/// The columns that decide one placement for a profile, once `SQLCompiler.addDecision` has
/// added them to a chain: the deciding row (`<prefix>r`, NULL when no row matches) and, for each
/// split row, its bucket (`<prefix>b<row>`); an experiment row reads the experiment's shared
/// bucket, or its sticky bucket while the profile's assignment sticks.
struct SQLDecidingColumns {
    let placement: Program.Placement
    let prefix: String
    let shared: SQLSharedDraws
    /// Each row's condition of being the deciding row, given the rows before it did not match
    /// (`WHEN` order), as `SQLCompiler.addDecision` writes it.
    var rowConditions: [SQLExpression] = []

    /// The column holding the deciding row's index.
    var rowColumn: String { prefix + "r" }

    /// The column holding split row `number`'s bucket.
    func splitBucket(_ number: Int) -> String { "\(prefix)b\(number)" }

    /// Whether the deciding row is row `number`.
    func isRow(_ number: Int) -> SQLExpression { .compare(.column(rowColumn), .equal, .integer(Int64(number))) }

    /// Whether the holdout can hold a profile out of this placement in the query compiled.
    var heldOutIsDrawn: Bool { placement.isCoveredByHoldout && shared.holdout != nil }

    /// For a row whose guards ask for a sticky experiment's live assignment: the condition that
    /// the profile's recorded assignment decides it (the assignment sticks, and the holdout does
    /// not hold the profile out).
    func stuck(_ row: Program.Row) -> SQLExpression? {
        guard row.guards.contains(.assignment), let plan = row.split else { return nil }
        let live = SQLExpression.parenthesized(.isNull(.column(shared.stickyColumn(plan.id)), negated: true))
        return placement.isCoveredByHoldout ? .parenthesized(.and([live, .not(.column(SQLCompiler.holdoutColumn))])) : live
    }

    /// Whether a sticky experiment's recorded assignment decided the placement (the deciding
    /// row is a sticky experiment's, and the assignment sticks); nil when no row of the
    /// placement is a sticky experiment's, so none can.
    var stuckDecision: SQLExpression? {
        let cases = placement.rows.enumerated().compactMap { number, row in
            stuck(row).map { SQLExpression.When(isRow(number), $0) }
        }
        return cases.isEmpty ? nil : .caseWhen(subject: nil, cases, otherwise: .bool(false))
    }

    /// The bucket that picks split or experiment row `number`'s variant.
    func bucket(_ number: Int, _ plan: SplitPlan) -> SQLExpression {
        guard plan.isExperiment else { return .column(splitBucket(number)) }
        guard let stuck = stuck(placement.rows[number]) else { return .column(shared.bucketColumn(plan.id)) }
        return .parenthesized(.caseWhen(subject: nil, [.init(stuck, .column(shared.stickyColumn(plan.id)))], otherwise: .column(shared.bucketColumn(plan.id))))
    }

    /// A value per deciding row: `CASE r WHEN 0 THEN value(0, row 0) … END` (the row read
    /// once), NULL when no row matches (or `null` when the placement has no row).
    func perRow(null: SQLExpression, _ value: (Int, Program.Row) -> SQLExpression) -> SQLExpression {
        let cases = placement.rows.enumerated().map { SQLExpression.When(.integer(Int64($0.offset)), value($0.offset, $0.element)) }
        return cases.isEmpty ? null : .caseWhen(subject: .column(rowColumn), cases, otherwise: nil)
    }

    /// A value per decision: `value(choice)` for the choice the profile's row, variant and
    /// holdout draw make, the choice of no match (`Choice()`, or held out) when no row matches.
    /// Used to number a profile's summary entry.
    func perChoice(_ value: (Choice) -> SQLExpression) -> SQLExpression {
        func heldOutOrNot(_ choice: (Bool) -> Choice, admitsHeldOut: Bool) -> SQLExpression {
            let kept = value(choice(false))
            guard heldOutIsDrawn, admitsHeldOut else { return kept }
            let held = value(choice(true))
            return held == kept ? kept : .caseWhen(subject: nil, [.init(.column(SQLCompiler.holdoutColumn), held)], otherwise: kept)
        }
        let rows = placement.rows.enumerated().map { number, row in
            let chosen: SQLExpression
            if let plan = row.split {
                chosen = plan.sqlChoose(bucket: bucket(number, plan)) { step in
                    heldOutOrNot({ Choice(row: number, step: step, heldOut: $0) }, admitsHeldOut: row.admitsHeldOut)
                }
            } else {
                chosen = heldOutOrNot({ Choice(row: number, heldOut: $0) }, admitsHeldOut: row.admitsHeldOut)
            }
            return SQLExpression.When(.integer(Int64(number)), chosen)
        }
        let none = heldOutOrNot({ Choice(heldOut: $0) }, admitsHeldOut: true)
        if rows.isEmpty { return none }
        // Where no row draws, a row's value is known once it matches: one CASE over the rows'
        // conditions, as a hand-written query decides (an engine may copy a CASE over a CASE
        // into each branch).
        if placement.rows.allSatisfy({ $0.split == nil }), rowConditions.count == rows.count {
            return .caseWhen(subject: nil, zip(rowConditions, rows).map { .init($0, $1.result) }, otherwise: none)
        }
        return .caseWhen(subject: .column(rowColumn), rows, otherwise: none)
    }
}
