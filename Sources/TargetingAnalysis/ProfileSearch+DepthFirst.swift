extension ProfileSearch {
    /// Where a question stands under the current partial assignment.
    enum Status { case satisfied, open, failed }
    /// How a search at one instant ended.
    enum Result { case found([(variable: Int, option: Int)]), exhausted, gaveUp }

    /// Depth-first search over the variables under the goals, at one instant.
    mutating func search(_ goals: [Goal], instant: Int, concreteOnly: Bool, complete: inout Bool, decisions: inout Int) -> Result {
        var frames: [(variable: Int, options: [Int], next: Int, mark: Int)] = []
        var status = self.status(goals)
        while true {
            switch status {
            case .satisfied:
                return .found(frames.map { ($0.variable, $0.options[$0.next - 1]) })
            case .open:
                guard let variable = nextVariable(goals) else { return .gaveUp }
                let options = self.options(variable, instant: instant, concreteOnly: concreteOnly, complete: &complete)
                frames.append((variable, options, 0, trail.count))
            case .failed:
                guard let top = frames.last else { return .exhausted }
                undo(to: top.mark)
            }
            while true {
                guard let top = frames.last else { return .exhausted }
                if top.next == top.options.count {
                    frames.removeLast()
                    if let below = frames.last { undo(to: below.mark) }
                    continue
                }
                decisions += 1
                workLeft -= 1 + goals.count
                if decisions > ProfileSearch.decisionsPerQuestion || workLeft <= 0 { return .gaveUp }
                frames[frames.count - 1].next += 1
                assign(top.variable, option: top.options[top.next], instant: instant)
                break
            }
            status = self.status(goals)
        }
    }

    func status(_ goals: [Goal]) -> Status {
        var open = false
        for goal in goals {
            let known = value[goal.node]
            if known == ProfileSearch.unknown { open = true } else if (known == ProfileSearch.yes) != goal.value { return .failed }
        }
        return open ? .open : .satisfied
    }

    /// A variable under the first undecided goal: walk down through undecided nodes to an atom,
    /// taking each node's first undecided child. A node's children before `firstOpen` are
    /// decided, so the walk resumes there; the move is undone with the decisions it follows.
    mutating func nextVariable(_ goals: [Goal]) -> Int? {
        for goal in goals where value[goal.node] == ProfileSearch.unknown {
            var node = goal.node
            while kind[node] != .atom {
                var next = -1
                var index = firstOpen[node]
                let end = childStart[node + 1]
                while index < end {
                    if value[childList[index]] == ProfileSearch.unknown {
                        next = childList[index]
                        break
                    }
                    index += 1
                }
                if index != firstOpen[node] {
                    trail.append(firstOpen[node] << 2 | 3)
                    trail.append(node << 2 | 2)
                    firstOpen[node] = index
                }
                workLeft -= 1
                guard next >= 0 else { return nil }
                node = next
            }
            let variable = variableOfAtom[atomOfNode[node]]
            return variable >= 0 ? variable : nil
        }
        return nil
    }

    /// The options of `variable` worth trying in the current question: the first of each group
    /// of options that agree on every atom in the cone (concrete ones only, with `concreteOnly`).
    mutating func options(_ variable: Int, instant: Int, concreteOnly: Bool, complete: inout Bool) -> [Int] {
        if coneOptionStamp[variable] == optionStamp { return coneOptionLists[variable] }
        let table = self.table(variable, instant)
        if !table.isComplete { complete = false }
        let atoms = coneAtoms(variable)
        var seen: Set<[Bool]> = []
        var result: [Int] = []
        for option in 0..<(concreteOnly ? table.concreteCount : table.values.count) {
            workLeft -= 1 + atoms.count
            if seen.insert(atoms.map { table.holds(option: option, atom: $0.local) }).inserted { result.append(option) }
        }
        coneOptionLists[variable] = result
        coneOptionStamp[variable] = optionStamp
        return result
    }

    /// The table of `variable` at instant `instant`, built on first use within the work budget.
    mutating func table(_ variable: Int, _ instant: Int) -> OptionTable {
        let key = timeDependent[variable] ? instant : 0
        if let known = tables[variable][key] { return known }
        let built = VariableOptions.table(graph.variables[variable], graph: graph, now: instants[key],
                                          budget: max(0, workLeft) / ProfileSearch.evaluationWork)
        workLeft -= built.cost * ProfileSearch.evaluationWork
        tables[variable][key] = built
        return built
    }
}
