import TargetingBase

/// Warnings of the analyzer.
extension Diagnostic {
    static func unreachableRow(_ row: String, takenBy rows: [String], at range: SourceRange) -> Diagnostic {
        var help: String?
        if rows.count == 1 {
            help = "every profile it matches is matched first by `\(rows[0])`"
        } else if !rows.isEmpty {
            let names = rows.map { "`\($0)`" }
            help = "every profile it matches is matched first by " + names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
        return Diagnostic(.warning, .unreachableRow, "row `\(row)` can never decide: every profile it matches is taken by the rows above",
                          at: range, help: help)
    }

    static func emptyRow(_ row: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .unreachableRow, "row `\(row)` can never decide: no profile matches audience `\(row)`", at: range,
                   help: "its conditions contradict each other")
    }

    /// A row whose draw's key no profile that reaches it has: one without does not enter (or,
    /// for `profile.id`, is an error).
    static func keylessRow(_ row: String, key: String, draw: String, isProfileID: Bool, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .unreachableRow, "row `\(row)` can never decide: no profile that reaches it has a string value for `\(key)`, the key of \(draw)",
                   at: range, help: isProfileID ? "a profile without an `id` cannot be drawn: it is an error for it"
                       : "a profile without one does not enter the \(draw.hasPrefix("split") ? "split" : "experiment"); the rows below decide for it")
    }

    /// An experiment some profiles see only half of: they enter it in one placement, and
    /// another decides for them by an earlier row. At the experiment row of the latter.
    static func partialExposure(_ exposure: PartialExposure) -> Diagnostic {
        Diagnostic(.warning, .partialExposure,
                   "some profiles enter experiment `\(exposure.experiment)` in `\(exposure.entered)` but not in `\(exposure.skipped)`, where the earlier row `\(exposure.earlierRow)` decides for them, e.g. \(JSONWriter.write(exposure.witness))",
                   at: exposure.range,
                   help: "an experiment across placements should show its variants together: give its rows the same audience in every placement, one that no earlier row takes")
    }

    /// A row of a placement that a 100 % holdout covers: held-out profiles see only `everyone`.
    static func heldOutRow(_ row: String, holdout: String, onlyWithoutID: Bool, at range: SourceRange) -> Diagnostic {
        let message = onlyWithoutID
            ? "row `\(row)` can never decide for a profile with an `id`: every one that reaches it is held out by `\(holdout)`"
            : "row `\(row)` can never decide: every profile that reaches it is held out by `\(holdout)`"
        return Diagnostic(.warning, .unreachableRow, message, at: range,
                          help: "a 100% holdout leaves the profiles it holds out only an `everyone` row"
                              + (onlyWithoutID ? "; only a profile without an `id`, which is never drawn, reaches this row" : ""))
    }

    static func placementFallsThrough(_ placement: String, example: String, now: String?, heldOutBy holdout: String? = nil,
                                      reason: String? = nil, at range: SourceRange) -> Diagnostic {
        let help = reason ?? "add an `everyone` row to decide for them"
        return Diagnostic(.warning, .placementFallsThrough,
                          "some profiles match no row of `\(placement)`" + (holdout.map { " (held out by `\($0)`)" } ?? "") + ", e.g. \(example)", at: range,
                          help: now.map { "with `now` at \($0); " + help } ?? help)
    }

    /// A placement with more rows than the reachability analysis takes.
    static func placementAnalysisSkipped(_ placement: String, rows: Int, limit: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.note, .analysisSkipped, "placement `\(placement)` has \(rows) rows, too many for the reachability analysis; its unreachable rows and fall-through are not reported", at: range,
                   help: "the analysis takes placements of up to \(Diagnostic.grouped(limit)) rows")
    }
}
