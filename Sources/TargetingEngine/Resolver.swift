import TargetingSyntax

extension Evaluator {
    /// Resolves placement `index` by its decision plan (`FlatCode.choose`): the first row whose
    /// guards let the profile through decides (a held-out profile passes only `always` rows and
    /// `everyone`; a sticky experiment's live assignment takes its row whatever the audience).
    package mutating func resolve(placement index: Int, profileID: String?) -> Result<Decision, ResolveError> {
        let flat: FlatCode = program.flat
        return choose(placement: index, profileID: profileID).map { flat.decision(placement: index, choice: $0, profileID: profileID) }
    }

    /// The row and variant that decide placement `index` (`FlatCode.choose`).
    mutating func choose(placement index: Int, profileID: String?) -> Result<Choice, ResolveError> {
        let flat: FlatCode = program.flat
        // The evaluator moves into the questions and back, so its segment results are not copied.
        var questions = Questions(evaluator: consume self, profileID: profileID)
        let choice = flat.choose(placement: index, &questions)
        self = questions.evaluator
        return choice
    }

    /// The decision plan's questions, answered from the evaluator's slot values.
    struct Questions: DecisionQuestions {
        var evaluator: Evaluator
        let profileID: String?

        func isHeldOut(placement index: Int) -> Bool {
            evaluator.program.placements[index].isCoveredByHoldout && evaluator.isHeldOut(profileID: profileID)
        }

        func assignedStep(row: Int) -> Int? {
            evaluator.program.flat.rowDraws[row]?.stickyStep(in: evaluator.history, now: evaluator.now)
        }

        mutating func audienceMatches(_ audience: Int) -> Bool { evaluator.audienceMatches(audience) }

        func layerBucket(_ layer: Int) -> Int? {
            let plan = evaluator.program.layers[layer]
            return plan.bucket(evaluator.drawInput(plan.key, profileID: profileID))
        }

        func hasKey(slot: Int) -> Bool { evaluator.drawInput(.slot(slot), profileID: profileID) != .absent }

        func draw(_ plan: SplitPlan) -> FlatDraw {
            switch evaluator.drawInput(plan.key, profileID: profileID) {
            case .value(let value): .bucket(SplitDraw.bucket(splitID: plan.id, profileID: value))
            case .absent: .absent
            case .missingProfileID: .missingProfileID
            }
        }
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
