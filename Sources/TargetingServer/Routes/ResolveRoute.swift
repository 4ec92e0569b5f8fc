import TargetingBase
import TargetingProfiles

/// `POST /v1/resolve`: `{"profile": {…}, "placements": ["P", …], "now": "RFC 3339", "explain": false}`,
/// every member but `profile` optional (every placement, the server's clock, no explanation).
/// Unknown members are refused, so a misspelt `placement` is not silently every placement.
enum ResolveRoute {
    static let members = ["profile", "placements", "now", "explain"]

    static func answer(_ request: HTTPRequest, context: ServeContext, now serverNow: Int64) -> ServeAnswer {
        switch read(request.body, context: context, serverNow: serverNow) {
        case .failure(let error):
            return ServeAnswer(error.response, route: ServeRouter.Route.resolve.rawValue)
        case .success(let asked):
            return DecisionsBody.answer(rules: context.rules, profile: asked.profile, placements: asked.placements, now: asked.now,
                                        explain: asked.explain, route: .resolve)
        }
    }

    struct Asked {
        var profile: Profile
        var placements: [Int]
        var now: Int64
        var explain: Bool
    }

    static func read(_ body: [UInt8], context: ServeContext, serverNow: Int64) -> Result<Asked, ServeError> {
        let value: JSONValue
        switch JSONParser.parse(body) {
        case .failure(let error): return .failure(.invalidJSON(error))
        case .success(let parsed): value = parsed
        }
        guard let fields = value.objectMembers else {
            return .failure(.invalidRequest("the request must be a JSON object, found \(value.typeName)"))
        }
        var profileValue: JSONValue?, names: [String]?, now = serverNow, explain = false
        for member in fields {
            switch member.key {
            case "profile":
                profileValue = member.value
            case "placements":
                guard let items = member.value.arrayValue, let strings = Optional(items.compactMap(\.stringValue)), strings.count == items.count else {
                    return .failure(.invalidRequest("`placements` must be an array of placement names, found \(member.value.typeName)"))
                }
                names = strings
            case "now":
                guard let text = member.value.stringValue else { return .failure(.invalidRequest("`now` must be a string, found \(member.value.typeName)")) }
                guard let ms = Timestamp.parse(text) else {
                    return .failure(.invalidRequest("invalid time `\(text)` for `now`; use RFC 3339 (2026-11-29T12:00:00Z) or YYYY-MM-DD"))
                }
                now = ms
            case "explain":
                guard let flag = member.value.boolValue else { return .failure(.invalidRequest("`explain` must be true or false, found \(member.value.typeName)")) }
                explain = flag
            default:
                let suggestion = Suggestion.nearest(to: member.key, in: members)
                return .failure(.invalidRequest("unknown member `\(member.key)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
                                                + "; a request has `profile`, `placements`, `now` and `explain`"))
            }
        }
        guard let profileValue else { return .failure(.invalidRequest("missing `profile`, the profile to decide for")) }
        let placements: [Int]
        switch DecisionsBody.placements(names, in: context.rules.program) {
        case .failure(let error): return .failure(error)
        case .success(let indices): placements = indices
        }
        switch ProfileReader.read(profileValue) {
        case .failure(let error): return .failure(ServeError(.unprocessable, "invalid_profile", error.message))
        case .success(let profile): return .success(Asked(profile: profile, placements: placements, now: now, explain: explain))
        }
    }
}
