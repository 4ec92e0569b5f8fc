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
        return Diagnostic(.warning, "unreachable-row", "row `\(row)` can never decide: every profile it matches is taken by the rows above",
                          at: range, help: help)
    }

    static func emptyRow(_ row: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, "unreachable-row", "row `\(row)` can never decide: no profile matches audience `\(row)`", at: range,
                   help: "its conditions contradict each other")
    }

    static func placementFallsThrough(_ placement: String, example: String, now: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, "placement-falls-through", "some profiles match no row of `\(placement)`, e.g. \(example)", at: range,
                   help: now.map { "with `now` at \($0); add an `everyone` row to decide for them" } ?? "add an `everyone` row to decide for them")
    }
}
