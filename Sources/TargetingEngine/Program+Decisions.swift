extension Program {
    /// Every decision placement `index` can make, without a profile id: the plan's choices
    /// (`DecisionPlan.choices`) but those of a live assignment (the same entries as the draws),
    /// and no match only where the placement can miss. An entry that an earlier choice already
    /// gives is listed once. These are the entries `resolve --summary` and `sql --summary`
    /// size, zeros included.
    package func possibleDecisions(placement index: Int) -> [Decision] {
        let plan = placements[index]
        let canMiss = plan.canMiss
        var decisions: [Decision] = []
        for choice in plan.choices where !choice.sticky && (choice.row != nil || canMiss) {
            let decision = flat.decision(placement: index, choice: choice, profileID: nil)
            if !decisions.contains(where: { $0.sameEntry(as: decision) }) { decisions.append(decision) }
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
