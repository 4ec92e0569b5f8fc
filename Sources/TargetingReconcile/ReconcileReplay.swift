import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingStore
import TargetingSyntax

/// The profiles of a `reconcile` replay, held in memory and built from an empty store as
/// `ingest` builds them; at each shown line, before recording it, the line is compared with
/// what the rules decide for the profile as it stands, at the line's `at`.
///
/// So the rules see the answers, built-in fields and history of every earlier line, this
/// line's never: a cap counts the earlier showings, a sticky experiment sees the assignment an
/// earlier line recorded.
package struct ReconcileReplay: IngestDestination {
    package let program: Program
    private var profiles: [Profile] = []
    private var indexByID: [String: Int] = [:]
    /// Declared placements in declaration order, then the undeclared ones the lines name.
    private var placements: [PlacementReconciliation]
    /// Where each undeclared placement is in `placements`.
    private var undeclared: [String: Int] = [:]
    /// Declared experiments in declaration order.
    private var experiments: [SampleRatioCheck]
    private var experimentIndex: [String: Int] = [:]
    /// The shown lines of the profile followed, if any, with the explanation of each prediction.
    private var explained: ReconcileTrace?

    /// An empty replay over `program`; with `explaining`, the shown lines of that profile are
    /// kept in `trace` with the explanation of each prediction.
    package init(program: Program, explaining: String? = nil) {
        self.program = program
        explained = explaining.map(ReconcileTrace.init)
        placements = program.placements.map { PlacementReconciliation(placement: $0.name, isDeclared: true) }
        experiments = program.ruleSet.experiments.map { experiment in
            SampleRatioCheck(experiment: experiment.name.text, variants: experiment.variants.map {
                SampleRatioCheck.Variant(name: $0.name.text, weight: $0.weightValue, assigned: 0, isDeclared: true)
            })
        }
        for (index, experiment) in experiments.enumerated() { experimentIndex[experiment.experiment] = index }
    }

    /// What the lines so far amount to.
    package var report: ReconcileReport { ReconcileReport(placements: placements, experiments: experiments) }

    /// The shown lines of the profile given as `explaining`, with their explanations; it is known
    /// when some line created it.
    package var trace: ReconcileTrace? {
        guard var trace = explained else { return nil }
        trace.isKnown = indexByID[trace.profileID] != nil
        return trace
    }

    package var storedCount: Int { 0 }

    package func index(of id: String) -> Int? { indexByID[id] }

    @discardableResult
    package mutating func update(id: String, at known: Int?, _ change: (inout Profile) -> Bool) -> Bool {
        if let known {
            _ = change(&profiles[known])
            return false
        }
        var fresh = ReconcileReplay.fresh(id)
        guard change(&fresh) else { return false }
        indexByID[id] = profiles.count
        profiles.append(fresh)
        return true
    }

    /// Classifies the line against the rules' decision for the profile before it, counts a first
    /// assignment for the sample-ratio check, then records the line in the history.
    package mutating func record(_ shown: ShownEvent, profileID id: String, file: String, line: Int) -> Bool {
        var created = false
        let index: Int
        if let known = indexByID[id] {
            index = known
        } else {
            // The profile before its first line holds only its id, as a store creates it.
            index = profiles.count
            indexByID[id] = index
            profiles.append(ReconcileReplay.fresh(id))
            created = true
        }
        let placement = program.placementIndex(named: shown.placement)
        let assignedBefore = shown.experiment.flatMap { profiles[index].history?.assignment(of: $0)?.variant }
        let prediction: ReconcilePrediction
        if let placement {
            switch program.decide(placement: placement, for: profiles[index], now: shown.at) {
            case .success(let decision): prediction = .decided(decision)
            case .failure(let error): prediction = .undecided(error)
            }
        } else {
            prediction = .unknownPlacement
        }
        let kind = ReconcileClass.of(shown, prediction: prediction.decision, isKnownPlacement: placement != nil, assignedBefore: assignedBefore)
        let replayed = ReconcileLine(file: file, line: line, profileID: id, shown: shown, prediction: prediction, kind: kind)
        placements[placement ?? undeclaredIndex(shown.placement)].add(replayed)
        if id == explained?.profileID {
            var explanation: Explanation?
            if let placement, case .success(let explained) = program.explain(placement: placement, for: profiles[index], now: shown.at) {
                explanation = explained
            }
            explained?.entries.append(ReconcileTrace.Entry(line: replayed, explanation: explanation))
        }
        if assignedBefore == nil, let experiment = shown.experiment, let variant = shown.variant, let slot = experimentIndex[experiment] {
            countFirstAssignment(of: variant, in: slot)
        }
        profiles[index].record(shown)
        return created
    }

    /// A profile holding only `id`.
    private static func fresh(_ id: String) -> Profile {
        var profile = Profile()
        profile.setField("id", .string(id))
        return profile
    }

    /// Where the undeclared placement `name` is counted (added at the end when first seen).
    private mutating func undeclaredIndex(_ name: String) -> Int {
        if let known = undeclared[name] { return known }
        placements.append(PlacementReconciliation(placement: name, isDeclared: false))
        undeclared[name] = placements.count - 1
        return placements.count - 1
    }

    /// Counts a profile first assigned `variant` of experiment `slot` (a variant the
    /// experiment does not declare is added after the declared ones).
    private mutating func countFirstAssignment(of variant: String, in slot: Int) {
        if let position = experiments[slot].variants.firstIndex(where: { $0.name == variant }) {
            experiments[slot].variants[position].assigned += 1
        } else {
            experiments[slot].variants.append(SampleRatioCheck.Variant(name: variant, weight: 0, assigned: 1, isDeclared: false))
        }
    }
}
