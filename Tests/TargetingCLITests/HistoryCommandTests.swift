import Foundation
import XCTest
import TargetingBase
import TargetingTestSupport

/// The commands on caps and sticky experiments: `resolve` (one profile, a batch, `--explain`),
/// `check` diagnostics and exit statuses, `sql` compiling history, `test` with history lines
/// and the sticky path's coverage, and `fmt` keeping the new forms.
final class HistoryCommandTests: TemporaryDirectoryTestCase {
    static let now = "2026-12-01T00:00:00Z"

    static let rules = """
    segment newbie = profile.installed_at >= now - 7d
    segment capped = shown main_paywall in 7d < 3
    segment rested = last shown main_paywall <= now - 3d
    audience newbies = newbie
    audience under_cap = capped
    audience rest = rested
    experiment pricing sticky 90d {
      50% control
      50% discount
    }
    placement main_paywall {
      newbies -> pricing {
        control  -> paywall "pw_standard"
        discount -> paywall "pw_discount"
      }
      rest -> paywall "pw_rested"
      under_cap -> paywall "pw_again"
      everyone -> paywall "pw_default"
    }
    """

    static let stuck = #"{"id":"u1","installed_at":"2026-01-01T00:00:00Z","history":{"shown":{"main_paywall":["2026-11-29T09:00:00Z"]},"assigned":{"pricing":{"variant":"discount","at":"2026-11-20T09:00:00Z"}}}}"#
    static let capped = #"{"id":"u2","installed_at":"2026-01-01T00:00:00Z","history":{"shown":{"main_paywall":["2026-11-28T09:00:00Z","2026-11-29T09:00:00Z","2026-11-30T09:00:00Z"]}}}"#
    static let fresh = #"{"id":"u3","installed_at":"2026-01-01T00:00:00Z"}"#

    private func rulesPath(_ text: String = rules) -> String { directory.write("rules/main.rules", text) }

    private func resolve(_ arguments: [String], rules: String? = nil, stdin: String = "") -> CLIResult {
        CLIHarness.run(["resolve", "--rules", rules ?? rulesPath(), "--now", Self.now] + arguments, stdin: stdin)
    }

