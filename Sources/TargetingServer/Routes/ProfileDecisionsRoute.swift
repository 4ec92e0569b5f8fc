import TargetingBase

/// `GET /v1/profiles/{id}/decisions[?placement=P&now=T]`: the decisions for a profile of the
/// store. `placement` may repeat; without it, every placement.
enum ProfileDecisionsRoute {
    static func answer(_ request: HTTPRequest, id: String, context: ServeContext, now serverNow: Int64) -> ServeAnswer {
        let route = ServeRouter.Route.profileDecisions
        func refuse(_ error: ServeError) -> ServeAnswer { ServeAnswer(error.response, route: route.rawValue) }
        guard let items = request.queryItems else { return refuse(.invalidRequest("the query has a malformed `%` escape or is not UTF-8")) }
        var names: [String]?, now = serverNow
        for item in items {
            switch item.name {
            case "placement":
                names = (names ?? []) + [item.value]
            case "now":
                guard let ms = Timestamp.parse(item.value) else { return refuse(.invalidTime(item.value)) }
                now = ms
            default:
                let suggestion = Suggestion.nearest(to: item.name, in: ["placement", "now"])
                return refuse(.invalidRequest("unknown query parameter `\(item.name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")))
            }
        }
        guard let store = context.store else {
            return refuse(ServeError(.notFound, "no_store", "the server has no profile store; start it with `--store FILE`"))
        }
        let placements: [Int]
        switch DecisionsBody.placements(names, in: context.rules.program) {
        case .failure(let error): return refuse(error)
        case .success(let indices): placements = indices
        }
        switch store.profile(id: id) {
        case nil:
            return refuse(ServeError(.notFound, "unknown_profile", "no profile with id `\(id)` in the store"))
        case .failure(let error)?:
            return refuse(ServeError(.unprocessable, "invalid_profile", error.message))
        case .success(let profile)?:
            return DecisionsBody.answer(rules: context.rules, profile: profile, placements: placements, now: now, explain: false, route: route)
        }
    }
}
