import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Renders resolve results as text or JSON lines, with optional explanations.
package struct DecisionPrinter: Sendable {
    package let format: OutputFormat
    package let explain: Bool

    /// A printer of decisions in `format`, with their explanations when `explain`.
    package init(format: OutputFormat, explain: Bool) {
        self.format = format
        self.explain = explain
    }

    /// The printed form of one decision (ending with a line break).
    package func text(_ decision: Decision, explanation: Explanation? = nil) -> String {
        switch format {
        case .json:
            guard let explanation else { return decision.jsonLine + "\n" }
            return JSONWriter.write(DecisionPrinter.json(decision, explanation: explanation)) + "\n"
        case .text:
            return explanation?.description ?? decision.description + "\n"
        }
    }

    /// The JSON object of `resolve --explain --format json`: the decision's members, then
    /// `explanation`, one object per row.
    package static func json(_ decision: Decision, explanation: Explanation) -> JSONValue {
        var members = decision.json.objectMembers ?? []
        members.append(JSONMember(key: "explanation", value: .array(explanation.rows.map(DecisionPrinter.json))))
        return .object(members)
    }

    /// One row of an explanation in JSON.
    package static func json(_ row: Explanation.Row) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "audience", value: .string(row.audience)),
            JSONMember(key: "destination", value: .string(row.destination)),
            JSONMember(key: "matched", value: .bool(row.matched)),
            JSONMember(key: "decided", value: .bool(row.decided)),
        ]
        if row.always { members.append(JSONMember(key: "always", value: .bool(true))) }
        if let failure = row.failure {
            members.append(JSONMember(key: "failed", value: .object([
                JSONMember(key: "segment", value: .string(failure.segment)),
                JSONMember(key: "attribute", value: .string(failure.attribute)),
                JSONMember(key: "actual", value: .string(failure.actual)),
                JSONMember(key: "comparison", value: .string(failure.comparison)),
                JSONMember(key: "holds", value: .bool(failure.holds)),
            ])))
        }
        return .object(members)
    }
}
