import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Settling routes: a search, key values that draw what the route needs, and a witness the
/// evaluator checks.
extension ProfileSearch {
    /// Whether some profile meets `goals` and draws `draws`, with a witness that `verify`
    /// accepts (the caller resolves it at the instant given): `impossible` only when that is
    /// proved, `open` when no witness was found or checked.
    mutating func settle(_ goals: [Goal], draws: [DrawNeed], pinned: Set<FieldKey> = [], fixed: [(node: Int, holds: Bool)] = [],
                         extra: [(FieldKey, ExampleValue)] = [], verify: (Profile, Int64) -> Bool) -> RouteAnswer {
        guard DrawNeed.areFeasible(draws) else { return .impossible }
        if case .impossible = solve(goals, concreteOnly: false, fixed: fixed) { return .impossible }
        guard case .found(let found) = solve(goals, concreteOnly: true, fixed: fixed), let chosen = values(of: found) else {
            return .open(RouteAnswer.outOfBudget)
        }
        let values = chosen.filter { value in !extra.contains { $0.0 == value.0 } } + extra
        let now = instants[found.instant]
        if let drawn = drawn(values, needs: draws, now: now, pinned: pinned) {
            for json in ExampleProfile.witnesses(drawn) {
                guard case .success(let profile) = ProfileReader.read(json), verify(profile, now) else { continue }
                return .found(json)
            }
            if draws.isEmpty { return .open(RouteAnswer.outOfBudget) }
        }
        return settleByKeyClasses(goals, draws: draws, pinned: pinned, fixed: fixed, extra: extra, verify: verify)
            ?? .open(noDrawReason(draws))
    }

    /// Most combinations of key classes `settleByKeyClasses` asks about.
    static let keyClassCombinations = 256

