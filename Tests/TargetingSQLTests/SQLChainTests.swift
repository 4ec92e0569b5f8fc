import XCTest
@testable import TargetingSQL

/// How a chain places its columns: each in the first stage after the columns it uses.
final class SQLChainTests: XCTestCase {
    private func chain() -> SQLChain {
        SQLChain(source: "  SELECT profile, profile_id FROM profiles", sourceColumns: ["profile", "profile_id"])
    }

    func testAColumnGoesToTheFirstStageAfterTheColumnsItUses() {
        var chain = chain()
        chain.add([(name: "a", expression: "profile -> 'a'")])
        chain.add([(name: "b", expression: "a || 'x'")])
        // Added after `b`, but it uses only the source: it joins `a` in the first stage.
        chain.add([(name: "c", expression: "profile_id")], comments: ["c's comment"])
        chain.add([(name: "d", expression: "CASE WHEN b = 'c' THEN c END")])
        XCTAssertEqual(chain.stages.map { $0.columns.map(\.name) }, [["a", "c"], ["b"], ["d"]])
        XCTAssertEqual(chain.stages.map(\.after), ["t0", "t1", "t2"])
        XCTAssertEqual(chain.previous, "t3")
        XCTAssertEqual(chain.stages[0].comments, [nil, "c's comment"], "a comment stays with its column")
        XCTAssertTrue(chain.stages[0].list.contains("    -- c's comment\n    profile_id AS c"), chain.stages[0].list)
    }

    func testAWordInsideAStringLiteralIsNotAUse() {
        var chain = chain()
        chain.add([(name: "a", expression: "profile -> 'a'")])
        chain.add([(name: "b", expression: "'a' || profile_id")])
        XCTAssertEqual(chain.stages.map { $0.columns.map(\.name) }, [["a", "b"]])
    }

    func testPostgresStagesPassOnWhatLaterStagesUse() {
        var chain = chain()
        chain.add([(name: "a", expression: "profile -> 'a'"), (name: "unused", expression: "1")])
        chain.add([(name: "b", expression: "a || 'x'")])
        let text = chain.postgresCommonTableExpressions(using: ["SELECT profile_id, b FROM t2"])
        XCTAssertTrue(text.contains("t2 AS (\n  SELECT\n    profile_id,\n    a || 'x' AS b\n  FROM t1\n  OFFSET 0\n)"), text)
        XCTAssertTrue(text.contains("t1 AS (\n  SELECT\n    profile_id,\n    profile -> 'a' AS a,\n    1 AS unused\n  FROM t0\n  OFFSET 0\n)"), text)
    }
}
