import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingSyntax

/// Every segment and audience of one or more compiled programs as one shared graph of `and`,
/// `or`, `not` and comparison nodes.
///
/// A segment becomes one node however many expressions use it, and identical comparisons share
/// one atom, across programs too: two versions of a rule set (`diff --prove`) are one search
/// over the same profile fields. Node ids are topological: children always have smaller ids than their parents, so
/// the graph can be walked bottom-up with a loop instead of recursion through segment chains.
struct ConditionGraph {
    /// One node.
    enum Node {
        /// A comparison; the payload is an atom id.
        case atom(Int)
        case and([Int])
        case or([Int])
        case not(Int)
        case constant(Bool)
    }

    /// One distinct comparison.
    struct Atom {
        /// The slot it reads, or nil for `now`.
        var slot: Slot?
        /// The typed test.
        var test: CompiledTest
        /// Its node.
        var node: Int
        /// The variable it belongs to, or nil for `now`.
        var variable: Int?
        /// Its position among its variable's atoms (or among the clock atoms).
        var local: Int
        /// For an atom of a sticky experiment's assignment (`test` and `slot` then mean
        /// nothing): the row's plan and the step whose variant the assignment must name while
        /// it sticks.
        var sticky: StickyProbe? = nil
    }

    /// What an assignment atom asks: does `plan.stickyStep` give `step` (the engine's own
    /// reading of `history.assigned`).
    struct StickyProbe {
        var plan: SplitPlan
        var step: Int
    }

    private(set) var nodes: [Node] = []
    private(set) var atoms: [Atom] = []
    /// The search variables (stored profile fields), in order of first use.
    private(set) var variables: [SearchVariable] = []
    /// Atoms that compare `now` itself.
    private(set) var clockAtoms: [Int] = []
    /// The node of each segment of the current program while building.
    private var segmentNodes: [Int] = []
    /// The node of each audience, per program.
    private(set) var programAudienceNodes: [[Int]] = []
    /// The node of each audience of the first program.
    var audienceNodes: [Int] { programAudienceNodes[0] }
    /// The nodes of each placement's rows, per program.
    private(set) var programPlacements: [[PlacementNodes]] = []
    /// Per program: the node "the profile has a value for the holdout's key", when there is a holdout.
    private(set) var programHoldoutKeys: [Int?] = []
    /// The attribute each key node reads, by node: the comparisons the graph adds for
    /// `by KEY` rather than taking them from a condition.
    private(set) var keyTargets: [Int: AttributeReference.Target] = [:]
    /// The draws each free atom's node stands for (`prerequisiteNode`), as `table` names them.
    private(set) var freeDraws: [Int: [DecisionTable.Dependency]] = [:]
    /// A node that is always true (the `everyone` row).
    private(set) var trueNode = 0
    /// Parents of each node, once per use (a child used twice by one parent is listed twice).
    private(set) var parents: [[Int]] = []

    /// The rows of one placement as the search sees them.
    struct PlacementNodes {
        /// Per row: the node that holds when the row takes the profile: its audience matches
        /// and, for a draw on a key other than `profile.id`, the profile has a string value for
        /// the key (one without does not enter).
        var rows: [Int]
        /// Per row with a split or experiment: the node "the profile has a value for its key"
        /// (`profile.id` included, which a draw needs); nil for other rows.
        var keys: [Int?]
        /// Per row: the node that holds when the row takes the profile by its audience and a
        /// draw (the profile has the key); equal to `rows` except for a sticky experiment's
        /// row, whose recorded assignment also takes the profile, whatever the audience.
        var drawn: [Int]
        /// Per row of a sticky experiment: per step, the node "the profile's assignment sticks
        /// with this step's variant"; empty for other rows.
        var stickySteps: [[Int]]
        /// Per row of a sticky experiment: the node "some assignment sticks"; nil for other rows.
        var sticky: [Int?]
        /// Per row of an experiment in a layer: the node "the profile has a value for the
        /// layer's key"; nil for other rows.
        var layerKeys: [Int?] = []
    }

