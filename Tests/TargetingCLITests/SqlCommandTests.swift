import Foundation
import TargetingTestSupport
import XCTest

/// `targeting sql`: output and exit statuses.
final class SqlCommandTests: TemporaryDirectoryTestCase {
    private func sql(_ arguments: [String]) -> CLIResult {
        CLIHarness.run(["sql", "--rules", CLIHarness.rulesPath, "--now", "2026-11-29T12:00:00Z"] + arguments)
    }

    func testAllAndSummaryMakeOneStatement() {
        let all = sql(["--all", "--dialect", "postgres"])
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertFalse(all.out.contains("UNION ALL"), "three placements decided in one chain, one statement")
        XCTAssertTrue(all.out.contains("CASE decided.placement_number WHEN 0 THEN 'onboarding_followup' WHEN 1 THEN 'main_paywall' WHEN 2 THEN 'coaching_paywall' END AS placement"), all.out)
        // `coaching_paywall` asks about `onboarding_followup`, which `--all` decides once: its row
        // is read by the prerequisite's column.
        XCTAssertEqual(all.out.components(separatedBy: " AS p0_r").count, 2, all.out)
        XCTAssertTrue(all.out.contains(" AS pre0"), all.out)
        let spark = sql(["--all", "--dialect", "spark"])
        XCTAssertFalse(spark.out.contains("UNION ALL"), "Spark SQL too: one chain")
        XCTAssertTrue(spark.out.hasSuffix("CROSS JOIN (VALUES (0), (1), (2)) AS decided(placement_number)\n"), spark.out)
        let summary = sql(["--all", "--summary", "--dialect", "spark"])
        XCTAssertEqual(summary.status, 0, summary.err)
        XCTAssertTrue(summary.out.hasPrefix("-- now: 2026-11-29T12:00:00Z\n-- dialect: spark\n-- rules: "), summary.out)
        // The shipped rules have an experiment and a holdout, so the experiment columns follow `split`.
        XCTAssertTrue(summary.out.contains("\nSELECT placement, audience, kind, id, split, experiment, variant, held_out, profiles,\n"), summary.out)
        XCTAssertTrue(summary.out.contains("COUNT(*) AS profiles FROM t"), summary.out)
        XCTAssertTrue(summary.out.contains(" GROUP BY p0_e, p1_e, p2_e) AS g\n"), "every placement's entries counted in one grouping: " + summary.out)
        XCTAssertFalse(summary.out.contains(";"), "one statement without a terminator, as the plain query")
        XCTAssertEqual(sql(["main_paywall", "--all", "--dialect", "postgres"]).status, 64)
        let none = CLIHarness.run(["sql", "--all", "--dialect", "postgres", "--now", "2026-11-29",
                                   "--rules", directory.write("np.rules", "segment a = x == 1\n")])
        XCTAssertEqual(none.status, 2, "no empty statement for rules without placements")
        XCTAssertEqual(none.out, "")
        XCTAssertTrue(none.err.contains("error: the rules declare no placement, so there is nothing to compile"), none.err)
    }

