import XCTest
@testable import Targeting
@testable import TargetingBase

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
        let loaded = LoadedRules(sources: [SourceFile(path: "l.rules", text: rules(segments: 11_000))])
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "analysis-skipped" })
        let unreachable = loaded.diagnostics.filter { $0.code == "unreachable-row" }
        XCTAssertEqual(unreachable.map(\.line), [2 * 11_000 + 6], "\(unreachable.map(\.message))")
    }

    func testAboveTheLimitsANoteSaysSo() {
        let loaded = LoadedRules(sources: [SourceFile(path: "l.rules", text: rules(segments: LoadedRules.analysisLimits.comparisons + 1))])
        let note = loaded.diagnostics.first { $0.code == "analysis-skipped" }
        XCTAssertEqual(note?.help, "the analysis runs for up to 1,000 placement rows, 50,000 comparisons and 1,000,000 literals")
        XCTAssertFalse(loaded.diagnostics.contains { $0.code == "unreachable-row" })
    }
}