    private var atomIndex: [AtomKey: Int] = [:]
    private var variableIndex: [FieldKey: Int] = [:]
    /// Assignment atoms by experiment, duration and variant name: the same question across
    /// rows, placements and programs is one atom.
    private var stickyIndex: [StickyKey: Int] = [:]

    private struct StickyKey: Hashable {
        var experiment: String
        var duration: Int64
        var variant: String
    }

    private struct AtomKey: Hashable {
        /// The slot read, nil for `now`.
        var slot: Slot?
        var kind: CompiledTest.Kind
        var negated: Bool
    }

    /// Builds the graph of every segment and audience of `program`.
    init(_ program: Program) { self.init([program]) }

    /// Builds one graph of every segment and audience of each of `programs`.
    init(_ programs: [Program]) {
        // Room for every comparison up front: no table grows (and moves) while building.
        var comparisons = 0
        for program in programs {
            for segment in program.segments { comparisons += ConditionGraph.comparisonCount(segment.condition) }
        }
        atomIndex.reserveCapacity(comparisons)
        atoms.reserveCapacity(comparisons)
        nodes.reserveCapacity(comparisons + 1)
        trueNode = add(.constant(true))
        for (programIndex, program) in programs.enumerated() {
            segmentNodes = Array(repeating: trueNode, count: program.segments.count)
            programHoldoutKeys.append(program.holdout.map { keyNode($0.key, program) })
            // Built in rounds: the segments, audiences and placements that ask about no
            // placement first; then those that ask only about placements already built (a
            // prerequisite's node is made of its placement's rows). Without prerequisites,
            // one round.
            let rounds = ConditionGraph.rounds(program)
            var audienceNodes = Array(repeating: trueNode, count: program.audiences.count)
            programAudienceNodes.append(audienceNodes)
            var placementNodes = Array(repeating: PlacementNodes(rows: [], keys: [], drawn: [], stickySteps: [], sticky: []),
                                       count: program.placements.count)
            programPlacements.append(placementNodes)
            let segmentOrder = ConditionGraph.dependencyOrder(program)
            for round in 0...rounds.last {
                for segment in segmentOrder where rounds.segments[segment] == round {
                    segmentNodes[segment] = build(program.segments[segment].condition, program, programIndex: programIndex)
                }
                for audience in program.audiences.indices where rounds.audiences[audience] == round {
                    audienceNodes[audience] = build(program.audiences[audience].condition, program, programIndex: programIndex)
                }
                programAudienceNodes[programIndex] = audienceNodes
                for index in program.placements.indices where rounds.placements[index] == round {
                    placementNodes[index] = rowNodes(program.placements[index], program, audiences: audienceNodes)
                    programPlacements[programIndex] = placementNodes
                }
            }
        }
        segmentNodes = []
        parents = Array(repeating: [], count: nodes.count)
        for (node, content) in nodes.enumerated() {
            switch content {
            case .and(let children), .or(let children):
                for child in children { parents[child].append(node) }
            case .not(let child):
                parents[child].append(node)
            case .atom, .constant:
                break
            }
        }
    }

    /// The nodes of `placement`'s rows (`PlacementNodes`), its audiences' nodes given.
    private mutating func rowNodes(_ placement: Program.Placement, _ program: Program, audiences: [Int]) -> PlacementNodes {
        var nodes = PlacementNodes(rows: [], keys: [], drawn: [], stickySteps: [], sticky: [])
        // A row's guards as nodes: the audience and the key must hold for it to take a
        // profile by its audience and draw (the holdout is each route's state, a layer's
        // share a draw the route needs); a live assignment takes it besides.
        for row in placement.rows {
            nodes.keys.append(row.split.map { keyNode($0.key, program) })
            var layerKey: Int?
            for rowGuard in row.guards {
                if case .layer(let share) = rowGuard { layerKey = keyNode(program.layers[share.layer].key, program) }
            }
            nodes.layerKeys.append(layerKey)
            var conjuncts: [Int] = []
            for rowGuard in row.guards {
                switch rowGuard {
                case .notHeldOut, .layer, .assignment: continue
                case .audience(let audience): conjuncts.append(audiences[audience])
                case .key(let slot): conjuncts.append(keyNode(.slot(slot), program))
                }
            }
            nodes.drawn.append(conjuncts.count > 1 ? add(.and(conjuncts)) : conjuncts.first ?? trueNode)
        }
        for (position, row) in placement.rows.enumerated() {
            guard row.guards.contains(.assignment), let plan = row.split, let duration = plan.sticky else {
                nodes.rows.append(nodes.drawn[position])
                nodes.stickySteps.append([])
                nodes.sticky.append(nil)
                continue
            }
            let steps = plan.steps.indices.map { stickyAtom(plan, step: $0, duration: duration) }
            let any = steps.count == 1 ? steps[0] : add(.or(steps))
            nodes.stickySteps.append(steps)
            nodes.sticky.append(any)
            nodes.rows.append(add(.or([any, nodes.drawn[position]])))
        }
        return nodes
    }