    func testJSONAddsStickyOnlyWhenAnAssignmentDecided() {
        let result = resolve(["main_paywall", "--profile", "-", "--format", "json"], stdin: Self.stuck)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, [#"{"profile_id":"u1","placement":"main_paywall","audience":"newbies","kind":"paywall","id":"pw_discount","split":null,"experiment":"pricing","variant":"discount","held_out":false,"sticky":true}"#])
        let plain = resolve(["main_paywall", "--profile", "-", "--format", "json"], stdin: Self.fresh)
        XCTAssertEqual(plain.outLines, [#"{"profile_id":"u3","placement":"main_paywall","audience":"under_cap","kind":"paywall","id":"pw_again","split":null,"experiment":null,"variant":null,"held_out":false}"#])
    }

    func testABatchPrintsWhatOneProfileAtATimePrints() {
        let corpus = directory.write("profiles.jsonl", [Self.stuck, Self.capped, Self.fresh].joined(separator: "\n") + "\n")
        let batch = resolve(["--all", "--profiles", corpus, "--format", "json"])
        XCTAssertEqual(batch.status, 0, batch.err)
        var single: [String] = []
        for profile in [Self.stuck, Self.capped, Self.fresh] {
            single += resolve(["--all", "--profile", "-", "--format", "json"], stdin: profile).outLines
        }
        XCTAssertEqual(batch.outLines, single)
        XCTAssertEqual(batch.outLines[1], #"{"profile_id":"u2","placement":"main_paywall","audience":"everyone","kind":"paywall","id":"pw_default","split":null,"experiment":null,"variant":null,"held_out":false}"#)
        XCTAssertEqual(batch.outLines.filter { $0.contains(#""sticky":true"#) }.count, 1)
        for jobs in ["1", "3"] {
            XCTAssertEqual(resolve(["--all", "--profiles", corpus, "--format", "json", "--jobs", jobs]).outLines, single)
        }
        // The summary counts a sticky decision under its variant.
        let summary = resolve(["main_paywall", "--profiles", corpus, "--summary"])
        XCTAssertEqual(summary.status, 0, summary.err)
        XCTAssertTrue(summary.out.contains(#"paywall "pw_discount" (audience `newbies`) (experiment pricing: discount): 1"#), summary.out)
    }

    func testExplainSaysTheAssignmentOnTheDecidingRow() {
        let result = resolve(["main_paywall", "--profile", "-", "--explain"], stdin: Self.stuck)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("  1. newbies -> pricing: decided (sticky: assigned discount at 2026-11-20T09:00:00Z (sticky 90d))\n"), result.out)
        let capped = resolve(["main_paywall", "--profile", "-", "--explain"], stdin: Self.capped)
        XCTAssertTrue(capped.out.contains("shown main_paywall in 7d is 3, so `shown main_paywall in 7d < 3` is false"), capped.out)
        XCTAssertTrue(capped.out.contains("last shown main_paywall is 2026-11-30T09:00:00Z, so `last shown main_paywall <= now - 3d` is false"), capped.out)
    }

    func testCheckReportsEachErrorAtItsTokenAndExitsOne() {
        let rules = rulesPath("""
        segment a = shown main_paywal in 7d < 3
        segment b = shown main_paywall in 401d < 3
        segment c = shown main_paywall between 1 and 2
        segment d = shown main_paywall > 101
        audience x = a and b and c and d
        experiment e sticky 12h { 50% p 50% q }
        placement main_paywall {
          x -> e { p -> flow "a" q -> flow "b" }
        }
        """)
        let result = CLIHarness.run(["check", rules, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.err)
        let found = result.outLines.compactMap { line -> String? in
            guard case .object(let members)? = try? JSONParser.parse(Array(line.utf8)).get(),
                  case .number(let l)? = members.first(where: { $0.key == "line" })?.value,
                  case .number(let c)? = members.first(where: { $0.key == "column" })?.value,
                  case .string(let message)? = members.first(where: { $0.key == "message" })?.value else { return nil }
            return "\(Int(l)):\(Int(c)) \(message)"
        }
        XCTAssertEqual(found, [
            "1:19 unknown placement `main_paywal`",
            "2:35 window `401d` of `shown` is out of range",
            "3:32 operator `between` does not apply to the count `shown main_paywall`",
            "4:34 count `101` is not a whole number from 0 to 100",
            "6:21 sticky duration `12h` is out of range",
        ])
    }

    func testSQLCompilesRulesThatReadHistory() {
        let rules = rulesPath()
        for dialect in ["postgres", "spark"] {
            let result = CLIHarness.run(["sql", "main_paywall", "--rules", rules, "--dialect", dialect, "--now", Self.now])
            XCTAssertEqual(result.status, 0, result.err)
            // The rows say whether an assignment decided, after `held_out`.
            XCTAssertTrue(result.out.contains("AS held_out,\n  CASE WHEN r = 0 THEN (stk_pricing IS NOT NULL) ELSE FALSE END AS sticky\n"), result.out)
            let schema = CLIHarness.run(["sql", "--schema", "--rules", rules, "--dialect", dialect])
            XCTAssertEqual(schema.status, 0, schema.err)
            XCTAssertTrue(schema.out.hasSuffix(",\n  history \(dialect == "postgres" ? "JSONB" : "STRING")\n);\n"), schema.out)
        }
    }

    func testTestsGiveHistoryAndCoverTheStickyPath() {
        let rules = rulesPath()
        let tests = directory.write("rules/main.tests", """
        test "assigned users keep their variant" {
          now 2026-12-01T00:00:00Z
          given {
            profile.id = "u1"
            profile.installed_at = 2026-01-01
            assigned pricing discount at 2026-11-20T09:00:00Z
          }
          expect main_paywall -> paywall "pw_discount" from pricing.discount
        }

        test "three showings this week reach the cap" {
          now 2026-12-01T00:00:00Z
          given {
            profile.id = "u2"
            profile.installed_at = 2026-01-01
            shown main_paywall at now - 1d
            shown main_paywall at now - 2d
            shown main_paywall at now - 6d
          }
          expect main_paywall -> paywall "pw_default"
          expect not under_cap
        }
        """)
        let result = CLIHarness.run(["test", tests, "--rules", rules, "--format", "json", "--coverage"])
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertTrue(result.out.contains(#""experiment":"pricing","sticky":true,"kind":null,"id":null,"covered":true"#), result.out)
        let unknown = directory.write("rules/bad.tests", """
        test "t" {
          now 2026-12-01T00:00:00Z
          given {
            shown main_paywal at now
            assigned pricing discont at now
          }
          expect main_paywall -> nothing
        }
        """)
        let bad = CLIHarness.run(["check", rules, unknown])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("bad.tests:4:11: error: unknown placement `main_paywal`"), bad.err)
        XCTAssertTrue(bad.err.contains("bad.tests:5:22: error: experiment `pricing` has no variant `discont`"), bad.err)
    }

    func testFmtKeepsTheNewForms() {
        let path = directory.write("rules/ugly.rules", """
        segment  capped=shown   main_paywall   in 7d<3
        segment rested = last   shown main_paywall<=now-3d
        audience a = capped and rested
        experiment  pricing   sticky   90d { 50% control 50% discount }
        placement main_paywall { a -> pricing { control -> paywall "x" discount -> paywall "y" } }
        """)
        let result = CLIHarness.run(["fmt", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, """
        segment capped = shown main_paywall in 7d < 3
        segment rested = last shown main_paywall <= now - 3d
        audience a = capped and rested
        experiment pricing sticky 90d {
          50% control
          50% discount
        }
        placement main_paywall {
          a -> pricing {
            control  -> paywall "x"
            discount -> paywall "y"
          }
        }

        """)
    }

    func testCheckOverlapTableAndProveAnswerOverHistories() {
        let rules = rulesPath()
        let check = CLIHarness.run(["check", rules])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertFalse((check.out + check.err).contains("history"), check.out + check.err)

        let overlap = CLIHarness.run(["overlap", "main_paywall", "--rules", rules, "--now", Self.now, "--format", "json"])
        XCTAssertEqual(overlap.status, 0, overlap.err)
        XCTAssertFalse(overlap.out.contains(#""reachable":null"#), overlap.out)
        XCTAssertTrue(overlap.out.contains(#""audience":"rest","reachable":true,"witness":{"id":"witness","history":{"shown":{"main_paywall":["#), overlap.out)

        let table = CLIHarness.run(["table", "main_paywall", "--rules", rules, "--now", Self.now])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.contains("`last shown main_paywall <= now - 3d`"), table.out)
        XCTAssertTrue(table.out.contains("assignment of `pricing`"), table.out)

        let wider = directory.write("rules/wider.rules", Self.rules.replacingOccurrences(of: "in 7d < 3", with: "in 8d < 3"))
        let prove = CLIHarness.run(["diff", rules, wider, "--prove", "--now", Self.now])
        XCTAssertTrue(prove.out.contains("main_paywall: changed"), prove.out + prove.err)
        XCTAssertTrue(prove.out.contains(#""history":{"shown":{"main_paywall":["#), prove.out)
        let same = CLIHarness.run(["diff", rules, rules, "--prove", "--now", Self.now])
        XCTAssertTrue(same.out.contains("main_paywall: equivalent"), same.out + same.err)
    }

    func testCheckWarnsAboutACapNoCountChanges() {
        let rules = rulesPath(Self.rules.replacingOccurrences(of: "in 7d < 3", with: "in 7d <= 100"))
        let result = CLIHarness.run(["check", rules])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue((result.out + result.err).contains("warning: `shown main_paywall in 7d <= 100` is always true"), result.out + result.err)
    }
}
