/// What a placement shows.
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

    /// As written in rules: `flow "x"`, `paywall "x"`, `nothing`.
    public var description: String {
        switch self {
        case .flow(let id): "flow \"\(id)\""
        case .paywall(let id): "paywall \"\(id)\""
        case .nothing: "nothing"
        }
    }
}

/// The result of resolving one placement for one profile.
public struct Decision: Hashable, Sendable {
    /// The placement.
    public var placement: String
    /// The profile id, if the profile has one.
    public var profileID: String?
    /// The deciding row's index, or nil when no row matched.
    public var row: Int?
    /// The deciding audience (`everyone` for that row), or nil when nothing matched.
    public var audience: String?
    /// What is shown; nil when no row matched.
    public var outcome: Outcome?
    /// The split id when a split decided.
    public var split: String?

    /// The JSON object of `resolve --format json` (SPEC §6), keys in the documented order.
    public var json: JSONValue {
        func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            JSONMember(key: "profile_id", value: string(profileID)),
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "audience", value: string(audience)),
            JSONMember(key: "kind", value: string(outcome?.kind)),
            JSONMember(key: "id", value: string(outcome?.id)),
            JSONMember(key: "split", value: string(split)),
        ])
    }
}

/// Why a profile could not be resolved.
public struct ResolveError: Error, Hashable, Sendable {
    /// A lowercase message.
    public var message: String
}