    /// In which round (`init`) each segment, audience and placement of `program` is built:
    /// one after every placement its prerequisites ask about, directly or through segments.
    static func rounds(_ program: Program) -> (segments: [Int], audiences: [Int], placements: [Int], last: Int) {
        var placements = Array(repeating: 0, count: program.placements.count)
        // A placement's dependencies are transitive: each has fewer than the placement itself.
        for index in program.placements.indices.sorted(by: { program.placementDependencies[$0].count < program.placementDependencies[$1].count }) {
            placements[index] = program.placementDependencies[index].map { placements[$0] + 1 }.max() ?? 0
        }
        var segments = Array(repeating: 0, count: program.segments.count)
        guard !program.prerequisites.isEmpty else {
            return (segments, Array(repeating: 0, count: program.audiences.count), placements, 0)
        }
        for segment in dependencyOrder(program) {
            var round = program.children(segment).map { segments[$0] }.max() ?? 0
            program.segments[segment].condition.forEachPrerequisite { round = max(round, placements[program.prerequisites[$0].placement] + 1) }
            segments[segment] = round
        }
        let audiences = program.audiences.map { audience in audience.segmentOrder.map { segments[$0] }.max() ?? 0 }
        return (segments, audiences, placements, (segments + audiences + placements).max() ?? 0)
    }

    /// The node "placement `test.placement` gives one of `test`'s outcomes": one of its routes
    /// (`Route`) whose decision the test accepts. A route that needs a draw (a variant's
    /// bucket, the holdout's, a layer's share) conjoins a free atom standing for it: the search
    /// treats it as either, so an answer that depends on it is checked on a witness, never
    /// assumed.
    private mutating func prerequisiteNode(_ test: PrerequisiteTest, _ program: Program, programIndex: Int) -> Int {
        var accepted: [Int] = []
        for route in Route.routes(program, placement: test.placement) {
            let choice = Choice(row: route.row, step: route.step, heldOut: route.holdout == .heldOut, sticky: route.sticky)
            guard test.holds(choice) else { continue }
            var conjuncts = route.goals(program, placement: test.placement, graph: self, programIndex: programIndex).map { goal in
                goal.value ? goal.node : add(.not(goal.node))
            }
            let draws = route.draws(program, placement: test.placement)
            if !draws.isEmpty {
                let label = draws.map { "\($0.name)-\($0.field.displayName)-\($0.buckets.lowerBound)..<\($0.buckets.upperBound)" }.joined(separator: " ")
                let node = freeAtom(label)
                freeDraws[node] = draws.map { need in
                    if program.holdout?.name == need.name { return .holdout(need.name) }
                    if program.layers.contains(where: { $0.name == need.name }) { return .layer(need.name) }
                    if program.ruleSet.experiment(named: need.name) != nil { return .experiment(need.name) }
                    return .split(need.name)
                }
                conjuncts.append(node)
            }
            accepted.append(conjuncts.isEmpty ? trueNode : conjuncts.count == 1 ? conjuncts[0] : add(.and(conjuncts)))
        }
        if accepted.isEmpty { return add(.constant(false)) }
        return accepted.count == 1 ? accepted[0] : add(.or(accepted))
    }

    /// The key of a free atom's field: no attribute can be named so (witnesses leave it out).
    static let freeFieldPrefix = "\u{1}draw "

