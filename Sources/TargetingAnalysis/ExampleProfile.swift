import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Turns a witness of the search into a profile a user can read, and checks it for real.
enum ExampleProfile {
    /// The profile JSON holding `values`: built-in fields by name, then `custom_attributes` by
    /// key; absent fields are left out.
    /// A count over several placements is written to those of them with no list of their own
    /// first, starting from the one at `rotation` (the count adds to no other count that way).
    static func json(_ values: [(FieldKey, ExampleValue)], rotation: Int = 0) -> JSONValue {
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
            case .history(let placement) where FieldKey.shownPlacements(placement).count == 1:
                shown.append(JSONMember(key: placement, value: json))
            case .history:
                break  // counts over several placements: below, once each placement's own list is written
            case .assignment(let experiment): assigned.append(JSONMember(key: experiment, value: json))
            }
        }
        // A count over several placements is written to those of them that no count of their
        // own reads first (so it adds to no placement's own count), then added to the others'
        // lists.
        for case (.history(let placements), .json(let json)) in values where FieldKey.shownPlacements(placements).count > 1 {
            let listed = FieldKey.shownPlacements(placements)
            let names = Array(listed[(rotation % listed.count)...] + listed[..<(rotation % listed.count)])
            let own = Set(shown.map(\.key))
            let ordered = names.filter { !own.contains($0) } + names.filter { own.contains($0) }
            for member in FieldKey.shownMembers(ordered.joined(separator: ", "), json) {
                guard case .array(let added) = member.value else { continue }
                if let index = shown.firstIndex(where: { $0.key == member.key }), case .array(let kept) = shown[index].value {
                    shown[index] = JSONMember(key: member.key, value: .array(kept + added))
                } else if !added.isEmpty {
                    shown.append(member)
                }
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
        // Counts over several placements: each placement of the longest list first, in turn.
        let rotations = values.map { field, _ in
            if case .history(let placements) = field { FieldKey.shownPlacements(placements).count } else { 1 }
        }.max() ?? 1
        var found: [JSONValue] = []
        for rotation in 0..<rotations {
            for attempt in attempts {
                guard case .object(var members) = json(attempt, rotation: rotation) else { continue }
                if let id = members.firstIndex(where: { $0.key == "id" }) { members.insert(members.remove(at: id), at: 0) }
                if !found.contains(.object(members)) { found.append(.object(members)) }
            }
        }
        return found
    }

    /// Whether the profile `json` reads without error and, at `now`, resolves to no match in
    /// the placement at `placement`, held out or not as `heldOut` says.
    static func fallsThrough(_ json: JSONValue, program: Program, placement: Int, now: Int64, heldOut: Bool = false) -> Bool {
        guard case .success(let profile) = ProfileReader.read(json),
              case .success(let decision) = program.decide(placement: placement, for: profile, now: now) else { return false }
        return decision.row == nil && decision.heldOut == heldOut
    }
}
