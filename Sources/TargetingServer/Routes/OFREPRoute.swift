import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The OpenFeature Remote Evaluation Protocol: a placement is a flag whose value is the
/// destination id (`""` for nothing and no match).
///
/// - `POST /ofrep/v1/evaluate/flags/{placement}` and `POST /ofrep/v1/evaluate/flags` (every
///   placement) take `{"context": {…}}`; a request without `context` is an empty profile.
/// - The answer: `key`, `value`, `variant` (the experiment's variant, else the destination id,
///   `nothing` or `no match`), `reason` (`SPLIT` when an experiment or a split drew, `DEFAULT`
///   for the `everyone` row and no match, else `TARGETING_MATCH`) and `metadata` (`kind`,
///   `audience` and `experiment` when there are, `held_out`, `sticky`, `rules`).
/// - Errors: `FLAG_NOT_FOUND` (404), `PARSE_ERROR` (400, the body is not JSON),
///   `INVALID_CONTEXT` (400, the context is not a valid profile), and
///   `TARGETING_KEY_MISSING` (400, or one flag of a bulk answer) when a draw needs
///   `targetingKey`.
/// - The bulk answer has an `ETag` naming the rules version and the answer
///   (`"VERSION-DIGEST"`); a matching `If-None-Match` gets 304.
enum OFREPRoute {
    static func single(_ request: HTTPRequest, key: String, context: ServeContext, now: Int64) -> ServeAnswer {
        let route = ServeRouter.Route.ofrepFlag.rawValue
        let program = context.rules.program
        let index: Int
        switch program.placementIndex(of: key) {
        case .failure(let error): return ServeAnswer(failure(.notFound, key: key, code: "FLAG_NOT_FOUND", details: error.message), route: route)
        case .success(let found): index = found
        }
        let profile: Profile
        switch readProfile(request.body) {
        case .failure(let error): return ServeAnswer(failure(.badRequest, key: key, code: error.code, details: error.details), route: route)
        case .success(let read): profile = read
        }
        switch program.decide(placement: index, for: profile, now: now) {
        case .failure(let error):
            return ServeAnswer(failure(.badRequest, key: key, code: "TARGETING_KEY_MISSING", details: error.message), route: route)
        case .success(let decision):
            return ServeAnswer(.json(.ok, Array(JSONWriter.write(evaluation(decision, rules: context.rules)).utf8)), route: route,
                               decisions: [(decision.placement, decision.destinationLabel)])
        }
    }

    static func bulk(_ request: HTTPRequest, context: ServeContext, now: Int64) -> ServeAnswer {
        let route = ServeRouter.Route.ofrepBulk.rawValue
        let program = context.rules.program
        let profile: Profile
        switch readProfile(request.body) {
        case .failure(let error):
            let body = JSONValue.object([JSONMember(key: "errorCode", value: .string(error.code)), JSONMember(key: "errorDetails", value: .string(error.details))])
            return ServeAnswer(.json(.badRequest, Array(JSONWriter.write(body).utf8)), route: route)
        case .success(let read): profile = read
        }
        var flags: [JSONValue] = []
        var decisions: [(placement: String, destination: String)] = []
        for index in program.placements.indices {
            switch program.decide(placement: index, for: profile, now: now) {
            case .failure(let error):
                flags.append(.object([
                    JSONMember(key: "key", value: .string(program.placements[index].name)),
                    JSONMember(key: "errorCode", value: .string("TARGETING_KEY_MISSING")),
                    JSONMember(key: "errorDetails", value: .string(error.message)),
                ]))
            case .success(let decision):
                flags.append(evaluation(decision, rules: context.rules))
                decisions.append((decision.placement, decision.destinationLabel))
            }
        }
        let body = JSONValue.object([
            JSONMember(key: "flags", value: .array(flags)),
            JSONMember(key: "metadata", value: .object([JSONMember(key: "rules", value: .string(context.rules.version))])),
        ])
        let bytes = Array(JSONWriter.write(body).utf8)
        let etag = entityTag(rules: context.rules, body: bytes)
        if let given = request.header("if-none-match"), matches(given, etag: etag) {
            return ServeAnswer(HTTPResponse(status: .notModified, headers: [HTTPHeader(name: "ETag", value: etag)]), route: route)
        }
        return ServeAnswer(.json(.ok, bytes, headers: [HTTPHeader(name: "ETag", value: etag)]), route: route, decisions: decisions)
    }