    /// The question again, once for each class of values of each key the draws read (the
    /// options of its variable), when the class the search first chose drew no key value that
    /// works: the rules may pin the key (`profile.customer_user_id in ["qa1", "qa2"]`), and then
    /// only the buckets of those literals are possible. A class pinned to exact literals is
    /// decided by their buckets; any other class is taken as drawing any bucket. Nil (open)
    /// unless a witness was found or every class was proved out.
    mutating func settleByKeyClasses(_ goals: [Goal], draws: [DrawNeed], pinned: Set<FieldKey>, fixed: [(node: Int, holds: Bool)],
                                     extra: [(FieldKey, ExampleValue)], verify: (Profile, Int64) -> Bool) -> RouteAnswer? {
        guard instants.count == 1 else { return nil }
        let now = instants[0]
        var fields: [FieldKey] = []
        for need in draws where !pinned.contains(need.field) && !fields.contains(need.field) { fields.append(need.field) }
        // Per key: its variable and each class, with the members of a class pinned to literals
        // (nil: not pinned), or no class at all for values that are no string.
        var keys: [(field: FieldKey, variable: Int, classes: [(option: Int, members: [String]?, folded: Bool)])] = []
        for field in fields {
            guard let variable = graph.variables.firstIndex(where: { $0.field == field }) else { return nil }
            let table = self.table(variable, 0)
            guard table.isComplete else { return nil }
            let atoms = graph.variables[variable].atoms.map { graph.atoms[$0] }
            var literals: [String] = []
            for atom in atoms {
                switch atom.test.kind {
                case .text(let test, fold: false):
                    switch test {
                    case .equals, .isIn: for text in test.literals where !literals.contains(text) { literals.append(text) }
                    case .contains, .startsWith, .endsWith, .matches: break
                    }
                // No literal a key can equal exactly; the classes below are checked by evaluation.
                case .text(_, fold: true), .presence, .number, .bool, .date, .version, .members:
                    break
                }
            }
            var classes: [(option: Int, members: [String]?, folded: Bool)] = []
            for option in 0..<table.values.count {
                let vector = (0..<table.atomCount).map { table.holds(option: option, atom: $0) }
                guard let value = table.values[option] else {
                    classes.append((option, nil, false))  // abstract: strings no literal equals
                    continue
                }
                guard case .json(.string(let text)) = value else { continue }
                var exact = false, folded = false
                for atom in atoms {
                    switch atom.test.kind {
                    case .text(let test, let fold):
                        switch test {
                        case .equals(let literal):
                            if fold ? CaseFolding.lowercase(text) == literal : text == literal { fold ? (folded = true) : (exact = true) }
                        case .isIn(let set):
                            if set.containsExactly(fold ? CaseFolding.lowercase(text) : text) { fold ? (folded = true) : (exact = true) }
                        // Says nothing of whether the value equals a literal.
                        case .contains, .startsWith, .endsWith, .matches:
                            break
                        }
                    case .presence, .number, .bool, .date, .version, .members:
                        break
                    }
                }
                let members = exact ? literals.filter { truth(of: variable, .json(.string($0)), now: now) == vector } : nil
                classes.append((option, members, folded && !exact))
            }
            keys.append((field, variable, classes))
        }
        // A key with no string class cannot be drawn at all.
        if keys.contains(where: { $0.classes.isEmpty }) { return .impossible }
        guard !keys.isEmpty, keys.reduce(1, { $0 * $1.classes.count }) <= ProfileSearch.keyClassCombinations else { return nil }
        var open = false
        var combination = [Int](repeating: 0, count: keys.count)
        var more = true
        while more {
            let current = combination
            // The next combination, odometer-wise.
            more = false
            for position in combination.indices.reversed() {
                combination[position] += 1
                if combination[position] < keys[position].classes.count { more = true; break }
                combination[position] = 0
            }
            var fixedHere = fixed
            var chosen: [(FieldKey, ExampleValue)] = []
            var drawnPinned = pinned
            var drawable = true, concrete = true
            for (key, index) in zip(keys, current) {
                let entry = key.classes[index]
                let table = self.table(key.variable, 0)
                for (local, id) in graph.variables[key.variable].atoms.enumerated() {
                    fixedHere.append((graph.atoms[id].node, table.holds(option: entry.option, atom: local)))
                }
                let needs = draws.filter { $0.field == key.field }
                if let members = entry.members {
                    // Pinned: exactly these values, so exactly their buckets.
                    guard let member = members.first(where: { member in needs.allSatisfy { $0.holds(member) } }) else {
                        drawable = false
                        break
                    }
                    chosen.append((key.field, .json(.string(member))))
                    drawnPinned.insert(key.field)
                } else if let value = table.values[entry.option], !entry.folded {
                    chosen.append((key.field, value))
                } else {
                    concrete = false
                }
            }
            guard drawable else { continue }
            if case .impossible = solve(goals, concreteOnly: false, fixed: fixedHere) { continue }
            // Some profile of these classes meets the goals: from here on only a witness settles it.
            open = true
            guard concrete, case .found(let found) = solve(goals, concreteOnly: true, fixed: fixedHere),
                  let values = values(of: found) else { continue }
            let all = values.filter { value in !(extra + chosen).contains { $0.0 == value.0 } } + extra + chosen
            guard let drawn = drawn(all, needs: draws, now: now, pinned: drawnPinned) else { continue }
            for json in ExampleProfile.witnesses(drawn) {
                guard case .success(let profile) = ProfileReader.read(json), verify(profile, now) else { continue }
                return .found(json)
            }
        }
        return open ? nil : .impossible
    }

    /// Why no key value was found: for draws on `profile.id` alone the words `diff --prove`
    /// has always used.
    func noDrawReason(_ draws: [DrawNeed]) -> String {
        if draws.allSatisfy({ $0.field == .builtin("id") }) { return RouteAnswer.noDrawingKey }
        var keys: [String] = []
        for need in draws where !keys.contains(need.field.displayName) { keys.append(need.field.displayName) }
        return "no value of " + keys.map { "`\($0)`" }.joined(separator: " and ") + " found that draws the needed variants"
    }
}
