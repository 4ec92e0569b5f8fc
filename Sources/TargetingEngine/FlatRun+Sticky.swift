extension FlatRun {
    /// For row `row` of the flat code (all placements), a sticky experiment's row: the step of
    /// the variant the profile's history assigned, while that assignment sticks; nil otherwise.
    func stickyStep(row: Int) -> Int? {
        flat.rowResults[row].split?.stickyStep(in: profile.pointee.history, now: now)
    }
}
