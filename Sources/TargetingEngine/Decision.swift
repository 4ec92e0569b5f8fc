import TargetingBase
import TargetingSyntax

/// What a placement shows: a flow, a paywall, or nothing (a holdout or a `nothing` row).
public enum Outcome: Hashable, Sendable {
    /// A flow id.
    case flow(String)
    /// A paywall id.
    case paywall(String)
    /// Nothing: a holdout variant or a `nothing` row.
    case nothing

    /// `"flow"`, `"paywall"`, or nil for nothing.
    public var kind: String? {
        switch self {
        case .flow: "flow"
        case .paywall: "paywall"
        case .nothing: nil
        }
    }

    /// The flow or paywall id, or nil for nothing.
    public var id: String? {
        switch self {
        case .flow(let id), .paywall(let id): id
        case .nothing: nil
        }
    }
}

/// The result of resolving one placement for one profile.
public struct Decision: Hashable, Sendable {
    /// The placement's name.
    public package(set) var placement: String
    /// The profile's id, if it has one.
    public package(set) var profileID: String?
    /// What the deciding row shows: one shared value per row and variant of a compiled
    /// program, so making a decision copies two strings and one reference.
    package var shown: DecisionShown
    /// Whether the rule set's holdout held the profile out of this placement, so only an
    /// `everyone` row could decide.
    public package(set) var heldOut: Bool = false
    /// The holdout's name, with `heldOut`.
    package var heldOutBy: String? = nil
    /// Whether the assignment of a sticky experiment recorded in the profile's history decided
    /// (rather than the row's audience and a draw); the JSON form then adds `"sticky": true`.
    public package(set) var isSticky: Bool = false
    /// Whether the rule set has experiments or a holdout, so the JSON form carries
    /// `experiment`, `variant` and `held_out` (rule sets without them keep the six keys).
    package var reportsExperiments: Bool = false

    package init(placement: String, profileID: String?, shown: DecisionShown, heldOut: Bool = false,
                 heldOutBy: String? = nil, reportsExperiments: Bool = false, isSticky: Bool = false) {
        self.placement = placement
        self.profileID = profileID
        self.shown = shown
        self.isSticky = isSticky
        self.heldOut = heldOut
        self.heldOutBy = heldOutBy
        self.reportsExperiments = reportsExperiments
    }

    package init(placement: String, profileID: String?, row: Int?, audience: String?, outcome: Outcome?, split: String?) {
        self.init(placement: placement, profileID: profileID,
                  shown: DecisionShown(DecisionShown.Fields(row: row, audience: audience, outcome: outcome, split: split)))
    }

    /// The deciding row's index, or nil when no row matched.
    package var row: Int? {
        get { shown.fields.row }
        set { edit { $0.row = newValue } }
    }
    /// The deciding audience (`everyone` for that row), or nil when no row matched.
    public package(set) var audience: String? {
        get { shown.fields.audience }
        set { edit { $0.audience = newValue } }
    }
    /// What is shown; nil when no row matched.
    public package(set) var outcome: Outcome? {
        get { shown.fields.outcome }
        set { edit { $0.outcome = newValue } }
    }
    /// The split's id when a split decided.
    public package(set) var split: String? {
        get { shown.fields.split }
        set { edit { $0.split = newValue } }
    }
    /// The experiment's name when an experiment row decided.
    public package(set) var experiment: String? {
        get { shown.fields.experiment }
        set { edit { $0.experiment = newValue } }
    }
    /// The experiment's variant drawn for the profile, with `experiment`.
    public package(set) var variant: String? {
        get { shown.fields.variant }
        set { edit { $0.variant = newValue } }
    }

    private mutating func edit(_ change: (inout DecisionShown.Fields) -> Void) {
        var fields = shown.fields
        change(&fields)
        shown = DecisionShown(fields)
    }

    /// The flow shown, if the outcome is a flow.
    public var flowID: String? {
        if case .flow(let id)? = outcome { return id }
        return nil
    }

    /// The paywall shown, if the outcome is a paywall.
    public var paywallID: String? {
        if case .paywall(let id)? = outcome { return id }
        return nil
    }

