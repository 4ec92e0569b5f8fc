import TargetingEngine
import TargetingProfiles

/// One side of a comparison: what a line showed, or what the rules would show in its place —
/// the destination, the experiment and variant that drew it, and whether the holdout held the
/// profile out.
package struct ReconcileOutcome: Hashable, Sendable {
    /// The flow or paywall, or `nothing`.
    package var destination: Outcome
    /// The experiment that drew the variant, when one did.
    package var experiment: String?
    /// The experiment's variant, with `experiment`.
    package var variant: String?
    /// Whether the holdout held the profile out.
    package var heldOut: Bool

    package init(destination: Outcome, experiment: String? = nil, variant: String? = nil, heldOut: Bool = false) {
        self.destination = destination
        self.experiment = experiment
        self.variant = variant
        self.heldOut = heldOut
    }

    /// What the line `shown` showed.
    package init(_ shown: ShownEvent) {
        let destination: Outcome
        switch shown.kind {
        case .flow: destination = .flow(shown.id)
        case .paywall: destination = .paywall(shown.id)
        }
        self.init(destination: destination, experiment: shown.experiment, variant: shown.variant, heldOut: shown.heldOut)
    }

    /// What `decision` shows, or nil when no row matched.
    package init?(_ decision: Decision) {
        guard let outcome = decision.outcome else { return nil }
        self.init(destination: outcome, experiment: decision.experiment, variant: decision.variant, heldOut: decision.heldOut)
    }
}
