extension Program {
    /// Whether placement `index` can decide nothing: it has no `everyone` row, so a profile that
    /// no audience takes falls through every row, or its `everyone` row draws on a key a
    /// profile may lack.
    package func canMiss(placement index: Int) -> Bool {
        guard let last = placements[index].rows.last, last.audience == nil else { return true }
        if case .slot? = last.split?.key { return true }
        return false
    }

    /// Every decision placement `index` can make, without a profile id: one per row, one per
    /// variant of a split or experiment row (in draw order), rows in order, then no match when
    /// the placement can miss; then, when the holdout covers the placement, what a held-out
    /// profile sees (its `always` rows and the `everyone` row, or no match). An entry that an earlier row already
    /// gives is listed once. These are the entries `resolve --summary` and `sql --summary`
    /// size, zeros included.
    package func possibleDecisions(placement index: Int) -> [Decision] {
        var decisions: [Decision] = []
        func add(_ decision: Decision) {
            if !decisions.contains(where: { $0.sameEntry(as: decision) }) { decisions.append(decision) }
        }
        func addRow(_ rowIndex: Int, heldOut: Bool) {
            if let split = placements[index].rows[rowIndex].split {
                for step in split.steps.indices {
                    add(flat.decision(placement: index, choice: Choice(row: rowIndex, step: step, heldOut: heldOut), profileID: nil))
                }
            } else {
                add(flat.decision(placement: index, choice: Choice(row: rowIndex, heldOut: heldOut), profileID: nil))
            }
        }
        let rows = placements[index].rows
        for rowIndex in rows.indices { addRow(rowIndex, heldOut: false) }
        if canMiss(placement: index) { add(flat.decision(placement: index, choice: Choice(), profileID: nil)) }
        if placements[index].isCoveredByHoldout {
            for rowIndex in rows.indices where rows[rowIndex].source.appliesWhenHeldOut { addRow(rowIndex, heldOut: true) }
            if canMiss(placement: index) { add(flat.decision(placement: index, choice: Choice(heldOut: true), profileID: nil)) }
        }
        return decisions
    }
}

extension Program {
    /// The names of the experiments declared `sticky`: their rows can be decided by a profile's
    /// recorded assignment, so a summary entry of one of them says how many of its profiles the
    /// assignment kept.
    package var stickyExperiments: Set<String> {
        Set(ruleSet.experiments.filter { $0.sticky != nil }.map(\.name.text))
    }
}

extension Decision {
    /// Whether two decisions are the same summary entry: the same placement, audience,
    /// destination, split, experiment variant and holdout, whatever the profile and the row
    /// index.
    package func sameEntry(as other: Decision) -> Bool {
        placement == other.placement && audience == other.audience && outcome == other.outcome && split == other.split
            && experiment == other.experiment && variant == other.variant && heldOut == other.heldOut
    }
}
