import TargetingSyntax

/// How one placement decides, made once by the compiler: its rows in priority order, each a
/// list of guards and an action, and every decision the placement can make.
///
/// The first row whose guards all let a profile through decides, by its action. Every
/// evaluator (the tree evaluator with its explanation, the flat one), the analysis, SQL, the
/// printed tails and `bucket` read rows through this plan: none of them orders rows, applies
/// the holdout or checks a sticky assignment on its own. A new kind of guard is one new case of
/// `RowGuard`, which every `switch` over it then has to handle.
package struct DecisionPlan: Sendable {
    /// The placement's name.
    package let name: String
    /// Rows in priority order.
    package let rows: [DecisionRow]
    /// Whether the rule set's holdout covers this placement.
    package let isCoveredByHoldout: Bool
    /// Whether a profile can pass every row: no row lets every profile through (the `everyone`
    /// row is missing, or draws on a key a profile may lack).
    package let canMiss: Bool
    /// Every choice the placement can make, in the order summaries list them: for profiles the
    /// holdout does not hold out, each row (each variant of a drawing row) and then no match;
    /// in a covered placement, the same for held-out profiles over the rows they may take; then,
    /// per row of a sticky experiment, each variant as a live assignment gives it. No match is
    /// listed even where `canMiss` says no profile gets it.
    package let choices: [Choice]

    /// Makes the plan of `rows`, and from them what it can miss and choose.
    init(name: String, rows: [DecisionRow], isCoveredByHoldout: Bool) {
        self.name = name
        self.rows = rows
        self.isCoveredByHoldout = isCoveredByHoldout
        canMiss = !rows.contains { row in !row.guards.contains(where: \.canTurnAway) }
        var choices: [Choice] = []
        func add(row: Int, heldOut: Bool, sticky: Bool = false) {
            switch rows[row].action {
            case .show: choices.append(Choice(row: row, heldOut: heldOut, sticky: sticky))
            case .draw(let plan):
                for step in plan.steps.indices { choices.append(Choice(row: row, step: step, heldOut: heldOut, sticky: sticky)) }
            }
        }
        for row in rows.indices { add(row: row, heldOut: false) }
        choices.append(Choice())
        if isCoveredByHoldout {
            for row in rows.indices where rows[row].admitsHeldOut { add(row: row, heldOut: true) }
            choices.append(Choice(heldOut: true))
        }
        for row in rows.indices where rows[row].guards.contains(.assignment) { add(row: row, heldOut: false, sticky: true) }
        self.choices = choices
    }
}

/// One row of a decision plan: guards, asked in order, and what the row decides.
package struct DecisionRow: Sendable {
    /// What a profile must pass, in the order it is asked.
    package let guards: [RowGuard]
    /// What the row decides for a profile its guards let through.
    package let action: RowAction
    /// The row as written.
    package let source: PlacementRow

    /// The audience a profile must match, or nil for `everyone`.
    package var audience: Int? {
        for rowGuard in guards {
            switch rowGuard {
            case .audience(let index): return index
            case .notHeldOut, .layer, .assignment, .key: continue
            }
        }
        return nil
    }

    /// The split or experiment row's prepared draw; nil for a fixed destination.
    package var split: SplitPlan? {
        switch action {
        case .show: nil
        case .draw(let plan): plan
        }
    }

    /// Whether a profile the holdout holds out may take the row.
    package var admitsHeldOut: Bool { !guards.contains(.notHeldOut) }
}

/// One question a row puts to a profile before it decides.
package enum RowGuard: Hashable, Sendable {
    /// The holdout must not hold the profile out (a row neither `always` nor `everyone`, in a
    /// placement the holdout covers).
    case notHeldOut
    /// The row's experiment is in a layer: the profile's bucket in the layer must fall in the
    /// experiment's share (a profile without the layer's key enters none). Asked before the
    /// assignment, so a profile outside the share does not enter even by an assignment.
    case layer(LayerGuard)
    /// A live assignment of the row's sticky experiment in the profile's history (younger than
    /// the experiment's duration, naming one of its variants) takes the row with that variant,
    /// whatever the guards after this one; a profile the holdout holds out has none.
    case assignment
    /// The audience with this index must match.
    case audience(Int)
    /// The profile must have a string value in this slot, the draw's key (a key other than `id`).
    case key(slot: Int)

    /// Whether the guard can keep a profile out of the row.
    package var canTurnAway: Bool {
        switch self {
        case .notHeldOut, .layer, .audience, .key: true
        case .assignment: false
        }
    }
}

/// What a row decides.
package enum RowAction: Sendable {
    /// A fixed destination (a flow, a paywall or nothing).
    case show(Destination)
    /// A draw over the variants of a split or an experiment.
    case draw(SplitPlan)
}

extension DecisionPlan {
    /// Compiles the rows of a placement: `audience` gives an audience's index, `splits` each
    /// row's prepared draw (nil for a fixed destination).
    /// `layer` gives the layer guard of an experiment in a layer.
    init(name: String, rows written: [PlacementRow], isCoveredByHoldout: Bool, audience: (String) -> Int?, splits: [SplitPlan?],
         layer: (String) -> LayerGuard?) {
        let rows = zip(written, splits).map { row, plan in
            var guards: [RowGuard] = []
            if isCoveredByHoldout, !row.appliesWhenHeldOut { guards.append(.notHeldOut) }
            if let plan, plan.isExperiment, let share = layer(plan.id) { guards.append(.layer(share)) }
            if plan?.sticky != nil { guards.append(.assignment) }
            switch row.audience {
            case .audience(let name): if let index = audience(name.text) { guards.append(.audience(index)) }
            case .everyone: break
            }
            if case .slot(let slot)? = plan?.key { guards.append(.key(slot: slot)) }
            return DecisionRow(guards: guards, action: plan.map(RowAction.draw) ?? .show(row.destination), source: row)
        }
        self.init(name: name, rows: rows, isCoveredByHoldout: isCoveredByHoldout)
    }
}
