extension Program {
    /// Whether placement `index` can decide nothing: it has no `everyone` row, so a profile that
    /// no audience takes falls through every row.
    package func canMiss(placement index: Int) -> Bool {
        !placements[index].rows.contains { $0.audience == nil }
    }

    /// Every decision placement `index` can make, without a profile id: one per row, one per
    /// variant of a split row (in draw order), rows in order, then no match when the placement
    /// can miss. An (audience, destination, split) that an earlier row already gives is listed
    /// once. These are the entries `resolve --summary` and `sql --summary` size, zeros included.
    package func possibleDecisions(placement index: Int) -> [Decision] {
        var decisions: [Decision] = []
        func add(_ decision: Decision) {
            if !decisions.contains(where: { $0.sameEntry(as: decision) }) { decisions.append(decision) }
        }
        for (rowIndex, row) in placements[index].rows.enumerated() {
            if let split = row.split {
                for step in split.steps.indices { add(flat.decision(placement: index, choice: Choice(row: rowIndex, step: step), profileID: nil)) }
            } else {
                add(flat.decision(placement: index, choice: Choice(row: rowIndex), profileID: nil))
            }
        }
        if canMiss(placement: index) { add(flat.decision(placement: index, choice: Choice(), profileID: nil)) }
        return decisions
    }
}

extension Decision {
    /// Whether two decisions are the same summary entry: the same placement, audience,
    /// destination and split, whatever the profile and the row index.
    package func sameEntry(as other: Decision) -> Bool {
        placement == other.placement && audience == other.audience && outcome == other.outcome && split == other.split
    }
}
