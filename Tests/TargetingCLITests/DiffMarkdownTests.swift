import TargetingTestSupport
import XCTest
@testable import TargetingCLI
@testable import TargetingEngine
@testable import TargetingImpact

/// `diff --format markdown`: impact first, the rest folded, one line when nothing moves, and
/// never more than 1 MiB.
final class DiffMarkdownTests: TemporaryDirectoryTestCase {
    private func changedRules() throws -> String {
        let copy = directory.url.appendingPathComponent("new").path
        try FileManager.default.copyItem(atPath: CLIHarness.rulesPath, toPath: copy)
        let placements = copy + "/placements.rules"
        let text = try String(contentsOfFile: placements, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""pw_intro_us""#, with: #""pw_x""#)
        XCTAssertNotEqual(edited, text, "the shipped main_paywall changed: update this edit")
        try edited.write(toFile: placements, atomically: true, encoding: .utf8)
        return copy
    }

    func testNothingMovesIsOneLine() {
        let corpus = CLIHarness.run(["diff", CLIHarness.rulesPath, CLIHarness.rulesPath, "--profiles", CLIHarness.example("profiles/corpus.jsonl"),
                                     "--now", "2026-11-29T12:00:00Z", "--format", "markdown"])
        XCTAssertEqual(corpus.status, 0, corpus.err)
        XCTAssertEqual(corpus.out, "**Targeting:** no change: no profile of 10000 changes audience, destination or variant in 3 placements at 2026-11-29T12:00:00Z.\n")
        let proof = CLIHarness.run(["diff", CLIHarness.rulesPath, CLIHarness.rulesPath, "--prove", "--now", "2026-11-29T12:00:00Z", "--format", "markdown"])
        XCTAssertEqual(proof.out, "**Targeting:** no change: every placement is equivalent over every profile at 2026-11-29T12:00:00Z (3 placements proved).\n")
    }

    func testAChangeOpensWithThePlacementsThenTheMovesWithTheDetailsFolded() throws {
        let new = try changedRules()
        let corpus = CLIHarness.run(["diff", CLIHarness.rulesPath, new, "--profiles", CLIHarness.example("profiles/corpus.jsonl"),
                                     "--now", "2026-11-29T12:00:00Z", "--format", "markdown", "--fail-on-change"])
        XCTAssertEqual(corpus.status, 1, corpus.err)
        let lines = corpus.outLines
        XCTAssertEqual(lines.first, "### Targeting: impact of the rule change")
        let table = try XCTUnwrap(lines.firstIndex(of: "| placement | status | profiles that move | share |"))
        XCTAssertEqual(lines[table + 2], "| `onboarding_followup` | no change | — |  |")
        XCTAssertEqual(lines[table + 3], "| `main_paywall` | changed | 27 of 10000 | 0.2% |")
        XCTAssertTrue(lines.contains("| ``paywall \"pw_intro_us\" (audience `new_us_modern`)`` | ``paywall \"pw_x\" (audience `new_us_modern`)`` | 27 |"), corpus.out)
        XCTAssertEqual(lines.filter { $0 == "<details><summary>Example profiles</summary>" }.count, 1)
        XCTAssertEqual(lines.filter { $0 == "</details>" }.count, 2, "examples and sizes, each folded")
        XCTAssertLessThan(lines.firstIndex(of: "#### `main_paywall`: changed")!, lines.firstIndex(of: "<details><summary>Example profiles</summary>")!)

        let proof = CLIHarness.run(["diff", CLIHarness.rulesPath, new, "--prove", "--now", "2026-11-29T12:00:00Z", "--format", "markdown"])
        XCTAssertEqual(proof.status, 0, proof.err)
        XCTAssertTrue(proof.outLines.contains("| `main_paywall` | changed | 1 |"), proof.out)
        XCTAssertTrue(proof.outLines.contains("| `paywall \"pw_intro_us\"` | `paywall \"pw_x\"` |"), proof.out)
        XCTAssertTrue(proof.outLines.contains("<details><summary>Witness profiles</summary>"), proof.out)
        XCTAssertTrue(proof.out.contains(#"  {"id":"witness","app_version":"4.2.0","country":"US""#), proof.out)
    }

    func testCodeSpansSurviveBackticksAndPipes() {
        XCTAssertEqual(DiffMarkdown.code("plain"), "`plain`")
        XCTAssertEqual(DiffMarkdown.code("a|b"), #"`a\|b`"#)
        XCTAssertEqual(DiffMarkdown.code("x `y` z"), "``x `y` z``")
        XCTAssertEqual(DiffMarkdown.code("`edge"), "`` `edge ``")
        XCTAssertEqual(DiffMarkdown.code("two\nlines"), "`two lines`")
    }

    func testAHugeReportStaysUnderOneMebibyteAndSaysWhatItLeftOut() {
        var report = ImpactReport(oldPlacements: ["p"], newPlacements: ["p"])
        func decision(_ id: String) -> Decision {
            Decision(placement: "p", profileID: nil, row: 0, audience: "a", outcome: .flow(id), split: nil)
        }
        for index in 0..<12_000 {
            report.record(placement: "p", profileID: "profile-\(index)", old: decision("old_flow_\(index)_" + String(repeating: "x", count: 40)),
                          new: decision("new_flow_\(index)_" + String(repeating: "y", count: 40)))
        }
        let text = DiffMarkdown.render(report, now: 0, absentAttributes: [])
        XCTAssertLessThanOrEqual(text.utf8.count, DiffMarkdown.limit)
        XCTAssertTrue(text.hasPrefix("### Targeting: impact of the rule change\n"))
        XCTAssertTrue(text.contains("more moves (left out to stay under 1 MiB)"), String(text.suffix(300)))
        XCTAssertTrue(text.contains("(Example profiles and sizes left out to stay under 1 MiB.)"))
        XCTAssertFalse(text.contains("<details>"))
    }
}
