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
        // `failed` is the first failing comparison; `failures` all of them (every failing term of
        // an `or`); `held` the comparisons by which a matched row's `or`s held.
        if let failure = row.failure { members.append(JSONMember(key: "failed", value: json(failure))) }
        if !row.failures.isEmpty { members.append(JSONMember(key: "failures", value: .array(row.failures.map(json)))) }
        if !row.held.isEmpty { members.append(JSONMember(key: "held", value: .array(row.held.map(json)))) }
        return .object(members)
    }

    /// One comparison of an explanation in JSON.
    static func json(_ comparison: Explanation.Failure) -> JSONValue {
        .object([
            JSONMember(key: "segment", value: .string(comparison.segment)),
            JSONMember(key: "attribute", value: .string(comparison.attribute)),
            JSONMember(key: "actual", value: .string(comparison.actual)),
            JSONMember(key: "comparison", value: .string(comparison.comparison)),
            JSONMember(key: "holds", value: .bool(comparison.holds)),
        ])
    }
}
