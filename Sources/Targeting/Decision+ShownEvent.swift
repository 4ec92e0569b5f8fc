import Foundation
import TargetingEngine
import TargetingProfiles

extension Decision {
    /// The `placement_shown` event to report when the app shows this decision to the user, or
    /// nil when there is nothing to show (no row matched, or the row shows `nothing`).
    ///
    /// Its keys are `profile_id`, `name` (`placement_shown`), `placement`, `kind` (`flow` or
    /// `paywall`), `id`, `experiment` and `variant` (only when an experiment decided),
    /// `held_out`, and `at` (RFC 3339 in UTC, to the millisecond). Every value is a `String` or
    /// a `Bool`: forward it to your analytics unchanged, and write it as one JSON line of an
    /// event file for `targeting ingest`, which keeps it in the profile's history.
    ///
    /// ```swift
    /// let decision = try rules.resolve("main_paywall", for: profile)
    /// if let event = decision.shownEvent(profileID: userID) { analytics.track(event) }
    /// ```
    public func shownEvent(profileID: String, at time: Date = Date()) -> [String: any Sendable]? {
        guard let outcome else { return nil }
        let kind: ShownEvent.Kind, id: String
        switch outcome {
        case .flow(let flow): (kind, id) = (.flow, flow)
        case .paywall(let paywall): (kind, id) = (.paywall, paywall)
        case .nothing: return nil
        }
        let drawn = experiment.flatMap { experiment in variant.map { (experiment, $0) } }
        let event = ShownEvent(placement: placement, kind: kind, id: id, experiment: drawn?.0, variant: drawn?.1,
                               heldOut: heldOut, at: RuleSet.milliseconds(time))
        return event.params(profileID: profileID)
    }
}
