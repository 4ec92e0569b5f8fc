import TargetingSyntax

extension Evaluator {
    /// Resolves placement `index`: the first row whose audience matches, and whose draw the
    /// profile enters, decides (for a profile that is not held out, a row of a sticky experiment
    /// whose assignment still sticks decides whatever its audience); a profile the holdout holds
    /// out takes only `always` rows and the `everyone` row, each by its audience and draw.
    package mutating func resolve(placement index: Int, profileID: String?) -> Result<Decision, ResolveError> {
        let placement = program.placements[index]
        var decision = Decision(placement: placement.name, profileID: profileID)
        decision.reportsExperiments = program.reportsExperiments
        decision.heldOut = placement.isCoveredByHoldout && isHeldOut(profileID: profileID)
        if decision.heldOut { decision.heldOutBy = program.holdout?.name }
        for (rowIndex, row) in placement.rows.enumerated() {
            if decision.heldOut, !row.source.appliesWhenHeldOut { continue }
            // A sticky experiment's assignment decides whatever the audience (not for a held-out profile).
            if !decision.heldOut, let plan = row.split, let step = plan.stickyStep(in: history, now: now) {
                decision.shown = DecisionShown(.shown(by: row, at: rowIndex, step: step))
                decision.isSticky = true
                return .success(decision)
            }
            if let audience = row.audience, !audienceMatches(audience) { continue }
            var step: Int?
            if let plan = row.split {
                switch drawInput(plan.key, profileID: profileID) {
                case .value(let value): step = plan.step(forKeyValue: value)
                case .absent: continue
                case .missingProfileID:
                    return .failure(plan.isExperiment ? .experimentNeedsProfileID(experiment: plan.id) : .splitNeedsProfileID(split: plan.id))
                }
            }
            decision.shown = DecisionShown(.shown(by: row, at: rowIndex, step: step))
            return .success(decision)
        }
        return .success(decision)
    }

    /// What `key` gives for this profile.
    package func drawInput(_ key: DrawKey, profileID: String?) -> DrawInput {
        DrawInput.of(key, profileID: profileID) { values[$0] }
    }

    /// Whether the rule set's holdout holds this profile out.
    package func isHeldOut(profileID: String?) -> Bool {
        guard let holdout = program.holdout else { return false }
        return holdout.holdsOut(drawInput(holdout.key, profileID: profileID))
    }
}

extension Decision {
    init(placement: String, profileID: String?) {
        self.init(placement: placement, profileID: profileID, row: nil, audience: nil, outcome: nil, split: nil)
    }
}

extension DecisionShown.Fields {
    /// What `row` (at `index` in its placement) shows: its fixed destination, or for a split or
    /// an experiment the variant `step` (without a step, the row and audience and no outcome).
    static func shown(by row: Program.Row, at index: Int, step: Int?) -> DecisionShown.Fields {
        var fields = DecisionShown.Fields(row: index, audience: row.source.audience.name)
        if let plan = row.split {
            guard let step else { return fields }
            fields.outcome = Outcome(plan.steps[step].destination) ?? .nothing
            if plan.isExperiment {
                fields.experiment = plan.id
                fields.variant = plan.steps[step].variant
            } else {
                fields.split = plan.id
            }
        } else {
            fields.outcome = Outcome(row.source.destination) ?? .nothing
        }
        return fields
    }
}
