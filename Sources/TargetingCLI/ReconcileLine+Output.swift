import TargetingBase
import TargetingEngine
import TargetingReconcile

extension ReconcileOutcome {
    /// `{"kind","id","experiment","variant","held_out"}`; `kind` and `id` are null for `nothing`.
    var json: JSONValue {
        func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            JSONMember(key: "kind", value: string(destination.kind)),
            JSONMember(key: "id", value: string(destination.id)),
            JSONMember(key: "experiment", value: string(experiment)),
            JSONMember(key: "variant", value: string(variant)),
            JSONMember(key: "held_out", value: .bool(heldOut)),
        ])
    }

    /// `paywall "pw_discount" (experiment pricing_q4: discount)`, then `(held out)` when held out.
    var text: String {
        var text = destination.description
        if let experiment { text += " (experiment \(experiment): \(variant ?? "no variant"))" }
        if heldOut { text += " (held out)" }
        return text
    }
}

extension ReconcilePrediction {
    /// What the rules predicted, for people: `predicted paywall "pw_standard"`, `predicted no
    /// match`, or why there is no prediction.
    var text: String {
        switch self {
        case .unknownPlacement: "no prediction (the rules declare no such placement)"
        case .undecided(let error): "no prediction (\(error.message))"
        case .decided: outcome.map { "predicted " + $0.text } ?? "predicted no match"
        }
    }

    /// The `predicted` member of the JSON: null for an unknown placement, no decision, or no
    /// row matched.
    var json: JSONValue { outcome?.json ?? .null }
}

extension ReconcileLine {
    /// An example in the JSON report: `{"profile_id","at","predicted","shown"}`.
    var exampleJSON: JSONValue {
        .object([
            JSONMember(key: "profile_id", value: .string(profileID)),
            JSONMember(key: "at", value: .string(Timestamp.format(at))),
            JSONMember(key: "predicted", value: prediction.json),
            JSONMember(key: "shown", value: ReconcileOutcome(shown).json),
        ])
    }

    /// An example in the text report: `u1 at 2026-12-01T10:00:00Z: predicted paywall "a",
    /// shown paywall "b"`.
    var exampleText: String {
        "\(profileID) at \(Timestamp.format(at)): \(prediction.text), shown \(ReconcileOutcome(shown).text)"
    }

    /// Why the rules made no decision for the line, or nil when they made one.
    var noDecision: String? {
        switch prediction {
        case .unknownPlacement: "the rules declare no placement `\(shown.placement)`"
        case .undecided(let error): error.message
        case .decided: nil
        }
    }

    /// Where the line is: `events.jsonl:12`.
    var place: String { "\(file):\(line)" }
}
