import XCTest
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL
import TargetingTestSupport

/// SQL text for rules that depend on rules: a placement's query decides the placements it asks
/// about first, each once (`--all` too), a prerequisite is one column read by later segments,
/// a layer's bucket is drawn once per profile, and a count over several placements adds their
/// counts. Tests/SQL/dependent.rules and the generated rule sets run these on every engine
/// against `resolve`; these pin what the query computes.
final class SQLDependentRulesTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private let rules = """
    attribute code: string
    segment c = code matches /ab/ ignoring case
    segment e = code == "x"
    segment d = placement p -> flow "a"
    segment tired = shown [p, q] in 1d >= 2
    audience pa = e
    audience qa = d and not c and not tired
    experiment price { 50% low 50% high }
    layer tests by code { 40% price }
    placement p {
      pa -> flow "a"
      everyone -> flow "b"
    }
    placement q {
      qa -> flow "q"
      everyone -> price { low -> flow "l" high -> flow "h" }
    }
    """

    private func query(_ placements: [String], _ dialect: SQLDialect, schema: Bool = false) throws -> String {
        let program = checkedProgram(rules)
        return try SQLCompiler.compile(placements: placements, program: program, now: now, dialect: dialect,
                                       schema: schema ? try SQLTableSchema(programs: [program]) : nil)
    }

    private func count(_ text: String, in query: String) -> Int { query.components(separatedBy: text).count - 1 }

    func testTheAskedPlacementIsDecidedOnceBeforeTheSegmentsThatAskAboutIt() throws {
        for dialect in SQLDialect.allCases {
            let single = try query(["q"], dialect)
            // `p` is decided as `q1_` (its number in the rules), read by `pre0`, read by `seg_d`.
            XCTAssertEqual(count(" AS q0_r", in: single), 1, single)
            XCTAssertEqual(count(" AS pre0", in: single), 1, single)
            XCTAssertLessThan(single.range(of: " AS q0_r")!.lowerBound, single.range(of: " AS seg_d")!.lowerBound)
            // With both asked for, `p` is decided once, under its own prefix.
            let both = try query(["q", "p"], dialect)
            XCTAssertEqual(count(" AS p1_r", in: both), 1, both)
            XCTAssertEqual(count("q0_r", in: both), 0, both)
        }
    }

    func testASlotReadInAnEarlierRoundHasTheViewALaterRoundFolds() throws {
        // `code` is read for `p`'s round; only `q`'s round folds it (`ignoring case`).
        for dialect in SQLDialect.allCases {
            for schema in [false, true] {
                let sql = try query(["q"], dialect, schema: schema)
                if sql.contains("s0_f") { XCTAssertEqual(count(" AS s0_f", in: sql), 1, sql) }
            }
        }
    }

    func testALayerIsDrawnOnceAndItsShareGuardsTheRow() throws {
        for dialect in SQLDialect.allCases {
            let sql = try query(["q"], dialect)
            // One hash (`lay_tests_h`) and one bucket.
            XCTAssertEqual(count(" AS lay_tests_h", in: sql), 1, sql)
            XCTAssertEqual(count(" AS lay_tests", in: sql) - count(" AS lay_tests_h", in: sql), 1, sql)
            XCTAssertTrue(sql.contains("lay_tests >= 0") && sql.contains("lay_tests < 40"), sql)
        }
    }

    func testACountOverTwoPlacementsAddsTheirCounts() throws {
        let sql = try query(["q"], .postgres)
        XCTAssertTrue(sql.contains("END + CASE WHEN cardinality("), sql)
    }

    func testClickHouseEvaluatesEveryBranchWhereAPlacementIsDecidedForAPrerequisite() throws {
        for schema in [false, true] {
            XCTAssertTrue(try query(["q"], .clickhouse, schema: schema).hasSuffix("SETTINGS short_circuit_function_evaluation = 'disable'\n"))
        }
    }
}
