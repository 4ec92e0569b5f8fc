import TargetingBase
import TargetingEngine

/// The questions asked of each placement: can each row decide, and can a profile match no row.
struct PlacementAnalysis {
    let program: Program
    private var search: ProfileSearch

    /// Prepares the analysis of every placement of `program`.
    init(program: Program) {
        self.program = program
        search = ProfileSearch(graph: ConditionGraph(program))
    }

    /// The node of a row's audience (`everyone` is the always-true node).
    func node(of row: Program.Row) -> Int? {
        if case .everyone = row.source.audience { return search.graph.trueNode }
        return row.audience.map { search.graph.audienceNodes[$0] }
    }

    /// A warning for each row that no profile reaches: every profile its audience matches is
    /// matched by a row above, or its audience matches no profile at all.
    mutating func unreachableRows(placement index: Int) -> [Diagnostic] {
        let rows = program.placements[index].rows
        let nodes = rows.map(node)
        var warnings: [Diagnostic] = []
        for (position, row) in rows.enumerated() {
            guard let own = nodes[position] else { continue }
            let above = nodes[..<position].compactMap { $0 }
            let goals = [Goal(node: own, value: true)] + above.map { Goal(node: $0, value: false) }
            guard case .impossible = search.solve(goals, concreteOnly: false) else { continue }
            let audience = row.source.audience
            if above.isEmpty || isImpossible([Goal(node: own, value: true)]) {
                warnings.append(.emptyRow(audience.name, at: audience.range))
                continue
            }
            warnings.append(.unreachableRow(audience.name, takenBy: takers(of: own, among: Array(rows[..<position])), at: audience.range))
        }
        return warnings
    }

    /// A warning with an example profile when a placement without `everyone` lets some profile
    /// through every row; nil when the rows cover every profile or no example was found.
    mutating func fallThrough(placement index: Int) -> Diagnostic? {
        let placement = program.placements[index]
        var goals: [Goal] = []
        for row in placement.rows {
            guard case .audience = row.source.audience, let node = node(of: row) else { return nil }
            goals.append(Goal(node: node, value: false))
        }
        guard case .found(let witness) = search.solve(goals, concreteOnly: true) else { return nil }
        var values: [(FieldKey, ExampleValue)] = []
        var dependsOnTime = witness.usesClock
        for (variable, option) in witness.choices {
            guard let value = search.value(of: variable, option: option, instant: witness.instant) else { return nil }
            values.append((search.graph.variables[variable].field, value))
            if case .json = value, search.isTimeDependent(variable) { dependsOnTime = true }
        }
        let json = ExampleProfile.json(values)
        let now = search.instants[witness.instant]
        guard ExampleProfile.fallsThrough(json, program: program, placement: index, now: now) else { return nil }
        let declaration = program.ruleSet.placements[index]
        return .placementFallsThrough(placement.name, example: JSONWriter.write(json),
                                      now: dependsOnTime ? Timestamp.format(now) : nil, at: declaration.name.range)
    }

    /// The rows among `rows` that take profiles of the audience at `node`: one row that takes
    /// all of them when there is one, else every row that takes some.
    private mutating func takers(of node: Int, among rows: [Program.Row]) -> [String] {
        var overlapping: [(name: String, node: Int)] = []
        for row in rows {
            guard let other = self.node(of: row), !overlapping.contains(where: { $0.name == row.source.audience.name }) else { continue }
            if !isImpossible([Goal(node: node, value: true), Goal(node: other, value: true)]) {
                overlapping.append((row.source.audience.name, other))
            }
        }
        if overlapping.count > 1, let single = overlapping.first(where: { isImpossible([Goal(node: node, value: true), Goal(node: $0.node, value: false)]) }) {
            return [single.name]
        }
        return overlapping.map(\.name)
    }

    private mutating func isImpossible(_ goals: [Goal]) -> Bool {
        if case .impossible = search.solve(goals, concreteOnly: false) { return true }
        return false
    }
}
