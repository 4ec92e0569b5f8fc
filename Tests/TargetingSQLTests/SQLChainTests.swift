import XCTest
@testable import TargetingSQL

/// How a chain places its columns: each in the first stage after the columns it uses, and, when
/// inlining, a column used once written where it is used.
final class SQLChainTests: XCTestCase {
    private func chain() -> SQLChain {
        SQLChain(source: "  SELECT profile, profile_id FROM profiles", sourceColumns: ["profile", "profile_id"])
    }

    private func select(_ last: String) -> String { "SELECT d FROM \(last)" }

    func testAColumnGoesToTheFirstStageAfterTheColumnsItUses() {
        var chain = chain()
        chain.add([(name: "a", expression: "profile -> 'a'")])
        chain.add([(name: "b", expression: "a || 'x'")])
        // Added after `b`, but it uses only the source: it joins `a` in the first stage.
        chain.add([(name: "c", expression: "profile_id")], comments: ["c's comment"])
        chain.add([(name: "d", expression: "CASE WHEN b = 'c' THEN c END")])
        let (stages, finalSelect) = chain.render(select: select)
        XCTAssertEqual(stages.map { $0.columns.map(\.name) }, [["a", "c"], ["b"], ["d"]])
        XCTAssertEqual(stages.map(\.after), ["t0", "t1", "t2"])
        XCTAssertEqual(finalSelect, "SELECT d FROM t3")
        XCTAssertEqual(stages[0].comments, [nil, "c's comment"], "a comment stays with its column")
        XCTAssertTrue(stages[0].list.contains("    -- c's comment\n    profile_id AS c"), stages[0].list)
    }

    func testAWordInsideAStringLiteralIsNotAUse() {
        var chain = chain()
        chain.add([(name: "a", expression: "profile -> 'a'")])
        chain.add([(name: "b", expression: "'a' || profile_id")])
        XCTAssertEqual(chain.render(select: select).stages.map { $0.columns.map(\.name) }, [["a", "b"]])
    }

    func testPostgresStagesPassOnWhatLaterStagesUse() {
        var chain = chain()
        chain.add([(name: "a", expression: "profile -> 'a'"), (name: "unused", expression: "1")])
        chain.add([(name: "b", expression: "a || 'x'")])
        let text = chain.carryingCommonTableExpressions(fence: "OFFSET 0") { "SELECT profile_id, b FROM \($0)" }
        XCTAssertTrue(text.contains("t2 AS (\n  SELECT\n    profile_id,\n    a || 'x' AS b\n  FROM t1\n  OFFSET 0\n)"), text)
        XCTAssertTrue(text.contains("t1 AS (\n  SELECT\n    profile_id,\n    profile -> 'a' AS a,\n    1 AS unused\n  FROM t0\n  OFFSET 0\n)"), text)
        XCTAssertTrue(text.hasSuffix("SELECT profile_id, b FROM t2"), text)
    }

    func testInliningWritesAColumnUsedOnceWhereItIsUsedAndKeepsOneUsedTwice() {
        var chain = chain()
        chain.inlining = true
        chain.add([(name: "a", expression: "profile -> 'a'")])        // used twice: a column
        chain.add([(name: "b", expression: "a || 'x'")])              // used once: written into d
        chain.add([(name: "c", expression: "profile_id")])            // a bare name: written wherever used
        chain.add([(name: "d", expression: "CASE WHEN b = a THEN c ELSE a END")])
        chain.add([(name: "unused", expression: "length(a)")])        // used nowhere: gone
        let (stages, finalSelect) = chain.render(select: select)
        XCTAssertEqual(stages.map { $0.columns.map(\.name) }, [["a"]])
        XCTAssertEqual(finalSelect, "SELECT (CASE WHEN (a || 'x') = a THEN profile_id ELSE a END) FROM t1")
    }

    func testInliningLeavesStringLiteralsAndMembersAlone() {
        var chain = chain()
        chain.inlining = true
        chain.backslashEscapes = true
        chain.add([(name: "r", expression: "profile_id")])
        let (_, finalSelect) = chain.render { "SELECT r, 'it\\'s r', x.r FROM \($0) AS x" }
        XCTAssertEqual(finalSelect, "SELECT profile_id, 'it\\'s r', x.r FROM t0 AS x")
    }
}
