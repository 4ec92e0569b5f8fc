/// Searches for a profile that meets a list of goals.
///
/// Variables (stored fields) are decided one at a time, each trying its options; after each
/// decision the graph is evaluated three-valued (a node is unknown until enough atoms below it
/// are known), incrementally and only inside the cone of the goals, and a branch is dropped as
/// soon as a goal is known to fail. The next variable is one under the first undecided goal,
/// found by walking down through undecided nodes. Every question has a budget of decisions and
/// all questions share a budget of work; running out answers `unknown`.
struct ProfileSearch {
    /// Decisions per question.
    static let decisionsPerQuestion = 200_000
    /// Work across every question, in node updates.
    static let totalWork = 10_000_000
    /// The work of evaluating one comparison on one value while building a table.
    static let evaluationWork = 4

    let graph: ConditionGraph
    /// The candidate instants for `now` (the reference first).
    private(set) var instants: [Int64]
    private(set) var clockIsComplete: Bool
    /// Work left across questions.
    var workLeft = ProfileSearch.totalWork

    let timeDependent: [Bool]
    /// Variables whose options differ between instants in more than a shift.
    let coupled: Set<Int>
    var tables: [[Int: OptionTable]]

    /// What a node of the graph is, in the one byte the search keeps per node.
    enum NodeKind: UInt8 {
        case atom, and, or, not, constant
    }

    static let unknown: UInt8 = 0, no: UInt8 = 1, yes: UInt8 = 2

    let kind: [NodeKind]
    let childStart: [Int]
    let childList: [Int]
    let parentStart: [Int]
    let parentList: [Int]
    let atomOfNode: [Int]
    let variableOfAtom: [Int]
    let variableNodes: [[Int]]

    var value: [UInt8]
    var pending: [Int]
    /// Undo log: `node << 2` for a value set, `node << 2 | 1` for a pending count lowered, and
    /// `old << 2 | 3` then `node << 2 | 2` for `firstOpen[node]` moved on from `old`.
    var trail: [Int] = []
    /// Per node: where in `childList` `nextVariable` resumes looking for an undecided child
    /// (every child before it is decided), so a wide `or` is not scanned from its first
    /// child at every decision.
    var firstOpen: [Int]
    var cone: [UInt32]
    var stamp: UInt32 = 0
    var worklist: [Int] = []
    /// For the current question, by variable: its atoms in the cone, as (local index, node);
    /// current where `coneAtomStamp` holds `stamp` (a variable outside the cone has none).
    var coneAtomLists: [[(local: Int, node: Int)]]
    var coneAtomStamp: [UInt32]
    /// For the current question and instant, by variable: the options worth trying, one per
    /// distinct vector over the atoms in the cone; current where `coneOptionStamp` holds
    /// `optionStamp`.
    var coneOptionLists: [[Int]]
    var coneOptionStamp: [UInt32]
    var optionStamp: UInt32 = 0

    /// Prepares the search over `graph`: over every moment the rules can tell apart, or, with
    /// `now`, at that one instant only (the questions of `overlap` and `table`, asked at `--now`).
    init(graph: ConditionGraph, now: Int64? = nil) {
        self.graph = graph
        (instants, clockIsComplete, coupled) = ClockCandidates.instants(graph)
        if let now { instants = [now]; clockIsComplete = true }
        timeDependent = graph.variables.map { VariableOptions.isTimeDependent($0, graph: graph) }
        tables = Array(repeating: [:], count: graph.variables.count)

        let count = graph.nodes.count
        var kind = [NodeKind](repeating: .atom, count: count)
        var childStart = [Int](repeating: 0, count: count + 1)
        var childList: [Int] = []
        var atomOfNode = [Int](repeating: -1, count: count)
        var value = [UInt8](repeating: ProfileSearch.unknown, count: count)
        var pending = [Int](repeating: 0, count: count)
        for (node, content) in graph.nodes.enumerated() {
            childStart[node] = childList.count
            switch content {
            case .atom(let id):
                kind[node] = .atom
                atomOfNode[node] = id
            case .constant(let flag):
                kind[node] = .constant
                value[node] = flag ? ProfileSearch.yes : ProfileSearch.no
            case .not(let child):
                kind[node] = .not
                childList.append(child)
                if value[child] != ProfileSearch.unknown { value[node] = value[child] == ProfileSearch.yes ? ProfileSearch.no : ProfileSearch.yes }
            case .and(let children), .or(let children):
                let isAnd: Bool
                if case .and = content { isAnd = true } else { isAnd = false }
                kind[node] = isAnd ? .and : .or
                childList += children
                let deciding = isAnd ? ProfileSearch.no : ProfileSearch.yes
                if children.contains(where: { value[$0] == deciding }) {
                    value[node] = deciding
                } else {
                    pending[node] = children.filter { value[$0] == ProfileSearch.unknown }.count
                    if pending[node] == 0 { value[node] = isAnd ? ProfileSearch.yes : ProfileSearch.no }
                }
            }
        }
        childStart[count] = childList.count
        var parentStart = [Int](repeating: 0, count: count + 1)
        var parentList: [Int] = []
        for node in 0..<count {
            parentStart[node] = parentList.count
            parentList += graph.parents[node]
        }
        parentStart[count] = parentList.count

        self.kind = kind
        self.childStart = childStart
        self.childList = childList
        self.parentStart = parentStart
        self.parentList = parentList
        self.atomOfNode = atomOfNode
        self.variableOfAtom = graph.atoms.map { $0.variable ?? -1 }
        self.variableNodes = graph.variables.map { $0.atoms.map { graph.atoms[$0].node } }
        self.value = value
        self.pending = pending
        self.cone = [UInt32](repeating: 0, count: count)
        self.firstOpen = Array(childStart.dropLast())
        coneAtomLists = Array(repeating: [], count: graph.variables.count)
        coneAtomStamp = Array(repeating: 0, count: graph.variables.count)
        coneOptionLists = Array(repeating: [], count: graph.variables.count)
        coneOptionStamp = Array(repeating: 0, count: graph.variables.count)
    }

