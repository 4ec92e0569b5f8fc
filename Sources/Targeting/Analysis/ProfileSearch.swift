import Dispatch
/// One requirement of a question: a node must come out true or false.
struct Goal: Hashable {
    var node: Int
    var value: Bool
}

/// A profile the search found: an instant and one option for each variable it had to decide.
struct Witness {
    /// Index of the instant in `ProfileSearch.instants`.
    var instant: Int
    /// The options chosen; variables not listed may be absent.
    var choices: [(variable: Int, option: Int)]
    /// Whether the answer depends on the clock.
    var dependsOnTime: Bool
}

/// The answer to a question.
enum SearchOutcome {
    /// Some profile meets every goal.
    case found(Witness)
    /// No profile meets every goal.
    case impossible
    /// The budget ran out, or the options were not known to cover every profile.
    case unknown
}

/// Searches for a profile that meets a list of goals.
///
/// Variables (stored fields) are decided one at a time, each trying its options; after each
/// decision the graph is evaluated three-valued (a node is unknown until enough atoms below it
/// are known), incrementally and only inside the cone of the goals, and a branch is dropped as
/// soon as a goal is known to fail. The next variable is one under the first undecided goal,
/// found by walking down through undecided nodes. Every question has a budget of decisions and
/// all questions share a budget of work; running out answers `unknown`.
struct ProfileSearch {
    nonisolated(unsafe) static var debugTableNanos = 0
    nonisolated(unsafe) static var debugOptions = 0
    nonisolated(unsafe) static var debugDecisions = 0
    /// Decisions per question.
    static let decisionsPerQuestion = 200_000
    /// Node updates across every question.
    static let totalWork = 20_000_000

    let graph: ConditionGraph
    /// The candidate instants for `now` (the reference first).
    let instants: [Int64]
    let clockIsComplete: Bool
    /// Work left across questions.
    private(set) var workLeft = ProfileSearch.totalWork

    private let timeDependent: [Bool]
    private var tables: [[Int: OptionTable]]

    private static let atomKind: UInt8 = 0, andKind: UInt8 = 1, orKind: UInt8 = 2, notKind: UInt8 = 3, constantKind: UInt8 = 4
    private static let unknown: UInt8 = 0, no: UInt8 = 1, yes: UInt8 = 2

    private let kind: [UInt8]
    private let childStart: [Int]
    private let childList: [Int]
    private let parentStart: [Int]
    private let parentList: [Int]
    private let atomOfNode: [Int]
    private let variableOfAtom: [Int]
    private let variableNodes: [[Int]]

    private var value: [UInt8]
    private var pending: [Int]
    /// Undo log: `node * 2` for a value set, `node * 2 + 1` for a pending count lowered.
    private var trail: [Int] = []
    private var cone: [UInt32]
    private var stamp: UInt32 = 0
    private var worklist: [Int] = []

