import Foundation
import TargetingTestSupport
import XCTest
import TargetingBase

/// `targeting test` and `.tests` files in `targeting check`.
final class TestCommandTests: TemporaryDirectoryTestCase {

    private let rules = """
    attribute experience: string one of ["beginner", "pro"]
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    audience pro_adults = pros and adults
    placement onboarding_followup {
      pro_adults -> flow "flow_pro_v2"
      everyone   -> flow "flow_default"
    }

    """

    private let passing = """
    test "pro adults see the pro flow" {
      now 2026-11-29T12:00:00Z
      given {
        profile.id = "u1"
        profile.birthday = 1990-06-15
        experience = "pro"
      }
      expect onboarding_followup -> flow "flow_pro_v2"
      expect pro_adults
    }

    """

    private let failing = """
    test "teens see the pro flow" {
      now 2026-11-29T12:00:00Z
      given {
        profile.birthday = 2010-01-01
        experience = "pro"
      }
      expect onboarding_followup -> flow "flow_pro_v2"
    }

    """

    /// Writes the rules and the given tests files into `Rules/` of the temporary directory.
    private func project(_ tests: [String: String]) -> String {
        let rulesPath = directory.write("Rules/main.rules", rules)
        for (name, text) in tests { directory.write("Rules/" + name, text) }
        return (rulesPath as NSString).deletingLastPathComponent
    }

