import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingSyntax

/// A profile field as stored: a custom attribute key or a top-level JSON field.
///
/// Derived built-ins read another field (`age` reads `birthday`, `days_since_install` reads
/// `installed_at`), so their comparisons belong to that field.
enum FieldKey: Hashable, Comparable {
    case builtin(String)
    case custom(String)
    /// The instants a placement was shown at (`history.shown.P`), which every `shown P [in D]`
    /// and `last shown P` of the rules reads: one list, so the counts and the last instant are
    /// searched together and never contradict each other.
    case history(String)
    /// The assignment a sticky experiment recorded (`history.assigned.E`).
    case assignment(String)

    /// The stored field a slot reads.
    init(_ target: AttributeReference.Target) {
        switch target {
        case .custom(let key): self = .custom(key)
        case .builtin(let field): self = .builtin(BuiltinField.storedField(of: field))
        // A count over several placements is a variable of its own (`shown [a, b]`), apart
        // from each placement's: the search may answer unknown where they meet, never wrongly.
        case .shownCount(let placements, _), .lastShown(let placements): self = .history(placements.joined(separator: ", "))
        }
    }
}

extension FieldKey {
    /// The placements whose shown instants a history variable stands for: one, or each of a
    /// count over several (`shown [a, b]`).
    static func shownPlacements(_ name: String) -> [String] { name.components(separatedBy: ", ") }

    /// The members of `history.shown` that hold a list of instants `json` of the variable of
    /// `placements` (`shownPlacements`): the list itself for one placement; for several,
    /// split in order into lists each placement can keep (every one its latest 100), so the
    /// counts over them add up to the list's.
    static func shownMembers(_ placements: String, _ json: JSONValue) -> [JSONMember] {
        let names = shownPlacements(placements)
        guard names.count > 1, case .array(let items) = json else { return [JSONMember(key: names[0], value: json)] }
        return names.enumerated().compactMap { index, name in
            let chunk = Array(items.dropFirst(index * ProfileHistory.maxShown).prefix(ProfileHistory.maxShown))
            return chunk.isEmpty && index > 0 ? nil : JSONMember(key: name, value: .array(chunk))
        }
    }

    /// The field as rules name it: `profile.id`, or the custom key.
    var displayName: String {
        switch self {
        case .builtin(let name): AttributeTarget.builtin(name).written
        case .custom(let key): AttributeTarget.custom(key).written
        case .history(let placement): "history.shown." + placement
        case .assignment(let experiment): "history.assigned." + experiment
        }
    }
}

/// One unknown of the search: a stored field and every comparison that reads it.
struct SearchVariable {
    /// The field.
    var field: FieldKey
    /// Atom ids, in local order.
    var atoms: [Int] = []
    /// The slots those atoms read (one, or a date field and the number derived from it).
    var slots: [Slot] = []
    /// The values the field is declared to hold (`one of`, `set of`, a built-in enumeration),
    /// tried before unrelated values so examples look like real profiles.
    var allowed: [String] = []
}