    func testSummaryListsEveryEntryOfThePlacementsAndRoundsTheShare() {
        let postgres = sql(["--all", "--summary", "--dialect", "postgres"])
        XCTAssertEqual(postgres.status, 0, postgres.err)
        // Every row and variant, in the order of `resolve --summary`; no match only where a placement can miss.
        XCTAssertTrue(postgres.out.contains("""
        FROM (VALUES
          (1, 'onboarding_followup', 'pro_adults', 'flow', 'flow_pro_v2', CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), FALSE),
        """), postgres.out)
        XCTAssertTrue(postgres.out.contains("'sporty_beginners', CAST(NULL AS TEXT), CAST(NULL AS TEXT), 'sporty_beginners_v1', CAST(NULL AS TEXT), CAST(NULL AS TEXT), FALSE),"), postgres.out)
        XCTAssertTrue(postgres.out.contains("'pricing_test_amateurs', 'flow', 'flow_amateur_plan_discount', CAST(NULL AS TEXT), 'pricing_q4', 'discount', FALSE),"), postgres.out)
        XCTAssertTrue(postgres.out.contains("(25, 'main_paywall', 'everyone', 'paywall', 'pw_standard', CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), TRUE),\n"), postgres.out)
        XCTAssertTrue(postgres.out.contains("'coaching_paywall', 'everyone', CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), TRUE)\n) AS e(entry, placement, audience, kind, id, split, experiment, variant, held_out)"), postgres.out)
        // 12 entries of onboarding_followup, 13 of main_paywall and 11 of coaching_paywall: the
        // two variants of each experiment row, and what held-out profiles see (the `always` rows
        // and `everyone`), as `resolve --summary` lists them.
        let entries = postgres.out.split(separator: "\n").filter { $0.range(of: #"^  \([0-9]+, "#, options: .regularExpression) != nil }
        XCTAssertEqual(entries.count, 36, "12 entries of onboarding_followup, 13 of main_paywall, 11 of coaching_paywall")
        // Each profile is counted under its entry's number in each placement; every entry is
        // listed, 0 where no profile takes it.
        XCTAssertTrue(postgres.out.contains("SELECT e.entry, e.placement, e.audience, e.kind, e.id, e.split, e.experiment, e.variant, e.held_out, COALESCE(c.profiles, 0) AS profiles\n"), postgres.out)
        XCTAssertTrue(postgres.out.contains("SELECT CASE u.placement_number WHEN 0 THEN g.p0_e WHEN 1 THEN g.p1_e WHEN 2 THEN g.p2_e END AS entry, g.profiles\n"), postgres.out)
        XCTAssertTrue(postgres.out.contains(") AS c ON c.entry = e.entry\n"), postgres.out)
        XCTAssertTrue(postgres.out.contains("ROUND(COALESCE(FLOOR(profiles * 1000.0 / NULLIF(SUM(profiles) OVER (PARTITION BY placement), 0)), 0) / 10, 1) AS share"), postgres.out)
        let rules = directory.write("q.rules", "segment f = fan == 1\naudience fans = f\nplacement q {\n  fans -> flow \"a\"\n}\n")
        let miss = CLIHarness.run(["sql", "q", "--summary", "--dialect", "spark", "--rules", rules, "--now", "2026-11-29"])
        XCTAssertTrue(miss.out.contains("""
          (1, 'q', 'fans', 'flow', 'a', CAST(NULL AS STRING)),
          (2, 'q', CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS STRING))
        ) AS e(
        """), miss.out)
    }

    func testNoJITPutsSetJitOffBeforeThePostgresQuery() {
        let postgres = sql(["main_paywall", "--dialect", "postgres", "--no-jit"])
        XCTAssertEqual(postgres.status, 0, postgres.err)
        XCTAssertTrue(postgres.out.contains("segments.rules\nSET jit = off;\nWITH\n"), postgres.out)
        XCTAssertEqual(postgres.out.components(separatedBy: ";").count, 2, "one setting, then the query")
        XCTAssertFalse(sql(["main_paywall", "--dialect", "postgres"]).out.contains("jit"))
        let spark = sql(["main_paywall", "--dialect", "spark", "--no-jit"])
        XCTAssertEqual(spark.status, 64)
        XCTAssertTrue(spark.err.contains("error: --no-jit is for PostgreSQL only: Spark SQL has no JIT setting"), spark.err)
    }

    func testTableAndColumnNameTheSource() {
        let result = sql(["main_paywall", "--dialect", "spark", "--table", "lake.app.profiles", "--column", "doc"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("FROM (SELECT doc AS profile FROM lake.app.profiles) AS source"), result.out)
        let injected = sql(["main_paywall", "--dialect", "spark", "--table", "x; DROP TABLE y"])
        XCTAssertEqual(injected.status, 64)
        XCTAssertTrue(injected.err.contains("error: invalid --table `x; DROP TABLE y`: use letters, digits and `_`, parts joined by `.`"), injected.err)
        let dotted = sql(["main_paywall", "--dialect", "spark", "--column", "a.b"])
        XCTAssertEqual(dotted.status, 64)
        XCTAssertTrue(dotted.err.contains("error: invalid --column `a.b`: use letters, digits and `_`\n"), dotted.err)
    }

    func testSchemaPrintsTheTypedTableOfTheRules() {
        let schema = sql(["--schema", "--dialect", "postgres", "--table", "app.users"])
        XCTAssertEqual(schema.status, 0, schema.err)
        XCTAssertTrue(schema.out.hasPrefix("CREATE TABLE app.users (\n  id TEXT,\n  birthday DATE,\n"), schema.out)
        XCTAssertTrue(schema.out.contains("  ca_experience TEXT,\n"), schema.out)
        XCTAssertTrue(schema.out.contains("  ca_reminders BOOLEAN,\n"), schema.out)
        // The shipped rules cap a paywall, so the table ends with the profile's history as JSON.
        XCTAssertTrue(schema.out.hasSuffix("  ca_weekly_hours DOUBLE PRECISION,\n  history JSONB\n);\n"), schema.out)
        XCTAssertFalse(schema.out.contains("--"), "the statement alone, ready to run")
        XCTAssertTrue(sql(["--schema", "--dialect", "spark"]).out.contains("  ca_weekly_hours DOUBLE,\n  history STRING\n);\n"))
        for bad in [["--schema", "main_paywall"], ["--schema", "--all"], ["--schema", "--layout", "json"]] {
            XCTAssertEqual(sql(bad + ["--dialect", "postgres"]).status, 64, "\(bad)")
        }
    }

    func testLayoutColumnsReadsTheTypedTable() {
        let typed = sql(["--all", "--summary", "--dialect", "postgres", "--layout", "columns", "--table", "app.users"])
        XCTAssertEqual(typed.status, 0, typed.err)
        XCTAssertTrue(typed.out.contains("  SELECT id AS profile_id,\n    birthday AS col0,\n"), typed.out)
        XCTAssertTrue(typed.out.contains("\n  FROM app.users\n"), typed.out)
        // No profile document: the only JSON read is the typed table's `history` column.
        XCTAssertFalse(typed.out.contains("profile ->"), typed.out)
        XCTAssertTrue(typed.out.contains("CAST(history AS JSONB) AS hj"), typed.out)
        let unknown = sql(["--all", "--dialect", "postgres", "--layout", "rows"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("error: unknown layout `rows`; use `json` or `columns`"), unknown.err)
        XCTAssertEqual(sql(["--all", "--dialect", "postgres", "--layout", "columns", "--column", "doc"]).status, 64)
        XCTAssertEqual(sql(["--all", "--dialect", "postgres", "--layout", "json"]).out, sql(["--all", "--dialect", "postgres"]).out)
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
        XCTAssertTrue(result.out.contains("conv(substr(md5(concat('sporty_beginners_v1-', profile_id)), 17, 8), 16, 10)"), result.out)
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

    func testCheckTableCountsTheRowsBreakingTheContract() {
        let check = sql(["--check-table", "--dialect", "postgres", "--table", "app.users"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.hasPrefix("SELECT\n  count(*) AS profiles,\n"), check.out)
        XCTAssertTrue(check.out.contains("(array_position(access_levels, NULL) IS NOT NULL) THEN 1 ELSE 0 END) AS access_levels"), check.out)
        XCTAssertTrue(check.out.contains(" THEN 1 ELSE 0 END) AS ca_weekly_hours"), check.out)
        XCTAssertTrue(check.out.hasSuffix("FROM app.users;\n"), check.out)
        XCTAssertEqual(sql(["--check-table", "--schema", "--dialect", "postgres"]).status, 64)
        XCTAssertEqual(sql(["--check-table", "main_paywall", "--dialect", "postgres"]).status, 64)
    }

    func testClickHouseReadsBothLayoutsAndItsSetsAreArrays() {
        let json = sql(["--all", "--summary", "--dialect", "clickhouse"])
        XCTAssertEqual(json.status, 0, json.err)
        XCTAssertTrue(json.out.contains("nullIf(JSONExtractRaw(profile, 'history'), '')"), "the history is read from the JSON: " + json.out)
        XCTAssertTrue(json.out.hasSuffix("SETTINGS short_circuit_function_evaluation = 'disable'\n"), json.out)
        let typed = sql(["--all", "--summary", "--dialect", "clickhouse", "--layout", "columns"])
        XCTAssertEqual(typed.status, 0, typed.err)
        // The shipped `coaching_paywall` asks what `onboarding_followup` decided: every branch is evaluated.
        XCTAssertTrue(typed.out.hasSuffix("SETTINGS short_circuit_function_evaluation = 'disable'\n"), typed.out)
        let plain = CLIHarness.run(["sql", "p", "--dialect", "clickhouse", "--layout", "columns", "--now", "2026-11-29",
                                    "--rules", directory.write("plain.rules", "segment us = profile.country == \"US\"\naudience a = us\nplacement p {\n  a -> flow \"f\"\n}\n")])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertFalse(plain.out.contains("SETTINGS"), "without prerequisites the typed table's query keeps the engine's defaults")
        XCTAssertFalse(typed.out.contains("VALUES"), "constant tables are SELECTs joined by UNION ALL")
        let schema = sql(["--schema", "--dialect", "clickhouse"])
        XCTAssertTrue(schema.out.contains("  access_levels Array(String),\n"), schema.out)
        XCTAssertTrue(schema.out.hasSuffix(") ENGINE = MergeTree ORDER BY tuple();\n"), schema.out)
    }
}
