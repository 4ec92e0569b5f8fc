extension Decision: CustomStringConvertible {
    /// One line: `u1 onboarding_followup: flow "flow_pro_v2" (audience `pro_adults`)`.
    public var description: String {
        Decision.textHead(profileID: profileID) + textTail
    }

    /// The start of `description`, the only part that depends on the profile: its id.
    package static func textHead(profileID: String?) -> String { profileID ?? "(no id)" }

    /// The rest of `description`, after the profile id: ` placement: flow "x" (audience `a`)`.
    package var textTail: String { " \(placement): " + outcomeText }

    /// What was shown and why: `flow "x" (audience `a`, split `s`)`, or `no match (…)`.
    package var outcomeText: String {
        guard let outcome, let audience else { return "no match (no audience matched)" }
        var text = outcome.description + " (audience `\(audience)`"
        if let split { text += ", split `\(split)`" }
        return text + ")"
    }
}

extension Explanation: CustomStringConvertible {
    /// The text of `resolve --explain` (SPEC §6): the decision, every row with matched / not
    /// matched and the first failing condition, then the decision again.
    public var description: String {
        var text = decision.description + "\n"
        for (index, row) in rows.enumerated() {
            var mark = row.decided ? "decided" : row.matched ? "matched" : "not matched"
            if row.decided, let split = decision.split, let profileID = decision.profileID, let outcome = decision.outcome {
                // The draw that chose the variant (SPEC §4.5), so a test id can be checked at a glance.
                mark += " (bucket \(SplitDraw.bucket(splitID: split, profileID: profileID)) -> \(outcome.description))"
            }
            text += "  \(index + 1). \(row.audience) -> \(row.destination): \(mark)\n"
            if let failure = row.failure {
                let place = "\(failure.range.file):\(failure.range.start.line):\(failure.range.start.column)"
                let negation = failure.negation.map { ", so `\($0)` is \(failure.negationHolds)" } ?? ""
                text += "       segment `\(failure.segment)`: \(failure.attribute) is \(failure.actual), so `\(failure.comparison)` is \(failure.holds)\(negation) (\(place))\n"
            }
        }
        return text + "  decision: " + decision.outcomeText + "\n"
    }
}
