import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingSemantics
import TargetingSyntax

/// Where each answer of a quiz leads (`targeting table`): for every combination of a few
/// finite attributes, exactly the destinations some profile with those answers can reach,
/// over every other input (ages, dates, the split bucket), at one instant.
///
/// Each destination listed is shown by a witness the evaluator checked; a destination left
/// out is proved unreachable for that combination, or the row says the search could not
/// settle it. Combinations with the same answer merge into rows that are products of value
/// sets, so every combination lies in exactly one row.
package struct DecisionTable: Sendable {
    /// One attribute the table is by.
    package struct Attribute: Sendable {
        /// As written in rules: the key, or `profile.FIELD`.
        package var name: String
        /// Its values, then nil for "not set".
        package var domain: [JSONValue?]
        var field: FieldKey
    }

    /// What the combinations of one row can see; rows are grouped by it.
    package struct Answer: Hashable, Sendable {
        /// The destinations some profile of these combinations reaches, in the placement's
        /// row order; nil stands for no match.
        package var destinations: [Outcome?]
        /// For more than one destination: what else decides (comparisons, keys, draws), in
        /// order of first use.
        package var dependsOn: [Dependency]
        /// Destinations the search could not settle for some combination of the row.
        package var unsettled: [Outcome?]
    }

    /// One row: a product of value sets, and what those combinations can see.
    package struct Row: Sendable {
        /// Per attribute (in `by` order), the values this row covers (nil: not set).
        package var when: [[JSONValue?]]
        /// What every combination of the row can see.
        package var answer: Answer

        /// The destinations some profile of these combinations reaches (see `Answer`).
        package var destinations: [Outcome?] { answer.destinations }
        /// What else decides between the destinations (see `Answer`).
        package var dependsOn: [Dependency] { answer.dependsOn }
        /// Destinations the search could not settle (see `Answer`).
        package var unsettled: [Outcome?] { answer.unsettled }
    }

    /// One combination of attribute values (an index into each domain) and its answer.
    struct Cell {
        var combination: [Int]
        var answer: Answer
    }

    package var placement: String
    package var now: Int64
    package var by: [Attribute]
    package var rows: [Row]
    /// How many combinations the rows cover.
    package var combinations: Int

    package var hasUndecided: Bool { rows.contains { !$0.unsettled.isEmpty } }
}

extension DecisionTable {
    /// Most combinations a table enumerates.
    static let maxCombinations = 4096
    /// Most values of one `set of` declaration (its domain is every subset).
    static let maxSetValues = 8

