import TargetingBase
import TargetingEngine
import TargetingProfiles

/// `POST /v1/resolve`: `{"profile": {…}, "placements": ["P", …], "now": "RFC 3339", "explain": false}`,
/// every member but `profile` optional (every placement, the server's clock, no explanation).
/// Unknown members are refused, so a misspelt `placement` is not silently every placement.
enum ResolveRoute {
    static let members = ["profile", "placements", "now", "explain"]

    static func answer(_ request: HTTPRequest, context: ServeContext, now serverNow: Int64) -> ServeAnswer {
        if let answer = request.body.withUnsafeBufferPointer({ quickAnswer($0, context: context, serverNow: serverNow) }) {
            return answer
        }
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
        var profileValue: JSONValue?, options = Options(now: serverNow)
        for member in fields {
            if member.key == "profile" {
                profileValue = member.value
            } else if let error = options.apply(member.key, member.value) {
                return .failure(error)
            }
        }
        guard let profileValue else { return .failure(.invalidRequest("missing `profile`, the profile to decide for")) }
        let placements: [Int]
        switch DecisionsBody.placements(options.names, in: context.rules.program) {
        case .failure(let error): return .failure(error)
        case .success(let indices): placements = indices
        }
        switch ProfileReader.read(profileValue) {
        case .failure(let error): return .failure(ServeError(.unprocessable, "invalid_profile", error.message))
        case .success(let profile): return .success(Asked(profile: profile, placements: placements, now: options.now, explain: options.explain))
        }
    }

    /// The members of a request other than `profile`.
    struct Options {
        var names: [String]?
        var now: Int64
        var explain = false

        /// Takes member `key`; the error when it is not a member or not of its form.
        mutating func apply(_ key: String, _ value: JSONValue) -> ServeError? {
            switch key {
            case "placements":
                let strings = value.arrayValue?.compactMap(\.stringValue)
                guard let strings, strings.count == value.arrayValue?.count else {
                    return .invalidRequest("`placements` must be an array of placement names, found \(value.typeName)")
                }
                names = strings
            case "now":
                guard let text = value.stringValue else { return .invalidRequest("`now` must be a string, found \(value.typeName)") }
                guard let ms = Timestamp.parse(text) else { return .invalidTime(text) }
                now = ms
            case "explain":
                guard let flag = value.boolValue else { return .invalidRequest("`explain` must be true or false, found \(value.typeName)") }
                explain = flag
            default:
                let suggestion = Suggestion.nearest(to: key, in: ResolveRoute.members)
                return .invalidRequest("unknown member `\(key)`; "
                                       + (suggestion.map { "did you mean `\($0)`?" } ?? "a request has `profile`, `placements`, `now` and `explain`"))
            }
            return nil
        }
    }

    /// The answer read the way `resolve --profiles` reads a line: the profile scanned where
    /// it lies in the body (`ProfileScan`) and each decision printed from its prepared tail,
    /// without building a JSON tree or a `Profile`. Nil whenever anything is out of the
    /// ordinary (a member not as expected, an explanation asked for, a profile the scan does
    /// not take, a placement that cannot decide): `read` then gives the answer, or the error,
    /// so both ways answer the same.
    static func quickAnswer(_ body: UnsafeBufferPointer<UInt8>, context: ServeContext, serverNow: Int64) -> ServeAnswer? {
        guard let members = TopLevelMembers.ranges(body) else { return nil }
        var profileRange: Range<Int>?, options = Options(now: serverNow)
        for (index, member) in members.enumerated() {
            guard !members[..<index].contains(where: { $0.key == member.key }) else { return nil }
            if member.key == "profile" {
                profileRange = member.range
                continue
            }
            guard case .success(let value) = JSONParser.parse(UnsafeBufferPointer(rebasing: body[member.range])),
                  options.apply(member.key, value) == nil else { return nil }
        }
        let rules = context.rules
        guard let profileRange, !options.explain, case .success(let placements) = DecisionsBody.placements(options.names, in: rules.program) else {
            return nil
        }
        let profileBytes = UnsafeBufferPointer(rebasing: body[profileRange])
        var scan = ProfileScan()
        guard scan.scan(profileBytes) else { return nil }
        var output = DecisionsBody.opening(rules: rules, decisions: placements.count)
        var decisions: [(placement: String, destination: String)] = []
        decisions.reserveCapacity(placements.count)
        let failure = ScannedProfile.with(&scan, bytes: profileBytes) { scanned -> ResolveError? in
            var first = true
            return rules.program.choose(placements: placements, for: scanned, now: options.now) { index, choice in
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                rules.tails.append(placement: index, choice: choice, profileID: scanned.profileID, to: &output)
                output.removeLast()  // the tail's line break
                decisions.append((rules.program.placements[index].name, rules.tailDestinations[rules.tails.index(placement: index, choice: choice)]))
            }
        }
        guard failure == nil else { return nil }
        output.append(contentsOf: "]}".utf8)
        return ServeAnswer(.json(.ok, output), route: ServeRouter.Route.resolve.rawValue, decisions: decisions)
    }
}
