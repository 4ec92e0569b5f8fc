import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The answer to "does some profile take this route?".
enum RouteAnswer {
    /// No profile does: the goals are impossible, or no bucket meets the draws.
    case impossible
    /// This profile does, as the evaluator checked.
    case found(JSONValue)
    /// Not settled, and why.
    case open(String)

    static let outOfBudget = "the search ran out of budget"
    static let noDrawingKey = "no profile id found that draws the split variants"
}

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
        guard let drawn = drawn(values, needs: draws, now: now, pinned: pinned) else { return .open(noDrawReason(draws)) }
        for json in ExampleProfile.witnesses(drawn) {
            guard case .success(let profile) = ProfileReader.read(json), verify(profile, now) else { continue }
            return .found(json)
        }
        return .open(draws.isEmpty ? RouteAnswer.outOfBudget : noDrawReason(draws))
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

extension FieldKey {
    /// The field as rules name it: `profile.id`, or the custom key.
    var displayName: String {
        switch self {
        case .builtin(let name): "profile." + name
        case .custom(let key): key
        }
    }
}
