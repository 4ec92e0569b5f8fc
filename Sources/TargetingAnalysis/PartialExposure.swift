import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Profiles an experiment shows only half of: they enter it in one placement, and another
/// placement using it decides for them by a row above its experiment row, so they see a variant
/// on one screen and something else on the other. An experiment across placements exists to
/// show its screens together; such profiles blur what it measures.
package struct PartialExposure: Sendable {
    /// The experiment.
    package var experiment: String
    /// The placement where the profile enters the experiment.
    package var entered: String
    /// The placement that decides for it by an earlier row.
    package var skipped: String
    /// That earlier row's audience (`everyone` for that row).
    package var earlierRow: String
    /// Where the experiment row of `skipped` is written.
    package var range: SourceRange
    /// A profile that does both, as `resolve` decides it.
    package var witness: JSONValue
}

extension PartialExposure {
    /// Where each experiment is used: (placement index, row index) per experiment row.
    static func uses(_ program: Program) -> [String: [(placement: Int, row: Int)]] {
        var uses: [String: [(placement: Int, row: Int)]] = [:]
        for (placementIndex, placement) in program.placements.enumerated() {
            for (rowIndex, row) in placement.rows.enumerated() {
                if let plan = row.split, plan.isExperiment { uses[plan.id, default: []].append((placementIndex, rowIndex)) }
            }
        }
        return uses
    }

    /// `find(_:search:)` over a graph of `program` alone at `now`, built only when some
    /// experiment is used in several placements (otherwise there is nothing to find).
    static func find(_ program: Program, now: Int64) -> [PartialExposure] {
        guard uses(program).values.contains(where: { Set($0.map(\.placement)).count > 1 }) else { return [] }
        var search = ProfileSearch(graph: ConditionGraph(program), now: now)
        return find(program, search: &search)
    }

    /// For each experiment used in several placements and each ordered pair of them, the first
    /// profile found that enters it in one and is decided by a row above it in the other.
    /// A pair the search cannot settle within its budget gives nothing (no warning is a guess).
    static func find(_ program: Program, search: inout ProfileSearch) -> [PartialExposure] {
        let graph = search.graph
        var found: [PartialExposure] = []
        for (experiment, rows) in uses(program).sorted(by: { $0.key < $1.key }) where Set(rows.map(\.placement)).count > 1 {
            for entered in rows {
                for skipped in rows where skipped.placement != entered.placement {
                    guard !found.contains(where: { $0.experiment == experiment && $0.entered == program.placements[entered.placement].name
                        && $0.skipped == program.placements[skipped.placement].name }) else { continue }
                    search.workLeft = ProfileSearch.totalWork
                    let inside = Route.routes(program, placement: entered.placement, variants: false).filter { $0.row == entered.row }
                    let earlier = Route.routes(program, placement: skipped.placement, variants: false).filter { ($0.row ?? Int.max) < skipped.row }
                    search: for into in inside {
                        for before in earlier {
                            let goals = into.goals(program, placement: entered.placement, graph: graph)
                                + before.goals(program, placement: skipped.placement, graph: graph)
                            let draws = into.draws(program, placement: entered.placement) + before.draws(program, placement: skipped.placement)
                            let answer = search.settle(goals, draws: draws) { profile, now in
                                guard case .success(let there) = program.decide(placement: entered.placement, for: profile, now: now),
                                      case .success(let here) = program.decide(placement: skipped.placement, for: profile, now: now) else { return false }
                                return there.row == entered.row && there.experiment == experiment && (here.row ?? Int.max) < skipped.row
                            }
                            guard case .found(let witness) = answer, let row = before.row else { continue }
                            let placement = program.placements[skipped.placement]
                            found.append(PartialExposure(experiment: experiment, entered: program.placements[entered.placement].name,
                                                         skipped: placement.name, earlierRow: placement.rows[row].source.audience.name,
                                                         range: placement.rows[skipped.row].source.audience.range, witness: witness))
                            break search
                        }
                    }
                }
            }
        }
        return found
    }
}
