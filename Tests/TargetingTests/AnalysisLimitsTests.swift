import XCTest
@testable import Targeting
@testable import TargetingBase
import TargetingAnalysis
import TargetingSemantics

/// Which rule sets the reachability analysis runs on.
final class AnalysisLimitsTests: XCTestCase {
    /// `count` segments of one comparison each; a row the first row covers, then one audience
    /// over all the other segments.
    func rules(segments count: Int) -> String {
        var text = (0..<count).map { "attribute k\($0): number\n" }.joined()
        for index in 0..<count { text += "segment s\(index) = k\(index) == 1\n" }
        text += "audience low = " + (0..<10).map { "s\($0)" }.joined(separator: " or ") + "\n"
        text += "audience level_five = s5\n"
        text += "audience rest = " + (10..<count).map { "s\($0)" }.joined(separator: " or ") + "\n"
        text += "placement p {\n  low -> flow \"f\"\n  level_five -> flow \"g\"\n  rest -> flow \"r\"\n  everyone -> flow \"d\"\n}\n"
        return text
    }

    func testElevenThousandComparisonsAreAnalysed() {
        let loaded = LoadedRules(sources: [SourceFile(path: "l.rules", text: rules(segments: 11_000))]).analyzed(by: Analyzer.analyze)
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "analysis-skipped" })
        let unreachable = loaded.diagnostics.filter { $0.code == "unreachable-row" }
        XCTAssertEqual(unreachable.map(\.line), [2 * 11_000 + 6], "\(unreachable.map(\.message))")
    }

    /// Placements of `rows` rows each over audiences `a0`…; the last row of each repeats the
    /// first audience, so it can never decide.
    func placements(_ count: Int, rows: Int) -> String {
        var text = "attribute k: number\n"
        for index in 0..<rows { text += "segment s\(index) = k == \(index)\naudience a\(index) = s\(index)\n" }
        for placement in 0..<count {
            text += "placement p\(placement) {\n"
            for index in 0..<rows { text += "  a\(index) -> flow \"f\(index)\"\n" }
            text += "  a0 -> flow \"again\"\n  everyone -> flow \"d\"\n}\n"
        }
        return text
    }

    func testEveryPlacementIsAnalysedOnItsOwnWhateverTheTotalNumberOfRows() {
        // 150 placements of 12 rows: 1,800 rows in all, each placement well within its limit.
        let loaded = LoadedRules(sources: [SourceFile(path: "m.rules", text: placements(150, rows: 10))]).analyzed(by: Analyzer.analyze)
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "analysis-skipped" })
        XCTAssertEqual(loaded.diagnostics.filter { $0.code == "unreachable-row" }.count, 150, "the repeated row of every placement")
    }

    func testAPlacementWithTooManyRowsIsNamedAndTheOthersAreStillAnalysed() {
        var text = placements(1, rows: 3)
        text += "placement huge {\n" + (0...Analyzer.rowsPerPlacement).map { _ in "  a1 -> flow \"h\"\n" }.joined() + "}\n"
        let loaded = LoadedRules(sources: [SourceFile(path: "h.rules", text: text)]).analyzed(by: Analyzer.analyze)
        let notes = loaded.diagnostics.filter { $0.code == "analysis-skipped" }
        XCTAssertEqual(notes.map(\.message), ["placement `huge` has 1001 rows, too many for the reachability analysis; its unreachable rows and fall-through are not reported"])
        XCTAssertEqual(notes.first?.help, "the analysis takes placements of up to 1,000 rows")
        XCTAssertEqual(notes.first?.severity, .note)
        let unreachable = loaded.diagnostics.filter { $0.code == "unreachable-row" }
        XCTAssertEqual(unreachable.count, 1, "p0's repeated row, and nothing of `huge`: \(unreachable.map(\.message))")
        XCTAssertTrue(unreachable.allSatisfy { $0.line < text.split(separator: "\n").firstIndex(of: "placement huge {")! + 1 })
    }

    func testWhenEveryPlacementHasTooManyRowsEachIsNamedOnce() {
        var text = placements(0, rows: 3)
        for name in ["huge", "also_huge"] {
            text += "placement \(name) {\n" + (0...Analyzer.rowsPerPlacement).map { _ in "  a1 -> flow \"h\"\n" }.joined() + "}\n"
        }
        let loaded = LoadedRules(sources: [SourceFile(path: "h.rules", text: text)]).analyzed(by: Analyzer.analyze)
        XCTAssertEqual(loaded.diagnostics.filter { $0.code == "analysis-skipped" }.map(\.message), [
            "placement `huge` has 1001 rows, too many for the reachability analysis; its unreachable rows and fall-through are not reported",
            "placement `also_huge` has 1001 rows, too many for the reachability analysis; its unreachable rows and fall-through are not reported",
        ])
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "unreachable-row" || $0.code == "placement-falls-through" })
    }

    /// One segment that is an `or` of `terms` comparisons, each on its own attribute, the last
    /// of them also a segment of its own; and a comparison on an attribute outside the `or`.
    func longOr(terms: Int) -> String {
        var text = "segment wide = " + (0..<terms).map { "k\($0) == \($0)" }.joined(separator: " or ") + "\n"
        text += "segment last = k\(terms - 1) == \(terms - 1)\nsegment other = z == 1\n"
        text += "audience wide_one = wide\naudience last_one = last\naudience other_one = other\n"
        text += "placement first_wide {\n  wide_one -> flow \"w\"\n  last_one -> flow \"l\"\n  other_one -> flow \"o\"\n  everyone -> flow \"d\"\n}\n"
        text += "placement first_last {\n  last_one -> flow \"l\"\n  wide_one -> flow \"w\"\n  everyone -> flow \"d\"\n}\n"
        return text
    }

    func testAnOrOfAHundredThousandTermsIsAnalysed() {
        let loaded = LoadedRules(sources: [SourceFile(path: "or.rules", text: longOr(terms: 100_000))]).analyzed(by: Analyzer.analyze)
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "analysis-skipped" })
        // Only the row after the wide `or` whose one term the `or` already has can never decide:
        // `other_one` is reached by `z == 1` alone, and `wide_one` after `last_one` by `k0 == 0`.
        let unreachable = loaded.diagnostics.filter { $0.code == "unreachable-row" }
        XCTAssertEqual(unreachable.map(\.line), [9], "\(unreachable.map(\.message))")
        XCTAssertEqual(unreachable.first?.help, "every profile it matches is matched first by `wide_one`")
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "placement-falls-through" })
    }

    func testTheRuleSetLimitsAreStated() {
        XCTAssertGreaterThanOrEqual(LoadedRules.analysisLimits.comparisons, 200_000)
        let note = Diagnostic.analysisSkipped(comparisons: 250_000, literals: 1_000_000, at: SourceFile(path: "x.rules", text: "").range(0, 0))
        XCTAssertEqual(note.help, "the analysis runs for up to 250,000 comparisons and 1,000,000 literals")
    }
}
