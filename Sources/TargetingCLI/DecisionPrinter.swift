import Targeting

/// Prints resolve results as text or JSON lines, with optional explanations.
struct DecisionPrinter {
    let format: OutputFormat
    let explain: Bool
    let io: CommandIO

    func print(_ decision: Decision, profile: Profile, evaluator: inout Evaluator, program: Program) {
        let explanation = explain ? evaluator.explain(placement: program.placementIndex(named: decision.placement)!, decidedRow: decision.row, profile: profile) : nil
        switch format {
        case .json:
            var json = decision.json
            if let explanation, case .object(var members) = json {
                members.append(JSONMember(key: "explanation", value: .array(explanation.rows.map(DecisionPrinter.json))))
                json = .object(members)
            }
            io.out(JSONWriter.write(json) + "\n")
        case .text:
            io.out(DecisionPrinter.summary(decision) + "\n")
            if let explanation {
                for (index, row) in explanation.rows.enumerated() {
                    let mark = row.decided ? "decided" : row.matched ? "matched" : "not matched"
                    io.out("  \(index + 1). \(row.audience) -> \(row.destination): \(mark)\n")
                    if let failure = row.failure {
                        io.out("       segment `\(failure.segment)`: \(failure.attribute) is \(failure.actual), so `\(failure.comparison)` is \(failure.holds) (\(failure.range.file):\(failure.range.start.line):\(failure.range.start.column))\n")
                    }
                }
                io.out("  decision: " + DecisionPrinter.outcomeText(decision) + "\n")
            }
        }
    }

    static func outcomeText(_ decision: Decision) -> String {
        guard let outcome = decision.outcome, let audience = decision.audience else { return "no match (no audience matched)" }
        var text = outcome.description + " (audience `\(audience)`"
        if let split = decision.split { text += ", split `\(split)`" }
        return text + ")"
    }

    static func summary(_ decision: Decision) -> String {
        "\(decision.profileID ?? "(no id)") \(decision.placement): " + outcomeText(decision)
    }

    static func json(_ row: Explanation.Row) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "audience", value: .string(row.audience)),
            JSONMember(key: "destination", value: .string(row.destination)),
            JSONMember(key: "matched", value: .bool(row.matched)),
            JSONMember(key: "decided", value: .bool(row.decided)),
        ]
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
