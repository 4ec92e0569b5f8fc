import Foundation
import TargetingBase
import TargetingTestSupport
import XCTest

/// `targeting check` (what check reports, the command line, diagnostics, the edge cases "Diagnostics and exit status").
final class CheckCommandTests: TemporaryDirectoryTestCase {

    /// `audience pro_adults = prso` puts the unknown name at column 23, as in diagnostics
    private let unknownSegmentRules = """
    segment pros = experience == "pro"
    audience pro_adults = prso
    placement p {
      pro_adults -> flow "f"
      everyone -> flow "g"
    }

    """

    private let summaryPattern = try! NSRegularExpression(pattern: "^(\\d+) errors, (\\d+) warnings$")

    /// The error and warning counts of a summary line, or nil when the line is not one.
    private func summary(_ line: String?) -> (errors: Int, warnings: Int)? {
        guard let line else { return nil }
        let range = NSRange(line.startIndex..., in: line)
        guard let match = summaryPattern.firstMatch(in: line, range: range),
              let errors = Range(match.range(at: 1), in: line), let warnings = Range(match.range(at: 2), in: line) else { return nil }
        return (Int(line[errors])!, Int(line[warnings])!)
    }

    func testShippedRulesHaveNoErrors() {
        let result = CLIHarness.run(["check", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.err.contains(": error:"), result.err)
        XCTAssertEqual(result.outLines.count, 1, result.out)
        XCTAssertEqual(summary(result.outLines.last)?.errors, 0, result.out)
    }

    func testShippedRulesThroughRulesOption() {
        let result = CLIHarness.run(["check", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(summary(result.outLines.last)?.errors, 0, result.out)
    }

    func testErrorsExitOneWithLocatedDiagnosticsAndSummary() {
        let path = directory.write("bad.rules", unknownSegmentRules)
        let result = CLIHarness.run(["check", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("\(path):2:23: error: unknown segment `prso`"), result.err)
        XCTAssertTrue(result.err.contains("did you mean `pros`?"), result.err)
        XCTAssertTrue(result.err.contains("2 | audience pro_adults = prso"), result.err)
        XCTAssertTrue(result.err.contains("^~~~"), result.err)
        // The summary is the only line on stdout.
        XCTAssertEqual(result.outLines.count, 1, result.out)
        let counts = summary(result.outLines.first)
        XCTAssertNotNil(counts, result.out)
        XCTAssertEqual(counts?.errors, 1, result.out)
    }

    func testWarningsAloneExitZero() {
        let path = directory.write("warn.rules", """
        segment pros = experience == "pro"
        segment unused = experience == "amateur"
        audience pro_users = pros
        placement p {
          pro_users -> flow "f"
          everyone -> flow "g"
        }

        """)
        let result = CLIHarness.run(["check", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains(": warning:"), result.err)
        XCTAssertFalse(result.err.contains(": error:"), result.err)
        let counts = summary(result.outLines.last)
        XCTAssertEqual(counts?.errors, 0)
        XCTAssertGreaterThanOrEqual(counts?.warnings ?? 0, 1)
    }

    func testListAndFragmentWarningsExitZeroAndFailOnlyWithStrict() {
        let path = directory.write("lists.rules", """
        attribute level: string one of ["a", "b", "a"]
        segment s = level == "a" and profile.platform starts with "x"
        audience x = s
        placement p {
          x -> flow "f"
          everyone -> nothing
        }

        """)
        let json = CLIHarness.run(["check", "--format", "json", path])
        XCTAssertEqual(json.status, 0, json.out)
        let found = json.outLines.map { (CLIHarness.member($0, "code"), CLIHarness.member($0, "severity"), CLIHarness.member($0, "line"), CLIHarness.member($0, "column")) }
        XCTAssertTrue(found.contains { $0.0 == .string("duplicate-value") && $0.1 == .string("warning") && $0.2 == .number(1) && $0.3 == .number(43) }, json.out)
        XCTAssertTrue(found.contains { $0.0 == .string("fragment-never-matches") && $0.1 == .string("warning") && $0.2 == .number(2) && $0.3 == .number(59) }, json.out)
        let text = CLIHarness.run(["check", path])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.err.contains("\(path):1:43: warning: `a` is listed twice"), text.err)
        XCTAssertTrue(text.err.contains("\(path):2:59: warning: no value of `profile.platform` starts with `x`"), text.err)
        XCTAssertEqual(summary(text.outLines.last)?.errors, 0, text.out)
        XCTAssertEqual(CLIHarness.run(["check", "--strict", path]).status, 1)
    }

    func testAnEmptyFlowIDExitsOneAtTheString() {
        let path = directory.write("empty.rules", """
        placement p {
          everyone -> flow ""
        }

        """)
        let result = CLIHarness.run(["check", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("\(path):2:20: error: a flow id cannot be empty"), result.err)
    }

    func testJSONFormatOfCleanRulesIsTheSummaryAlone() {
        let result = CLIHarness.run(["check", "--format", "json", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 1, result.out)
        XCTAssertEqual(CLIHarness.member(result.out, "summary")?["errors"], .number(0))
        XCTAssertEqual(CLIHarness.member(result.out, "summary")?["warnings"], .number(0))
    }

    func testJSONFormatPrintsOneObjectPerDiagnosticOnStdout() {
        let path = directory.write("bad.rules", unknownSegmentRules)
        let result = CLIHarness.run(["check", "--format", "json", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.err.contains("error: unknown segment"), "json diagnostics go to stdout: \(result.err)")
        XCTAssertFalse(result.outLines.isEmpty)
        var sawError = false
        // One object per diagnostic, then the summary.
        XCTAssertEqual(result.outLines.last, #"{"summary":{"errors":1,"warnings":2,"notes":0,"files":1}}"#)
        for line in result.outLines.dropLast() {
            guard let keys = CLIHarness.keys(line) else {
                XCTFail("not a JSON object: \(line)")
                continue
            }
            for key in ["file", "line", "column", "severity", "message"] {
                XCTAssertTrue(keys.contains(key), "missing `\(key)` in \(line)")
            }
            if CLIHarness.member(line, "severity") == .string("error") {
                sawError = true
                XCTAssertEqual(CLIHarness.member(line, "file"), .string(path))
                XCTAssertEqual(CLIHarness.member(line, "line"), .number(2))
                XCTAssertEqual(CLIHarness.member(line, "column"), .number(23))
                XCTAssertEqual(CLIHarness.member(line, "message"), .string("unknown segment `prso`"))
            }
        }
        XCTAssertTrue(sawError, result.out)
    }

    func testJSONFormatOnCleanRulesExitsZero() {
        let result = CLIHarness.run(["check", "--format", "json", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 0, result.err)
        for line in result.outLines {
            XCTAssertNotNil(CLIHarness.keys(line), "not a JSON object: \(line)")
            XCTAssertNotEqual(CLIHarness.member(line, "severity"), .string("error"), line)
        }
    }

    func testDiagnosticsFromSeveralFilesAreSortedByFileAndPosition() {
        let first = directory.write("rules/a.rules", """
        segment pros = experience == "pro"
        audience one = prso
        audience two = pross

        """)
        let second = directory.write("rules/b.rules", """
        audience three = nope

        """)
        let result = CLIHarness.run(["check", "--format", "json", directory.file("rules")])
        XCTAssertEqual(result.status, 1)
        let errors = result.outLines.filter { CLIHarness.member($0, "severity") == .string("error") }
        let places = errors.map { line -> String in
            guard case .string(let file)? = CLIHarness.member(line, "file"), case .number(let number)? = CLIHarness.member(line, "line") else { return "?" }
            return "\(file):\(Int(number))"
        }
        XCTAssertEqual(places, ["\(first):2", "\(first):3", "\(second):1"])
    }

    func testMissingPathExitsTwo() {
        let missing = directory.file("does-not-exist")
        let result = CLIHarness.run(["check", missing])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("error:"), result.err)
        XCTAssertTrue(result.err.contains(missing), result.err)
    }

    func testUnknownOptionIsAUsageError() {
        let result = CLIHarness.run(["check", "--frobnicate", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.err.contains("error:"), result.err)
        XCTAssertTrue(result.err.contains("--frobnicate"), result.err)
        XCTAssertTrue(result.err.contains("USAGE:"), result.err)
        XCTAssertEqual(result.out, "")
    }

    func testInvalidFormatIsAUsageError() {
        let result = CLIHarness.run(["check", "--format", "yaml", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.err.contains("yaml"), result.err)
    }

    func testHelpPrintsOverviewUsageAndOptions() {
        for flag in ["--help", "-h"] {
            let result = CLIHarness.run(["check", flag])
            XCTAssertEqual(result.status, 0)
            XCTAssertTrue(result.out.contains("OVERVIEW:"), result.out)
            XCTAssertTrue(result.out.contains("USAGE: targeting check"), result.out)
            XCTAssertTrue(result.out.contains("OPTIONS:"), result.out)
            XCTAssertTrue(result.out.contains("--format"), result.out)
            XCTAssertTrue(result.out.contains("-h, --help"), result.out)
            XCTAssertEqual(result.err, "")
        }
    }

    func testTopLevelHelpAndUnknownSubcommand() {
        let help = CLIHarness.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("OVERVIEW:"))
        XCTAssertTrue(help.out.contains("USAGE:"))
        for command in ["check", "resolve", "ingest"] {
            XCTAssertTrue(help.out.contains(command), "help lists `\(command)`")
        }

        let unknown = CLIHarness.run(["chekc"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("chekc"), unknown.err)

        let none = CLIHarness.run([])
        XCTAssertEqual(none.status, 64)
    }

    func testInvalidUTF8IsACheckError() {
        let path = directory.write("latin1.rules", bytes: Array("segment s = name == \"caf".utf8) + [0xE9] + Array("\"\n".utf8))
        let result = CLIHarness.run(["check", path])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.contains("\(path):1:"), result.err)
    }

    func testAFullHoldoutAndAKeylessExperimentRowAreWarnedAbout() {
        let path = directory.write("h.rules", """
        segment recent = profile.installed_at >= now - 30d
        segment no_cuid = profile.customer_user_id is not set
        audience new_users = recent
        audience anon = no_cuid
        experiment pricing_q4 by profile.customer_user_id {
          50% control
          50% discount
        }
        placement onboarding {
          anon -> pricing_q4 {
            control -> flow "a"
            discount -> flow "b"
          }
          everyone -> flow "d"
        }
        placement main_paywall {
          new_users -> paywall "pw_new"
          everyone -> paywall "pw_standard"
        }
        holdout q4_holdout 100% except onboarding

        """)
        let result = CLIHarness.run(["check", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(summary(result.outLines.last)?.warnings, 2, result.out)
        XCTAssertTrue(result.err.contains("\(path):10:3: warning: row `anon` can never decide: no profile that reaches it has a string value for `profile.customer_user_id`, the key of experiment `pricing_q4`"), result.err)
        XCTAssertTrue(result.err.contains("\(path):17:3: warning: row `new_users` can never decide for a profile with an `id`: every one that reaches it is held out by `q4_holdout`"), result.err)
        let json = CLIHarness.run(["check", path, "--format", "json"])
        XCTAssertEqual(json.outLines.filter { $0.contains(#""code":"unreachable-row""#) }.count, 2, json.out)
    }

    func testALiteralOfTheWrongTypeGetsTheRewriteInHelpAndJSONAndApplyingItChecksClean() {
        let rules = """
        attribute reminders: bool
        attribute goal_date: date
        attribute sdk_version: version
        attribute hours: number
        attribute nickname: string
        segment a = reminders == "true" and goal_date < "2008-12-01"
        segment b = sdk_version >= 4.2 or hours in ["1", "2"] or nickname == 5
        audience x = a or b
        placement p {
          x -> flow "f"
          everyone -> flow "g"
        }

        """
        let path = directory.write("literals.rules", rules)
        let text = CLIHarness.run(["check", path])
        XCTAssertEqual(text.status, 1)
        for help in ["write `true` without quotes", "write `2008-12-01` without quotes", #"write `"4.2"` in quotes"#,
                     "write `1` without quotes", "write `2` without quotes", #"write `"5"` in quotes"#] {
            XCTAssertTrue(text.err.contains("= help: \(help)\n"), "\(help)\n\(text.err)")
        }
        XCTAssertTrue(text.err.contains("\(path):6:49: error: `goal_date` is a `date`, but `\"2008-12-01\"` is a string"), text.err)
        XCTAssertEqual(summary(text.outLines.last)?.errors, 6, text.out)

        let json = CLIHarness.run(["check", "--format", "json", path])
        let fixes = json.outLines.compactMap { CLIHarness.member($0, "fix") }
        XCTAssertEqual(fixes.count, 6, json.out)
        let date = json.outLines.first { CLIHarness.member($0, "column") == .number(49) }
        XCTAssertEqual(date.flatMap { CLIHarness.member($0, "help") }, .string("write `2008-12-01` without quotes"))
        XCTAssertEqual(date.flatMap { CLIHarness.member($0, "fix") }, .object([
            JSONMember(key: "line", value: .number(6)), JSONMember(key: "column", value: .number(49)),
            JSONMember(key: "end_line", value: .number(6)), JSONMember(key: "end_column", value: .number(61)),
            JSONMember(key: "replacement", value: .string("2008-12-01")), JSONMember(key: "certain", value: .bool(true)),
        ]))

        // Every fix applied (the text is ASCII, so columns are bytes; from the end so columns stay put): clean.
        var lines = rules.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let edits = fixes.compactMap { fix -> (line: Int, column: Int, end: Int, text: String)? in
            guard case .number(let line)? = fix["line"], case .number(let column)? = fix["column"], case .number(let end)? = fix["end_column"],
                  case .string(let text)? = fix["replacement"] else { return nil }
            return (Int(line), Int(column), Int(end), text)
        }
        for edit in edits.sorted(by: { ($0.line, $0.column) > ($1.line, $1.column) }) {
            lines[edit.line - 1].replaceSubrange((edit.column - 1)..<(edit.end - 1), with: Array(edit.text.utf8))
        }
        let fixed = lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        XCTAssertTrue(fixed.contains(#"segment b = sdk_version >= "4.2" or hours in [1, 2] or nickname == "5""#), fixed)
        let again = CLIHarness.run(["check", directory.write("fixed.rules", fixed)])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(summary(again.outLines.last)?.errors, 0, again.out)
    }
}