    /// Prepares the search over `graph`.
    init(graph: ConditionGraph) {
        self.graph = graph
        (instants, clockIsComplete) = ClockCandidates.instants(graph)
        timeDependent = graph.variables.map { VariableOptions.isTimeDependent($0, graph: graph) }
        tables = Array(repeating: [:], count: graph.variables.count)

        let count = graph.nodes.count
        var kind = [UInt8](repeating: 0, count: count)
        var childStart = [Int](repeating: 0, count: count + 1)
        var childList: [Int] = []
        var atomOfNode = [Int](repeating: -1, count: count)
        var value = [UInt8](repeating: ProfileSearch.unknown, count: count)
        var pending = [Int](repeating: 0, count: count)
        for (node, content) in graph.nodes.enumerated() {
            childStart[node] = childList.count
            switch content {
            case .atom(let id):
                kind[node] = ProfileSearch.atomKind
                atomOfNode[node] = id
            case .constant(let flag):
                kind[node] = ProfileSearch.constantKind
                value[node] = flag ? ProfileSearch.yes : ProfileSearch.no
            case .not(let child):
                kind[node] = ProfileSearch.notKind
                childList.append(child)
                if value[child] != ProfileSearch.unknown { value[node] = value[child] == ProfileSearch.yes ? ProfileSearch.no : ProfileSearch.yes }
            case .and(let children), .or(let children):
                let isAnd: Bool
                if case .and = content { isAnd = true } else { isAnd = false }
                kind[node] = isAnd ? ProfileSearch.andKind : ProfileSearch.orKind
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
    }

    // MARK: - Questions

    /// Looks for a profile meeting every goal. With `concreteOnly`, only options with a real
    /// value are tried (so a witness can be turned into a profile) and the answer is never
    /// `impossible`.
    mutating func solve(_ goals: [Goal], concreteOnly: Bool) -> SearchOutcome {
        var wanted: [Int: Bool] = [:]
        for goal in goals {
            if let other = wanted[goal.node], other != goal.value { return .impossible }
            wanted[goal.node] = goal.value
            let known = value[goal.node]
            if known != ProfileSearch.unknown, (known == ProfileSearch.yes) != goal.value { return .impossible }
        }
        guard workLeft > 0 else { return .unknown }

        let (variables, clockInCone) = markCone(goals)
        let usesClock = clockInCone || variables.contains { timeDependent[$0] }
        var complete = !concreteOnly && (!usesClock || clockIsComplete)
        var decisions = 0
        for instant in usesClock ? Array(instants.indices) : [0] {
            for id in graph.clockAtoms where cone[graph.atoms[id].node] == stamp {
                let holds = AtomTruth.holds(graph.atoms[id].test, .date(instants[instant]), now: instants[instant])
                set(graph.atoms[id].node, holds ? ProfileSearch.yes : ProfileSearch.no)
            }
            let result = search(goals, instant: instant, concreteOnly: concreteOnly, complete: &complete, decisions: &decisions)
            undo(to: 0)
            switch result {
            case .found(let choices): return .found(Witness(instant: instant, choices: choices, dependsOnTime: usesClock))
            case .exhausted: continue
            case .gaveUp: return .unknown
            }
        }
        return complete ? .impossible : .unknown
    }

    /// The value option `option` of `variable` stands for at instant `instant` (nil: abstract).
    mutating func value(of variable: Int, option: Int, instant: Int) -> ExampleValue? {
        table(variable, instant).values[option]
    }

    // MARK: - Depth-first search

    private enum Status { case satisfied, open, failed }
    private enum Result { case found([(variable: Int, option: Int)]), exhausted, gaveUp }

    private mutating func search(_ goals: [Goal], instant: Int, concreteOnly: Bool, complete: inout Bool, decisions: inout Int) -> Result {
        var frames: [(variable: Int, next: Int, count: Int, mark: Int)] = []
        var status = self.status(goals)
        while true {
            switch status {
            case .satisfied:
                return .found(frames.map { ($0.variable, $0.next - 1) })
            case .open:
                guard let variable = nextVariable(goals) else { return .gaveUp }
                let table = self.table(variable, instant)
                if !table.isComplete { complete = false }
                frames.append((variable, 0, concreteOnly ? table.concreteCount : table.values.count, trail.count))
            case .failed:
                guard let top = frames.last else { return .exhausted }
                undo(to: top.mark)
            }
            while true {
                guard let top = frames.last else { return .exhausted }
                if top.next == top.count {
                    frames.removeLast()
                    if let below = frames.last { undo(to: below.mark) }
                    continue
                }
                decisions += 1
                ProfileSearch.debugDecisions += 1
                if decisions > ProfileSearch.decisionsPerQuestion || workLeft <= 0 { return .gaveUp }
                frames[frames.count - 1].next += 1
                assign(top.variable, option: top.next, instant: instant)
                break
            }
            status = self.status(goals)
        }
    }

    private func status(_ goals: [Goal]) -> Status {
        var open = false
        for goal in goals {
            let known = value[goal.node]
            if known == ProfileSearch.unknown { open = true } else if (known == ProfileSearch.yes) != goal.value { return .failed }
        }
        return open ? .open : .satisfied
    }

    /// A variable under the first undecided goal: walk down through undecided nodes to an atom.
    private mutating func nextVariable(_ goals: [Goal]) -> Int? {
        for goal in goals where value[goal.node] == ProfileSearch.unknown {
            var node = goal.node
            while kind[node] != ProfileSearch.atomKind {
                var next = -1
                for index in childStart[node]..<childStart[node + 1] where value[childList[index]] == ProfileSearch.unknown {
                    next = childList[index]
                    break
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

    private mutating func table(_ variable: Int, _ instant: Int) -> OptionTable {
        let key = timeDependent[variable] ? instant : 0
        if let known = tables[variable][key] { return known }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let built = VariableOptions.table(graph.variables[variable], graph: graph, now: instants[key])
        ProfileSearch.debugTableNanos += Int(DispatchTime.now().uptimeNanoseconds - t0)
        ProfileSearch.debugOptions += built.values.count
        tables[variable][key] = built
        return built
    }

    // MARK: - Three-valued propagation

    /// Marks the cone of the goals (every node below them) and returns the variables and
    /// whether a clock comparison is in it.
    private mutating func markCone(_ goals: [Goal]) -> (variables: [Int], clock: Bool) {
        stamp &+= 1
        if stamp == 0 {
            cone = [UInt32](repeating: 0, count: cone.count)
            stamp = 1
        }
        var variables: [Int] = []
        var seenVariables: Set<Int> = []
        var clock = false
        var stack = goals.map(\.node)
        while let node = stack.popLast() {
            guard cone[node] != stamp else { continue }
            cone[node] = stamp
            workLeft -= 1
            if kind[node] == ProfileSearch.atomKind {
                let variable = variableOfAtom[atomOfNode[node]]
                if variable < 0 { clock = true } else if seenVariables.insert(variable).inserted { variables.append(variable) }
            }
            for index in childStart[node]..<childStart[node + 1] where cone[childList[index]] != stamp {
                stack.append(childList[index])
            }
        }
        return (variables, clock)
    }

    private mutating func assign(_ variable: Int, option: Int, instant: Int) {
        let table = self.table(variable, instant)
        for (local, node) in variableNodes[variable].enumerated() where cone[node] == stamp && value[node] == ProfileSearch.unknown {
            set(node, table.holds(option: option, atom: local) ? ProfileSearch.yes : ProfileSearch.no)
        }
    }

    /// Gives an unknown node a value and updates every undecided parent in the cone.
    private mutating func set(_ start: Int, _ startValue: UInt8) {
        value[start] = startValue
        trail.append(start << 1)
        worklist.append(start)
        while let node = worklist.popLast() {
            let known = value[node]
            for index in parentStart[node]..<parentStart[node + 1] {
                let parent = parentList[index]
                guard cone[parent] == stamp, value[parent] == ProfileSearch.unknown else { continue }
                workLeft -= 1
                let result: UInt8
                switch kind[parent] {
                case ProfileSearch.notKind:
                    result = known == ProfileSearch.yes ? ProfileSearch.no : ProfileSearch.yes
                default:
                    let deciding = kind[parent] == ProfileSearch.andKind ? ProfileSearch.no : ProfileSearch.yes
                    if known == deciding {
                        result = deciding
                    } else {
                        pending[parent] -= 1
                        trail.append(parent << 1 | 1)
                        guard pending[parent] == 0 else { continue }
                        result = deciding == ProfileSearch.no ? ProfileSearch.yes : ProfileSearch.no
                    }
                }
                value[parent] = result
                trail.append(parent << 1)
                worklist.append(parent)
            }
        }
    }

    private mutating func undo(to mark: Int) {
        while trail.count > mark {
            let entry = trail.removeLast()
            if entry & 1 == 0 { value[entry >> 1] = ProfileSearch.unknown } else { pending[entry >> 1] += 1 }
        }
    }
}
