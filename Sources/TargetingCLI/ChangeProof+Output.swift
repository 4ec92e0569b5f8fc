import TargetingAnalysis
import TargetingBase
import TargetingEngine

extension ChangeProof {
    /// `diff --prove --format json`: one object, placements in order, then the partial
    /// exposures the change creates or removes (only when there are some).
    var json: JSONValue {
        var members = [
            JSONMember(key: "now", value: .string(Timestamp.format(now))),
            JSONMember(key: "placements", value: .array(placements.map { placement in
                var members = [
                    JSONMember(key: "placement", value: .string(placement.name)),
                    JSONMember(key: "status", value: .string(placement.status.rawValue)),
                    JSONMember(key: "transitions", value: .array(placement.transitions.map { move in
                        .object(moveMembers(move.before, move.after) + [JSONMember(key: "witness", value: move.witness)])
                    })),
                ]
                if placement.status == .undecided {
                    members.append(JSONMember(key: "unsettled", value: .array(placement.unsettled.map { open in
                        .object(moveMembers(open.before, open.after) + [JSONMember(key: "reason", value: .string(open.reason))])
                    })))
                }
                if !placement.asksAbout.isEmpty {
                    members.append(JSONMember(key: "asks_about", value: .array(placement.asksAbout.map(JSONValue.string))))
                }
                return .object(members)
            })),
        ]
        if !exposuresCreated.isEmpty || !exposuresRemoved.isEmpty {
            members.append(JSONMember(key: "partial_exposure", value: .object([
                JSONMember(key: "created", value: .array(exposuresCreated.map(Self.json))),
                JSONMember(key: "removed", value: .array(exposuresRemoved.map(Self.json))),
            ])))
        }
        return .object(members)
    }

    /// `from` and `to` as destinations; with experiments or a holdout in either rule set also
    /// `from_experiment`, `from_variant`, `from_held_out` and the same for `to` (the
    /// `experiment`, `variant` and `held_out` of `resolve`).
    func moveMembers(_ before: Seen, _ after: Seen) -> [JSONMember] {
        var members = [JSONMember(key: "from", value: Self.json(before.outcome)), JSONMember(key: "to", value: Self.json(after.outcome))]
        guard reportsExperiments else { return members }
        for (side, seen) in [("from", before), ("to", after)] {
            members += [
                JSONMember(key: side + "_experiment", value: seen.experiment.map(JSONValue.string) ?? .null),
                JSONMember(key: side + "_variant", value: seen.variant.map(JSONValue.string) ?? .null),
                JSONMember(key: side + "_held_out", value: .bool(seen.heldOutBy != nil)),
            ]
        }
        return members
    }

    /// A destination as `diff --format json` writes it: `{"kind","id"}`, both null for
    /// nothing; null for no match.
    static func json(_ outcome: Outcome?) -> JSONValue {
        guard let outcome else { return .null }
        return .object([
            JSONMember(key: "kind", value: outcome.kind.map(JSONValue.string) ?? .null),
            JSONMember(key: "id", value: outcome.id.map(JSONValue.string) ?? .null),
        ])
    }

    /// One line per placement (`main_paywall: changed`), then one per move with its witness
    /// as compact JSON, and for an undecided placement what was left open.
    var text: String {
        var out = "diff --prove at \(Timestamp.format(now))\n"
        for placement in placements {
            out += "\(placement.name): \(placement.status.rawValue)"
            let moves = " (\(placement.transitions.count) kind\(placement.transitions.count == 1 ? "" : "s") of move)"
            switch placement.status {
            case .changed: out += moves
            case .undecided: if !placement.transitions.isEmpty { out += moves }
            case .equivalent, .added, .removed: break
            }
            if !placement.asksAbout.isEmpty {
                out += ", asking about " + placement.asksAbout.map { "`\($0)`" }.joined(separator: ", ") + ", which changed"
            }
            out += "\n"
            for move in placement.transitions {
                out += "  \(Self.text(move.before)) -> \(Self.text(move.after)): \(JSONWriter.write(move.witness))\n"
            }
            for open in placement.unsettled {
                out += "  not settled: \(Self.text(open.before)) -> \(Self.text(open.after)) (\(open.reason))\n"
            }
        }
        for (word, exposures) in [("created", exposuresCreated), ("removed", exposuresRemoved)] {
            for exposure in exposures {
                out += "partial exposure \(word): some profiles enter `\(exposure.experiment)` in `\(exposure.entered)` while the earlier row "
                    + "`\(exposure.earlierRow)` of `\(exposure.skipped)` decides for them: \(JSONWriter.write(exposure.witness))\n"
            }
        }
        return out
    }

    /// A partial exposure in JSON.
    static func json(_ exposure: PartialExposure) -> JSONValue {
        .object([
            JSONMember(key: "experiment", value: .string(exposure.experiment)),
            JSONMember(key: "entered", value: .string(exposure.entered)),
            JSONMember(key: "skipped", value: .string(exposure.skipped)),
            JSONMember(key: "earlier_row", value: .string(exposure.earlierRow)),
            JSONMember(key: "witness", value: exposure.witness),
        ])
    }

    /// A destination as text: `flow "x"`, `nothing` or `no match`.
    static func text(_ outcome: Outcome?) -> String { outcome.map(\.description) ?? "no match" }

    /// What a decision shows as text: the destination, then `(experiment e: v)` and `(held out
    /// by h)` as `resolve` writes them.
    static func text(_ seen: Seen) -> String {
        var text = text(seen.outcome)
        if let experiment = seen.experiment, let variant = seen.variant { text += " (experiment \(experiment): \(variant))" }
        if let holdout = seen.heldOutBy { text += " (held out by \(holdout))" }
        return text
    }
}
