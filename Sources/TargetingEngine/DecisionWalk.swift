/// What a decision plan asks of one profile. The evaluators answer (the tree evaluator from
/// its slot values, the flat one from the profile in place); the walk over the plan's rows,
/// `FlatCode.choose(placement:_:)`, is the one place that decides from the answers.
protocol DecisionQuestions {
    /// Whether the holdout covers placement `index` and holds the profile out of it.
    mutating func isHeldOut(placement index: Int) -> Bool
    /// For row `row` of the flat code (all placements), a sticky experiment's row: the step of
    /// the variant the profile's live assignment names; nil when no assignment sticks.
    mutating func assignedStep(row: Int) -> Int?
    /// The profile's bucket in layer `layer`, or nil when it has no value for the layer's key.
    mutating func layerBucket(_ layer: Int) -> Int?
    /// Whether the audience with this index matches.
    mutating func audienceMatches(_ audience: Int) -> Bool
    /// Whether the profile has a string value in slot `slot` (a draw's key).
    mutating func hasKey(slot: Int) -> Bool
    /// What drawing on `plan` gives the profile.
    mutating func draw(_ plan: SplitPlan) -> FlatDraw
}

extension FlatCode {
    /// The row of placement `index` that takes the profile (its index in the placement): the
    /// first whose guards all let the profile through, asked in order; with the step of the
    /// live assignment that took it, when one did. `heldOut` is what the holdout did.
    func enteredRow<Questions: DecisionQuestions>(placement index: Int, heldOut: Bool, _ questions: inout Questions) -> (row: Int, assigned: Int?)? {
        let rows = placementRows[index]
        let guards = rowGuards.baseAddress!, starts = rowGuardStarts.baseAddress!
        rows: for row in rows {
            var position = starts[row]
            let end = starts[row + 1]
            while position < end {
                switch guards[position] {
                case .notHeldOut:
                    if heldOut { continue rows }
                case .layer(let share):
                    guard let bucket = questions.layerBucket(share.layer), share.buckets.contains(bucket) else { continue rows }
                case .assignment:
                    if !heldOut, let step = questions.assignedStep(row: row) { return (row - rows.lowerBound, step) }
                case .audience(let audience):
                    if !questions.audienceMatches(audience) { continue rows }
                case .key(let slot):
                    if !questions.hasKey(slot: slot) { continue rows }
                }
                position += 1
            }
            return (row - rows.lowerBound, nil)
        }
        return nil
    }

    /// The row and variant that decide placement `index` for the profile `questions` answers
    /// for: the entered row's fixed destination, the variant its live assignment names, or the
    /// variant its draw gives; a draw on `profile.id` fails without one.
    func choose<Questions: DecisionQuestions>(placement index: Int, _ questions: inout Questions) -> Result<Choice, ResolveError> {
        let heldOut = questions.isHeldOut(placement: index)
        guard let entered = enteredRow(placement: index, heldOut: heldOut, &questions) else { return .success(Choice(heldOut: heldOut)) }
        if let step = entered.assigned { return .success(Choice(row: entered.row, step: step, heldOut: heldOut, sticky: true)) }
        guard let split = rowDraws[placementRows[index].lowerBound + entered.row] else { return .success(Choice(row: entered.row, heldOut: heldOut)) }
        switch questions.draw(split) {
        case .bucket(let bucket): return .success(Choice(row: entered.row, step: split.step(forBucket: bucket), heldOut: heldOut))
        case .missingProfileID, .absent:
            return .failure(split.isExperiment ? .experimentNeedsProfileID(experiment: split.id) : .splitNeedsProfileID(split: split.id))
        }
    }
}
