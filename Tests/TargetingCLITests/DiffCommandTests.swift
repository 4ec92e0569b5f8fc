import Foundation
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
        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, [
            "placement followup: 2 of 5 profiles change destination",
            "  flow \"flow_pro\" -> flow \"flow_default\"  2  e.g. p2, p3",
            "placement retired: removed",
            "placement fresh: added",
        ])
    }

    func testFailOnChangeExitsOneOnlyWhenSomethingChanged() {
        let (old, new, profiles) = paths()
        let changed = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", "2026-11-29", "--fail-on-change"])
        XCTAssertEqual(changed.status, 1)
        let same = CLIHarness.run(["diff", old, old, "--profiles", profiles, "--now", "2026-11-29", "--fail-on-change"])
        XCTAssertEqual(same.status, 0, same.err)
        XCTAssertEqual(same.outLines, ["placement followup: no change (5 profiles)", "placement retired: no change (5 profiles)"])
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
                                     "--format", "json", "--placement", "followup", "--examples", "1"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 1)
        let expected = """
        {"changed":true,"placements":[{"changed":2,"placement":"followup","profiles":5,"status":"changed",\
        "transitions":[{"count":2,"examples":["p2"],"from":"flow \\"flow_pro\\"","to":"flow \\"flow_default\\""}]}]}
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
        XCTAssertEqual(result.outLines.first, "placement followup: 1 of 1 profiles change destination")
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
}
