import Foundation
import XCTest

/// `targeting sql` (SPEC §6, §7): output and exit statuses.
final class SqlCommandTests: TemporaryDirectoryTestCase {
    private func sql(_ arguments: [String]) -> CLIResult {
        CLIHarness.run(["sql", "--rules", CLIHarness.rulesPath, "--now", "2026-11-29T12:00:00Z"] + arguments)
    }

    func testAllAndSummaryMakeOneStatement() {
        let all = sql(["--all", "--dialect", "postgres"])
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertEqual(all.out.components(separatedBy: "\nUNION ALL\n").count, 2, "two placements, one statement")
        XCTAssertTrue(all.out.contains("'onboarding_followup' AS placement") && all.out.contains("'main_paywall' AS placement"))
        let summary = sql(["--all", "--summary", "--dialect", "spark"])
        XCTAssertEqual(summary.status, 0, summary.err)
        XCTAssertTrue(summary.out.hasPrefix("-- now: 2026-11-29T12:00:00Z\n-- dialect: spark\n-- rules: "), summary.out)
        XCTAssertTrue(summary.out.contains("\nSELECT placement, audience, kind, id, split, COUNT(*) AS profiles,"), summary.out)
        XCTAssertTrue(summary.out.contains("GROUP BY placement, audience, kind, id, split"), summary.out)
        XCTAssertFalse(summary.out.contains(";"), "one statement without a terminator, as the plain query")
        XCTAssertEqual(sql(["main_paywall", "--all", "--dialect", "postgres"]).status, 64)
        let none = CLIHarness.run(["sql", "--all", "--dialect", "postgres", "--now", "2026-11-29",
                                   "--rules", directory.write("np.rules", "segment a = x == 1\n")])
        XCTAssertEqual(none.status, 2, "no empty statement for rules without placements")
        XCTAssertEqual(none.out, "")
        XCTAssertTrue(none.err.contains("error: the rules declare no placement, so there is nothing to compile"), none.err)
    }

    func testTableAndColumnNameTheSource() {
        let result = sql(["main_paywall", "--dialect", "spark", "--table", "lake.app.profiles", "--column", "doc"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("FROM (SELECT doc AS profile FROM lake.app.profiles) AS source"), result.out)
        XCTAssertEqual(sql(["main_paywall", "--dialect", "spark", "--table", "x; DROP TABLE y"]).status, 64)
        XCTAssertEqual(sql(["main_paywall", "--dialect", "spark", "--column", "a.b"]).status, 64)
    }

    func testPrintsOneQuery() {
        let result = sql(["main_paywall", "--dialect", "postgres"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasPrefix("-- now: 2026-11-29T12:00:00Z\n-- dialect: postgres\n-- rules: "), result.out)
        XCTAssertTrue(result.out.contains("segments.rules\nWITH\n"), result.out)
        XCTAssertTrue(result.out.contains("'main_paywall' AS placement"), result.out)
        XCTAssertEqual(result.err, "")
    }

    func testSparkDialect() {
        let result = sql(["onboarding_followup", "--dialect", "spark"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("conv(substr(md5(concat('sporty_beginners_v1-', profile_id)), 17, 16), 16, 10)"), result.out)
    }

    func testUnknownPlacementSuggestsAName() {
        let result = sql(["main_paywal", "--dialect", "postgres"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "error: unknown placement `main_paywal`; did you mean `main_paywall`?\n")
        XCTAssertEqual(result.out, "")
    }

    func testMissingOrBadDialectIsAUsageError() {
        let missing = sql(["main_paywall"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.err.hasPrefix("error: missing `--dialect`"), missing.err)
        let bad = sql(["main_paywall", "--dialect", "mysql"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.hasPrefix("error: unknown dialect `mysql`"), bad.err)
        XCTAssertEqual(sql(["--dialect", "spark"]).status, 64)
    }

    func testRulesWithErrorsExitTwo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.rules")
        try "audience a = prso\nplacement p { a -> flow \"f\" }\n".write(to: file, atomically: true, encoding: .utf8)
        let result = CLIHarness.run(["sql", "p", "--dialect", "postgres", "--rules", file.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("error:"), result.err)
        XCTAssertEqual(result.out, "")
    }
}