    /// An atom no rule decides, standing for a draw the search does not model: true or false
    /// as the search likes (the presence of a field no profile has).
    private mutating func freeAtom(_ label: String) -> Int {
        let position = SourcePosition(offset: 0, line: 1, column: 1)
        let range = SourceRange(file: "", start: position, end: position)
        let target = AttributeReference.Target.custom(ConditionGraph.freeFieldPrefix + label)
        let reference = AttributeReference(target: target, spelling: .bare, range: range)
        let source = Comparison(subject: .attribute(reference), op: .isSet, operatorRange: range, operands: [], list: nil,
                                ignoringCaseRange: nil, range: range)
        return atom(slot: Slot(target: target, type: nil), CompiledTest(slot: 0, kind: .presence, negated: false, source: source), nil)
    }

    private mutating func add(_ node: Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    /// Segments in an order where each comes after every segment it references (no recursion
    /// through references: chains may be thousands of segments long).
    static func dependencyOrder(_ program: Program) -> [Int] {
        let references = program.segments.map { segment -> [Int] in
            var found: [Int] = []
            segmentReferences(segment.condition, into: &found)
            return found
        }
        var state = Array(repeating: 0, count: program.segments.count)  // 0 new, 1 open, 2 done
        var order: [Int] = []
        for root in program.segments.indices where state[root] == 0 {
            var stack: [(segment: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let (segment, next) = stack.last {
                let children = references[segment]
                if next == children.count {
                    state[segment] = 2
                    order.append(segment)
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let child = children[next]
                if child >= 0, child < state.count, state[child] == 0 {
                    state[child] = 1
                    stack.append((child, 0))
                }
            }
        }
        return order
    }

    /// Segment indices referenced by one condition (its depth is bounded by the parser's nesting limit).
    /// The comparisons of one condition, repeats included (its depth is bounded by the
    /// parser's nesting limit).
    private static func comparisonCount(_ condition: Condition) -> Int {
        switch condition {
        case .and(let items), .or(let items): items.reduce(0) { $0 + comparisonCount($1) }
        case .not(let inner): comparisonCount(inner)
        case .segment, .prerequisite: 0
        case .test: 1
        }
    }

    private static func segmentReferences(_ condition: Condition, into found: inout [Int]) {
        switch condition {
        case .and(let items), .or(let items):
            for item in items { segmentReferences(item, into: &found) }
        case .not(let inner):
            segmentReferences(inner, into: &found)
        case .segment(let index):
            found.append(index)
        case .test, .prerequisite:
            break
        }
    }

    private mutating func build(_ condition: Condition, _ program: Program, programIndex: Int) -> Int {
        switch condition {
        case .and(let items):
            let children = items.map { build($0, program, programIndex: programIndex) }
            if children.count == 1 { return children[0] }
            return children.isEmpty ? trueNode : add(.and(children))
        case .or(let items):
            let children = items.map { build($0, program, programIndex: programIndex) }
            if children.count == 1 { return children[0] }
            return children.isEmpty ? add(.constant(false)) : add(.or(children))
        case .not(let inner):
            return add(.not(build(inner, program, programIndex: programIndex)))
        case .prerequisite(let index):
            return prerequisiteNode(program.prerequisites[index], program, programIndex: programIndex)
        case .segment(let index):
            return index >= 0 && index < segmentNodes.count ? segmentNodes[index] : add(.constant(false))
        case .test(let test):
            return atom(test, program)
        }
    }

    /// The slot a draw key reads: `profile.id` as a string, or the key's slot.
    static func slot(of key: DrawKey, in program: Program) -> Slot {
        switch key {
        case .profileID: Slot(target: .builtin("id"), type: .string)
        case .slot(let index): program.slots[index]
        }
    }

    /// The node "the profile has a string value for `key`": `starts with ""` on the key's
    /// string slot, which holds exactly for a string (any other value does not enter).
    private mutating func keyNode(_ key: DrawKey, _ program: Program) -> Int {
        let slot = ConditionGraph.slot(of: key, in: program)
        let position = SourcePosition(offset: 0, line: 1, column: 1)
        let range = SourceRange(file: "", start: position, end: position)
        let reference = AttributeReference(target: slot.target, spelling: .bare, range: range)
        let source = Comparison(subject: .attribute(reference), op: .startsWith, operatorRange: range,
                                operands: [Literal(value: .string(""), text: "\"\"", range: range)], list: nil, ignoringCaseRange: nil, range: range)
        let node = atom(slot: slot, CompiledTest(slot: 0, kind: .text(.startsWith(""), fold: false), negated: false, source: source), program)
        keyTargets[node] = slot.target
        return node
    }

    /// The node "the profile's recorded assignment of `plan`'s experiment sticks with step
    /// `step`": an atom of the experiment's assignment variable, shared by every row, placement
    /// and program that asks the same (a later step with an earlier step's variant name can
    /// never stick, and the engine's reading gives that too).
    private mutating func stickyAtom(_ plan: SplitPlan, step: Int, duration: Int64) -> Int {
        let key = StickyKey(experiment: plan.id, duration: duration, variant: plan.steps[step].variant ?? "")
        if let known = stickyIndex[key] { return atoms[known].node }
        let variable = variable(for: .assignment(plan.id)) { SearchVariable(field: $0) }
        let position = SourcePosition(offset: 0, line: 1, column: 1)
        let range = SourceRange(file: "", start: position, end: position)
        let reference = AttributeReference(target: .custom("history.assigned." + plan.id), spelling: .bare, range: range)
        let source = Comparison(subject: .attribute(reference), op: .isSet, operatorRange: range, operands: [], list: nil,
                                ignoringCaseRange: nil, range: range)
        let test = CompiledTest(slot: -1, kind: .presence, negated: false, source: source)
        let id = atoms.count
        let node = add(.atom(id))
        atoms.append(Atom(slot: nil, test: test, node: node, variable: variable, local: variables[variable].atoms.count,
                          sticky: StickyProbe(plan: plan, step: step)))
        variables[variable].atoms.append(id)
        stickyIndex[key] = id
        return node
    }

    /// Whether atom `id` holds for `profile` at `now`, as the engine reads it (false for a
    /// comparison of `now`, which no profile decides).
    func holds(atom id: Int, in profile: Profile, now: Int64) -> Bool {
        let atom = atoms[id]
        if let probe = atom.sticky { return probe.plan.stickyStep(in: profile.history, now: now) == probe.step }
        guard let slot = atom.slot else { return false }
        return atom.test.holds(slot.read(from: profile, now: now), now: now)
    }

    private mutating func atom(_ test: CompiledTest, _ program: Program) -> Int {
        atom(slot: test.slot < 0 ? nil : program.slots[test.slot], test, program)
    }

    /// The atom of `test` reading `slot` (nil: `now`).
    private mutating func atom(slot: Slot?, _ test: CompiledTest, _ program: Program?) -> Int {
        let key = AtomKey(slot: slot, kind: test.kind, negated: test.negated)
        let id = atoms.count
        // One lookup: the entry is this id unless the comparison already has one.
        let known = { (entry: inout Int) in entry }(&atomIndex[key, default: id])
        if known != id { return atoms[known].node }
        let node = add(.atom(id))
        if let slot {
            let variable = variable(for: FieldKey(slot.target)) { field in
                let allowed: [String]?
                switch slot.target {
                case .custom: allowed = program?.ruleSet.attributeTypes[slot.target]?.allowed
                case .builtin(let name): allowed = BuiltinField.all[name]?.allowed
                case .shownCount, .lastShown: allowed = nil
                }
                return SearchVariable(field: field, allowed: allowed ?? [])
            }
            atoms.append(Atom(slot: slot, test: test, node: node, variable: variable, local: variables[variable].atoms.count))
            variables[variable].atoms.append(id)
            if !variables[variable].slots.contains(slot) { variables[variable].slots.append(slot) }
        } else {
            atoms.append(Atom(slot: nil, test: test, node: node, variable: nil, local: clockAtoms.count))
            clockAtoms.append(id)
        }
        return node
    }

    /// The index of the search variable of `field`, made by `make` the first time it is asked for.
    private mutating func variable(for field: FieldKey, make: (FieldKey) -> SearchVariable) -> Int {
        if let known = variableIndex[field] { return known }
        let variable = variables.count
        variableIndex[field] = variable
        variables.append(make(field))
        return variable
    }
}
