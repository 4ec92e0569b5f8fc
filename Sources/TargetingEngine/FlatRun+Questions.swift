extension FlatRun: DecisionQuestions {
    /// For row `row` of the flat code (all placements), a sticky experiment's row: the step of
    /// the variant the profile's history assigned, while that assignment sticks; nil otherwise.
    func assignedStep(row: Int) -> Int? {
        flat.rowDraws[row]?.stickyStep(in: profile.pointee.history, now: now)
    }

    /// Whether the profile has a string value in key slot `slot`.
    func hasKey(slot: Int) -> Bool {
        withKeyBytes(slot: slot) { _ in () } != nil
    }

    /// What drawing on `plan` gives this profile.
    func draw(_ plan: SplitPlan) -> FlatDraw {
        draw(plan.key, id: plan.id)
    }
}
