import TargetingAnalysis
import TargetingBase
import TargetingEngine

extension ChangeProof {
    /// `diff --prove --format json`: one object, placements in order.
    var json: JSONValue {
        .object([
            JSONMember(key: "now", value: .string(Timestamp.format(now))),
            JSONMember(key: "placements", value: .array(placements.map { placement in
                var members = [
                    JSONMember(key: "placement", value: .string(placement.name)),
                    JSONMember(key: "status", value: .string(placement.status.rawValue)),
                    JSONMember(key: "transitions", value: .array(placement.transitions.map { move in
                        .object([
                            JSONMember(key: "from", value: Self.json(move.from)),
                            JSONMember(key: "to", value: Self.json(move.to)),
                            JSONMember(key: "witness", value: move.witness),
                        ])
                    })),
                ]
                if placement.status == .undecided {
                    members.append(JSONMember(key: "unsettled", value: .array(placement.unsettled.map { open in
                        .object([
                            JSONMember(key: "from", value: Self.json(open.from)),
                            JSONMember(key: "to", value: Self.json(open.to)),
                            JSONMember(key: "reason", value: .string(open.reason)),
                        ])
                    })))
                }
                return .object(members)
            })),
        ])
    }

    /// A destination as `diff --format json` writes it: `{"kind","id"}`, both null for
    /// nothing; null for no match.
    static func json(_ seen: Seen) -> JSONValue {
        guard let outcome = seen else { return .null }
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
            switch placement.status {
            case .changed, .undecided where !placement.transitions.isEmpty:
                out += " (\(placement.transitions.count) kind\(placement.transitions.count == 1 ? "" : "s") of move)"
            default: break
            }
            out += "\n"
            for move in placement.transitions {
                out += "  \(Self.text(move.from)) -> \(Self.text(move.to)): \(JSONWriter.write(move.witness))\n"
            }
            for open in placement.unsettled {
                out += "  not settled: \(Self.text(open.from)) -> \(Self.text(open.to)) (\(open.reason))\n"
            }
        }
        return out
    }

    static func text(_ seen: Seen) -> String { seen.map(\.description) ?? "no match" }
}