    /// The table of placement `index` of `program` at `now`, by `names` (nil: every declared
    /// `one of` string and `bool` attribute the placement reads).
    package static func build(_ program: Program, placement index: Int, by names: [String]?, now: Int64) -> Result<DecisionTable, DecisionTableError> {
        let graph = ConditionGraph(program)
        let placement = program.placements[index]
        let nodes = graph.programPlacements[0][index]
        var readNodes = nodes.rows + nodes.keys.compactMap { $0 }
        if placement.isCoveredByHoldout, let key = graph.programHoldoutKeys[0] { readNodes.append(key) }
        let read = readVariables(graph, nodes: readNodes)
        var attributes: [Attribute] = []
        if let names {
            for name in names {
                switch attribute(named: name, program: program, graph: graph, read: read) {
                case .success(let attribute): attributes.append(attribute)
                case .failure(let error): return .failure(error)
                }
            }
        } else {
            for variable in read {
                guard case .custom(let key) = graph.variables[variable].field,
                      let type = program.ruleSet.attributeTypes[.custom(key)], type.isDeclared,
                      type.type == .bool || (type.type == .string && type.allowed != nil) else { continue }
                if case .success(let attribute) = attribute(named: key, program: program, graph: graph, read: read) { attributes.append(attribute) }
            }
        }
        let combinations = attributes.reduce(1) { $0 * $1.domain.count }
        guard combinations <= maxCombinations else {
            return .failure(.tooManyCombinations(combinations, limit: maxCombinations))
        }
        var search = ProfileSearch(graph: graph, now: now)
        let routes = Route.routes(program, placement: index)
        let pinned = Set(attributes.map(\.field))
        var cells: [Cell] = []
        for number in 0..<combinations {
            var combination: [Int] = []
            var rest = number
            for attribute in attributes.reversed() {
                combination.insert(rest % attribute.domain.count, at: 0)
                rest /= attribute.domain.count
            }
            let values = zip(attributes, combination).map { ($0.field, $0.domain[$1]) }
            var seen: [Outcome?] = [], unsettled: [Outcome?] = [], reachedRows: [Int] = [], draws: [Dependency] = []
            guard let fixed = fixedAtoms(values, graph: graph, now: now) else {
                // Never expected (each value is storable alone); said as unsettled, not guessed.
                let all = routes.map(\.seen.outcome).reduce(into: [Outcome?]()) { if !$0.contains($1) { $0.append($1) } }
                cells.append(Cell(combination: combination, answer: Answer(destinations: [], dependsOn: [], unsettled: all)))
                continue
            }
            let extra = values.map { ($0.0, $0.1.map(ExampleValue.json) ?? .missing) }
            let holdout = program.holdout.map { Dependency.holdout($0.name) }
            for route in routes {
                // A held-out profile's destination may also be reached without the holdout; the
                // holdout still decides for it, so its route is searched until it is found once.
                let heldOut = route.holdout == .heldOut
                let known = seen.contains(route.seen.outcome)
                guard !known || (heldOut && holdout.map { !draws.contains($0) } ?? false) else { continue }
                let needs = route.draws(program, placement: index)
                // A draw on a key the combination fixes is decided by the value: one bucket.
                guard needs.allSatisfy({ need in
                    guard let value = values.first(where: { $0.0 == need.field }) else { return true }
                    guard case .string(let text)? = value.1 else { return false }
                    return need.holds(text)
                }) else { continue }
                let answer = search.settle(route.goals(program, placement: index, graph: graph), draws: needs, pinned: pinned,
                                           fixed: fixed, extra: extra) { profile, now in
                    guard case .success(let decision) = program.decide(placement: index, for: profile, now: now) else { return false }
                    return route.isTaken(by: decision)
                }
                switch answer {
                case .impossible: continue
                case .open:
                    if !known, !unsettled.contains(route.seen.outcome) { unsettled.append(route.seen.outcome) }
                case .found:
                    if heldOut, let holdout, !draws.contains(holdout) { draws.append(holdout) }
                    // Searched for the holdout alone: its destination and row are already counted.
                    guard !known else { continue }
                    seen.append(route.seen.outcome)
                    unsettled.removeAll { $0 == route.seen.outcome }
                    if let row = route.row, !reachedRows.contains(row) { reachedRows.append(row) }
                    if let row = route.row, let plan = placement.rows[row].split {
                        let draw: Dependency = plan.isExperiment ? .experiment(plan.id) : .split(plan.id)
                        if !draws.contains(draw) { draws.append(draw) }
                    }
                }
            }
            let ordered = routes.map(\.seen.outcome).reduce(into: [Outcome?]()) { if seen.contains($1), !$0.contains($1) { $0.append($1) } }
            var depends: [Dependency] = []
            if ordered.count > 1 {
                depends = dependencies(rows: reachedRows, nodes: nodes, graph: graph, excluding: pinned, fixed: fixed)
                for draw in draws where !depends.contains(draw) { depends.append(draw) }
            }
            cells.append(Cell(combination: combination, answer: Answer(destinations: ordered, dependsOn: depends, unsettled: unsettled)))
        }
        let rows = merge(cells, attributes: attributes)
        return .success(DecisionTable(placement: placement.name, now: now, by: attributes, rows: rows, combinations: combinations))
    }

