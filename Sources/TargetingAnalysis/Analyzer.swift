import TargetingBase
import TargetingEngine
import TargetingSemantics

/// Warnings that need the whole checked rule set: rows that can never decide and placements
/// that some profile falls through (SPEC §4.6).
///
/// Both are questions about profiles: "is there a profile that row `i` matches and no row above
/// it does?", "is there a profile no row matches?". `ProfileSearch` answers them over a finite
/// set of representative values per field (`VariableOptions`); a question it cannot settle
/// within its budget gives no warning.
package enum Analyzer {
    /// Runs every analysis over an error-free rule set.
    package static func analyze(_ program: Program) -> [Diagnostic] {
        guard !program.placements.isEmpty else { return [] }
        var analysis = PlacementAnalysis(program: program)
        var diagnostics: [Diagnostic] = []
        for index in analysis.program.placements.indices {
            diagnostics += analysis.unreachableRows(placement: index)
            if let warning = analysis.fallThrough(placement: index) { diagnostics.append(warning) }
        }
        return diagnostics
    }
}
