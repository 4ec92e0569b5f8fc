import Foundation
import XCTest
import TargetingBase
import TargetingSQL
import TargetingTestSupport
@testable import TargetingCLI

/// Every summary lists one entry per decision: the profiles a sticky experiment's recorded
/// assignment keeps on a variant and those drawn into it are one entry, with how many the
/// assignment kept as a figure of it, in `resolve --summary`, `diff` (text, Markdown, JSON)
/// and the SQL queries' columns, with the same sums.
final class StickySummaryTests: TemporaryDirectoryTestCase {
    private let now = "2026-12-01T00:00:00Z"

    private func rules(audience: String = "price_test", weights: (Int, Int) = (50, 50)) -> String {
        """
        attribute plan: string one of ["a", "b"]
        segment is_a = plan == "a"
        audience \(audience) = is_a
        experiment price_2025 sticky 30d {
          \(weights.0)% control
          \(weights.1)% lower_price
        }
        placement main_paywall {
          \(audience) -> price_2025 {
            control     -> paywall "pw_main"
            lower_price -> paywall "pw_main_lower"
          }
          everyone -> paywall "pw_default"
        }

        """
    }

    /// 60 profiles in the audience without history (drawn), 20 with a recorded `lower_price`
    /// assignment (10 in the audience, 10 not: the assignment keeps them all), 20 in no audience.
    private let drawn = (0..<60).map { "d\($0)" }
    private let kept = (0..<20).map { "k\($0)" }

