import TargetingBase
import TargetingReconcile
import TargetingBatch

extension ReconcileTrace {
    /// `reconcile --explain` as text: per shown line of the profile, in order, where it is and
    /// when, what it showed, its class, then the rules' explanation as `resolve --explain`
    /// prints it; then one line of totals.
    var text: String {
        var out = ""
        for entry in entries {
            let line = entry.line
            out += "\(line.place) at \(Timestamp.format(line.at)): \(line.shown.placement)\n"
            out += "  shown: \(ReconcileOutcome(line.shown).text)\n"
            out += "  class: \(line.kind.name)\n"
            if let reason = line.noDecision { out += "  no decision: \(reason)\n" }
            if let explanation = entry.explanation { out += explanation.description }
            out += "\n"
        }
        let lines = entries.count == 1 ? "1 shown line" : "\(entries.count) shown lines"
        let matches = entries.count - mismatches
        return out + "\(profileID): \(lines), \(matches) match, \(mismatches) \(mismatches == 1 ? "does" : "do") not\n"
    }

    /// `reconcile --explain --format json`: `{"profile_id","lines":[…]}`, one object per shown
    /// line (see `ReconcileTrace.Entry.json`).
    var json: JSONValue {
        .object([
            JSONMember(key: "profile_id", value: .string(profileID)),
            JSONMember(key: "lines", value: .array(entries.map(\.json))),
        ])
    }
}

extension ReconcileTrace.Entry {
    /// `{"file","line","at","placement","class","predicted","shown","decision","error"}`:
    /// `decision` is the object of `resolve --explain --format json` (null when no decision was
    /// made), `error` why none was made (else null).
    var json: JSONValue {
        var decision: JSONValue = .null
        if let explanation { decision = DecisionPrinter.json(explanation.decision, explanation: explanation) }
        return .object([
            JSONMember(key: "file", value: .string(line.file)),
            JSONMember(key: "line", value: .number(Double(line.line))),
            JSONMember(key: "at", value: .string(Timestamp.format(line.at))),
            JSONMember(key: "placement", value: .string(line.shown.placement)),
            JSONMember(key: "class", value: .string(line.kind.name)),
            JSONMember(key: "predicted", value: line.prediction.json),
            JSONMember(key: "shown", value: ReconcileOutcome(line.shown).json),
            JSONMember(key: "decision", value: decision),
            JSONMember(key: "error", value: line.noDecision.map(JSONValue.string) ?? .null),
        ])
    }
}
