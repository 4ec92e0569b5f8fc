import Foundation
import XCTest
@testable import Targeting
import TargetingAnalysis
@testable import TargetingBase

/// An app's load parses, checks and compiles; the reachability analysis is `check`'s alone.
final class RuleSetLoadingTests: XCTestCase {
    /// The second row can never decide (the first takes all its profiles), and `level` is not
    /// declared: one analysis warning, one checker warning.
    static let rules = """
    attribute plan: string one of ["basic", "pro"]
    segment pros = plan == "pro"
    segment high = level >= 3
    audience pro_users = pros
    audience high_users = high
    placement p {
      pro_users -> flow "a"
      pro_users -> flow "b"
      high_users -> flow "h"
      everyone -> flow "d"
    }
    """

    func testLoadingARuleSetDoesNotRunTheAnalysis() throws {
        let source = SourceFile(path: "main.rules", text: Self.rules)
        let checked = LoadedRules(sources: [source]).analyzed(by: Analyzer.analyze)
        XCTAssertEqual(checked.diagnostics.filter { $0.code == "unreachable-row" }.map(\.line), [8], "\(checked.diagnostics.map(\.message))")

        let rules = try RuleSet(source: Self.rules, fileName: "main.rules")
        XCTAssertFalse(rules.warnings.contains { $0.code == "unreachable-row" }, "\(rules.warnings.map(\.message))")
        XCTAssertEqual(rules.warnings, checked.diagnostics.filter { $0.code != "unreachable-row" })
        XCTAssertTrue(rules.warnings.contains { $0.message == "attribute `level` is not declared" }, "\(rules.warnings.map(\.message))")
    }

    func testTheAnalysisStepAddsOnlyItsFindings() {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: Self.rules)])
        XCTAssertNotNil(loaded.program)
        var seen: [String] = []
        let analyzed = loaded.analyzed { checked in
            seen = checked.placements.map(\.name.text)
            return []
        }
        XCTAssertEqual(seen, ["p"])
        XCTAssertEqual(analyzed.diagnostics, loaded.diagnostics)
        // Rules with errors are not analysed.
        let broken = LoadedRules(sources: [SourceFile(path: "main.rules", text: "segment a = prso\n")])
        XCTAssertNil(broken.program)
        XCTAssertEqual(broken.analyzed { _ in XCTFail("analysed rules with errors"); return [] }.diagnostics, broken.diagnostics)
    }
}