    /// The atoms of `variable` in the current cone, as (local index, node).
    func coneAtoms(_ variable: Int) -> [(local: Int, node: Int)] {
        coneAtomStamp[variable] == stamp ? coneAtomLists[variable] : []
    }

    /// Forgets the options of every variable (a new question or instant).
    mutating func forgetConeOptions() {
        optionStamp &+= 1
        if optionStamp == 0 {
            coneOptionStamp = [UInt32](repeating: 0, count: coneOptionStamp.count)
            optionStamp = 1
        }
    }

    // MARK: - Questions

    /// Looks for a profile meeting every goal. With `concreteOnly`, only options with a real
    /// value are tried (so a witness can be turned into a profile) and the answer is never
    /// `impossible`.
    ///
    /// `fixed` gives comparisons a truth value before the search starts: those of an attribute
    /// whose value the question fixes (`table`'s combinations), which the search then never
    /// decides; a witness lacks that attribute, and the caller adds the value.
    mutating func solve(_ goals: [Goal], concreteOnly: Bool, fixed: [(node: Int, holds: Bool)] = []) -> SearchOutcome {
        var wanted: [Int: Bool] = [:]
        for goal in goals {
            if let other = wanted[goal.node], other != goal.value { return .impossible }
            wanted[goal.node] = goal.value
            let known = value[goal.node]
            if known != ProfileSearch.unknown, (known == ProfileSearch.yes) != goal.value { return .impossible }
        }
        guard workLeft > 0 else { return .unknown }

        let (variables, clockInCone) = markCone(goals)
        for variable in variables {
            coneAtomLists[variable].removeAll(keepingCapacity: true)
            for (local, node) in variableNodes[variable].enumerated() where cone[node] == stamp {
                coneAtomLists[variable].append((local, node))
            }
        }
        let usesClock = clockInCone || variables.contains { coupled.contains($0) }
        var complete = !concreteOnly && (!usesClock || clockIsComplete)
        // Without a complete answer in reach, only a witness is of use, and only to `concreteOnly` callers.
        if !complete, !concreteOnly { return .unknown }
        var decisions = 0
        var seenInstants: Set<[[Bool]]> = []
        let timeVariables = variables.filter { coupled.contains($0) }.sorted()
        for instant in usesClock ? Array(instants.indices) : [0] {
            forgetConeOptions()
            if usesClock {
                let signature = self.signature(instant, timeVariables: timeVariables, concreteOnly: concreteOnly, complete: &complete)
                guard seenInstants.insert(signature).inserted else { continue }
                guard workLeft > 0 else { return .unknown }
            }
            for id in graph.clockAtoms where cone[graph.atoms[id].node] == stamp {
                let holds = graph.atoms[id].test.holds(.date(instants[instant]), now: instants[instant])
                set(graph.atoms[id].node, holds ? ProfileSearch.yes : ProfileSearch.no)
            }
            for atom in fixed where cone[atom.node] == stamp && value[atom.node] == ProfileSearch.unknown {
                set(atom.node, atom.holds ? ProfileSearch.yes : ProfileSearch.no)
            }
            let result = search(goals, instant: instant, concreteOnly: concreteOnly, complete: &complete, decisions: &decisions)
            undo(to: 0)
            switch result {
            case .found(let choices): return .found(Witness(instant: instant, choices: choices, usesClock: usesClock))
            case .exhausted: continue
            case .gaveUp: return .unknown
            }
        }
        return complete ? .impossible : .unknown
    }

    /// What the current question can see of instant `instant`: the clock atoms in the cone and,
    /// for each coupled variable, the vectors its options give the atoms in the cone. Two
    /// instants with one signature pose the same problem (other variables only shift).
    mutating func signature(_ instant: Int, timeVariables: [Int], concreteOnly: Bool, complete: inout Bool) -> [[Bool]] {
        let now = instants[instant]
        var parts: [[Bool]] = [graph.clockAtoms.filter { cone[graph.atoms[$0].node] == stamp }.map {
            graph.atoms[$0].test.holds(.date(now), now: now)
        }]
        for variable in timeVariables {
            let table = self.table(variable, instant)
            if !table.isComplete { complete = false }
            let atoms = coneAtoms(variable)
            workLeft -= table.values.count * (1 + atoms.count)
            let vectors = Set((0..<(concreteOnly ? table.concreteCount : table.values.count)).map { option in
                atoms.map { table.holds(option: option, atom: $0.local) }
            })
            parts.append([])
            parts += vectors.sorted { $0.lexicographicallyPrecedes($1) { !$0 && $1 } }
        }
        return parts
    }

    /// Whether the options of `variable` depend on the instant.
    func isTimeDependent(_ variable: Int) -> Bool { timeDependent[variable] }

    /// The value option `option` of `variable` stands for at instant `instant` (nil: abstract).
    mutating func value(of variable: Int, option: Int, instant: Int) -> ExampleValue? {
        table(variable, instant).values[option]
    }
}
