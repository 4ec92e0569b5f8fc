import TargetingBase
import TargetingEngine
import TargetingSyntax

/// The questions asked of each placement: can each row decide, and can a profile match no row.
///
/// Rows are taken as experiments and the holdout have them: a row with a draw on a key other than `profile.id`
/// takes only profiles with a string value for the key (the others fall through to later
/// rows), and a profile the holdout holds out sees only `everyone`.
struct PlacementAnalysis {
    let program: Program
    private var search: ProfileSearch

    /// Prepares the analysis of every placement of `program`.
    init(program: Program) {
        self.program = program
        search = ProfileSearch(graph: ConditionGraph(program))
    }

    /// Experiments some profiles see only half of (`PartialExposure`).
    mutating func partialExposures() -> [PartialExposure] { PartialExposure.find(program, search: &search) }

    /// Gives the next placement's questions a budget of work of their own.
    mutating func startPlacement() { search.workLeft = ProfileSearch.totalWork }

    /// The node of a row's audience (`everyone` is the always-true node).
    func node(of row: Program.Row) -> Int? {
        if case .everyone = row.source.audience { return search.graph.trueNode }
        return row.audience.map { search.graph.audienceNodes[$0] }
    }

    /// A warning for each row that no profile reaches: every profile its audience matches is
    /// matched by a row above, held out, or lacks the row's key, or its audience matches no
    /// profile at all.
    mutating func unreachableRows(placement index: Int) -> [Diagnostic] {
        let placement = program.placements[index]
        let rows = placement.rows
        let nodes = search.graph.programPlacements[0][index]
        let routes = Route.routes(program, placement: index, variants: false)
        var warnings: [Diagnostic] = []
        for (position, row) in rows.enumerated() {
            guard let audience = node(of: row) else { continue }
            let audienceName = row.source.audience.name
            let range = row.source.audience.range
            let above = nodes.rows[..<position].map { Goal(node: $0, value: false) }
            // A sticky experiment's row may take a profile without its key (by its assignment).
            let key = nodes.sticky[position] == nil ? nodes.keys[position] : nil
            let own = [Goal(node: nodes.rows[position], value: true)] + (key.map { [Goal(node: $0, value: true)] } ?? [])
            let reachable = routes.filter { $0.row == position }.contains { route in
                !isImpossible(route.goals(program, placement: index, graph: search.graph))
            }
            if reachable {
                if let holdout = heldOutByID(row, placement: placement), !isImpossible(own + above + [Goal(node: holdout.key, value: true)]) {
                    warnings.append(.heldOutRow(audienceName, holdout: holdout.name, onlyWithoutID: true, at: range))
                }
                continue
            }
            if isImpossible([Goal(node: audience, value: true)]) {
                warnings.append(.emptyRow(audienceName, at: range))
            } else if isImpossible(own + above) {
                if let key = drawKey(of: row), !isImpossible([Goal(node: audience, value: true)] + above) {
                    warnings.append(.keylessRow(audienceName, key: key.name, draw: key.draw, isProfileID: key.isProfileID, at: range))
                } else if above.isEmpty {
                    warnings.append(.emptyRow(audienceName, at: range))
                } else {
                    warnings.append(.unreachableRow(audienceName, takenBy: takers(of: nodes.rows[position], among: position, in: index), at: range))
                }
            } else if let holdout = program.holdout, placement.isCoveredByHoldout {
                warnings.append(.heldOutRow(audienceName, holdout: holdout.name, onlyWithoutID: false, at: range))
            }
            // Otherwise the search could not tell: no warning.
        }
        return warnings
    }

    /// For a row that a 100 % holdout on `profile.id` shuts to every profile with an id (only
    /// id-less profiles are not drawn): the holdout and its key node.
    private func heldOutByID(_ row: Program.Row, placement: Program.Placement) -> (name: String, key: Int)? {
        guard !row.admitsHeldOut, let holdout = program.holdout, holdout.weight >= 100,
              case .profileID = holdout.key, let key = search.graph.programHoldoutKeys[0] else { return nil }
        return (holdout.name, key)
    }

    /// The key a row with a split or experiment draws on, with what draws: `experiment `e``
    /// or `split `s``.
    private func drawKey(of row: Program.Row) -> (name: String, draw: String, isProfileID: Bool)? {
        guard let plan = row.split else { return nil }
        let field = DrawNeed.field(of: plan.key, in: program)
        return (field.displayName, plan.isExperiment ? "experiment `\(plan.id)`" : "split `\(plan.id)`", plan.key == .profileID)
    }

    /// A warning with an example profile when some profile reaches no row of a placement: one
    /// without `everyone`, one whose `everyone` row draws on a key the profile lacks, or one
    /// without `everyone` that the holdout covers; nil when the rows cover every profile or no
    /// example was found.
    mutating func fallThrough(placement index: Int) -> Diagnostic? {
        let placement = program.placements[index]
        guard placement.canMiss else { return nil }
        for route in Route.routes(program, placement: index, variants: false) where route.row == nil {
            let goals = route.goals(program, placement: index, graph: search.graph)
            let draws = route.draws(program, placement: index)
            guard DrawNeed.areFeasible(draws), case .found(let witness) = search.solve(goals, concreteOnly: true) else { continue }
            var values: [(FieldKey, ExampleValue)] = []
            var dependsOnTime = witness.usesClock
            var abstract = false
            for (variable, option) in witness.choices {
                guard let value = search.value(of: variable, option: option, instant: witness.instant) else { abstract = true; break }
                values.append((search.graph.variables[variable].field, value))
                if case .json = value, search.isTimeDependent(variable) { dependsOnTime = true }
            }
            let now = search.instants[witness.instant]
            guard !abstract, let drawn = search.drawn(values, needs: draws, now: now) else { continue }
            let json = ExampleProfile.json(drawn)
            guard ExampleProfile.fallsThrough(json, program: program, placement: index, now: now, heldOut: route.holdout == .heldOut) else { continue }
            let declaration = program.ruleSet.placements[index]
            var help: String?
            if route.holdout == .heldOut, let holdout = program.holdout {
                help = "`\(holdout.name)` leaves the profiles it holds out only an `everyone` row; add one to decide for them"
            } else if let last = placement.rows.last, last.audience == nil, let key = drawKey(of: last), !key.isProfileID {
                help = "the `everyone` row's \(key.draw) does not take profiles without a string `\(key.name)`"
            }
            return .placementFallsThrough(placement.name, example: JSONWriter.write(json), now: dependsOnTime ? Timestamp.format(now) : nil,
                                          heldOutBy: route.holdout == .heldOut ? program.holdout?.name : nil, reason: help, at: declaration.name.range)
        }
        return nil
    }

    /// The rows above row `position` of placement `index` that take profiles the row at
    /// `node` takes: one row that takes all of them when there is one, else every row that
    /// takes some.
    private mutating func takers(of node: Int, among position: Int, in index: Int) -> [String] {
        let rows = program.placements[index].rows
        let nodes = search.graph.programPlacements[0][index]
        var overlapping: [(name: String, node: Int)] = []
        for (other, row) in rows[..<position].enumerated() {
            guard !overlapping.contains(where: { $0.name == row.source.audience.name }) else { continue }
            if !isImpossible([Goal(node: node, value: true), Goal(node: nodes.rows[other], value: true)]) {
                overlapping.append((row.source.audience.name, nodes.rows[other]))
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
