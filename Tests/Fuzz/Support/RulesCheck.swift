import Foundation
import Targeting
import TargetingAnalysis
import TargetingBase

/// What every rules file must satisfy, however malformed: loading it (parse, check, analyse)
/// does not crash, every diagnostic has a message and renders, and rules without errors compile
/// and decide every placement for a few profiles.
package enum RulesCheck {
    /// Loads `source` and checks the promises above; traps on a violation.
    package static func check(_ source: SourceFile) {
        let loaded = LoadedRules(sources: [source]).analyzed(by: Analyzer.analyze)
        let renderer = DiagnosticRenderer(files: loaded.sources)
        for diagnostic in loaded.diagnostics {
            if diagnostic.message.isEmpty { fuzzFailure("a diagnostic without a message: \(diagnostic.code)") }
            if renderer.text(diagnostic).isEmpty { fuzzFailure("a diagnostic renders to nothing: \(diagnostic.code)") }
        }
        if loaded.checked == nil && !loaded.hasErrors { fuzzFailure("rules without errors did not check") }
        guard let rules = try? RuleSet(loaded) else {
            if !loaded.hasErrors { fuzzFailure("rules without errors did not compile") }
            return
        }
        var profile = Profile()
        let empty = profile
        profile.setField("id", .string("u1"))
        for candidate in [empty, profile] {
            _ = rules.resolveAll(for: candidate, at: fixedNow)
            for placement in rules.placements {
                _ = try? rules.explain(placement, for: candidate, at: fixedNow).description
            }
        }
    }

    /// 2026-11-29T12:00:00Z.
    package static let fixedNow = Date(timeIntervalSince1970: 1_795_953_600)
}
