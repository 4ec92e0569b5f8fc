import TargetingEngine

/// Placements that decide the same way in both rule sets by their shape alone.
extension ChangeProof {
    /// Whether placement `old.index` of program 0 of `graph` and `new.index` of program 1 make
    /// the same decision for every profile at every instant because nothing a decision reads
    /// differs: the same number of rows, and row by row an audience that is the same condition
    /// over profile fields (`canonical` of the graph: segments compared by content, not by
    /// name or place), the same key to draw on, the same `always`, and the same outcome or the
    /// same split or experiment (id, key, sticky duration, variants in draw order with their
    /// bounds, names and outcomes); the same holdout coverage and, when covered, the same holdout (name, weight,
    /// key). False whenever any of it differs: the proof then searches.
    static func isUnchanged(old: (program: Program, index: Int), new: (program: Program, index: Int),
                            graph: ConditionGraph, canonical: [Int]) -> Bool {
        let before = old.program.placements[old.index], after = new.program.placements[new.index]
        guard before.rows.count == after.rows.count, before.isCoveredByHoldout == after.isCoveredByHoldout else { return false }
        if before.isCoveredByHoldout {
            guard let first = old.program.holdout, let second = new.program.holdout, first.name == second.name,
                  first.weight == second.weight, sameKey(first.key, old.program, second.key, new.program) else { return false }
        }
        let oldNodes = graph.programPlacements[0][old.index], newNodes = graph.programPlacements[1][new.index]
        for row in before.rows.indices {
            let first = before.rows[row], second = after.rows[row]
            guard canonical[oldNodes.rows[row]] == canonical[newNodes.rows[row]],
                  oldNodes.keys[row].map({ canonical[$0] }) == newNodes.keys[row].map({ canonical[$0] }),
                  first.admitsHeldOut == second.admitsHeldOut,
                  sameLayer(first, old.program, second, new.program) else { return false }
            switch (first.split, second.split) {
            case (nil, nil):
                guard let outcome = Outcome(first.source.destination), outcome == Outcome(second.source.destination) else { return false }
            case (let one?, let other?):
                guard samePlan(one, old.program, other, new.program) else { return false }
            case (nil, _?), (_?, nil):
                return false
            }
        }
        return true
    }

    /// Whether two prepared splits or experiment rows draw alike and show the same for each
    /// bucket: the same id (what is hashed), kind, key, and variants in draw order with the
    /// same bounds, names and outcomes.
    private static func samePlan(_ one: SplitPlan, _ oneProgram: Program, _ other: SplitPlan, _ otherProgram: Program) -> Bool {
        guard one.id == other.id, one.isExperiment == other.isExperiment, one.sticky == other.sticky, one.steps.count == other.steps.count,
              sameKey(one.key, oneProgram, other.key, otherProgram) else { return false }
        for (first, second) in zip(one.steps, other.steps) {
            guard first.bound == second.bound, first.variant == second.variant,
                  let outcome = Outcome(first.destination), outcome == Outcome(second.destination) else { return false }
        }
        return true
    }

    /// Whether two rows take the same share of the same layer (named alike, drawn on the same
    /// key), or neither is in a layer.
    private static func sameLayer(_ one: Program.Row, _ oneProgram: Program, _ other: Program.Row, _ otherProgram: Program) -> Bool {
        func share(_ row: Program.Row, _ program: Program) -> (layer: LayerPlan, buckets: Range<Int>)? {
            for rowGuard in row.guards {
                if case .layer(let share) = rowGuard { return (program.layers[share.layer], share.buckets) }
            }
            return nil
        }
        switch (share(one, oneProgram), share(other, otherProgram)) {
        case (nil, nil): return true
        case (let first?, let second?):
            return first.layer.name == second.layer.name && first.buckets == second.buckets
                && sameKey(first.layer.key, oneProgram, second.layer.key, otherProgram)
        case (nil, _?), (_?, nil): return false
        }
    }

    /// Whether two draw keys read the same value of a profile.
    private static func sameKey(_ one: DrawKey, _ oneProgram: Program, _ other: DrawKey, _ otherProgram: Program) -> Bool {
        switch (one, other) {
        case (.profileID, .profileID): true
        case (.slot(let first), .slot(let second)): oneProgram.slots[first] == otherProgram.slots[second]
        case (.profileID, .slot), (.slot, .profileID): false
        }
    }
}
