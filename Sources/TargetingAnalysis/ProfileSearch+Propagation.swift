/// Three-valued evaluation of the graph, updated incrementally inside the current cone and
/// undone through the trail.
extension ProfileSearch {
    /// Marks the cone of the goals (every node below them, and the variables of its atoms in
    /// `coneAtomStamp`) and returns the variables and whether a clock comparison is in it.
    mutating func markCone(_ goals: [Goal]) -> (variables: [Int], clock: Bool) {
        stamp &+= 1
        if stamp == 0 {
            cone = [UInt32](repeating: 0, count: cone.count)
            coneAtomStamp = [UInt32](repeating: 0, count: coneAtomStamp.count)
            stamp = 1
        }
        var variables: [Int] = []
        var clock = false
        var stack = goals.map(\.node)
        while let node = stack.popLast() {
            guard cone[node] != stamp else { continue }
            cone[node] = stamp
            workLeft -= 1
            if kind[node] == .atom {
                let variable = variableOfAtom[atomOfNode[node]]
                if variable < 0 {
                    clock = true
                } else if coneAtomStamp[variable] != stamp {
                    coneAtomStamp[variable] = stamp
                    variables.append(variable)
                }
            }
            for index in childStart[node]..<childStart[node + 1] where cone[childList[index]] != stamp {
                stack.append(childList[index])
            }
        }
        return (variables, clock)
    }

    /// Gives every cone atom of `variable` its value under option `option`.
    mutating func assign(_ variable: Int, option: Int, instant: Int) {
        let table = self.table(variable, instant)
        let atoms = coneAtoms(variable)
        workLeft -= atoms.count
        for (local, node) in atoms where value[node] == ProfileSearch.unknown {
            set(node, table.holds(option: option, atom: local) ? ProfileSearch.yes : ProfileSearch.no)
        }
    }

    /// Gives an unknown node a value and updates every undecided parent in the cone.
    mutating func set(_ start: Int, _ startValue: UInt8) {
        value[start] = startValue
        trail.append(start << 2)
        worklist.append(start)
        while let node = worklist.popLast() {
            let known = value[node]
            for index in parentStart[node]..<parentStart[node + 1] {
                let parent = parentList[index]
                guard cone[parent] == stamp, value[parent] == ProfileSearch.unknown else { continue }
                workLeft -= 1
                let result: UInt8
                switch kind[parent] {
                case .atom, .constant:
                    continue  // no children, so never a parent
                case .not:
                    result = known == ProfileSearch.yes ? ProfileSearch.no : ProfileSearch.yes
                case .and, .or:
                    let deciding = kind[parent] == .and ? ProfileSearch.no : ProfileSearch.yes
                    if known == deciding {
                        result = deciding
                    } else {
                        pending[parent] -= 1
                        trail.append(parent << 2 | 1)
                        guard pending[parent] == 0 else { continue }
                        result = deciding == ProfileSearch.no ? ProfileSearch.yes : ProfileSearch.no
                    }
                }
                value[parent] = result
                trail.append(parent << 2)
                worklist.append(parent)
            }
        }
    }

    /// Takes back every change made after the trail held `mark` entries.
    mutating func undo(to mark: Int) {
        while trail.count > mark {
            let entry = trail.removeLast()
            switch entry & 3 {
            case 0: value[entry >> 2] = ProfileSearch.unknown
            case 1: pending[entry >> 2] += 1
            case 2: firstOpen[entry >> 2] = trail.removeLast() >> 2
            default: preconditionFailure("tag 3 (a first-open's old value) is taken back with the tag-2 entry after it")
            }
        }
    }
}
