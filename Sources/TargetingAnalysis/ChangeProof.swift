import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Whether a rule change changes what anyone sees (`targeting diff OLD NEW --prove`), decided
/// over every profile the two rule sets can tell apart at one instant, not over a sample.
///
/// Both rule sets become one condition graph over the same profile fields. For each placement
/// in both, every way OLD can decide (a row, each variant of a split row, or no match) is
/// paired with every way NEW can decide that shows something else; each pair is a search for
/// a profile that takes both. A pair the search proves empty is settled; a profile it finds is
/// given an id that draws the needed split variants, and is kept as a witness only after both
/// evaluators agree it moves as claimed. Anything the budget leaves open makes the placement
/// `undecided`, never `equivalent`.
package struct ChangeProof: Sendable {
    /// A destination as users see it: what is shown, or nil for no match. A split variant
    /// counts as its destination; audiences and split ids do not count.
    package typealias Seen = Outcome?

    /// One kind of move, with a profile that makes it.
    package struct Transition: Sendable {
        package var from: Seen
        package var to: Seen
        /// A complete §2 profile, `id` included, that OLD sends to `from` and NEW to `to`.
        package var witness: JSONValue
    }

    /// A pair of ways to decide that the search could not settle.
    package struct Unsettled: Sendable {
        package var from: Seen
        package var to: Seen
        /// Why: the search's budget, or no id drawing the needed variants.
        package var reason: String
    }

    /// The verdict on one placement.
    package enum Status: String, Sendable {
        case equivalent, changed, added, removed, undecided
    }

    /// One placement's verdict.
    package struct Placement: Sendable {
        package var name: String
        package var status: Status
        /// Every distinct move found, in the order found (OLD's rows first).
        package var transitions: [Transition]
        /// What was left open (only for `undecided`).
        package var unsettled: [Unsettled]
    }

    /// The instant, Unix ms.
    package var now: Int64
    /// Placements of OLD in order, then those only in NEW.
    package var placements: [Placement]

    /// Whether some placement is undecided.
    package var hasUndecided: Bool { placements.contains { $0.status == .undecided } }
    /// Whether some placement changed, was added or was removed.
    package var hasChange: Bool { placements.contains { $0.status != .equivalent && $0.status != .undecided } }
}

extension ChangeProof {
    /// Most ids tried when looking for one whose draws pick the needed variants of two splits
    /// with different ids; the rarest pair (1 % and 1 %) is missed with a chance below e⁻²⁰.
    static let idAttempts = 200_000

    /// Proves or refutes, placement by placement, that `new` shows every profile what `old`
    /// shows it at `now` (Unix ms).
    package static func prove(old: Program, new: Program, now: Int64, placement only: String? = nil) -> ChangeProof {
        let graph = ConditionGraph([old, new])
        var search = ProfileSearch(graph: graph, now: now)
        var placements: [Placement] = []
        var names = old.placements.map(\.name)
        names += new.placements.map(\.name).filter { !names.contains($0) }
        for name in names where only == nil || only == name {
            switch (old.placementIndex(named: name), new.placementIndex(named: name)) {
            case (let before?, let after?):
                // Each placement is its own question with its own budget of work.
                search.workLeft = ProfileSearch.totalWork
                placements.append(prove(name, old: (old, before), new: (new, after), graph: graph, search: &search, now: now))
            case (nil, _?):
                placements.append(Placement(name: name, status: .added, transitions: [], unsettled: []))
            case (_?, nil):
                placements.append(Placement(name: name, status: .removed, transitions: [], unsettled: []))
            case (nil, nil):
                continue
            }
        }
        return ChangeProof(now: now, placements: placements)
    }

    /// One way a placement can decide: a row (one variant of a split row), or no match.
    struct Route {
        /// The row, nil for no match.
        var row: Int?
        /// For a split row: the plan and the variant's step.
        var split: (plan: SplitPlan, step: Int)?
        var seen: Seen
    }

    static func routes(of placement: Program.Placement) -> [Route] {
        var routes: [Route] = []
        for (index, row) in placement.rows.enumerated() {
            if let plan = row.split {
                for (step, variant) in plan.steps.enumerated() {
                    routes.append(Route(row: index, split: (plan, step), seen: Outcome(variant.destination)))
                }
            } else {
                routes.append(Route(row: index, split: nil, seen: Outcome(row.source.destination)))
            }
        }
        if !placement.rows.contains(where: { $0.audience == nil }) { routes.append(Route(row: nil, split: nil, seen: nil)) }
        return routes
    }

