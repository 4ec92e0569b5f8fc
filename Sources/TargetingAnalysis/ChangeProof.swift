import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Whether a rule change changes what anyone sees (`targeting diff OLD NEW --prove`), decided
/// over every profile the two rule sets can tell apart at one instant, not over a sample.
///
/// Both rule sets become one condition graph over the same profile fields. A placement whose
/// rows read the same conditions (compared by content through every segment, whatever its name)
/// and decide alike (outcomes, splits, experiments, holdout) is equivalent without a search.
/// For every other placement in both, every way OLD can decide (a row, each variant of a split or experiment row, or no
/// match, for profiles held out or not) is paired with every way NEW can decide that shows
/// something else; each pair is a search for a profile that takes both. A pair the search
/// proves empty is settled; a profile it finds is given key values (an id, a key attribute)
/// that draw the needed variants and holdout, and is kept as a witness only after both
/// evaluators agree it moves as claimed. Anything the budget leaves open makes the placement
/// `undecided`, never `equivalent`.
package struct ChangeProof: Sendable {
    /// What a decision shows, as a proof compares them: the destination (nil for no match),
    /// the experiment variant that drew it, and the holdout that held the profile out. A split
    /// variant counts as its destination; audiences and split ids do not count.
    package struct Seen: Hashable, Sendable {
        /// What is shown; nil for no match.
        package var outcome: Outcome?
        /// The experiment whose draw decided, with `variant`.
        package var experiment: String?
        package var variant: String?
        /// The holdout that held the profile out, or nil.
        package var heldOutBy: String?

        package init(outcome: Outcome?, experiment: String? = nil, variant: String? = nil, heldOutBy: String? = nil) {
            self.outcome = outcome
            self.experiment = experiment
            self.variant = variant
            self.heldOutBy = heldOutBy
        }

        /// What `decision` shows.
        package init(_ decision: Decision) {
            self.init(outcome: decision.outcome, experiment: decision.experiment, variant: decision.variant,
                      heldOutBy: decision.heldOut ? decision.heldOutBy : nil)
        }
    }

    /// One kind of move, with a profile that makes it.
    package struct Transition: Sendable {
        package var before: Seen
        package var after: Seen
        /// A complete profile that OLD sends to `before` and NEW to `after`; it has an `id`
        /// unless the route found for the move is that of a profile without one (which a holdout
        /// or a draw on `profile.id` treats apart).
        package var witness: JSONValue

        /// The destination before (nil: no match).
        package var from: Outcome? { before.outcome }
        /// The destination after (nil: no match).
        package var to: Outcome? { after.outcome }
    }

    /// A pair of ways to decide that the search could not settle.
    package struct Unsettled: Sendable {
        package var before: Seen
        package var after: Seen
        /// Why: the search's budget, or no key value drawing the needed variants.
        package var reason: String

        package var from: Outcome? { before.outcome }
        package var to: Outcome? { after.outcome }
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
        /// The placements its prerequisites ask about (in either rule set, directly or through
        /// other placements) that are not equivalent: where its moves come from when its own
        /// rows did not change.
        package var asksAbout: [String] = []
    }

    /// The instant, Unix ms.
    package var now: Int64
    /// Placements of OLD in order, then those only in NEW.
    package var placements: [Placement]
    /// Whether either rule set has experiments or a holdout, so moves name variants and the
    /// holdout.
    package var reportsExperiments: Bool = false

    /// Experiments some profiles see only half of under NEW but not under OLD (`created`),
    /// and under OLD but not under NEW (`removed`), by experiment and placement pair; the
    /// witness is the rule set's that has it.
    package var exposuresCreated: [PartialExposure] = []
    package var exposuresRemoved: [PartialExposure] = []

    /// Whether some placement is undecided.
    package var hasUndecided: Bool { placements.contains { $0.status == .undecided } }
    /// Whether some placement changed, was added or was removed.
    package var hasChange: Bool { placements.contains { $0.status != .equivalent && $0.status != .undecided } }
}

