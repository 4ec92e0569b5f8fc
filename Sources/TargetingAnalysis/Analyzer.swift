import TargetingBase
import TargetingEngine
import TargetingSemantics

/// Warnings that need the whole checked rule set: rows that can never decide and placements
/// that some profile falls through.
///
/// Both are questions about profiles: "is there a profile that row `i` matches and no row above
/// it does?", "is there a profile no row matches?". `ProfileSearch` answers them over a finite
/// set of representative values per field (`VariableOptions`); a question it cannot settle
/// within its budget gives no warning.
///
/// Each placement is its own set of questions with its own budget of work, so a rule set of
/// many placements is analysed like as many small ones; a placement with more than
/// `rowsPerPlacement` rows is left out with a note naming it.
package enum Analyzer {
    /// The most rows a placement may have to be analysed.
    package static let rowsPerPlacement = 1_000

    /// Runs every analysis over an error-free checked rule set, compiling it only when some
    /// placement is small enough to be analysed.
    package static func analyze(_ ruleSet: CheckedRules) -> [Diagnostic] {
        guard ruleSet.placements.contains(where: { $0.rows.count <= rowsPerPlacement }) else {
            return ruleSet.placements.map { skipped($0.name.text, rows: $0.rows.count, at: $0.name.range) }
        }
        return analyze(Program(ruleSet))
    }

    /// The note for a placement left out.
    private static func skipped(_ placement: String, rows: Int, at range: SourceRange) -> Diagnostic {
        .placementAnalysisSkipped(placement, rows: rows, limit: rowsPerPlacement, at: range)
    }

    /// Runs every analysis over an error-free rule set.
    package static func analyze(_ program: Program) -> [Diagnostic] {
        // The graph of every condition is built for the first placement analysed, if any.
        var analysis: PlacementAnalysis?
        var diagnostics: [Diagnostic] = []
        for (index, placement) in program.placements.enumerated() {
            guard placement.rows.count <= rowsPerPlacement else {
                let name = program.ruleSet.placements[index].name
                diagnostics.append(skipped(name.text, rows: placement.rows.count, at: name.range))
                continue
            }
            var current = analysis ?? PlacementAnalysis(program: program)
            analysis = nil
            current.startPlacement()
            diagnostics += current.unreachableRows(placement: index)
            if let warning = current.fallThrough(placement: index) { diagnostics.append(warning) }
            analysis = current
        }
        if var current = analysis {
            diagnostics += current.partialExposures().map(Diagnostic.partialExposure)
        }
        return diagnostics
    }
}
