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
    /// that have any (never `match`), each with what the rules predicted and what was shown.
    var json: JSONValue {
        .object([
            JSONMember(key: "placements", value: .array(placements.map(\.json))),
            JSONMember(key: "experiments", value: .array(experiments.map(\.json))),
        ])
    }

    /// The human report: per placement its counts, aligned, each followed by its examples on
    /// lines of their own; then the sample-ratio checks; then one line of totals.
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
                out += line + "\n"
                for example in placement.examples[kind.rawValue] { out += "    " + example.exampleText + "\n" }
            }
        }
        if !experiments.isEmpty {
            out += "\nsample ratio (profiles first assigned to each variant, their observed share against the share the weights expect; flagged below p = \(ReconcileOutput.decimal(SampleRatioCheck.threshold))):\n"
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
            return JSONMember(key: kind.name, value: .array(kept.map(\.exampleJSON)))
        }
        return .object([
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "shown", value: .number(Double(shown))),
            JSONMember(key: "classes", value: .object(classes)),
            JSONMember(key: "examples", value: .object(examples)),
        ])
    }
}

extension SampleRatioCheck {
    var json: JSONValue {
        .object([
            JSONMember(key: "experiment", value: .string(experiment)),
            JSONMember(key: "assigned", value: .object(variants.map { JSONMember(key: $0.name, value: .number(Double($0.assigned))) })),
            JSONMember(key: "expected", value: .object(variants.map { variant in
                JSONMember(key: variant.name, value: expectedFraction(variant).map { .number(ReconcileOutput.percent($0)) } ?? .null)
            })),
            JSONMember(key: "p_value", value: pValue.map(JSONValue.number) ?? .null),
            JSONMember(key: "flagged", value: .bool(isFlagged)),
        ])
    }

    /// `pricing_q4: control 3 (observed 75.0%, expected 50.0%), discount 1 (observed 25.0%,
    /// expected 50.0%); chi-squared 1.00, df 1, p = 0.3173`.
    var text: String {
        let counts = variants.map { "\($0.name) \($0.assigned) (\(shares($0)))" }.joined(separator: ", ")
        guard let statistic, let pValue else { return "\(experiment): \(counts); no profile assigned" }
        var line = "\(experiment): \(counts); chi-squared \(String(format: "%.2f", statistic)), df \(degreesOfFreedom), p = \(ReconcileOutput.decimal(pValue))"
        if isFlagged { line += "  FLAGGED: the assignment ratio is off" }
        return line
    }

    /// The observed share of the tested profiles `variant` took (when there are any) and the
    /// share the weights expect of it: `observed 75.0%, expected 50.0%`; `not declared` for a
    /// variant the experiment does not declare.
    func shares(_ variant: Variant) -> String {
        guard let expected = expectedFraction(variant) else { return variant.isDeclared ? "weight 0" : "not declared" }
        let profiles = testedProfiles
        let observed = profiles > 0 ? "observed " + ReconcileOutput.percentText(Double(variant.assigned) / Double(profiles)) + ", " : ""
        return observed + "expected " + ReconcileOutput.percentText(expected)
    }
}

/// Number formats shared by the text, JSON and Markdown reports.
enum ReconcileOutput {
    /// A share from 0 to 1 as a percentage rounded to one decimal (0.5 is 50.0).
    static func percent(_ fraction: Double) -> Double { (fraction * 1000).rounded() / 10 }

    /// A share from 0 to 1 as text: `50.0%`.
    static func percentText(_ fraction: Double) -> String { String(format: "%.1f%%", percent(fraction)) }

    /// A probability for people: four significant digits (`0.3173`, `1.2e-09`).
    static func decimal(_ value: Double) -> String {
        value == 0 ? "0" : String(format: "%.4g", value)
    }
}
