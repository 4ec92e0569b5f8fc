import Foundation
import TargetingTestSupport
import XCTest

/// `targeting diff OLD NEW --profiles FILE` on small, known inputs.
final class DiffCommandTests: TemporaryDirectoryTestCase {

    private let oldRules = """
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    audience pro_adults = pros and adults
    placement followup {
      pro_adults -> flow "flow_pro"
      everyone -> flow "flow_default"
    }
    placement retired {
      pro_adults -> paywall "pw_old"
    }
    """

    private let newRules = """
    segment pros = experience == "pro"
    segment adults = profile.age >= 21
    audience pro_adults = pros and adults
    placement followup {
      pro_adults -> flow "flow_pro"
      everyone -> flow "flow_default"
    }
    placement fresh {
      pro_adults -> paywall "pw_new"
    }
    """

    /// p1 is 36 (pro under both), p2 is 19 (pro only under the old rules), p3 is 20 (same),
    /// p4 is no pro, p5 is 16.
    private let corpus = """
    {"id":"p1","birthday":"1990-06-15","custom_attributes":{"experience":"pro"}}
    {"id":"p2","birthday":"2007-01-10","custom_attributes":{"experience":"pro"}}
    {"id":"p3","birthday":"2006-03-01","custom_attributes":{"experience":"pro"}}
    {"id":"p4","birthday":"1990-06-15","custom_attributes":{"experience":"amateur"}}
    {"id":"p5","birthday":"2010-06-15","custom_attributes":{"experience":"pro"}}

    """

    private func paths() -> (String, String, String) {
        (directory.write("old/main.rules", oldRules), directory.write("new/main.rules", newRules), directory.write("corpus.jsonl", corpus))
    }

    func testTextReportCountsTransitionsWithExamplesAndAddedRemovedPlacements() {
        let (old, new, profiles) = paths()
        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z", "--by", "destination"])
        XCTAssertEqual(result.status, 0, result.err)
        // p1 is a pro adult under both; p2 and p3 only under the old rules; p4 and p5 never.
        XCTAssertEqual(result.outLines, [
            "now: 2026-11-29T12:00:00Z",
            "placement followup: 2 of 5 profiles (40.0%) change destination",
            "  flow \"flow_pro\" -> flow \"flow_default\"  2  e.g. p2, p3",
            "  flow \"flow_default\": 2 (40.0%) before, 4 (80.0%) after",
            "  flow \"flow_pro\": 3 (60.0%) before, 1 (20.0%) after",
            "placement retired: removed (5 profiles: paywall \"pw_old\" 3 (60.0%), no match 2 (40.0%))",
            "placement fresh: added (5 profiles: no match 4 (80.0%), paywall \"pw_new\" 1 (20.0%))",
        ])
    }

    func testFailOnChangeExitsOneOnlyWhenSomethingChanged() {
        let (old, new, profiles) = paths()
        let changed = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29", "--fail-on-change"])
        XCTAssertEqual(changed.status, 1)
        let same = CLIHarness.run(["diff", old, old, "--profiles", profiles, "--now", "2026-11-29", "--fail-on-change"])
        XCTAssertEqual(same.status, 0, same.err)
        XCTAssertEqual(same.outLines, ["now: 2026-11-29T00:00:00Z", "placement followup: no change (5 profiles)", "placement retired: no change (5 profiles)"])
    }

    func testTheInstantIsPrintedAndNotedWhenTaken() {
        let (old, new, profiles) = paths()
        let pinned = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-28T12:00:00Z"])
        XCTAssertEqual(pinned.outLines.first, "now: 2026-11-28T12:00:00Z")
        XCTAssertEqual(pinned.err, "")
        let clock = CLIHarness.run(["diff", old, new, "--profiles", profiles])
        XCTAssertTrue(clock.err.hasPrefix("note: no --now given; evaluating at the current time, "), clock.err)
        XCTAssertTrue(clock.outLines.first?.hasPrefix("now: ") ?? false, clock.out)
        let sql = CLIHarness.run(["sql", "followup", "--dialect", "postgres", "--rules", old])
        XCTAssertTrue(sql.err.hasPrefix("note: no --now given"), sql.err)
        XCTAssertTrue(sql.out.hasPrefix("-- now: "), sql.out)
    }

