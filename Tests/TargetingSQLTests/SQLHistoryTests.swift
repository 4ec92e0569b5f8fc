import XCTest
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL
import TargetingTestSupport

/// SQL text for caps and sticky experiments: where the history is read in each layout, the
/// window's bounds, a placement's instants read once for all its caps, and a sticky row's
/// bucket and `sticky` column. Tests/SQL/agreement.py and spark_agreement.py run
/// Tests/SQL/history.rules on real engines against `resolve`; these pin what the query computes.
final class SQLHistoryTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private let rules = """
    segment week_under_3 = shown main_paywall in 7d < 3
    segment ever_two = shown main_paywall == 2
    segment rested = last shown main_paywall <= now - 3d
    audience capped = week_under_3 and ever_two
    audience rest = rested
    experiment pricing sticky 30d {
      50% control
      30% discount
      20% trial
    }
    holdout h 10% except other
    placement main_paywall {
      capped -> pricing {
        control  -> paywall "pw_c"
        discount -> paywall "pw_d"
        trial    -> paywall "pw_t"
      }
      rest -> paywall "pw_rested"
    }
    placement other {
      everyone -> flow "f"
    }
    """

    private func query(_ placements: [String], _ dialect: SQLDialect, schema: Bool = false) throws -> String {
        let program = checkedProgram(rules)
        return try SQLCompiler.compile(placements: placements, program: program, now: now, dialect: dialect,
                                       schema: schema ? try SQLTableSchema(programs: [program]) : nil)
    }

    private func count(_ text: String, in query: String) -> Int { query.components(separatedBy: text).count - 1 }

    func testAPlacementsInstantsAreReadOnceForEveryCapOnIt() throws {
        for dialect in SQLDialect.allCases {
            let sql = try query(["main_paywall"], dialect)
            let read = dialect.sql(.jsonMember(.column("hj"), ["shown", "main_paywall"]))
            XCTAssertEqual(count(" AS h0,", in: sql) + count(" AS h0\n", in: sql), 1, sql)
            XCTAssertTrue(sql.contains(read), sql)
        }
    }

    func testTheWindowIsOpenAtItsStartAndClosedAtNow() throws {
        let start = now - 7 * Timestamp.msPerDay
        let postgres = try query(["main_paywall"], .postgres)
        XCTAssertTrue(postgres.contains("CAST(CASE WHEN cardinality(h0) = 0 THEN 0 ELSE (SELECT count(*) FROM unnest(h0) AS u(ms) WHERE u.ms > \(start) AND u.ms <= \(now)) END AS DOUBLE PRECISION)"), postgres)
        // Without a window, every kept instant counts; the latest is the largest.
        XCTAssertTrue(postgres.contains("CAST(cardinality(h0) AS DOUBLE PRECISION)"), postgres)
        XCTAssertTrue(postgres.contains("CASE WHEN cardinality(h0) > 0 THEN (SELECT max(u.ms) FROM unnest(h0) AS u(ms)) END"), postgres)
        let spark = try query(["main_paywall"], .spark)
        XCTAssertTrue(spark.contains("CAST(size(filter(h0, m -> m > \(start) AND m <= \(now))) AS DOUBLE)"), spark)
        XCTAssertTrue(spark.contains("array_max(h0)"), spark)
        // Distinct instants: one written twice (or in two zones) counts once.
        XCTAssertTrue(postgres.contains("ARRAY(SELECT DISTINCT i.ms"), postgres)
        XCTAssertTrue(spark.contains("coalesce(array_distinct("), spark)
    }

    func testTheHistoryComesFromTheProfileOrItsOwnColumn() throws {
        let postgres = try query(["main_paywall"], .postgres)
        XCTAssertTrue(postgres.contains("CASE WHEN jsonb_typeof(profile -> 'history') = 'object' THEN profile -> 'history' END AS hj"), postgres)
        let spark = try query(["main_paywall"], .spark)
        XCTAssertTrue(spark.contains("`~history` STRING"), spark)
        let typed = try query(["main_paywall"], .postgres, schema: true)
        XCTAssertTrue(typed.contains("CAST(history AS JSONB) AS hj"), typed)
        let typedSpark = try query(["main_paywall"], .spark, schema: true)
        XCTAssertTrue(typedSpark.contains("regexp_replace(history, "), typedSpark)
        // A placement that reads no history does not read the column.
        XCTAssertFalse(try query(["other"], .postgres).contains("history"))
    }

    func testTheSchemaListsTheHistoryColumnOnlyForRulesThatReadIt() throws {
        let schema = try SQLTableSchema(programs: [checkedProgram(rules)])
        XCTAssertTrue(schema.readsHistory)
        XCTAssertEqual(schema.createTable(.profiles, dialect: .postgres), "CREATE TABLE profiles (\n  id TEXT,\n  history JSONB\n);\n")
        let plain = try SQLTableSchema(programs: [checkedProgram("segment us = profile.country == \"US\"\naudience a = us\nplacement p {\n  a -> flow \"f\"\n}\n")])
        XCTAssertFalse(plain.readsHistory)
        XCTAssertFalse(plain.createTable(.profiles, dialect: .spark).contains("history"))
    }

    func testAStickyAssignmentPicksItsVariantsBucketWhileItSticks() throws {
        let sql = try query(["main_paywall"], .postgres)
        // Draw order is weight ascending: trial [0, 20), discount [20, 50), control [50, 100).
        let start = now - 30 * Timestamp.msPerDay
        XCTAssertTrue(sql.contains("CASE WHEN a0_ms > \(start) THEN CASE a0_v WHEN 'trial' THEN 0 WHEN 'discount' THEN 20 WHEN 'control' THEN 50 END END AS stk_pricing"), sql)
        // The row matches whatever its audience, unless the holdout holds the profile out.
        XCTAssertTrue(sql.contains("WHEN NOT in_holdout AND (((stk_pricing IS NOT NULL) AND NOT in_holdout) OR (aud_capped)) THEN 0"), sql)
        XCTAssertTrue(sql.contains("CASE WHEN r = 0 THEN ((stk_pricing IS NOT NULL) AND NOT in_holdout) ELSE FALSE END AS sticky"), sql)
        XCTAssertTrue(sql.contains("(CASE WHEN ((stk_pricing IS NOT NULL) AND NOT in_holdout) THEN stk_pricing ELSE exp_pricing END) < 20"), sql)
        // The assignment's instant is parsed as an instant: a bare date is not one.
        XCTAssertTrue(sql.contains("CASE WHEN length("), sql)
    }

    func testWithoutAStickyExperimentThereIsNoStickyColumn() throws {
        let program = checkedProgram(rules.replacingOccurrences(of: "pricing sticky 30d", with: "pricing"))
        let sql = try SQLCompiler.compile(placement: "main_paywall", program: program, now: now, dialect: .spark)
        XCTAssertFalse(sql.contains("sticky"), sql)
        XCTAssertFalse(sql.contains("assigned"), sql)
    }
}
