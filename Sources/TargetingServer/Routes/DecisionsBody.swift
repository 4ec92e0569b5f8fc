import TargetingBase
import TargetingEngine
import TargetingProfiles

/// `{"rules": VERSION, "decisions": [...]}`: the answer of `/v1/resolve` and of a stored
/// profile's decisions. Each decision is the object `resolve --format json` prints; with
/// `explain`, it adds `explanation`, the lines `resolve --explain` prints for it.
enum DecisionsBody {
    static func answer(rules: ServedRules, profile: Profile, placements: [Int], now: Int64, explain: Bool, route: ServeRouter.Route) -> ServeAnswer {
        let program = rules.program
        switch program.decide(placements: placements, for: profile, now: now) {
        case .failure(let error):
            return ServeAnswer(ServeError(.unprocessable, "invalid_profile", error.message).response, route: route.rawValue)
        case .success(let decisions):
            var body = DecisionsBody.opening(rules: rules, decisions: decisions.count)
            var evaluator = explain ? Evaluator(program: program, profile: profile, now: now) : nil
            for (index, decision) in decisions.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                if evaluator != nil, let explanation = evaluator?.explain(decision, profile: profile) {
                    var members = decision.json.objectMembers ?? []
                    let lines = explanation.description.split(separator: "\n", omittingEmptySubsequences: false)
                    let kept = lines.last?.isEmpty == true ? lines.dropLast() : lines[...]
                    members.append(JSONMember(key: "explanation", value: .array(kept.map { .string(String($0)) })))
                    body.append(contentsOf: JSONWriter.write(.object(members)).utf8)
                } else {
                    Decision.appendJSONHead(profileID: decision.profileID, to: &body)
                    body.append(contentsOf: decision.jsonTail)
                }
            }
            body.append(contentsOf: "]}".utf8)
            return ServeAnswer(.json(.ok, body), route: route.rawValue, decisions: decisions.map { ($0.placement, $0.destinationLabel) })
        }
    }

    /// `{"rules":VERSION,"decisions":[`, the start of every such body; `]}` closes it.
    static func opening(rules: ServedRules, decisions: Int) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(64 + decisions * 200)
        body.append(contentsOf: #"{"rules":"#.utf8)
        JSONWriter.appendString(rules.version, to: &body)
        body.append(contentsOf: #","decisions":["#.utf8)
        return body
    }

    /// The indices of `names` in the rules, or the 404 naming the first unknown one.
    static func placements(_ names: [String]?, in program: Program) -> Result<[Int], ServeError> {
        guard let names else { return .success(Array(program.placements.indices)) }
        var indices: [Int] = []
        for name in names {
            switch program.placementIndex(of: name) {
            case .failure(let error): return .failure(ServeError(.notFound, "unknown_placement", error.message))
            case .success(let index): indices.append(index)
            }
        }
        return .success(indices)
    }
}

extension Decision {
    /// The destination as the metrics name it: `flow:ID`, `paywall:ID`, `nothing` or `no match`.
    package var destinationLabel: String {
        switch outcome {
        case .flow(let id)?: "flow:" + id
        case .paywall(let id)?: "paywall:" + id
        case .nothing?: "nothing"
        case nil: "no match"
        }
    }
}