    /// The goals under which `route` decides: its row's audience matches and none above does
    /// (for no match: no row matches).
    static func goals(_ route: Route, rows: [Program.Row], audienceNodes: [Int], trueNode: Int) -> [Goal] {
        func node(_ row: Program.Row) -> Int { row.audience.map { audienceNodes[$0] } ?? trueNode }
        let above = rows[..<(route.row ?? rows.count)].map { Goal(node: node($0), value: false) }
        return (route.row.map { [Goal(node: node(rows[$0]), value: true)] } ?? []) + above
    }

    static func prove(_ name: String, old: (program: Program, index: Int), new: (program: Program, index: Int),
                      graph: ConditionGraph, search: inout ProfileSearch, now: Int64) -> Placement {
        let oldPlacement = old.program.placements[old.index], newPlacement = new.program.placements[new.index]
        var transitions: [Transition] = []
        var unsettled: [Unsettled] = []
        for from in routes(of: oldPlacement) {
            for to in routes(of: newPlacement) where from.seen != to.seen {
                if transitions.contains(where: { $0.from == from.seen && $0.to == to.seen }) { continue }
                if let splits = splitPair(from, to), !splits.isPossible { continue }
                let goals = goals(from, rows: oldPlacement.rows, audienceNodes: graph.programAudienceNodes[0], trueNode: graph.trueNode)
                    + goals(to, rows: newPlacement.rows, audienceNodes: graph.programAudienceNodes[1], trueNode: graph.trueNode)
                if case .impossible = search.solve(goals, concreteOnly: false) { continue }
                guard case .found(let found) = search.solve(goals, concreteOnly: true), let values = search.values(of: found) else {
                    unsettled.append(Unsettled(from: from.seen, to: to.seen, reason: "the search ran out of budget"))
                    continue
                }
                if let witness = witness(values, from: from, to: to, old: old, new: new, now: now) {
                    transitions.append(Transition(from: from.seen, to: to.seen, witness: witness))
                } else {
                    unsettled.append(Unsettled(from: from.seen, to: to.seen, reason: "no profile id found that draws the split variants"))
                }
            }
        }
        // A pair left open is settled after all when another pair showed the same move.
        unsettled.removeAll { open in transitions.contains { $0.from == open.from && $0.to == open.to } }
        let status: Status = !unsettled.isEmpty ? .undecided : transitions.isEmpty ? .equivalent : .changed
        return Placement(name: name, status: status, transitions: transitions, unsettled: unsettled)
    }

    /// The split draws two routes need, when at least one is a split variant.
    struct SplitPair {
        var first: (plan: SplitPlan, step: Int)?
        var second: (plan: SplitPlan, step: Int)?

        /// Whether some bucket draws both: with one split id on both sides the same bucket
        /// draws both variants; different ids draw independently.
        var isPossible: Bool {
            guard let first, let second, first.plan.id == second.plan.id else { return true }
            return (0..<100).contains { first.plan.step(forBucket: $0) == first.step && second.plan.step(forBucket: $0) == second.step }
        }

        /// Whether a profile with this id draws both variants.
        func draws(_ id: String) -> Bool {
            (first.map { $0.plan.step(forProfileID: id) == $0.step } ?? true)
                && (second.map { $0.plan.step(forProfileID: id) == $0.step } ?? true)
        }

        /// The first of `witness`, `witness-1`, `witness-2`, … (at most `idAttempts`) that
        /// draws both variants; nil when none does.
        var drawingID: String? {
            (0..<ChangeProof.idAttempts).lazy
                .map { $0 == 0 ? ExampleProfile.witnessID : "\(ExampleProfile.witnessID)-\($0)" }
                .first(where: draws)
        }
    }

    /// The ids to try for a witness of `from` and `to`: the plain witness id, or the one that
    /// draws the split variants they need (none when no id does).
    static func witnessIDs(_ from: Route, _ to: Route) -> [String] {
        guard let splits = splitPair(from, to) else { return [ExampleProfile.witnessID] }
        return splits.drawingID.map { [$0] } ?? []
    }

    static func splitPair(_ from: Route, _ to: Route) -> SplitPair? {
        from.split == nil && to.split == nil ? nil : SplitPair(first: from.split, second: to.split)
    }

    /// A verified witness of a move: the search's values with an id that draws the needed
    /// variants, which OLD sends to `from` and NEW to `to`; nil when none was found.
    static func witness(_ values: [(FieldKey, ExampleValue)], from: Route, to: Route,
                        old: (program: Program, index: Int), new: (program: Program, index: Int), now: Int64) -> JSONValue? {
        for json in ExampleProfile.witnesses(values, ids: witnessIDs(from, to)) {
            guard case .success(let profile) = ProfileReader.read(json),
                  case .success(let before) = old.program.decide(placement: old.index, for: profile, now: now),
                  case .success(let after) = new.program.decide(placement: new.index, for: profile, now: now),
                  before.outcome == from.seen, after.outcome == to.seen else { continue }
            return json
        }
        return nil
    }
}