    private func corpus() -> String {
        var lines = drawn.map { #"{"id":"\#($0)","custom_attributes":{"plan":"a"}}"# }
        lines += kept.enumerated().map { index, id in
            #"{"id":"\#(id)","custom_attributes":{"plan":"\#(index % 2 == 0 ? "a" : "b")"},"#
                + #""history":{"assigned":{"price_2025":{"variant":"lower_price","at":"2026-11-20T00:00:00Z"}}}}"#
        }
        lines += (0..<20).map { #"{"id":"o\#($0)","custom_attributes":{"plan":"b"}}"# }
        return directory.write("profiles.jsonl", lines.joined(separator: "\n") + "\n")
    }

    private func drawnLower(_ weights: (Int, Int) = (50, 50)) -> Int {
        drawn.filter { ReferenceDraw.variant("price_2025", $0, [(weights.0, "control"), (weights.1, "lower_price")]) == "lower_price" }.count
    }

    private func summary(_ rulesPath: String, _ profiles: String, format: String) -> [[String: Any]] {
        let result = CLIHarness.run(["resolve", "--all", "--summary", "--rules", rulesPath, "--profiles", profiles, "--now", now, "--format", format])
        XCTAssertEqual(result.status, 0, result.err)
        return result.outLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func testResolveSummaryListsEachDecisionOnceWithItsStickyProfiles() {
        let rulesPath = directory.write("rules/main.rules", rules())
        let profiles = corpus()
        let lower = drawnLower() + kept.count
        let control = drawn.count - drawnLower()

        let text = CLIHarness.run(["resolve", "--all", "--summary", "--rules", rulesPath, "--profiles", profiles, "--now", now])
        XCTAssertEqual(text.status, 0, text.err)
        func percent(_ count: Int) -> String { "\(count * 1000 / 100 / 10).\(count * 1000 / 100 % 10)%" }
        XCTAssertEqual(text.outLines, [
            "main_paywall: 100 profiles",
            "  paywall \"pw_main\" (audience `price_test`) (experiment price_2025: control): \(control) (\(percent(control)), 0 sticky)",
            "  paywall \"pw_main_lower\" (audience `price_test`) (experiment price_2025: lower_price): \(lower) (\(percent(lower)), 20 sticky)",
            "  paywall \"pw_default\" (audience `everyone`): 20 (20.0%)",
        ])

        let entries = summary(rulesPath, profiles, format: "json")
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries.map { $0["variant"] as? String }, ["control", "lower_price", nil])
        XCTAssertEqual(entries.map { $0["profiles"] as? Int }, [control, lower, 20])
        XCTAssertEqual(entries.map { $0["sticky"] as? Int }, [0, 20, 0])
    }

    func testRulesWithoutStickyExperimentsKeepTheirSummaryShape() {
        let rulesPath = directory.write("rules/main.rules", rules().replacingOccurrences(of: " sticky 30d", with: ""))
        let entries = summary(rulesPath, corpus(), format: "json")
        XCTAssertEqual(entries.count, 3)
        XCTAssertTrue(entries.allSatisfy { $0["sticky"] == nil })
        let text = CLIHarness.run(["resolve", "--all", "--summary", "--rules", rulesPath, "--profiles", corpus(), "--now", now])
        XCTAssertFalse(text.out.contains("sticky"), text.out)
    }

    func testDiffListsEachDecisionOnceAndAgreesWithBothSummaries() throws {
        let old = directory.write("old/main.rules", rules())
        let new = directory.write("new/main.rules", rules(weights: (80, 20)))
        let profiles = corpus()
        let before = summary(old, profiles, format: "json")
        let after = summary(new, profiles, format: "json")

        let result = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", now, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let placement = try XCTUnwrap((report["placements"] as? [[String: Any]])?.first)
        let sizes = try XCTUnwrap(placement["sizes"] as? [[String: Any]])
        // One size per decision: no two with the same destination object.
        let destinations = sizes.map { JSONWriter.write(jsonValue($0["destination"])) }
        XCTAssertEqual(Set(destinations).count, destinations.count, destinations.joined(separator: "\n"))
        XCTAssertEqual(sizes.count, 3)
        for size in sizes {
            let variant = (size["destination"] as? [String: Any])?["variant"] as? String
            let old = try XCTUnwrap(before.first { $0["variant"] as? String == variant })
            let new = try XCTUnwrap(after.first { $0["variant"] as? String == variant })
            XCTAssertEqual(size["before"] as? Int, old["profiles"] as? Int, "\(variant ?? "everyone")")
            XCTAssertEqual(size["after"] as? Int, new["profiles"] as? Int, "\(variant ?? "everyone")")
            XCTAssertEqual(size["sticky_before"] as? Int, old["sticky"] as? Int, "\(variant ?? "everyone")")
            XCTAssertEqual(size["sticky_after"] as? Int, new["sticky"] as? Int, "\(variant ?? "everyone")")
        }
        // The assignment keeps its 20 on lower_price under both weights, so only drawn profiles move.
        let transitions = try XCTUnwrap(placement["transitions"] as? [[String: Any]])
        let redrawn = drawn.filter {
            ReferenceDraw.variant("price_2025", $0, [(50, "control"), (50, "lower_price")])
                != ReferenceDraw.variant("price_2025", $0, [(80, "control"), (20, "lower_price")])
        }
        XCTAssertEqual(transitions.count, 2)
        XCTAssertEqual(transitions.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }, redrawn.count)
        XCTAssertEqual(transitions.map { $0["sticky_before"] as? Int }, [0, 0])
        XCTAssertEqual(transitions.map { $0["sticky_after"] as? Int }, [0, 0])

        let text = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", now])
        let lowerLines = text.outLines.filter { $0.hasPrefix("  paywall \"pw_main_lower\" (audience `price_test`) (experiment price_2025: lower_price): ") }
        XCTAssertEqual(lowerLines.count, 1, text.out)
        let lowerBefore = drawnLower() + 20, lowerAfter = drawnLower((80, 20)) + 20
        XCTAssertTrue(lowerLines.first?.contains(": \(lowerBefore) (\(lowerBefore).0%, 20 sticky) before, \(lowerAfter) (\(lowerAfter).0%, 20 sticky) after") == true,
                      text.out)

        let markdown = CLIHarness.run(["diff", old, new, "--profiles", profiles, "--now", now, "--format", "markdown"])
        let rows = markdown.outLines.filter { $0.hasPrefix("| ``paywall \"pw_main_lower\"") && !$0.contains("→") && $0.filter { $0 == "|" }.count == 4 && $0.contains("sticky) |") }
        XCTAssertEqual(rows, ["| ``paywall \"pw_main_lower\" (audience `price_test`) (experiment price_2025: lower_price)`` "
                              + "| \(lowerBefore) (\(lowerBefore).0%, 20 sticky) | \(lowerAfter) (\(lowerAfter).0%, 20 sticky) |"], markdown.out)
    }

    func testAProfileKeptByItsAssignmentUnderOneRuleSetAndDrawnUnderTheOtherDoesNotMove() throws {
        // The new rules drop stickiness: the kept profiles in the audience are drawn instead; those
        // that draw lower_price see the same decision and are no change.
        let old = directory.write("old/main.rules", rules())
        let new = directory.write("new/main.rules", rules().replacingOccurrences(of: " sticky 30d", with: ""))
        let result = CLIHarness.run(["diff", old, new, "--profiles", corpus(), "--now", now, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let placement = try XCTUnwrap((report["placements"] as? [[String: Any]])?.first)
        let inAudience = kept.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let drawnControl = inAudience.filter { ReferenceDraw.variant("price_2025", $0, [(50, "control"), (50, "lower_price")]) == "control" }.count
        let moves = try XCTUnwrap(placement["transitions"] as? [[String: Any]])
        // Kept profiles outside the audience fall to `everyone`; those inside that draw control move there.
        XCTAssertEqual(moves.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }, 10 + drawnControl)
        XCTAssertEqual(moves.reduce(0) { $0 + ($1["sticky_before"] as? Int ?? 0) }, 10 + drawnControl)
        XCTAssertEqual(moves.reduce(0) { $0 + ($1["sticky_after"] as? Int ?? 0) }, 0)
    }

    func testTheSQLQueriesCarryTheStickyCounts() throws {
        let rulesPath = directory.write("rules/main.rules", rules())
        let summary = CLIHarness.run(["sql", "--all", "--summary", "--dialect", "postgres", "--rules", rulesPath, "--now", now])
        XCTAssertEqual(summary.status, 0, summary.err)
        XCTAssertTrue(summary.out.contains("AS share, sticky\n"), summary.out)
        let plain = directory.write("plain/main.rules", rules().replacingOccurrences(of: " sticky 30d", with: ""))
        let unsticky = CLIHarness.run(["sql", "--all", "--summary", "--dialect", "postgres", "--rules", plain, "--now", now])
        XCTAssertFalse(unsticky.out.contains("sticky"), unsticky.out)

        let diff = CLIHarness.run(["diff", plain, rulesPath, "--sql", "spark", "--now", now])
        XCTAssertEqual(diff.status, 0, diff.err)
        XCTAssertTrue(diff.out.contains("AS sticky_before") && diff.out.contains("AS sticky_after"), diff.out)
    }

    func testDiffHelpListsTheColumnsTheCompilerReturns() {
        let help = CLIHarness.run(["diff", "--help"]).out
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (label, byRow, experiments) in [("by row", true, false), ("by row, with experiments or a holdout in either rule set", true, true),
                                            ("by destination", false, false)] {
            let columns = SQLCompiler.diffColumns(byRow: byRow, experiments: experiments, sticky: false)
            XCTAssertTrue(flat.contains(label + ": " + columns.joined(separator: ", ") + " "), "\(label): \(columns)")
        }
        let sticky = SQLCompiler.diffColumns(byRow: false, experiments: false, sticky: true).suffix(2)
        XCTAssertTrue(flat.contains("last: " + sticky.joined(separator: ", ")), flat)
    }

    private func jsonValue(_ value: Any?) -> JSONValue {
        switch value {
        case let object as [String: Any]:
            .object(object.keys.sorted().map { JSONMember(key: $0, value: jsonValue(object[$0])) })
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let number as Int: .number(Double(number))
        default: .null
        }
    }
}
