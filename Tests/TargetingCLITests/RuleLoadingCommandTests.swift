import Foundation
import TargetingTestSupport
import XCTest

/// Which commands see the reachability analysis: `check` and `test --strict` report its
/// warnings; commands that only run the rules load them without it.
final class RuleLoadingCommandTests: TemporaryDirectoryTestCase {
    private let now = "2026-11-29T12:00:00Z"

    /// The second row can never decide.
    private func rulesWithAnUnreachableRow() -> String {
        directory.write("rules/u.rules", """
        attribute plan: string one of ["basic", "pro"]
        segment pros = plan == "pro"
        audience pro_users = pros
        placement p {
          pro_users -> flow "a"
          pro_users -> flow "b"
          everyone -> flow "d"
        }

        """)
        return directory.path + "/rules"
    }

    func testCheckAndTestStrictReportTheAnalysisWarning() {
        let rules = rulesWithAnUnreachableRow()
        let check = CLIHarness.run(["check", rules])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.err.contains("warning: row `pro_users` can never decide"), check.err)
        XCTAssertEqual(check.outLines.last, "0 errors, 1 warnings")
        let strict = CLIHarness.run(["test", "--rules", rules, "--strict", "--now", now])
        XCTAssertEqual(strict.status, 1, strict.err)
        XCTAssertTrue(strict.err.contains("error: --strict: warnings count as errors; no test was run"), strict.err)
    }

    func testResolveLoadsTheRulesWithoutReportingTheAnalysis() {
        let rules = rulesWithAnUnreachableRow()
        let resolve = CLIHarness.run(["resolve", "p", "--rules", rules, "--profile", "-", "--now", now],
                                     stdin: #"{"id":"u1","custom_attributes":{"plan":"pro"}}"#)
        XCTAssertEqual(resolve.status, 0, resolve.err)
        XCTAssertEqual(resolve.err, "")
    }
}
