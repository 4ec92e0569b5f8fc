import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Which audiences of a placement compete for the same profiles, and which rows some profile
/// reaches, at one instant (`targeting overlap`).
///
/// Every answer is a proof or a verified example: `true` comes with a witness profile that the
/// evaluator has checked, `false` is a search that covered every profile the rules can tell
/// apart, and `nil` (undecided) is what is left when the search ran out of budget or found no
/// concrete profile. A row "reachable" is one that decides for some profile: its audience
/// matches and no row above does, so a row covered by the union of the rows above is
/// unreachable even when no single row above covers it.
package struct OverlapReport: Sendable {
    /// One pair of distinct audiences used by the placement's rows.
    package struct Pair: Sendable {
        package var a: String
        package var b: String
        /// Whether some profile matches both; nil when undecided.
        package var overlap: Bool?
        /// A profile matching both, when `overlap` is true.
        package var witness: JSONValue?
    }

    /// One row of the placement.
    package struct Row: Sendable {
        /// 1-based row number.
        package var row: Int
        package var audience: String
        /// The destination as written.
        package var destination: String
        /// Whether some profile is decided by this row; nil when undecided.
        package var reachable: Bool?
        /// A profile that `resolve` sends to this row, when `reachable` is true.
        package var witness: JSONValue?
        /// The key of the row's split or experiment when it is not `profile.id`: profiles
        /// without a string value for it do not enter the row.
        package var key: String?
        /// Whether held-out profiles may take the row (an `always` or `everyone` row).
        package var appliesWhenHeldOut = false
    }

    package var placement: String
    /// The instant of the analysis, Unix ms.
    package var now: Int64
    package var pairs: [Pair]
    package var rows: [Row]
    /// The holdout that covers the placement, if any: the profiles it holds out reach only its
    /// `always` rows and `everyone`.
    package var holdout: String?

    /// Whether some answer is undecided.
    package var hasUndecided: Bool {
        pairs.contains { $0.overlap == nil } || rows.contains { $0.reachable == nil }
    }
}

extension OverlapReport {
    /// Analyses the placement at `placement` of `program` at `now` (Unix ms).
    package static func analyze(_ program: Program, placement index: Int, now: Int64) -> OverlapReport {
        var search = ProfileSearch(graph: ConditionGraph(program), now: now)
        let placement = program.placements[index]
        let graph = search.graph
        var audiences: [(name: String, index: Int)] = []
        for row in placement.rows {
            guard let audience = row.audience, !audiences.contains(where: { $0.index == audience }) else { continue }
            audiences.append((row.source.audience.name, audience))
        }
        var pairs: [Pair] = []
        for (position, first) in audiences.enumerated() {
            for second in audiences[(position + 1)...] {
                let goals = [Goal(node: graph.audienceNodes[first.index], value: true),
                             Goal(node: graph.audienceNodes[second.index], value: true)]
                let answer = search.answer(goals) { profile in
                    var evaluator = Evaluator(program: program, profile: profile, now: now)
                    return evaluator.audienceMatches(first.index) && evaluator.audienceMatches(second.index)
                }
                pairs.append(Pair(a: first.name, b: second.name, overlap: answer.holds, witness: answer.witness))
            }
        }

        let rows = placement.rows.indices.map { reachability(program, placement: index, row: $0, search: &search, now: now) }
        return OverlapReport(placement: placement.name, now: now, pairs: pairs, rows: rows,
                             holdout: placement.isCoveredByHoldout ? program.holdout?.name : nil)
    }

    /// Whether some profile is decided by row `position` of the placement at `index` (the
    /// editor's hover on a row asks this alone).
    package static func reachability(_ program: Program, placement index: Int, row position: Int, now: Int64) -> Row {
        var search = ProfileSearch(graph: ConditionGraph(program), now: now)
        return reachability(program, placement: index, row: position, search: &search, now: now)
    }

    static func reachability(_ program: Program, placement index: Int, row position: Int, search: inout ProfileSearch, now: Int64) -> Row {
        let rows = program.placements[index].rows
        var report = Row(row: position + 1, audience: rows[position].source.audience.name,
                         destination: rows[position].source.destination.description, reachable: false, witness: nil,
                         appliesWhenHeldOut: rows[position].source.appliesWhenHeldOut)
        if let plan = rows[position].split, case .slot(let slot) = plan.key { report.key = FieldKey(program.slots[slot].target).displayName }
        // Reachable through any variant, held out or not: the first route settled with a witness.
        for route in Route.routes(program, placement: index, variants: false) where route.row == position {
            let goals = route.goals(program, placement: index, graph: search.graph)
            let answer = search.settle(goals, draws: route.draws(program, placement: index)) { profile, now in
                guard case .success(let decision) = program.decide(placement: index, for: profile, now: now) else { return false }
                return route.isTaken(by: decision)
            }
            switch answer {
            case .impossible: continue
            case .found(let witness):
                report.reachable = true
                report.witness = witness
                return report
            case .open: report.reachable = nil
            }
        }
        return report
    }
}

/// The answer to one yes-or-no question about profiles.
struct SearchAnswer {
    /// True (with a verified witness), false (proved), or nil (undecided).
    var holds: Bool?
    var witness: JSONValue?
}

extension ProfileSearch {
    /// Whether some profile meets `goals`, with a concrete witness that `verify` accepts (the
    /// caller evaluates it). A search that finds no verified witness answers nil unless it
    /// proved that no profile exists.
    mutating func answer(_ goals: [Goal], verify: (Profile) -> Bool) -> SearchAnswer {
        if case .impossible = solve(goals, concreteOnly: false) { return SearchAnswer(holds: false) }
        guard case .found(let found) = solve(goals, concreteOnly: true), let values = values(of: found) else { return SearchAnswer(holds: nil) }
        for json in ExampleProfile.witnesses(values) {
            guard case .success(let profile) = ProfileReader.read(json), verify(profile) else { continue }
            return SearchAnswer(holds: true, witness: json)
        }
        return SearchAnswer(holds: nil)
    }

    /// The field values a witness chose, or nil when one of them is abstract.
    mutating func values(of witness: Witness) -> [(FieldKey, ExampleValue)]? {
        var values: [(FieldKey, ExampleValue)] = []
        for (variable, option) in witness.choices {
            guard let value = value(of: variable, option: option, instant: witness.instant) else { return nil }
            values.append((graph.variables[variable].field, value))
        }
        return values
    }
}
