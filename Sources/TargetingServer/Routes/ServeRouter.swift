import TargetingBase

/// Routes a whole request to its answer: a pure function of the request, the context it is
/// answered from and the time, so every route is tested without a socket.
package enum ServeRouter {
    /// The routes, as the metrics name them.
    package enum Route: String, CaseIterable, Sendable {
        case resolve = "/v1/resolve"
        case profileDecisions = "/v1/profiles/{id}/decisions"
        case ofrepFlag = "/ofrep/v1/evaluate/flags/{key}"
        case ofrepBulk = "/ofrep/v1/evaluate/flags"
        case healthz = "/healthz"
        case readyz = "/readyz"
        case metrics = "/metrics"

        /// The methods it answers (`HEAD` with each `GET`).
        var methods: [String] {
            switch self {
            case .resolve, .ofrepFlag, .ofrepBulk: ["POST"]
            case .profileDecisions, .healthz, .readyz, .metrics: ["GET", "HEAD"]
            }
        }
    }

    /// The metrics' name for requests that match no route (or could not be read).
    package static let unmatched = "unmatched"

    /// The answer to `request`.
    package static func answer(_ request: HTTPRequest, context: ServeContext, now: Int64, metrics: ServerMetrics) -> ServeAnswer {
        guard let segments = request.pathSegments else {
            return ServeAnswer(ServeError.invalidRequest("the path has a malformed `%` escape or is not UTF-8").response, route: unmatched)
        }
        let (route, parameter) = match(segments)
        if route != .healthz, let token = context.token, !BearerToken.authorizes(request.header("authorization"), token: token) {
            return ServeAnswer(ServeError(.unauthorized, "unauthorized", "this route needs `Authorization: Bearer <token>`").response, route: route?.rawValue ?? unmatched)
        }
        guard let route else {
            return ServeAnswer(ServeError(.notFound, "not_found", "no route for `\(request.path)`").response, route: unmatched)
        }
        guard route.methods.contains(request.method) else {
            var response = ServeError(.methodNotAllowed, "method_not_allowed", "`\(route.rawValue)` takes \(route.methods.map { "`\($0)`" }.joined(separator: " or ")), not `\(request.method)`").response
            response.headers.append(HTTPHeader(name: "Allow", value: route.methods.joined(separator: ", ")))
            return ServeAnswer(response, route: route.rawValue)
        }
        switch route {
        case .resolve:
            return ResolveRoute.answer(request, context: context, now: now)
        case .profileDecisions:
            return ProfileDecisionsRoute.answer(request, id: parameter ?? "", context: context, now: now)
        case .ofrepFlag:
            return OFREPRoute.single(request, key: parameter ?? "", context: context, now: now)
        case .ofrepBulk:
            return OFREPRoute.bulk(request, context: context, now: now)
        case .healthz:
            return ServeAnswer(.json(.ok, Array(#"{"status":"ok"}"#.utf8)), route: route.rawValue)
        case .readyz:
            let status: HTTPStatus = context.draining ? .unavailable : .ok
            let body = JSONValue.object([
                JSONMember(key: "status", value: .string(context.draining ? "stopping" : "ready")),
                JSONMember(key: "rules", value: .string(context.rules.version)),
            ])
            return ServeAnswer(.json(status, Array(JSONWriter.write(body).utf8)), route: route.rawValue)
        case .metrics:
            let text = metrics.prometheusText(rulesVersion: context.rules.version)
            return ServeAnswer(HTTPResponse(status: .ok, headers: [HTTPHeader(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")],
                                            body: Array(text.utf8)), route: route.rawValue)
        }
    }

    /// The route of a decoded path, and its `{id}` or `{key}`.
    static func match(_ segments: [String]) -> (Route?, String?) {
        switch segments.count {
        case 1:
            return (Route.allCases.first { $0.rawValue == "/" + segments[0] }, nil)
        case 2 where segments == ["v1", "resolve"]:
            return (.resolve, nil)
        case 4 where segments[0] == "v1" && segments[1] == "profiles" && segments[3] == "decisions" && !segments[2].isEmpty:
            return (.profileDecisions, segments[2])
        case 4 where segments == ["ofrep", "v1", "evaluate", "flags"]:
            return (.ofrepBulk, nil)
        case 5 where Array(segments.prefix(4)) == ["ofrep", "v1", "evaluate", "flags"] && !segments[4].isEmpty:
            return (.ofrepFlag, segments[4])
        default:
            return (nil, nil)
        }
    }
}
