import Foundation
import TargetingBase
import TargetingReconcile

extension ReconcileClass {
    /// The order the outputs list classes in: `match` first, then the mismatches from the most
    /// specific (`different destination`) to the most basic (`unknown placement`).
    static let reportOrder: [ReconcileClass] = allCases.reversed()
}

extension ReconcileReport {
    /// `--format json`: every class key present in `classes`; `examples` only for the classes
    /// that have any (never `match`).
    var json: JSONValue {
        .object([
            JSONMember(key: "placements", value: .array(placements.map(\.json))),
            JSONMember(key: "experiments", value: .array(experiments.map(\.json))),
        ])
    }

    /// The human report: per placement its counts, aligned, with example lines; then the
    /// sample-ratio checks; then one line of totals.
    var text: String {
        let width = ReconcileClass.allCases.map(\.name.count).max() ?? 0
        let countWidth = String(placements.map(\.shown).max() ?? 0).count
        var out = ""
        for placement in placements {
            let name = placement.isDeclared ? placement.placement : "\(placement.placement) (not in the rules)"
            guard placement.shown > 0 else {
                out += "\(name): not shown\n"
                continue
            }
            out += "\(name): \(placement.shown) shown, \(placement.count(.match)) match"
            out += placement.mismatches > 0 ? ", \(placement.mismatches) do not\n" : "\n"
            for kind in ReconcileClass.reportOrder where placement.count(kind) > 0 {
                let count = String(placement.count(kind))
                var line = "  " + kind.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                line += String(repeating: " ", count: max(0, countWidth - count.count)) + count
                let examples = placement.examples[kind.rawValue]
                if !examples.isEmpty { line += "  e.g. " + examples.map(\.text).joined(separator: ", ") }
                out += line + "\n"
            }
        }
        if !experiments.isEmpty {
            out += "\nsample ratio (profiles first assigned to each variant, against the weights; flagged below p = \(ReconcileOutput.decimal(SampleRatioCheck.threshold))):\n"
            for check in experiments { out += "  " + check.text + "\n" }
        }
        let lines = shown == 1 ? "1 shown line" : "\(shown) shown lines"
        out += "\n\(lines): \(count(.match)) match, \(mismatches) \(mismatches == 1 ? "does" : "do") not\n"
        return out
    }
}

extension PlacementReconciliation {
    var json: JSONValue {
        let classes = ReconcileClass.reportOrder.map { JSONMember(key: $0.name, value: .number(Double(count($0)))) }
        let examples = ReconcileClass.reportOrder.compactMap { kind -> JSONMember? in
            let kept = self.examples[kind.rawValue]
            guard !kept.isEmpty else { return nil }
            return JSONMember(key: kind.name, value: .array(kept.map(\.json)))
        }
        return .object([
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "shown", value: .number(Double(shown))),
            JSONMember(key: "classes", value: .object(classes)),
            JSONMember(key: "examples", value: .object(examples)),
        ])
    }
}

extension PlacementReconciliation.Example {
    var json: JSONValue {
        .object([JSONMember(key: "profile_id", value: .string(profileID)), JSONMember(key: "at", value: .string(Timestamp.format(at)))])
    }

    /// `u1 at 2026-12-01T10:00:00Z`.
    var text: String { "\(profileID) at \(Timestamp.format(at))" }
}

extension SampleRatioCheck {
    var json: JSONValue {
        .object([
            JSONMember(key: "experiment", value: .string(experiment)),
            JSONMember(key: "assigned", value: .object(variants.map { JSONMember(key: $0.name, value: .number(Double($0.assigned))) })),
            JSONMember(key: "p_value", value: pValue.map(JSONValue.number) ?? .null),
            JSONMember(key: "flagged", value: .bool(isFlagged)),
        ])
    }

    /// `pricing_q4: control 3 (50%), discount 1 (50%); chi-squared 1.00, df 1, p = 0.3173`.
    var text: String {
        let counts = variants.map { "\($0.name) \($0.assigned) (\($0.isDeclared ? "\($0.weight)%" : "not declared"))" }.joined(separator: ", ")
        guard let statistic, let pValue else { return "\(experiment): \(counts); no profile assigned" }
        var line = "\(experiment): \(counts); chi-squared \(String(format: "%.2f", statistic)), df \(degreesOfFreedom), p = \(ReconcileOutput.decimal(pValue))"
        if isFlagged { line += "  FLAGGED: the assignment ratio is off" }
        return line
    }
}

/// Number formats shared by the text and Markdown reports.
enum ReconcileOutput {
    /// A probability for people: four significant digits (`0.3173`, `1.2e-09`).
    static func decimal(_ value: Double) -> String {
        value == 0 ? "0" : String(format: "%.4g", value)
    }
}
