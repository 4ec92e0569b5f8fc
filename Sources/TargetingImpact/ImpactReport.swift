import TargetingEngine

/// The impact of a rule change on a profile corpus, accumulated one profile at a time so memory
/// does not grow with the corpus (only counts and a few example ids per transition are kept).
package struct ImpactReport: Sendable {
    /// One from → to change of destination.
    package struct Transition: Hashable, Sendable {
        /// The destination under the old rules (`flow "x"`, `paywall "y"`, `nothing`, `no match`).
        package var from: String
        /// The destination under the new rules.
        package var to: String
        /// How many profiles moved.
        package var count: Int
        /// Up to `examplesPerTransition` profile ids, in corpus order.
        package var examples: [String]
    }

    /// Per placement.
    package struct PlacementImpact: Sendable {
        /// The placement name.
        package var name: String
        /// `changed`/`unchanged` (in both rule sets), `added` or `removed`.
        package var status: String
        /// Profiles resolved.
        package var profiles: Int
        /// Profiles whose destination changed.
        package var changed: Int
        /// The transitions, most frequent first.
        package var transitions: [Transition]
    }

    /// How many example ids each transition keeps.
    package let examplesPerTransition: Int
    var order: [String] = []
    var status: [String: String] = [:]
    var profiles: [String: Int] = [:]
    var transitions: [String: [String: Transition]] = [:]

    /// Creates an empty report for placements under the old and new rules.
    package init(oldPlacements: [String], newPlacements: [String], examplesPerTransition: Int = 3) {
        self.examplesPerTransition = examplesPerTransition
        let newSet = Set(newPlacements)
        let oldSet = Set(oldPlacements)
        for name in oldPlacements {
            order.append(name)
            status[name] = newSet.contains(name) ? "unchanged" : "removed"
        }
        for name in newPlacements where !oldSet.contains(name) {
            order.append(name)
            status[name] = "added"
        }
    }

    /// The text form of a decision's destination.
    package static func destination(_ decision: Decision) -> String {
        guard let outcome = decision.outcome else { return "no match" }
        return outcome.description
    }

    /// Records one profile's decision for a placement under both rule sets.
    package mutating func record(placement: String, profileID: String?, old: Decision, new: Decision) {
        profiles[placement, default: 0] += 1
        let from = ImpactReport.destination(old)
        let to = ImpactReport.destination(new)
        guard from != to else { return }
        status[placement] = "changed"
        let key = from + "\u{0}" + to
        var transition = transitions[placement]?[key] ?? Transition(from: from, to: to, count: 0, examples: [])
        transition.count += 1
        if transition.examples.count < examplesPerTransition { transition.examples.append(profileID ?? "(no id)") }
        transitions[placement, default: [:]][key] = transition
    }

    /// The placements in order (old rules' order, then added ones).
    package var placements: [PlacementImpact] {
        order.map { name in
            let list = (transitions[name] ?? [:]).values.sorted {
                $0.count != $1.count ? $0.count > $1.count : ($0.from, $0.to) < ($1.from, $1.to)
            }
            return PlacementImpact(name: name, status: status[name] ?? "unchanged", profiles: profiles[name] ?? 0,
                                   changed: list.reduce(0) { $0 + $1.count }, transitions: list)
        }
    }

    /// Whether anything changed: a destination, or a placement added or removed.
    package var hasChanges: Bool { placements.contains { $0.status != "unchanged" } }
}
