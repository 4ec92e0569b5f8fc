import TargetingBase

/// A `placement_shown` line of an event file: the app showed a placement's decision to the
/// user, and reports it so the profile's history keeps it:
///
///     {"profile_id":"u1","name":"placement_shown","placement":"main_paywall","kind":"paywall","id":"pw_annual",
///      "experiment":"annual_first","variant":"annual_first","held_out":false,"at":"2026-12-01T10:00:00Z"}
///
/// `placement`, `kind` (`flow` or `paywall`), `id` (non-empty strings) and `at` (an RFC 3339
/// instant with time and zone) are required; `experiment` and `variant` (non-empty strings,
/// both or neither) and `held_out` (a boolean, false when absent) are optional, and `null`
/// counts as absent for them. Other members (the SDK's own, `time_zone`) are left alone. One
/// bad member rejects the whole line.
package struct ShownEvent: Hashable, Sendable {
    /// The event name of such a line.
    package static let eventName = "placement_shown"

    /// What kind of destination was shown.
    package enum Kind: String, Hashable, Sendable {
        case flow
        case paywall
    }

    /// The placement shown.
    package var placement: String
    /// Whether a flow or a paywall was shown.
    package var kind: Kind
    /// The flow or paywall id.
    package var id: String
    /// The experiment that drew the variant, when one did.
    package var experiment: String?
    /// The experiment's variant, with `experiment`.
    package var variant: String?
    /// Whether the rule set's holdout held the profile out.
    package var heldOut: Bool
    /// When it was shown, in Unix milliseconds.
    package var at: Int64

    /// A shown event.
    package init(placement: String, kind: Kind, id: String, experiment: String? = nil, variant: String? = nil, heldOut: Bool = false, at: Int64) {
        self.placement = placement
        self.kind = kind
        self.id = id
        self.experiment = experiment
        self.variant = variant
        self.heldOut = heldOut
        self.at = at
    }

    /// Reads a line's params (the line's `name` already said it is a shown event); the failure
    /// is a lowercase reason naming the member.
    package static func read(_ params: some EventParams) -> Result<ShownEvent, ProfileError> {
        func reject(_ message: String) -> Result<ShownEvent, ProfileError> { .failure(ProfileError(message: message)) }
        guard params.isObject else { return reject("event parameters must be an object") }

        /// A required non-empty string, or why the member is not one.
        func required(_ key: String, _ what: String) -> Result<String, ProfileError> {
            guard let value = params[key] else { return .failure(ProfileError(message: "missing `\(key)`, \(what)")) }
            guard case .string(let text) = value, !text.isEmpty else {
                return .failure(ProfileError(message: "`\(key)` must be a non-empty string, found \(ProfileHistory.describe(value))"))
            }
            return .success(text)
        }
        /// An optional non-empty string (absent or `null`: nil), or why the member is not one.
        func optional(_ key: String) -> Result<String?, ProfileError> {
            guard let value = params[key], value != .null else { return .success(nil) }
            guard case .string(let text) = value, !text.isEmpty else {
                return .failure(ProfileError(message: "`\(key)` must be a non-empty string, found \(ProfileHistory.describe(value))"))
            }
            return .success(text)
        }

        let placement: String, id: String
        switch required("placement", "the placement shown") {
        case .failure(let error): return .failure(error)
        case .success(let text): placement = text
        }
        let kind: Kind
        guard let kindValue = params["kind"] else { return reject("missing `kind`, `flow` or `paywall`") }
        guard case .string(let kindText) = kindValue, let known = Kind(rawValue: kindText) else {
            return reject("`kind` must be `flow` or `paywall`, found \(ProfileHistory.describe(kindValue))")
        }
        kind = known
        switch required("id", "the \(kind.rawValue) id shown") {
        case .failure(let error): return .failure(error)
        case .success(let text): id = text
        }
        let experiment: String?, variant: String?
        switch optional("experiment") {
        case .failure(let error): return .failure(error)
        case .success(let text): experiment = text
        }
        switch optional("variant") {
        case .failure(let error): return .failure(error)
        case .success(let text): variant = text
        }
        if let experiment, variant == nil { return reject("`experiment` `\(experiment)` is given without `variant`; give both or neither") }
        if let variant, experiment == nil { return reject("`variant` `\(variant)` is given without `experiment`; give both or neither") }
        var heldOut = false
        if let value = params["held_out"], value != .null {
            guard case .bool(let flag) = value else { return reject("`held_out` must be a boolean, found \(ProfileHistory.describe(value))") }
            heldOut = flag
        }
        guard let atValue = params["at"] else { return reject("missing `at`, the RFC 3339 instant it was shown at") }
        guard let at = ProfileHistory.instant(atValue) else {
            return reject("`at` must be an RFC 3339 instant with time and zone such as `2026-12-01T10:00:00Z`, found \(ProfileHistory.describe(atValue))")
        }
        return .success(ShownEvent(placement: placement, kind: kind, id: id, experiment: experiment, variant: variant, heldOut: heldOut, at: at))
    }
}

extension ShownEvent {
    /// The event as the line's params, keyed as `read(_:)` reads them: `profile_id`, `name`,
    /// `placement`, `kind`, `id`, `experiment` and `variant` when an experiment drew it,
    /// `held_out`, and `at` as RFC 3339 text in UTC. Every value is a `String` or a `Bool`, so an
    /// app can forward it to its analytics unchanged.
    package func params(profileID: String) -> [String: any Sendable] {
        var params: [String: any Sendable] = [
            "profile_id": profileID,
            "name": ShownEvent.eventName,
            "placement": placement,
            "kind": kind.rawValue,
            "id": id,
            "held_out": heldOut,
            "at": Timestamp.format(at),
        ]
        if let experiment, let variant {
            params["experiment"] = experiment
            params["variant"] = variant
        }
        return params
    }
}