    /// The JSON object of `resolve --format json` written straight to text: the same bytes as
    /// `JSONWriter.write(json)`, without building the tree.
    package var jsonLine: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        Decision.appendJSONHead(profileID: profileID, to: &bytes)
        bytes.append(contentsOf: jsonTail)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The start of `jsonLine`, the only part that depends on the profile: `{"profile_id":"u1"`.
    package static func appendJSONHead(profileID: String?, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"profile_id":"#.utf8)
        if let profileID { JSONWriter.appendString(profileID, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// The rest of `jsonLine`, after the profile id: `,"placement":…,"split":null}`.
    package var jsonTail: [UInt8] {
        var bytes: [UInt8] = []
        func field(_ key: StaticString, _ value: String?) {
            bytes.append(UInt8(ascii: ","))
            bytes.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
            if let value { JSONWriter.appendString(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
        }
        field("placement", placement)
        field("audience", audience)
        field("kind", outcome?.kind)
        field("id", outcome?.id)
        field("split", split)
        if reportsExperiments {
            field("experiment", experiment)
            field("variant", variant)
            bytes.append(contentsOf: #","held_out":"#.utf8)
            bytes.append(contentsOf: (heldOut ? "true" : "false").utf8)
        }
        if isSticky { bytes.append(contentsOf: #","sticky":true"#.utf8) }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The JSON object of `resolve --format json`, keys in the documented order.
    package var json: JSONValue {
        func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        var members = [
            JSONMember(key: "profile_id", value: string(profileID)),
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "audience", value: string(audience)),
            JSONMember(key: "kind", value: string(outcome?.kind)),
            JSONMember(key: "id", value: string(outcome?.id)),
            JSONMember(key: "split", value: string(split)),
        ]
        if reportsExperiments {
            members += [
                JSONMember(key: "experiment", value: string(experiment)),
                JSONMember(key: "variant", value: string(variant)),
                JSONMember(key: "held_out", value: .bool(heldOut)),
            ]
        }
        if isSticky { members.append(JSONMember(key: "sticky", value: .bool(true))) }
        return .object(members)
    }
}

/// What a decision's row shows, shared by the decisions it makes: immutable, compared by value.
package final class DecisionShown: Hashable, Sendable {
    package struct Fields: Hashable, Sendable {
        package var row: Int?
        package var audience: String?
        package var outcome: Outcome?
        package var split: String?
        package var experiment: String?
        package var variant: String?

        package init(row: Int? = nil, audience: String? = nil, outcome: Outcome? = nil, split: String? = nil,
                     experiment: String? = nil, variant: String? = nil) {
            self.row = row
            self.audience = audience
            self.outcome = outcome
            self.split = split
            self.experiment = experiment
            self.variant = variant
        }
    }

    package let fields: Fields

    package init(_ fields: Fields) { self.fields = fields }

    package static func == (lhs: DecisionShown, rhs: DecisionShown) -> Bool { lhs === rhs || lhs.fields == rhs.fields }

    package func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

/// Why a placement could not be resolved for a profile.
public enum ResolveError: Error, Hashable, Sendable {
    /// No placement has this name; `suggestion` is the nearest one.
    case unknownPlacement(String, suggestion: String?)
    /// A split had to choose a variant for a profile without `id`.
    case splitNeedsProfileID(split: String)
    /// An experiment keyed on `profile.id` had to draw a variant for a profile without `id`.
    case experimentNeedsProfileID(experiment: String)

    /// A lowercase message, e.g. "unknown placement `onbording`; did you mean `onboarding`?".
    public var message: String {
        switch self {
        case .unknownPlacement(let name, let suggestion):
            "unknown placement `\(name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
        case .splitNeedsProfileID(let split):
            "profile has no `id`, so split `\(split)` cannot choose a variant"
        case .experimentNeedsProfileID(let experiment):
            "profile has no `id`, so experiment `\(experiment)` cannot draw a variant"
        }
    }
}

extension ResolveError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}

extension Outcome {
    /// What a destination other than a split shows; nil for a split, whose variant decides.
    package init?(_ destination: Destination) {
        switch destination {
        case .flow(let id, _): self = .flow(id)
        case .paywall(let id, _): self = .paywall(id)
        case .nothing: self = .nothing
        case .split, .experiment: return nil
        }
    }
}