extension ChangeProof {
    /// Proves or refutes, placement by placement, that `new` shows every profile what `old`
    /// shows it at `now` (Unix ms).
    package static func prove(old: Program, new: Program, now: Int64, placement only: String? = nil) -> ChangeProof {
        let graph = ConditionGraph([old, new])
        let canonical = graph.canonicalIDs()
        var search = ProfileSearch(graph: graph, now: now)
        var placements: [Placement] = []
        var names = old.placements.map(\.name)
        names += new.placements.map(\.name).filter { !names.contains($0) }
        for name in names where only == nil || only == name {
            switch (old.placementIndex(named: name), new.placementIndex(named: name)) {
            case (let before?, let after?):
                // Rows that read the same conditions and decide alike need no search.
                if isUnchanged(old: (old, before), new: (new, after), graph: graph, canonical: canonical) {
                    placements.append(Placement(name: name, status: .equivalent, transitions: [], unsettled: []))
                    continue
                }
                // Each placement is its own question with its own budget of work.
                search.workLeft = ProfileSearch.totalWork
                placements.append(prove(name, old: (old, before), new: (new, after), search: &search, now: now))
            case (nil, _?):
                placements.append(Placement(name: name, status: .added, transitions: [], unsettled: []))
            case (_?, nil):
                placements.append(Placement(name: name, status: .removed, transitions: [], unsettled: []))
            case (nil, nil):
                continue
            }
        }
        let moved = Set(placements.filter { $0.status != .equivalent }.map(\.name))
        for index in placements.indices where placements[index].status != .equivalent {
            var asked: [String] = []
            for program in [old, new] {
                guard let own = program.placementIndex(named: placements[index].name) else { continue }
                for dependency in program.placementDependencies[own] {
                    let name = program.placements[dependency].name
                    if moved.contains(name), !asked.contains(name) { asked.append(name) }
                }
            }
            placements[index].asksAbout = asked
        }
        var proof = ChangeProof(now: now, placements: placements, reportsExperiments: old.reportsExperiments || new.reportsExperiments)
        if only == nil {
            let before = PartialExposure.find(old, now: now), after = PartialExposure.find(new, now: now)
            func key(_ exposure: PartialExposure) -> [String] { [exposure.experiment, exposure.entered, exposure.skipped] }
            proof.exposuresCreated = after.filter { exposure in !before.contains { key($0) == key(exposure) } }
            proof.exposuresRemoved = before.filter { exposure in !after.contains { key($0) == key(exposure) } }
        }
        return proof
    }

    static func prove(_ name: String, old: (program: Program, index: Int), new: (program: Program, index: Int),
                      search: inout ProfileSearch, now: Int64) -> Placement {
        var transitions: [Transition] = []
        var unsettled: [Unsettled] = []
        let graph = search.graph
        let newRoutes = Route.routes(new.program, placement: new.index)
        for from in Route.routes(old.program, placement: old.index) {
            for to in newRoutes where from.seen != to.seen {
                if transitions.contains(where: { $0.before == from.seen && $0.after == to.seen }) { continue }
                let draws = from.draws(old.program, placement: old.index) + to.draws(new.program, placement: new.index)
                let goals = from.goals(old.program, placement: old.index, graph: graph, programIndex: 0)
                    + to.goals(new.program, placement: new.index, graph: graph, programIndex: 1)
                let answer = search.settle(goals, draws: draws) { profile, now in
                    guard case .success(let before) = old.program.decide(placement: old.index, for: profile, now: now),
                          case .success(let after) = new.program.decide(placement: new.index, for: profile, now: now) else { return false }
                    return Seen(before) == from.seen && Seen(after) == to.seen
                }
                switch answer {
                case .impossible: continue
                case .found(let witness): transitions.append(Transition(before: from.seen, after: to.seen, witness: witness))
                case .open(let reason): unsettled.append(Unsettled(before: from.seen, after: to.seen, reason: reason))
                }
            }
        }
        // A pair left open is settled after all when another pair showed the same move.
        unsettled.removeAll { open in transitions.contains { $0.before == open.before && $0.after == open.after } }
        var seenOpen: [Unsettled] = []
        for open in unsettled where !seenOpen.contains(where: { $0.before == open.before && $0.after == open.after }) { seenOpen.append(open) }
        let status: Status = !seenOpen.isEmpty ? .undecided : transitions.isEmpty ? .equivalent : .changed
        return Placement(name: name, status: status, transitions: transitions, unsettled: seenOpen)
    }
}
