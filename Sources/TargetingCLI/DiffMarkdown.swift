import TargetingAnalysis
import TargetingBase
import TargetingImpact

/// `diff --format markdown`: the answer pasted into a pull request. Impact first (a table of
/// the placements, then each changed placement's moves with their counts or witnesses); the
/// example ids, witness profiles and sizes fold into `<details>`; one line when nothing moves.
/// The text stays under `limit` bytes: past it the folded parts are left out, and past it
/// again the moves are cut, each cut said.
enum DiffMarkdown {
    /// The most a pull request comment or a job summary takes.
    static let limit = 1 << 20

    /// The impact of a change on a corpus (`--profiles`).
    static func render(_ report: ImpactReport, now: Int64, absentAttributes: [String]) -> String {
        let placements = report.placements  // sorted once, not per rendering
        return fitted { details, moves in
            corpus(report, placements, now: now, absentAttributes: absentAttributes, details: details, moves: moves)
        }
    }

    /// The verdict of `--prove`.
    static func render(_ proof: ChangeProof) -> String {
        fitted { details, moves in proved(proof, details: details, moves: moves) }
    }

    /// The fullest rendering under `limit`: with every part, then without the folded ones, then
    /// with fewer and fewer moves per placement.
    private static func fitted(_ render: (_ details: Bool, _ moves: Int?) -> String) -> String {
        var text = render(true, nil)
        if text.utf8.count <= limit { return text }
        text = render(false, nil)
        var moves = 1_000
        while text.utf8.count > limit, moves > 0 {
            text = render(false, moves)
            moves /= 2
        }
        return text
    }

    private static func corpus(_ report: ImpactReport, _ placements: [ImpactReport.PlacementImpact], now: Int64, absentAttributes: [String],
                               details: Bool, moves: Int?) -> String {
        let instant = Timestamp.format(now)
        let profiles = placements.map(\.profiles).max() ?? 0
        guard placements.contains(where: { $0.status != .unchanged }) else {
            return "**Targeting:** no change: no profile of \(profiles) changes \(what(report)) in \(count(placements.count, "placement")) at \(instant).\n"
        }
        var out = "### Targeting: impact of the rule change\n\n"
        out += "Resolved at \(instant) over \(count(profiles, "profile")); a move is a change of \(what(report)).\n\n"
        out += "| placement | status | profiles that move | share |\n|---|---|---:|---:|\n"
        for impact in placements {
            let moved = impact.status == .changed ? "\(impact.changed) of \(impact.profiles)" : "—"
            let share = impact.status == .changed ? CommandSupport.percent(impact.changed, of: impact.profiles) : ""
            out += "| \(code(impact.name)) | \(status(impact.status)) | \(moved) | \(share) |\n"
        }
        for impact in placements where impact.status != .unchanged {
            out += "\n#### \(code(impact.name)): \(status(impact.status))\n\n"
            if impact.status == .changed {
                out += "| from | to | profiles |\n|---|---|---:|\n"
                let shown = moves.map { Array(impact.transitions.prefix($0)) } ?? impact.transitions
                for transition in shown {
                    out += "| \(code(transition.from.description)) | \(code(transition.to.description)) | \(transition.count)\(DiffCommand.stickyNote(report, transition)) |\n"
                }
                if shown.count < impact.transitions.count {
                    out += "\n… and \(impact.transitions.count - shown.count) more moves (left out to stay under 1 MiB).\n"
                }
                if details {
                    let examples = shown.filter { !$0.examples.isEmpty }
                    if !examples.isEmpty {
                        out += "\n<details><summary>Example profiles</summary>\n\n"
                        for transition in examples {
                            out += "- \(code(transition.from.description)) → \(code(transition.to.description)): "
                                + transition.examples.map(code).joined(separator: ", ") + "\n"
                        }
                        out += "\n</details>\n"
                    }
                }
            }
            if details, !impact.sizes.isEmpty {
                out += "\n<details><summary>Sizes before and after</summary>\n\n| decision | before | after |\n|---|---:|---:|\n"
                for size in impact.sizes {
                    out += "| \(code(size.shown.description)) | \(DiffCommand.sizeText(report, size.shown, size.before, of: impact.profiles, sticky: size.stickyBefore)) "
                        + "| \(DiffCommand.sizeText(report, size.shown, size.after, of: impact.profiles, sticky: size.stickyAfter)) |\n"
                }
                out += "\n</details>\n"
            }
        }
        if !details, placements.contains(where: { $0.status != .unchanged }) {
            out += "\n(Example profiles and sizes left out to stay under 1 MiB.)\n"
        }
        if !absentAttributes.isEmpty {
            out += "\nNo profile in the corpus has " + absentAttributes.map(code).joined(separator: ", ")
                + ", so the rules that read \(absentAttributes.count == 1 ? "it" : "them") are not exercised.\n"
        }
        return out
    }

