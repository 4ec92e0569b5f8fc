extension Outcome: CustomStringConvertible {
    /// As written in rules and printed by the CLI: `flow "x"`, `paywall "x"`, `nothing`.
    public var description: String {
        switch self {
        case .flow(let id): "flow \"\(id)\""
        case .paywall(let id): "paywall \"\(id)\""
        case .nothing: "nothing"
        }
    }
}

extension Decision: CustomStringConvertible {
    /// One line: `u1 onboarding_followup: flow "flow_pro_v2" (audience `pro_adults`)`.
    public var description: String {
        Decision.textHead(profileID: profileID) + textTail
    }

    /// The start of `description`, the only part that depends on the profile: its id.
    package static func textHead(profileID: String?) -> String { profileID ?? "(no id)" }

    /// The rest of `description`, after the profile id: ` placement: flow "x" (audience `a`)`.
    package var textTail: String { " \(placement): " + outcomeText }

    /// What was shown and why: `flow "x" (audience `a`, split `s`)`, or `no match (…)`, then
    /// `(experiment e: v)` for an experiment's draw and `(held out by h)` for the holdout.
    package var outcomeText: String {
        var text: String
        if let outcome, let audience {
            text = outcome.description + " (audience `\(audience)`"
            if let split { text += ", split `\(split)`" }
            text += ")"
        } else {
            text = "no match (no audience matched)"
        }
        if let experiment, let variant { text += " (experiment \(experiment): \(variant))" }
        if heldOut, let holdout = heldOutBy { text += " (held out by \(holdout))" }
        return text
    }
}

extension Explanation: CustomStringConvertible {
    /// The text of `resolve --explain`: the decision, every row with matched / not matched,
    /// under a row that did not match each comparison that kept it out (every failing term of
    /// an `or`), under one that matched the comparisons by which its `or`s held (`held: …`),
    /// then the decision again.
    public var description: String {
        var text = decision.description + "\n"
        for (index, row) in rows.enumerated() {
            var mark = row.decided ? "decided" : row.matched ? "matched" : "not matched"
            if let draw = row.draw { mark += " (\(draw))" }
            text += "  \(index + 1). \(row.always ? "always " : "")\(row.audience) -> \(row.destination): \(mark)\n"
            for failure in row.failures { text += "       \(failure)\n" }
            for held in row.held { text += "       held: \(held)\n" }
        }
        if let holdout = holdout { text += "  \(holdout)\n" }
        return text + "  decision: " + decision.outcomeText + "\n"
    }
}

extension Explanation.Row: CustomStringConvertible {
    /// `pro_adults -> flow "flow_pro_v2": not matched`, then each failing comparison, or each
    /// comparison by which an `or` held (`held: …`).
    public var description: String {
        let mark = decided ? "decided" : matched ? "matched" : "not matched"
        return "\(always ? "always " : "")\(audience) -> \(destination): \(mark)"
            + failures.map { "; \($0)" }.joined() + held.map { "; held: \($0)" }.joined()
    }
}

extension Explanation.Failure: CustomStringConvertible {
    /// As `--explain` prints it: `` segment `adults`: profile.age is 17, so `profile.age >= 18` is false (main.rules:3:18) ``.
    public var description: String {
        let place = "\(range.file):\(range.start.line):\(range.start.column)"
        let negation = negation.map { ", so `\($0)` is \(negationHolds)" } ?? ""
        return "segment `\(segment)`: \(attribute) is \(actual), so `\(comparison)` is \(holds)\(negation) (\(place))"
    }
}
