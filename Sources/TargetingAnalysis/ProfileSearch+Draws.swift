import TargetingEngine
import TargetingProfiles

/// Key values for witnesses: strings whose buckets draw what a route needs.
extension ProfileSearch {
    /// Most key values tried for one field when looking for one that draws what a route needs;
    /// the rarest pair of needs (1 % and 1 %) is missed with a chance below e⁻²⁰.
    static let keyValueAttempts = 200_000

    /// `values` with each key field of `needs` given a string that draws every need on it and
    /// keeps every comparison of the rules on that field as the search decided it (so the
    /// profile still takes the same rows); nil when none was found. Fields in `pinned` keep
    /// their value, which must draw the needs itself. A chosen `id` becomes `witness` where
    /// that changes no comparison.
    func drawn(_ values: [(FieldKey, ExampleValue)], needs: [DrawNeed], now: Int64,
               pinned: Set<FieldKey> = []) -> [(FieldKey, ExampleValue)]? {
        var result = values
        var fields: [FieldKey] = []
        for need in needs where !fields.contains(need.field) { fields.append(need.field) }
        // An id the search chose only as "some string" reads as `witness`, as ids it left out do.
        if !fields.contains(.builtin("id")), values.contains(where: { if case .json(.string) = $0.1 { $0.0 == .builtin("id") } else { false } }) {
            fields.append(.builtin("id"))
        }
        for field in fields {
            let own = needs.filter { $0.field == field }
            let index = result.firstIndex { $0.0 == field }
            var chosen: String?
            if let index, case .json(.string(let text)) = result[index].1 { chosen = text }
            if pinned.contains(field) {
                guard let chosen, own.allSatisfy({ $0.holds(chosen) }) else { return nil }
                continue
            }
            // A key the search decided to be absent or not a string cannot be drawn.
            if index != nil, chosen == nil { return nil }
            guard let value = keyValue(for: field, chosen: chosen, needs: own, now: now) else { return nil }
            if let index { result[index].1 = .json(.string(value)) } else { result.append((field, .json(.string(value)))) }
        }
        return result
    }

    /// A string for `field` that draws every need in `needs`: for `profile.id` (or a field the
    /// search left free) `witness`, `witness-1`, …, then variations of the chosen value (it
    /// with a number after, before or inside it), each kept only when every comparison on the
    /// field gives what the chosen value gives.
    func keyValue(for field: FieldKey, chosen: String?, needs: [DrawNeed], now: Int64) -> String? {
        let variable = graph.variables.firstIndex { $0.field == field }
        let reference = variable.flatMap { truth(of: $0, chosen.map { .json(.string($0)) } ?? .missing, now: now) }
        func keeps(_ candidate: String) -> Bool {
            guard let variable, let chosen else { return true }
            if candidate == chosen { return true }
            return truth(of: variable, .json(.string(candidate)), now: now) == reference
        }
        var families: [(Int) -> String] = []
        if chosen == nil || field == .builtin("id") {
            families.append { $0 == 0 ? ExampleProfile.witnessID : "\(ExampleProfile.witnessID)-\($0)" }
        }
        if let chosen {
            let characters = Array(chosen)
            let middle = characters.count / 2
            families.append { $0 == 0 ? chosen : "\(chosen)-\($0)" }
            families.append { "\($0)-\(chosen)" }
            families.append { String(characters[..<middle]) + "-\($0)-" + String(characters[middle...]) }
        }
        var attempts = 0
        for family in families {
            var kept = false
            for number in 0... {
                guard attempts < ProfileSearch.keyValueAttempts else { return nil }
                attempts += 1
                let candidate = family(number)
                if needs.allSatisfy({ $0.holds(candidate) }), keeps(candidate) { return candidate }
                // A family whose first new values all change some comparison is not worth
                // walking (the rules pin the key to the chosen value).
                if number < 16, !kept, candidate != chosen { kept = keeps(candidate) }
                if number == 15, !kept { break }
            }
        }
        return nil
    }

    /// The truth of every comparison on `variable` for a profile holding `value` in its field at
    /// `now`; nil when no profile can hold it.
    func truth(of variable: Int, _ value: ExampleValue, now: Int64) -> [Bool]? {
        guard let profile = OptionTableBuilder.profile(graph.variables[variable].field, value) else { return nil }
        return graph.variables[variable].atoms.map { graph.holds(atom: $0, in: profile, now: now) }
    }
}