    /// The variables in the cone of `nodes`, in order of first use.
    static func readVariables(_ graph: ConditionGraph, nodes: [Int]) -> [Int] {
        var seen = Set<Int>(), found = Set<Int>()
        var stack = nodes
        while let node = stack.popLast() {
            guard seen.insert(node).inserted else { continue }
            switch graph.nodes[node] {
            case .atom(let id): if let variable = graph.atoms[id].variable { found.insert(variable) }
            case .and(let children), .or(let children): stack += children
            case .not(let child): stack.append(child)
            case .constant: break
            }
        }
        return found.sorted()
    }

    /// The attribute `name` names (a custom key or `profile.FIELD`), with its finite domain.
    static func attribute(named name: String, program: Program, graph: ConditionGraph, read: [Int]) -> Result<Attribute, DecisionTableError> {
        let target = SubjectTarget(written: name) ?? .custom(name)
        let field = FieldKey(target)
        guard let variable = graph.variables.firstIndex(where: { $0.field == field }), read.contains(variable) else {
            return .failure(.notRead(name))
        }
        var kind = program.ruleSet.attributeTypes[target]?.type, allowed = program.ruleSet.attributeTypes[target]?.allowed
        if case .builtin(let field) = target, let builtin = BuiltinField.all[field] { (kind, allowed) = (builtin.type, builtin.allowed) }
        // Declared values no profile can hold (over 50 characters, a set member with a comma)
        // are left out of the domain: no combination can have them.
        func storable(_ value: JSONValue) -> Bool { profileHolding([(field, .json(value))]) != nil }
        switch (kind, allowed) {
        case (.bool?, _):
            return .success(Attribute(name: name, domain: [.bool(true), .bool(false), nil], field: field))
        case (.string?, let allowed?):
            return .success(Attribute(name: name, domain: allowed.map { JSONValue.string($0) }.filter(storable) + [nil], field: field))
        case (.set?, let allowed?):
            guard allowed.count <= maxSetValues else {
                return .failure(.tooManySetValues(name, count: allowed.count, limit: maxSetValues))
            }
            let subsets = (0..<(1 << allowed.count)).map { mask in
                JSONValue.array(allowed.indices.filter { mask & (1 << $0) != 0 }.map { .string(allowed[$0]) })
            }
            return .success(Attribute(name: name, domain: subsets.filter(storable).map { Optional($0) } + [nil], field: field))
        case (.string?, nil), (.set?, nil), (.number?, _), (.date?, _), (.version?, _), (nil, _):
            return .failure(.notFinite(name, type: kind))
        }
    }

    /// The truth of every comparison on the attributes fixed to `values` (nil: not set).
    /// Nil when no profile holds all of them together (each one alone was checked storable).
    static func fixedAtoms(_ values: [(FieldKey, JSONValue?)], graph: ConditionGraph, now: Int64) -> [(node: Int, holds: Bool)]? {
        guard let profile = profileHolding(values.map { ($0.0, $0.1.map(ExampleValue.json) ?? .missing) }) else { return nil }
        var fixed: [(node: Int, holds: Bool)] = []
        for (field, _) in values {
            guard let variable = graph.variables.firstIndex(where: { $0.field == field }) else { continue }
            for id in graph.variables[variable].atoms {
                fixed.append((graph.atoms[id].node, graph.holds(atom: id, in: profile, now: now)))
            }
        }
        return fixed
    }

    /// A profile holding exactly `values`, or nil when the profile rules reject them.
    static func profileHolding(_ values: [(FieldKey, ExampleValue)]) -> Profile? {
        try? ProfileReader.read(ExampleProfile.json(values)).get()
    }

