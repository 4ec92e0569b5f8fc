import TargetingBase
import TargetingReconcile

/// `reconcile --format markdown`: the report pasted into a pull request. One table of the
/// placements with a column per class, a table of the mismatches' examples (predicted against
/// shown), then the sample-ratio checks as a table.
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
            ReconcileClass.reportOrder.flatMap { kind in
                placement.examples[kind.rawValue].map { example in
                    "| \(code(placement.placement)) | \(kind.name) | \(code(example.profileID)) | \(Timestamp.format(example.at)) | \(predicted(example.prediction)) | \(code(ReconcileOutcome(example.shown).text)) |"
                }
            }
        }
        if !examples.isEmpty {
            out += "\n<details><summary>Examples (up to \(PlacementReconciliation.examplesKept) per class)</summary>\n\n"
            out += "| placement | class | profile | at | predicted | shown |\n|---|---|---|---|---|---|\n"
            out += examples.joined(separator: "\n") + "\n\n</details>\n"
        }
        if !report.experiments.isEmpty {
            out += "\n#### Sample ratio\n\nProfiles first assigned to each variant, their observed share against the share the weights expect (Pearson's chi-squared; flagged below p = \(ReconcileOutput.decimal(SampleRatioCheck.threshold))).\n\n"
            out += "| experiment | assigned | p-value | |\n|---|---|---:|---|\n"
            for check in report.experiments {
                let assigned = check.variants.map { "\(code($0.name)) \($0.assigned) (\(check.shares($0)))" }.joined(separator: ", ")
                let p = check.pValue.map(ReconcileOutput.decimal) ?? "—"
                let verdict = check.pValue == nil ? "no profile assigned" : (check.isFlagged ? "⚠️ **flagged**" : "ok")
                out += "| \(code(check.experiment)) | \(assigned) | \(p) | \(verdict) |\n"
            }
        }
        return out
    }

    /// The prediction in a table cell: the destination as code, or why there is none in words.
    private static func predicted(_ prediction: ReconcilePrediction) -> String {
        switch prediction {
        case .unknownPlacement: "not in the rules"
        case .undecided(let error): "no decision (\(error.message.replacingOccurrences(of: "|", with: "\\|")))"
        case .decided: prediction.outcome.map { code($0.text) } ?? "no match"
        }
    }

    private static func code(_ text: String) -> String { DiffMarkdown.code(text) }
}