    func testAllPassingExitsZero() {
        let rulesDir = project(["a.tests": passing])
        let result = CLIHarness.run(["test", "--rules", rulesDir])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, ["PASS \(rulesDir)/a.tests:1 pro adults see the pro flow", "1 passed, 0 failed"])
        XCTAssertEqual(result.err, "")
    }

    func testFailureExitsOneWithPositionExpectedActualAndAudience() {
        let rulesDir = project(["a.tests": passing, "b.tests": failing])
        let result = CLIHarness.run(["test", "--rules", rulesDir])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.outLines, [
            "PASS \(rulesDir)/a.tests:1 pro adults see the pro flow",
            "FAIL \(rulesDir)/b.tests:1 teens see the pro flow",
            "  \(rulesDir)/b.tests:7:3: expected onboarding_followup -> flow \"flow_pro_v2\", got flow \"flow_default\" (audience `everyone`)",
            "1 passed, 1 failed",
        ])
    }

    func testTheRulesWarningsComeFirstWordedAsCheckWordsThem() {
        // A misspelt attribute explains the failure below it.
        directory.write("Rules/main.rules", rules.replacingOccurrences(of: "segment pros = experience", with: "segment pros = experiance"))
        directory.write("Rules/a.tests", passing)
        let rulesDir = directory.file("Rules")
        let check = CLIHarness.run(["check", rulesDir])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.err.contains("warning: attribute `experiance` is not declared"), check.err)
        XCTAssertTrue(check.err.contains("did you mean `experience`?"), check.err)

        for format in ["text", "json", "junit"] {
            let result = CLIHarness.run(["test", "--rules", rulesDir, "--format", format])
            XCTAssertEqual(result.status, 1, format)
            XCTAssertEqual(result.err, check.err + "0 errors, 1 warnings\n", format)
            XCTAssertFalse(result.out.contains("warning"), "warnings stay off standard output: \(format)")
        }
        let strict = CLIHarness.run(["test", "--rules", rulesDir, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.err, check.err + "0 errors, 1 warnings\nerror: --strict: warnings count as errors; no test was run\n")
        XCTAssertEqual(strict.out, "")
    }

    func testPathsAndRunFilter() {
        let rulesDir = project(["a.tests": passing, "b.tests": failing])
        let only = CLIHarness.run(["test", "\(rulesDir)/a.tests", "--rules", rulesDir])
        XCTAssertEqual(only.status, 0, only.err)
        XCTAssertEqual(only.outLines.last, "1 passed, 0 failed")
        let filtered = CLIHarness.run(["test", "--rules", rulesDir, "--run", "teens"])
        XCTAssertEqual(filtered.status, 1)
        XCTAssertEqual(filtered.outLines.first, "FAIL \(rulesDir)/b.tests:1 teens see the pro flow")
        XCTAssertEqual(filtered.outLines.last, "0 passed, 1 failed")
    }

    func testNowOptionIsUsedWithoutANowLine() {
        let unpinned = """
        test "adult by --now" {
          given {
            profile.birthday = 2008-12-01
            experience = "pro"
          }
          expect pro_adults
        }

        """
        let rulesDir = project(["a.tests": unpinned])
        let before = CLIHarness.run(["test", "--rules", rulesDir, "--now", "2026-11-30"])
        XCTAssertEqual(before.status, 1, before.out)
        XCTAssertTrue(before.err.contains("warning: test depends on the clock without pinning `now`"), before.err)
        let after = CLIHarness.run(["test", "--rules", rulesDir, "--now", "2026-12-01"])
        XCTAssertEqual(after.status, 0, after.out)
        XCTAssertEqual(after.outLines.last, "1 passed, 0 failed")
    }

    func testJSONFormat() {
        let rulesDir = project(["a.tests": passing, "b.tests": failing])
        let result = CLIHarness.run(["test", "--rules", rulesDir, "--format", "json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.outLines.count, 3, result.out)
        XCTAssertEqual(CLIHarness.canonical(result.outLines[0]),
                       CLIHarness.canonical(#"{"name":"pro adults see the pro flow","file":"\#(rulesDir)/a.tests","line":1,"status":"passed"}"#))
        let failure = CLIHarness.member(result.outLines[1], "failure")
        XCTAssertEqual(CLIHarness.member(result.outLines[1], "status"), .string("failed"))
        XCTAssertEqual(failure?["line"], .number(7))
        XCTAssertEqual(failure?["column"], .number(3))
        XCTAssertEqual(failure?["expected"], .string("onboarding_followup -> flow \"flow_pro_v2\""))
        XCTAssertEqual(failure?["actual"], .string("flow \"flow_default\""))
        XCTAssertEqual(failure?["audience"], .string("everyone"))
        XCTAssertEqual(result.outLines[2], #"{"passed":1,"failed":1}"#)
    }

    func testErroringTestCountsAsFailed() {
        let rulesDir = project(["a.tests": """
        test "a profile file with a duplicate key" {
          now 2026-11-29T12:00:00Z
          given profile "p.json"
          expect onboarding_followup -> flow "flow_default"
        }

        """])
        directory.write("Rules/p.json", "{\"custom_attributes\": {\"experience\": \"x\", \"experience \": \"y\"}}")
        let result = CLIHarness.run(["test", "--rules", rulesDir])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.outLines.count, 3, result.out)
        XCTAssertTrue(result.outLines[1].hasPrefix("  \(rulesDir)/a.tests:3:17: error: `p.json`: custom attribute key `experience` appears twice"), result.out)
        XCTAssertEqual(result.outLines.last, "0 passed, 1 failed")
    }

    func testCheckErrorsInTestsExitTwo() {
        let rulesDir = project(["a.tests": "test \"t\" {\n  expect onboarding_folowup -> nothing\n}\n"])
        let result = CLIHarness.run(["test", "--rules", rulesDir])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.out, "")
        XCTAssertTrue(result.err.contains("\(rulesDir)/a.tests:2:10: error: unknown placement `onboarding_folowup`"), result.err)
        XCTAssertTrue(result.err.contains("did you mean `onboarding_followup`?"), result.err)
    }

    func testRuleErrorsAndUnreadablePathsExitTwo() {
        let broken = directory.write("broken/main.rules", "segment x = \n")
        let rules = CLIHarness.run(["test", "--rules", broken])
        XCTAssertEqual(rules.status, 2)
        XCTAssertTrue(rules.err.contains("error:"), rules.err)
        let rulesDir = project([:])
        let missing = CLIHarness.run(["test", directory.file("nope.tests"), "--rules", rulesDir])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.err.contains("cannot read"), missing.err)
    }

    func testUsageErrors() {
        XCTAssertEqual(CLIHarness.run(["test", "--now", "yesterday"]).status, 64)
        XCTAssertEqual(CLIHarness.run(["test", "--format", "xml"]).status, 64)
        let help = CLIHarness.run(["test", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("USAGE: targeting test"), help.out)
    }

    func testCoverage() {
        let rulesDir = project(["a.tests": passing])
        let result = CLIHarness.run(["test", "--rules", rulesDir, "--coverage"])
        XCTAssertEqual(result.status, 0, result.err)
        // Rows: pro_adults (covered), everyone (not). Segments: pros and adults were only true.
        XCTAssertTrue(result.outLines.contains("  \(rulesDir)/main.rules:6 onboarding_followup row 1: pro_adults -> flow \"flow_pro_v2\": yes"), result.out)
        XCTAssertTrue(result.outLines.contains("  \(rulesDir)/main.rules:7 onboarding_followup row 2: everyone -> flow \"flow_default\": no"), result.out)
        XCTAssertTrue(result.outLines.contains("  \(rulesDir)/main.rules:2 segment pros: no (never false)"), result.out)
        XCTAssertEqual(result.outLines.suffix(2), ["coverage: 1 of 4 (25.0%)", "1 passed, 0 failed"])
    }

    func testCheckReportsTestDiagnostics() {
        let rulesDir = project(["a.tests": "test \"t\" {\n  now 2026-11-29\n  expect prso\n}\n"])
        let result = CLIHarness.run(["check", rulesDir])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("\(rulesDir)/a.tests:3:10: error: unknown audience or segment `prso`"), result.err)
        XCTAssertEqual(result.outLines.last, "1 errors, 0 warnings")
        let single = CLIHarness.run(["check", "\(rulesDir)/a.tests", "--rules", rulesDir])
        XCTAssertEqual(single.status, 1)
        XCTAssertEqual(single.outLines.last, "1 errors, 0 warnings")
    }

    func testShippedTestsPass() {
        let result = CLIHarness.run(["test", "--rules", CLIHarness.rulesPath, "--coverage"])
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertFalse(result.out.contains("FAIL"), result.out)
        XCTAssertTrue(result.outLines.contains { $0.hasPrefix("coverage: ") && $0.hasSuffix("(100.0%)") }, result.out)
        XCTAssertTrue(result.outLines.last?.hasSuffix(" passed, 0 failed") ?? false, result.out)
    }

    // MARK: - Broken lines in `given events`

    /// `u1` answers `pro`; line 2 is another user's cut-off line, line 4 is `u2`'s line without a `name`.
    private let stream = """
    {"profile_id":"u1","name":"flow_user_input","instanceId":"scr","element_id":"experience","element_type":"single_choice","item_ids":["pro"]}
    {"profile_id":"u2","name":"flow_user_input","instanceId":"scr","element_id":"experi
    {"profile_id":"u2","name":"flow_user_input","instanceId":"scr","element_id":"experience","element_type":"single_choice","item_ids":["beginner"]}
    {"profile_id":"u2","element_id":"experience"}

    """

    private func eventsTest(_ id: String) -> String {
        "test \"\(id) from events\" {\n  now 2026-11-29T12:00:00Z\n  given {\n    profile.id = \"\(id)\"\n    profile.birthday = 1990-06-15\n  }\n  given events \"events.jsonl\"\n  expect pros\n}\n"
    }

    func testOtherProfilesBrokenLinesAreSkippedWithOneNote() {
        let rulesDir = project(["a.tests": eventsTest("u1") + "\n" + eventsTest("u1").replacingOccurrences(of: "u1 from", with: "u1 again from")])
        directory.write("Rules/events.jsonl", stream)
        let result = CLIHarness.run(["test", "--rules", rulesDir])
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertEqual(result.outLines.last, "2 passed, 0 failed")
        XCTAssertEqual(result.errLines.filter { $0.contains("note:") },
                       ["\(rulesDir)/a.tests:7:16: note: `events.jsonl`: skipped 2 lines that do not parse as events: 2, 4"], result.err)
        // `check` reads the file the same way and says the same; a fixture with other
        // profiles' broken lines on purpose passes the strict gates.
        let check = CLIHarness.run(["check", rulesDir])
        XCTAssertEqual(check.status, 0, check.out + check.err)
        XCTAssertTrue(check.err.contains("\(rulesDir)/a.tests:7:16: note: `events.jsonl`: skipped 2 lines that do not parse as events: 2, 4"), check.err)
        XCTAssertEqual(check.outLines.last, "0 errors, 0 warnings")
        XCTAssertEqual(CLIHarness.run(["check", "--strict", rulesDir]).status, 0)
        XCTAssertEqual(CLIHarness.run(["test", "--strict", "--rules", rulesDir]).status, 0)
    }

    func testABrokenLineOfTheTestedProfileFailsItsTest() {
        let rulesDir = project(["a.tests": eventsTest("u2")])
        directory.write("Rules/events.jsonl", stream)
        let result = CLIHarness.run(["test", "--rules", rulesDir])
        XCTAssertEqual(result.status, 1, result.out + result.err)
        XCTAssertEqual(result.outLines, [
            "FAIL \(rulesDir)/a.tests:1 u2 from events",
            "  \(rulesDir)/a.tests:7:16: error: \(rulesDir)/events.jsonl:4: missing `name`",
            "0 passed, 1 failed",
        ])
    }

    // MARK: - --min-coverage

    /// Two rows (the first a 50/50 split) and two segments; ids `a` and `b` draw `f_a` and `f_b`.
    private let splitRules = """
    attribute experience: string one of ["beginner", "pro"]
    attribute flag: bool
    segment pros = experience == "pro"
    segment late = flag == true
    audience pro_users = pros and not late
    placement home {
      pro_users -> split "s" {
        50% -> flow "f_a"
        50% -> flow "f_b"
      }
      everyone -> flow "f_default"
    }

    """

    /// One test each: `a` and `b` (the two variants), `default` (the everyone row), `late`
    /// (`late` true) and `notpro` (`pros` false without deciding a row), and a failing one.
    private func coverageTest(_ name: String) -> String {
        switch name {
        case "a", "b":
            return "test \"\(name)\" {\n  given {\n    profile.id = \"\(name)\"\n    experience = \"pro\"\n  }\n  expect home -> flow \"f_\(name)\"\n}\n"
        case "default":
            return "test \"default\" {\n  given { experience = \"beginner\" }\n  expect home -> flow \"f_default\"\n}\n"
        case "late":
            return "test \"late\" {\n  given { flag = true }\n  expect late\n}\n"
        case "notpro":
            return "test \"notpro\" {\n  given { experience = \"beginner\" }\n  expect not pros\n}\n"
        default:
            return "test \"failing\" {\n  given { experience = \"beginner\" }\n  expect home -> flow \"f_a\"\n}\n"
        }
    }

    /// Runs `test --min-coverage` over a project holding the named tests.
    private func runCoverage(_ tests: [String], _ extra: [String]) -> CLIResult {
        let rulesPath = directory.write("Cov/main.rules", splitRules)
        directory.write("Cov/t.tests", tests.map(coverageTest).joined(separator: "\n"))
        return CLIHarness.run(["test", "--rules", (rulesPath as NSString).deletingLastPathComponent] + extra)
    }

    func testMinCoverageReportsEachFigure() {
        let result = runCoverage(["a", "b", "default", "late"], ["--min-coverage", "100"])
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertEqual(result.outLines.suffix(5), [
            "coverage of rows: 2 of 2 (100.0%)",
            "coverage of segments: 2 of 2 (100.0%)",
            "coverage of variants: 2 of 2 (100.0%)",
            "coverage: 6 of 6 (100.0%)",
            "4 passed, 0 failed",
        ])
        XCTAssertEqual(result.err, "")
    }

    func testMinCoverageBelowAtAndAboveTheThreshold() {
        // Variants: 1 of 2 (50.0%); rows and segments are complete.
        let tests = ["a", "default", "late"]
        let below = runCoverage(tests, ["--min-coverage", "50.1"])
        XCTAssertEqual(below.status, 1, below.out + below.err)
        XCTAssertTrue(below.outLines.contains("coverage of variants: 1 of 2 (50.0%), below --min-coverage 50.1%"), below.out)
        XCTAssertTrue(below.outLines.contains("coverage of rows: 2 of 2 (100.0%)"), below.out)
        XCTAssertEqual(below.outLines.last, "3 passed, 0 failed")
        XCTAssertEqual(below.err, "error: coverage is below --min-coverage 50.1%: variants 50.0%\n")
        let at = runCoverage(tests, ["--min-coverage", "50"])
        XCTAssertEqual(at.status, 0, at.out + at.err)
        XCTAssertTrue(at.outLines.contains("coverage of variants: 1 of 2 (50.0%)"), at.out)
        XCTAssertEqual(at.err, "")
        let above = runCoverage(tests, ["--min-coverage", "40"])
        XCTAssertEqual(above.status, 0, above.out + above.err)
        XCTAssertEqual(above.err, "")
    }

    func testMinCoverageFailsOnEachFigureAlone() {
        let cases: [(tests: [String], figure: String, line: String)] = [
            (["a", "b", "notpro", "late"], "rows 50.0%", "coverage of rows: 1 of 2 (50.0%), below --min-coverage 90%"),
            (["a", "b", "default"], "segments 50.0%", "coverage of segments: 1 of 2 (50.0%), below --min-coverage 90%"),
            (["a", "default", "late"], "variants 50.0%", "coverage of variants: 1 of 2 (50.0%), below --min-coverage 90%"),
        ]
        for (tests, figure, line) in cases {
            let result = runCoverage(tests, ["--min-coverage", "90"])
            XCTAssertEqual(result.status, 1, "\(tests): " + result.out + result.err)
            XCTAssertEqual(result.err, "error: coverage is below --min-coverage 90%: \(figure)\n", "\(tests)")
            XCTAssertTrue(result.outLines.contains(line), result.out)
            XCTAssertEqual(result.outLines.filter { $0.contains("below --min-coverage") }.count, 1, result.out)
        }
    }

    func testMinCoverageInJSON() throws {
        let result = runCoverage(["a", "b", "default"], ["--min-coverage", "75", "--format", "json"])
        XCTAssertEqual(result.status, 1, result.out + result.err)
        let line = try XCTUnwrap(result.outLines.first { $0.hasPrefix("{\"coverage\"") }, result.out)
        let coverage = try XCTUnwrap(CLIHarness.member(line, "coverage"))
        XCTAssertEqual(coverage["min_coverage"], .number(75))
        XCTAssertEqual(coverage["below"], .array([.string("segments")]))
        XCTAssertEqual(coverage["figures"]?["segments"], .object([
            JSONMember(key: "covered", value: .number(1)), JSONMember(key: "total", value: .number(2)), JSONMember(key: "percent", value: .number(50)),
        ]))
        XCTAssertEqual(coverage["figures"]?["rows"]?["percent"], .number(100))
        XCTAssertEqual(coverage["figures"]?["variants"]?["covered"], .number(2))
        XCTAssertEqual(result.outLines.last, #"{"passed":3,"failed":0}"#)
        let plain = runCoverage(["a"], ["--coverage", "--format", "json"])
        let plainLine = try XCTUnwrap(plain.outLines.first { $0.hasPrefix("{\"coverage\"") }, plain.out)
        XCTAssertEqual(CLIHarness.member(plainLine, "coverage")?["min_coverage"], .null)
        XCTAssertEqual(CLIHarness.member(plainLine, "coverage")?["below"], .array([]))
    }

    func testMinCoverageImpliesCoverageAndFailingTestsStillFail() {
        let implied = runCoverage(["a", "b", "default", "late"], ["--min-coverage", "0"])
        XCTAssertEqual(implied.status, 0, implied.out + implied.err)
        XCTAssertTrue(implied.outLines.contains("coverage: 6 of 6 (100.0%)"), implied.out)
        let failing = runCoverage(["a", "b", "default", "late", "failing"], ["--min-coverage", "0"])
        XCTAssertEqual(failing.status, 1, failing.out + failing.err)
        XCTAssertEqual(failing.outLines.last, "4 passed, 1 failed")
        XCTAssertFalse(failing.err.contains("below"), failing.err)
    }

    func testInvalidMinCoverageIsAUsageError() {
        for bad in ["abc", "-1", "101", "100.1", "87.55", "1e2", ".5", "5.", "", "nan", " 90"] {
            let result = runCoverage(["a"], ["--min-coverage", bad])
            XCTAssertEqual(result.status, 64, "`\(bad)`: " + result.err)
            XCTAssertTrue(result.err.contains("error: invalid --min-coverage `\(bad)`: use a percentage from 0 to 100"), result.err)
        }
        for good in ["0", "100", "87.5", "050"] {
            XCTAssertNotEqual(runCoverage(["a"], ["--min-coverage", good]).status, 64, good)
        }
    }
}
