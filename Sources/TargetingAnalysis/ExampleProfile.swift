import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Turns a witness of the search into a profile a user can read, and checks it for real.
enum ExampleProfile {
    /// The profile JSON holding `values`: built-in fields by name, then `custom_attributes` by
    /// key; absent fields are left out.
    static func json(_ values: [(FieldKey, ExampleValue)]) -> JSONValue {
        var builtins: [JSONMember] = []
        var customs: [JSONMember] = []
        var shown: [JSONMember] = []
        var assigned: [JSONMember] = []
        for (field, value) in values {
            guard case .json(let json) = value else { continue }
            switch field {
            case .builtin(let name): builtins.append(JSONMember(key: name, value: json))
            case .custom(let key):
                // A free atom's field stands for a draw, not an attribute: no profile has it.
                if !key.hasPrefix(ConditionGraph.freeFieldPrefix) { customs.append(JSONMember(key: key, value: json)) }
            case .history(let placements):
                // A count over several placements writes its instants to the first of them,
                // unless that placement's own instants are written.
                let placement = placements.components(separatedBy: ", ")[0]
                if !values.contains(where: { $0.0 == .history(placement) && placement != placements }) {
                    shown.append(JSONMember(key: placement, value: json))
                }
            case .assignment(let experiment): assigned.append(JSONMember(key: experiment, value: json))
            }
        }
        func byKey(_ a: JSONMember, _ b: JSONMember) -> Bool { a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
        var members = builtins.sorted(by: byKey)
        if !customs.isEmpty { members.append(JSONMember(key: "custom_attributes", value: .object(customs.sorted(by: byKey)))) }
        // The history as `ProfileHistory` writes it: `shown`, then `assigned`, each left out when empty.
        var history: [JSONMember] = []
        if !shown.isEmpty { history.append(JSONMember(key: "shown", value: .object(shown.sorted(by: byKey)))) }
        if !assigned.isEmpty { history.append(JSONMember(key: "assigned", value: .object(assigned.sorted(by: byKey)))) }
        if !history.isEmpty { members.append(JSONMember(key: "history", value: .object(history))) }
        return .object(members)
    }

    /// The id a witness gets when the rules do not read `profile.id`: splits draw on it, and
    /// a profile object names one.
    static let witnessID = "witness"

    /// The profiles to try as a witness of `values`, best first, each with its `id` first: an
    /// id the search left out is filled in (as `id`, or the ids `id` supplies), and the
    /// profile without one comes last, for rules that need it absent.
    static func witnesses(_ values: [(FieldKey, ExampleValue)], ids: [String] = [witnessID]) -> [JSONValue] {
        let chosenID = values.first { $0.0 == .builtin("id") }?.1
        var attempts: [[(FieldKey, ExampleValue)]] = []
        if chosenID == nil || chosenID == .missing {
            let others = values.filter { $0.0 != .builtin("id") }
            attempts += ids.map { others + [(.builtin("id"), .json(.string($0)))] }
        }
        attempts.append(values)
        return attempts.compactMap { attempt in
            guard case .object(var members) = json(attempt) else { return nil }
            if let id = members.firstIndex(where: { $0.key == "id" }) { members.insert(members.remove(at: id), at: 0) }
            return .object(members)
        }
    }

    /// Whether the profile `json` reads without error and, at `now`, resolves to no match in
    /// the placement at `placement`, held out or not as `heldOut` says.
    static func fallsThrough(_ json: JSONValue, program: Program, placement: Int, now: Int64, heldOut: Bool = false) -> Bool {
        guard case .success(let profile) = ProfileReader.read(json),
              case .success(let decision) = program.decide(placement: placement, for: profile, now: now) else { return false }
        return decision.row == nil && decision.heldOut == heldOut
    }
}
