import TargetingEngine

/// The impact of a rule change on a profile corpus, accumulated one profile at a time so memory
/// does not grow with the corpus (only counts and a few example ids per transition are kept).
package struct ImpactReport: Sendable {
    /// What tells two decisions apart in a report.
    package enum View: String, Hashable, Sendable, CaseIterable {
        /// The audience, the destination and the split variant, as `resolve --summary` sizes
        /// them: a holdout draw (`nothing` from a split) and a `nothing` row stay apart.
        case row
        /// The destination alone: every `nothing` is one, whichever row gave it.
        case destination
    }

    /// Where a decision sends a profile: a destination, `nothing`, or no match; in the row view
    /// also the deciding audience and split.
    package struct Shown: Hashable, Sendable, Comparable {
        /// The decision without its profile id and row index (and, in the destination view,
        /// without its audience and split).
        package private(set) var entry: Decision
        /// Which view the decision is shown in.
        package let view: View

        package init(_ decision: Decision, view: View = .row) {
            entry = decision
            entry.profileID = nil
            entry.row = nil
            // An entry is a decision: whether a sticky assignment or a draw gave it is a figure
            // of the entry (`Size.stickyBefore`), not another entry.
            entry.isSticky = false
            // Whether the JSON form carries the experiment keys is the report's choice, not a difference.
            entry.reportsExperiments = false
            self.view = view
            if view == .destination {
                entry.experiment = nil
                entry.variant = nil
                entry.heldOut = false
                entry.heldOutBy = nil
                if decision.audience != nil {
                    // Only whether a row decided is kept, so every row giving one destination is one.
                    entry.audience = ""
                    entry.split = nil
                }
            }
        }

        /// `flow`, `paywall`, or nil for `nothing` and for no match.
        package var kind: String? { entry.outcome?.kind }
        /// The flow or paywall id.
        package var id: String? { entry.outcome?.id }
        /// Whether some row decided (false: no match).
        package var matched: Bool { entry.audience != nil }
        /// The deciding audience in the row view (nil for no match and in the destination view).
        package var audience: String? { view == .row ? entry.audience : nil }
        /// The deciding split in the row view.
        package var split: String? { view == .row ? entry.split : nil }
        /// The deciding experiment and its variant in the row view.
        package var experiment: String? { view == .row ? entry.experiment : nil }
        package var variant: String? { view == .row ? entry.variant : nil }
        /// Whether the holdout held the profiles out, in the row view.
        package var heldOut: Bool { view == .row && entry.heldOut }

        /// In the destination view `flow "x"`, `paywall "y"`, `nothing` or `no match`; in the
        /// row view the text of `resolve --summary`, e.g. `nothing (audience `a`, split `s`)`.
        package var description: String {
            if view == .row { return entry.outcomeText }
            guard matched else { return "no match" }
            guard let kind, let id else { return "nothing" }
            return "\(kind) \"\(id)\""
        }

        package static func < (lhs: Shown, rhs: Shown) -> Bool { lhs.description < rhs.description }
    }

    /// One from → to change of decision.
    package struct Transition: Hashable, Sendable {
        /// Where the old rules sent the profiles.
        package var from: Shown
        /// Where the new rules send them.
        package var to: Shown
        /// How many profiles moved.
        package var count: Int
        /// Up to `examplesPerTransition` profile ids, in corpus order.
        package var examples: [String]
        /// How many of them a sticky experiment's recorded assignment kept under the old rules.
        package var stickyBefore: Int = 0
        /// How many of them a recorded assignment keeps under the new rules.
        package var stickyAfter: Int = 0
    }

    /// How many profiles one destination takes, before and after.
    package struct Size: Hashable, Sendable {
        package var shown: Shown
        package var before: Int
        package var after: Int
        /// How many of `before` a sticky experiment's recorded assignment kept.
        package var stickyBefore: Int = 0
        /// How many of `after` a recorded assignment keeps.
        package var stickyAfter: Int = 0

        /// Adds `other`'s counts (of the same entry).
        mutating func add(_ other: Size) {
            before += other.before
            after += other.after
            stickyBefore += other.stickyBefore
            stickyAfter += other.stickyAfter
        }
    }

    /// What a rule change did to a placement.
    package enum Status: String, Hashable, Sendable {
        /// Some profile's decision changed (as the view tells decisions apart).
        case changed
        /// In both rule sets, and no profile's decision changed.
        case unchanged
        /// Only the new rules have it.
        case added
        /// Only the old rules have it.
        case removed
    }

    /// Per placement.
    package struct PlacementImpact: Sendable {
        /// The placement name.
        package var name: String
        /// What the change did to it.
        package var status: Status
        /// Profiles resolved.
        package var profiles: Int
        /// Profiles whose decision changed (in the destination view: whose destination changed).
        package var changed: Int
        /// The transitions, most frequent first.
        package var transitions: [Transition]
        /// Each destination's profile count under the old and the new rules (0 where a placement
        /// is added or removed), largest first.
        package var sizes: [Size]
    }

    /// How many example ids each transition keeps.
    package let examplesPerTransition: Int
    /// What tells decisions apart.
    package let view: View
    /// Whether either rule set has experiments or a holdout, so the JSON form of a decision
    /// carries `experiment`, `variant` and `held_out`.
    package var reportsExperiments = false
    /// The experiments either rule set declares `sticky`: an entry of one of them says how many
    /// of its profiles a recorded assignment kept (and with any, the JSON form says it of every
    /// entry).
    package var stickyExperiments: Set<String> = []
    var order: [String] = []
    var status: [String: Status] = [:]
    var profiles: [String: Int] = [:]
    var transitions: [String: [String: Transition]] = [:]
    var sizes: [String: [Shown: Size]] = [:]

    /// Creates an empty report for placements under the old and new rules.
    package init(oldPlacements: [String], newPlacements: [String], examplesPerTransition: Int = 3, view: View = .row) {
        self.init(PlacementPairing(old: oldPlacements, new: newPlacements), examplesPerTransition: examplesPerTransition, view: view)
    }

    /// Creates an empty report for the placements of `pairing`.
    package init(_ pairing: PlacementPairing, examplesPerTransition: Int = 3, view: View = .row) {
        self.examplesPerTransition = examplesPerTransition
        self.view = view
        order = pairing.all
        for name in pairing.shared { status[name] = .unchanged }
        for name in pairing.removed { status[name] = .removed }
        for name in pairing.added { status[name] = .added }
    }

    /// The text form of a decision's destination.
    package static func destination(_ decision: Decision) -> String { Shown(decision, view: .destination).description }

    /// Records one profile's decision for a placement under both rule sets (nil for the side
    /// where the placement does not exist).
    package mutating func record(placement: String, profileID: String?, old: Decision?, new: Decision?) {
        profiles[placement, default: 0] += 1
        let from = old.map { Shown($0, view: view) }
        let to = new.map { Shown($0, view: view) }
        // Counted in place: one dictionary access per side, no size built per profile.
        if let from {
            ImpactReport.count(&sizes[placement, default: [:]][from, default: Size(shown: from, before: 0, after: 0)], before: true, sticky: old?.isSticky == true)
        }
        if let to {
            ImpactReport.count(&sizes[placement, default: [:]][to, default: Size(shown: to, before: 0, after: 0)], before: false, sticky: new?.isSticky == true)
        }
        guard let from, let to, from != to else { return }
        status[placement] = .changed
        let key = from.description + "\u{0}" + to.description
        var transition = transitions[placement]?[key] ?? Transition(from: from, to: to, count: 0, examples: [])
        transition.count += 1
        if old?.isSticky == true { transition.stickyBefore += 1 }
        if new?.isSticky == true { transition.stickyAfter += 1 }
        if transition.examples.count < examplesPerTransition { transition.examples.append(profileID ?? "(no id)") }
        transitions[placement, default: [:]][key] = transition
    }

    /// Counts one profile in `size`, before or after the change, and among those a sticky
    /// assignment kept when `sticky`.
    private static func count(_ size: inout Size, before: Bool, sticky: Bool) {
        if before {
            size.before += 1
            if sticky { size.stickyBefore += 1 }
        } else {
            size.after += 1
            if sticky { size.stickyAfter += 1 }
        }
    }

    /// Whether a sticky experiment's recorded assignment can decide `shown`'s entry.
    package func canStick(_ shown: Shown) -> Bool {
        shown.experiment.map(stickyExperiments.contains) ?? false
    }

    /// Adds `later`, a report of the profiles that follow this report's in the corpus, over the
    /// same placements and view: counts add up, and each transition keeps its first examples in
    /// corpus order, so partial reports merged in order equal one report recorded serially.
    package mutating func merge(_ later: ImpactReport) {
        for (placement, count) in later.profiles { profiles[placement, default: 0] += count }
        for (placement, status) in later.status where status == .changed { self.status[placement] = status }
        for (placement, sizes) in later.sizes {
            var merged = self.sizes[placement] ?? [:]
            for (shown, size) in sizes {
                if var existing = merged[shown] {
                    existing.add(size)
                    merged[shown] = existing
                } else {
                    merged[shown] = size
                }
            }
            self.sizes[placement] = merged
        }
        for (placement, transitions) in later.transitions {
            var merged = self.transitions[placement] ?? [:]
            for (key, transition) in transitions {
                if var existing = merged[key] {
                    existing.count += transition.count
                    existing.stickyBefore += transition.stickyBefore
                    existing.stickyAfter += transition.stickyAfter
                    existing.examples += transition.examples.prefix(max(0, examplesPerTransition - existing.examples.count))
                    merged[key] = existing
                } else {
                    merged[key] = transition
                }
            }
            self.transitions[placement] = merged
        }
    }

    /// The placements in order (old rules' order, then added ones).
    package var placements: [PlacementImpact] {
        order.map { name in
            let list = (transitions[name] ?? [:]).values.sorted {
                $0.count != $1.count ? $0.count > $1.count : ($0.from, $0.to) < ($1.from, $1.to)
            }
            let sizes = (sizes[name] ?? [:]).values.sorted {
                max($0.before, $0.after) != max($1.before, $1.after) ? max($0.before, $0.after) > max($1.before, $1.after) : $0.shown < $1.shown
            }
            return PlacementImpact(name: name, status: status[name] ?? .unchanged, profiles: profiles[name] ?? 0,
                                   changed: list.reduce(0) { $0 + $1.count }, transitions: list, sizes: sizes)
        }
    }

    /// Whether anything changed: a destination, or a placement added or removed.
    package var hasChanges: Bool { placements.contains { $0.status != .unchanged } }
}