    /// The comparisons of the rows reached (and the rows above them) that the fixed
    /// attributes leave open: what else decides between the destinations. Nodes are
    /// evaluated three-valued with the fixed comparisons known, and only open nodes are
    /// followed down.
    static func dependencies(rows reached: [Int], nodes placement: ConditionGraph.PlacementNodes, graph: ConditionGraph,
                             excluding: Set<FieldKey>, fixed: [(node: Int, holds: Bool)]) -> [Dependency] {
        guard let last = reached.max() else { return [] }
        // Children have smaller ids than their parents, so one pass upwards evaluates all.
        var known = [Bool?](repeating: nil, count: graph.nodes.count)
        for atom in fixed { known[atom.node] = atom.holds }
        for (node, content) in graph.nodes.enumerated() where known[node] == nil {
            switch content {
            case .constant(let flag): known[node] = flag
            case .not(let child): known[node] = known[child].map { !$0 }
            case .and(let children):
                known[node] = children.contains { known[$0] == false } ? false : children.allSatisfy { known[$0] == true } ? true : nil
            case .or(let children):
                known[node] = children.contains { known[$0] == true } ? true : children.allSatisfy { known[$0] == false } ? false : nil
            case .atom: break
            }
        }
        // A row's node holds its audience and, for a draw on a key, whether the profile has the key.
        let nodes = Array(placement.rows[...last])
        var seen = Set<Int>(), found: [Dependency] = []
        var stack = Array(nodes.reversed())
        while let node = stack.popLast() {
            guard known[node] == nil, seen.insert(node).inserted else { continue }
            switch graph.nodes[node] {
            case .atom(let id):
                let atom = graph.atoms[id]
                if let variable = atom.variable, excluding.contains(graph.variables[variable].field) { continue }
                // Identical comparisons share one atom, and so one source.
                // A free atom stands for draws a prerequisite's placement makes.
                if let draws = graph.freeDraws[node] {
                    for draw in draws where !found.contains(draw) { found.append(draw) }
                    continue
                }
                let dependency: Dependency
                if let probe = atom.sticky {
                    dependency = .assignment(probe.plan.id)
                } else {
                    dependency = graph.keyTargets[node].map { Dependency.key(storedTarget($0)) } ?? .comparison(atom.test.source)
                }
                if !found.contains(dependency) { found.append(dependency) }
            case .and(let children), .or(let children): stack += children.reversed()
            case .not(let child): stack.append(child)
            case .constant: break
            }
        }
        return found
    }

    /// The stored field `target` reads, as a target (`profile.age` reads `profile.birthday`).
    static func storedTarget(_ target: AttributeReference.Target) -> AttributeReference.Target {
        switch FieldKey(target) {
        case .builtin(let field): .builtin(field)
        case .custom(let key): .custom(key)
        case .history, .assignment: target
        }
    }

    /// Groups combinations with the same answer and merges each group into products: two
    /// boxes that differ in one attribute only become one, until none do.
    static func merge(_ cells: [Cell], attributes: [Attribute]) -> [Row] {
        struct Box { var sets: [Set<Int>]; var first: Int }
        struct Group { var answer: Answer; var boxes: [Box] }
        var groups: [Group] = []
        var groupOf: [Answer: Int] = [:]
        for (order, cell) in cells.enumerated() {
            let box = Box(sets: cell.combination.map { [$0] }, first: order)
            if let index = groupOf[cell.answer] { groups[index].boxes.append(box) } else {
                groupOf[cell.answer] = groups.count
                groups.append(Group(answer: cell.answer, boxes: [box]))
            }
        }
        var rows: [(first: Int, row: Row)] = []
        for group in groups {
            var boxes = group.boxes
            var merged = true
            while merged {
                merged = false
                search: for i in boxes.indices {
                    for j in boxes.indices where j > i {
                        let differing = boxes[i].sets.indices.filter { boxes[i].sets[$0] != boxes[j].sets[$0] }
                        guard differing.count <= 1 else { continue }
                        if let axis = differing.first { boxes[i].sets[axis].formUnion(boxes[j].sets[axis]) }
                        boxes[i].first = min(boxes[i].first, boxes[j].first)
                        boxes.remove(at: j)
                        merged = true
                        break search
                    }
                }
            }
            for box in boxes {
                let when = zip(attributes, box.sets).map { attribute, set in set.sorted().map { attribute.domain[$0] } }
                rows.append((box.first, Row(when: when, answer: group.answer)))
            }
        }
        return rows.sorted { $0.first < $1.first }.map(\.row)
    }
}
