import TargetingBase
import TargetingReconcile

/// `reconcile --format markdown`: the report pasted into a pull request. One table of the
/// placements with a column per class, the examples of the mismatches, then the sample-ratio
/// checks as a table.
enum ReconcileMarkdown {
    static func render(_ report: ReconcileReport) -> String {
        var out = "### Targeting: served vs predicted\n\n"
        let lines = report.shown == 1 ? "1 shown line" : "\(report.shown) shown lines"
        if report.allMatch {
            out += "**\(lines), every one as the rules decide.**\n"
        } else {
            out += "**\(lines): \(report.count(.match)) match, \(report.mismatches) \(report.mismatches == 1 ? "does" : "do") not.**\n"
        }
        out += "\n| placement | shown | " + ReconcileClass.reportOrder.map(\.name).joined(separator: " | ") + " |\n"
        out += "|---|---:|" + String(repeating: "---:|", count: ReconcileClass.reportOrder.count) + "\n"
        for placement in report.placements {
            let name = code(placement.placement) + (placement.isDeclared ? "" : " (not in the rules)")
            let counts = ReconcileClass.reportOrder.map { kind -> String in
                let count = placement.count(kind)
                return kind != .match && count > 0 ? "**\(count)**" : "\(count)"
            }
            out += "| \(name) | \(placement.shown) | " + counts.joined(separator: " | ") + " |\n"
        }
        let examples = report.placements.flatMap { placement in
            ReconcileClass.reportOrder.compactMap { kind -> String? in
                let kept = placement.examples[kind.rawValue]
                guard !kept.isEmpty else { return nil }
                return "- \(code(placement.placement)), \(kind.name): " + kept.map { "\(code($0.profileID)) at \(Timestamp.format($0.at))" }.joined(separator: ", ")
            }
        }
        if !examples.isEmpty {
            out += "\n<details><summary>Examples (up to \(PlacementReconciliation.examplesKept) per class)</summary>\n\n" + examples.joined(separator: "\n") + "\n\n</details>\n"
        }
        if !report.experiments.isEmpty {
            out += "\n#### Sample ratio\n\nProfiles first assigned to each variant, against the weights (Pearson's chi-squared; flagged below p = \(ReconcileOutput.decimal(SampleRatioCheck.threshold))).\n\n"
            out += "| experiment | assigned | p-value | |\n|---|---|---:|---|\n"
            for check in report.experiments {
                let assigned = check.variants.map { "\(code($0.name)) \($0.assigned) (\($0.isDeclared ? "\($0.weight)%" : "not declared"))" }.joined(separator: ", ")
                let p = check.pValue.map(ReconcileOutput.decimal) ?? "—"
                let verdict = check.pValue == nil ? "no profile assigned" : (check.isFlagged ? "⚠️ **flagged**" : "ok")
                out += "| \(code(check.experiment)) | \(assigned) | \(p) | \(verdict) |\n"
            }
        }
        return out
    }

    private static func code(_ text: String) -> String { DiffMarkdown.code(text) }
}