    private static func proved(_ proof: ChangeProof, details: Bool, moves: Int?) -> String {
        let instant = Timestamp.format(proof.now)
        guard proof.hasChange || proof.hasUndecided else {
            return "**Targeting:** no change: every placement is equivalent over every profile at \(instant) (\(count(proof.placements.count, "placement")) proved).\n"
        }
        var out = "### Targeting: what the rule change does, over every profile\n\n"
        out += "Proved at \(instant): each move below is made by at least one profile, shown as a witness.\n\n"
        out += "| placement | verdict | kinds of move |\n|---|---|---:|\n"
        for placement in proof.placements {
            let kinds = placement.status == .equivalent ? "" : "\(placement.transitions.count)"
            out += "| \(code(placement.name)) | \(placement.status.rawValue) | \(kinds) |\n"
        }
        for placement in proof.placements where placement.status != .equivalent {
            out += "\n#### \(code(placement.name)): \(placement.status.rawValue)\n"
            let shown = moves.map { Array(placement.transitions.prefix($0)) } ?? placement.transitions
            if !shown.isEmpty {
                out += "\n| from | to |\n|---|---|\n"
                for move in shown { out += "| \(code(ChangeProof.text(move.before))) | \(code(ChangeProof.text(move.after))) |\n" }
            }
            if shown.count < placement.transitions.count {
                out += "\n… and \(placement.transitions.count - shown.count) more kinds of move (left out to stay under 1 MiB).\n"
            }
            if !placement.unsettled.isEmpty {
                out += "\nNot settled (the answer is undecided):\n\n"
                for open in placement.unsettled {
                    out += "- \(code(ChangeProof.text(open.before))) → \(code(ChangeProof.text(open.after))): \(open.reason)\n"
                }
            }
            if details, !shown.isEmpty {
                out += "\n<details><summary>Witness profiles</summary>\n\n"
                for move in shown {
                    out += "- \(code(ChangeProof.text(move.before))) → \(code(ChangeProof.text(move.after))):\n\n  ```json\n  \(JSONWriter.write(move.witness))\n  ```\n"
                }
                out += "\n</details>\n"
            }
        }
        let exposures = [("created", proof.exposuresCreated), ("removed", proof.exposuresRemoved)].filter { !$0.1.isEmpty }
        if !exposures.isEmpty {
            out += "\n#### Partial exposure\n\nProfiles that enter an experiment in one placement while an earlier row of another decides for them:\n\n"
            for (word, list) in exposures {
                for exposure in list {
                    out += "- \(word): \(code(exposure.experiment)) entered in \(code(exposure.entered)), the earlier row \(code(exposure.earlierRow)) "
                        + "of \(code(exposure.skipped)) decides" + (details ? ", e.g. \(code(JSONWriter.write(exposure.witness)))" : "") + "\n"
                }
            }
        }
        if !details, proof.placements.contains(where: { !$0.transitions.isEmpty }) {
            out += "\n(Witness profiles left out to stay under 1 MiB.)\n"
        }
        return out
    }

    /// What a move changes in the report's view.
    private static func what(_ report: ImpactReport) -> String {
        report.view == .row ? "audience, destination or variant" : "destination"
    }

    private static func status(_ status: ImpactReport.Status) -> String {
        switch status {
        case .unchanged: "no change"
        case .changed, .added, .removed: status.rawValue
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// `text` as inline code safe inside a table cell: delimited by one more backtick than its
    /// longest run, `|` escaped, line breaks as spaces.
    static func code(_ text: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let body = text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        let padded = body.hasPrefix("`") || body.hasSuffix("`") ? " " + body + " " : body
        return fence + padded + fence
    }
}