    /// The bulk answer's `ETag`: the rules version, then a digest of the answer. A client that
    /// keeps its ETag while its context (or the time) changes gets the new answer, not a 304
    /// for the old one; the same rules and the same answer give the same tag on every server.
    static func entityTag(rules: ServedRules, body: [UInt8]) -> String {
        let digest = MD5.hexPrefix(of: body, count: 4)
        return "\"" + rules.version + "-" + digest + "\""
    }

    /// Whether an `If-None-Match` list names `etag` (weak or strong), or is `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { part in
            var tag = Substring(part.trimmingBlanks)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }

    /// One flag's evaluation.
    static func evaluation(_ decision: Decision, rules: ServedRules) -> JSONValue {
        let value: String, variant: String, kind: String
        switch decision.outcome {
        case .flow(let id)?: (value, variant, kind) = (id, id, "flow")
        case .paywall(let id)?: (value, variant, kind) = (id, id, "paywall")
        case .nothing?: (value, variant, kind) = ("", "nothing", "nothing")
        case nil: (value, variant, kind) = ("", "no match", "no match")
        }
        let reason = decision.experiment != nil || decision.split != nil ? "SPLIT"
            : decision.audience == nil || decision.audience == "everyone" ? "DEFAULT" : "TARGETING_MATCH"
        var metadata = [JSONMember(key: "kind", value: .string(kind))]
        if let audience = decision.audience { metadata.append(JSONMember(key: "audience", value: .string(audience))) }
        if let experiment = decision.experiment { metadata.append(JSONMember(key: "experiment", value: .string(experiment))) }
        metadata += [
            JSONMember(key: "held_out", value: .bool(decision.heldOut)),
            JSONMember(key: "sticky", value: .bool(decision.isSticky)),
            JSONMember(key: "rules", value: .string(rules.version)),
        ]
        return .object([
            JSONMember(key: "key", value: .string(decision.placement)),
            JSONMember(key: "value", value: .string(value)),
            JSONMember(key: "variant", value: .string(decision.variant ?? variant)),
            JSONMember(key: "reason", value: .string(reason)),
            JSONMember(key: "metadata", value: .object(metadata)),
        ])
    }

    static func failure(_ status: HTTPStatus, key: String, code: String, details: String) -> HTTPResponse {
        let body = JSONValue.object([
            JSONMember(key: "key", value: .string(key)),
            JSONMember(key: "errorCode", value: .string(code)),
            JSONMember(key: "errorDetails", value: .string(details)),
        ])
        return .json(status, Array(JSONWriter.write(body).utf8))
    }

    struct ContextError: Error {
        var code: String
        var details: String
    }

    /// The profile a request's `context` describes (see `OFREPContext`).
    static func readProfile(_ body: [UInt8]) -> Result<Profile, ContextError> {
        let value: JSONValue
        switch JSONParser.parse(body) {
        case .failure(let error): return .failure(ContextError(code: "PARSE_ERROR", details: ServeError.invalidJSON(error).message))
        case .success(let parsed): value = parsed
        }
        guard let members = value.objectMembers else {
            return .failure(ContextError(code: "INVALID_CONTEXT", details: "the request must be a JSON object, found \(value.typeName)"))
        }
        let context = members.last { $0.key == "context" }?.value ?? .object([])
        switch OFREPContext.profile(context) {
        case .failure(let error): return .failure(ContextError(code: "INVALID_CONTEXT", details: error.message))
        case .success(let profile): return .success(profile)
        }
    }
}