    func testAnAttributeTheCorpusNeverHasIsNamed() {
        let (old, _, profiles) = paths()
        let new = directory.write("goal/main.rules", newRules.replacingOccurrences(of: "segment pros = experience == \"pro\"", with: "segment pros = goal == \"pro\""))
        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("note: no profile in the corpus has `goal`, so the rules that read it are not exercised"), result.out)
        XCTAssertFalse(result.out.contains("`experience`"), result.out)
        let json = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z", "--format", "json"])
        XCTAssertEqual(CLIHarness.member(json.out, "absent_attributes"), .array([.string("goal")]))
    }

    func testSQLImpactIsOneQueryOverBothRuleSets() {
        let (old, new, _) = paths()
        let result = CLIHarness.run(["diff", old, new, "--sql", "postgres", "--now", "2026-11-29T12:00:00Z", "--table", "app.profiles", "--by", "destination"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasPrefix("-- now: 2026-11-29T12:00:00Z\n-- dialect: postgres\n"), result.out)
        XCTAssertTrue(result.out.contains("old_decisions AS ("), result.out)
        XCTAssertTrue(result.out.contains("new_decisions AS ("), result.out)
        XCTAssertTrue(result.out.contains("'followup' AS placement"), result.out)
        // A placement only one side has is sized from that side, the other side's columns NULL.
        XCTAssertTrue(result.out.contains("removed_decisions AS ("), result.out)
        XCTAssertTrue(result.out.contains("added_decisions AS ("), result.out)
        XCTAssertTrue(result.out.contains("'retired' AS placement"), result.out)
        XCTAssertTrue(result.out.contains("'fresh' AS placement"), result.out)
        XCTAssertTrue(result.out.contains("SELECT r.placement, r.kind AS from_kind, r.id AS from_id, r.matched AS from_matched, CAST(NULL AS TEXT) AS to_kind"), result.out)
        XCTAssertTrue(result.out.contains("SELECT a.placement, CAST(NULL AS TEXT) AS from_kind, CAST(NULL AS TEXT) AS from_id, CAST(NULL AS BOOLEAN) AS from_matched, a.kind AS to_kind"), result.out)
        let followup = CLIHarness.run(["diff", old, new, "--sql", "postgres", "--now", "2026-11-29T12:00:00Z", "--placement", "followup"])
        XCTAssertFalse(followup.out.contains("removed_decisions"), followup.out)
        XCTAssertFalse(followup.out.contains("UNION ALL"), followup.out)
        let fresh = CLIHarness.run(["diff", old, new, "--sql", "spark", "--now", "2026-11-29T12:00:00Z", "--placement", "fresh"])
        XCTAssertEqual(fresh.status, 0, fresh.err)
        XCTAssertFalse(fresh.out.contains("old_decisions"), fresh.out)
        XCTAssertTrue(fresh.out.contains("FROM added_decisions AS a"), fresh.out)
        XCTAssertTrue(result.out.contains("FROM (SELECT profile AS profile FROM app.profiles) AS source"), result.out)
        XCTAssertTrue(result.out.contains("o.kind AS from_kind, o.id AS from_id, o.matched AS from_matched"), result.out)
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--sql", "oracle"]).status, 64)
        XCTAssertEqual(CLIHarness.run(["diff", old, new]).status, 64)
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--sql", "spark", "--fail-on-change"]).status, 64, "a query cannot fail the run")
    }

    func testSQLImpactOverATypedTable() {
        let (old, new, profiles) = paths()
        let typed = CLIHarness.run(["diff", old, new, "--sql", "postgres", "--layout", "columns", "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(typed.status, 0, typed.err)
        XCTAssertTrue(typed.out.contains("CAST(ROW(id, "), typed.out)
        XCTAssertFalse(typed.out.contains("jsonb"), typed.out)
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--profiles", profiles, "--layout", "columns"]).status, 64, "a layout is for --sql")
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--prove", "--layout", "columns"]).status, 64)
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--sql", "spark", "--layout", "wide"]).status, 64)
    }

    func testNoExamplesLeavesNoDanglingEG() {
        let (old, new, profiles) = paths()
        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z",
                                     "--placement", "followup", "--examples", "0"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.out.contains("e.g."), result.out)
        XCTAssertTrue(result.outLines.contains { $0.hasSuffix("  2") }, result.out)
    }

    func testJSONReportAndPlacementFilter() throws {
        let (old, new, profiles) = paths()
        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z",
                                     "--format", "json", "--placement", "followup", "--examples", "1", "--by", "destination"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 1)
        let expected = """
        {"now":"2026-11-29T12:00:00Z","changed":true,"absent_attributes":[],"placements":[{"changed":2,"placement":"followup","profiles":5,"status":"changed",\
        "transitions":[{"count":2,"examples":["p2"],"from":{"kind":"flow","id":"flow_pro"},"to":{"kind":"flow","id":"flow_default"}}],\
        "sizes":[{"destination":{"kind":"flow","id":"flow_default"},"before":2,"after":4,"share_before":40,"share_after":80},\
        {"destination":{"kind":"flow","id":"flow_pro"},"before":3,"after":1,"share_before":60,"share_after":20}]}]}
        """
        XCTAssertEqual(CLIHarness.canonical(result.outLines[0]), CLIHarness.canonical(expected))
    }

    func testBadCorpusLinesAreReportedAndTheRestCounted() {
        let (old, new, _) = paths()
        let profiles = directory.write("bad.jsonl", "{\"id\":\"p1\",\"birthday\":\"2007-01-10\",\"custom_attributes\":{\"experience\":\"pro\"}}\nnot json\n{\"id\":\"p1\",\"id\":\"p2\"}\n")
        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("bad.jsonl:2: error:"), result.err)
        XCTAssertTrue(result.err.contains("bad.jsonl:3: error:"), result.err)
        XCTAssertEqual(result.outLines.dropFirst().first, "placement followup: 1 of 1 profiles (100.0%) change audience, destination or variant")
    }

    func testRulesWithErrorsAndUsageErrors() {
        let (old, _, profiles) = paths()
        let broken = directory.write("broken/main.rules", "audience a = missing_segment\n")
        let result = CLIHarness.run(["diff", old, broken, "--profiles", profiles])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("main.rules:1:14: error: unknown segment `missing_segment`"), result.err)
        XCTAssertEqual(CLIHarness.run(["diff", old, "--profiles", profiles]).status, 64)
        XCTAssertEqual(CLIHarness.run(["diff", old, old]).status, 64)
        XCTAssertEqual(CLIHarness.run(["diff", old, old, "--profiles", directory.file("absent.jsonl")]).status, 2)
    }

    /// A split with a holdout variant, and a `nothing` row: u1, u4 and u5 draw the holdout
    /// (buckets 25, 12, 30 of `hold`), u2 and u3 the flow (61, 57); u6 is no fan.
    private let holdoutRules = """
    segment f = fan == 1
    audience fans = f
    placement p {
      fans -> split "hold" {
        50% -> flow "a"
        50% -> nothing
      }
      everyone -> nothing
    }
    """
    private let holdoutCorpus = """
    {"id":"u1","custom_attributes":{"fan":1}}
    {"id":"u2","custom_attributes":{"fan":1}}
    {"id":"u3","custom_attributes":{"fan":1}}
    {"id":"u4","custom_attributes":{"fan":1}}
    {"id":"u5","custom_attributes":{"fan":1}}
    {"id":"u6"}

    """

    func testHoldoutDrawsAndNothingRowsAreToldApartByRow() throws {
        let old = directory.write("old/p.rules", holdoutRules)
        let new = directory.write("new/p.rules", "placement p {\n  everyone -> nothing\n}\n")
        let profiles = directory.write("fans.jsonl", holdoutCorpus)
        let byRow = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(byRow.status, 0, byRow.err)
        XCTAssertEqual(byRow.outLines, [
            "now: 2026-11-29T12:00:00Z",
            "placement p: 5 of 6 profiles (83.3%) change audience, destination or variant",
            "  nothing (audience `fans`, split `hold`) -> nothing (audience `everyone`)   3  e.g. u1, u4, u5",
            "  flow \"a\" (audience `fans`, split `hold`) -> nothing (audience `everyone`)  2  e.g. u2, u3",
            "  nothing (audience `everyone`): 1 (16.6%) before, 6 (100.0%) after",
            "  nothing (audience `fans`, split `hold`): 3 (50.0%) before, 0 (0.0%) after",
            "  flow \"a\" (audience `fans`, split `hold`): 2 (33.3%) before, 0 (0.0%) after",
        ])
        // Merged by destination, the holdout draws do not move: today's view.
        let byDestination = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z", "--by", "destination"])
        XCTAssertEqual(byDestination.outLines, [
            "now: 2026-11-29T12:00:00Z",
            "placement p: 2 of 6 profiles (33.3%) change destination",
            "  flow \"a\" -> nothing  2  e.g. u2, u3",
            "  nothing: 4 (66.6%) before, 6 (100.0%) after",
            "  flow \"a\": 2 (33.3%) before, 0 (0.0%) after",
        ])
        let json = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z", "--format", "json", "--examples", "1"])
        let expected = """
        {"now":"2026-11-29T12:00:00Z","changed":true,"absent_attributes":[],"placements":[{"placement":"p","status":"changed","profiles":6,"changed":5,\
        "transitions":[{"from":{"audience":"fans","kind":null,"id":null,"split":"hold"},"to":{"audience":"everyone","kind":null,"id":null,"split":null},"count":3,"examples":["u1"]},\
        {"from":{"audience":"fans","kind":"flow","id":"a","split":"hold"},"to":{"audience":"everyone","kind":null,"id":null,"split":null},"count":2,"examples":["u2"]}],\
        "sizes":[{"destination":{"audience":"everyone","kind":null,"id":null,"split":null},"before":1,"after":6,"share_before":16.6,"share_after":100},\
        {"destination":{"audience":"fans","kind":null,"id":null,"split":"hold"},"before":3,"after":0,"share_before":50,"share_after":0},\
        {"destination":{"audience":"fans","kind":"flow","id":"a","split":"hold"},"before":2,"after":0,"share_before":33.3,"share_after":0}]}]}
        """
        XCTAssertEqual(CLIHarness.canonical(json.outLines.first ?? ""), CLIHarness.canonical(expected))
        // Only the row view sees a change to fail on.
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29", "--fail-on-change", "--placement", "p"]).status, 1)
        let same = directory.write("same/p.rules", "placement p {\n  everyone -> nothing\n}\n")
        XCTAssertEqual(CLIHarness.run(["diff", new, same, "--profiles", profiles, "--now", "2026-11-29", "--fail-on-change"]).status, 0)
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--profiles", profiles, "--by", "audience"]).status, 64)
    }

    func testSQLImpactByRowCarriesAudienceAndSplit() {
        let (old, new, _) = paths()
        let byRow = CLIHarness.run(["diff", old, new, "--sql", "postgres", "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(byRow.status, 0, byRow.err)
        XCTAssertTrue(byRow.out.contains("SELECT o.placement, o.audience AS from_audience, o.kind AS from_kind, o.id AS from_id, o.split AS from_split, o.matched AS from_matched,"), byRow.out)
        XCTAssertTrue(byRow.out.contains("WHERE NOT (o.audience IS NOT DISTINCT FROM n.audience AND o.kind IS NOT DISTINCT FROM n.kind AND o.id IS NOT DISTINCT FROM n.id AND o.split IS NOT DISTINCT FROM n.split AND o.matched = n.matched)"), byRow.out)
        XCTAssertTrue(byRow.out.contains("SELECT r.placement, r.audience AS from_audience, r.kind AS from_kind, r.id AS from_id, r.split AS from_split, r.matched AS from_matched, CAST(NULL AS TEXT) AS to_audience"), byRow.out)
        let byDestination = CLIHarness.run(["diff", old, new, "--sql", "postgres", "--now", "2026-11-29T12:00:00Z", "--by", "destination"])
        XCTAssertEqual(byDestination.status, 0, byDestination.err)
        XCTAssertFalse(byDestination.out.contains("audience AS from_audience"), byDestination.out)
        XCTAssertTrue(byDestination.out.contains("SELECT o.placement, o.kind AS from_kind, o.id AS from_id, o.matched AS from_matched,"), byDestination.out)
    }

    func testNoJITStartsThePostgresQueryWithSetJitOff() {
        let (old, new, profiles) = paths()
        let result = CLIHarness.run(["diff", old, new, "--sql", "postgres", "--now", "2026-11-29T12:00:00Z", "--no-jit"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("\n-- rules: \(old) -> \(new)\nSET jit = off;\nWITH\n"), result.out)
        let spark = CLIHarness.run(["diff", old, new, "--sql", "spark", "--now", "2026-11-29T12:00:00Z", "--no-jit"])
        XCTAssertEqual(spark.status, 64)
        XCTAssertTrue(spark.err.contains("--no-jit is for PostgreSQL only"), spark.err)
        XCTAssertEqual(CLIHarness.run(["diff", old, new, "--profiles", profiles, "--no-jit"]).status, 64)
    }
}
