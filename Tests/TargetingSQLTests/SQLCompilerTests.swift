import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL
import TargetingTestSupport

/// SQL text: golden snippets for both dialects. PostgreSQL output is also checked
/// against a real server by Tests/SQL/agreement.py; Spark SQL by Tests/SQL/spark_agreement.py.
final class SQLCompilerTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private func program(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Program {
        checkedProgram(text, file: file, line: line)
    }

    private func sql(_ text: String, _ placement: String, _ dialect: SQLDialect, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            return try SQLCompiler.compile(placement: placement, program: program(text), now: now, dialect: dialect)
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return ""
        }
    }

    private let small = """
    attribute level: string
    segment low = level == "it's \\\\ low"
    audience lows = low
    placement p {
      lows -> flow "f'1"
      everyone -> split "exp" {
        60% -> flow "b"
        40% -> nothing
      }
    }
    """

    func testUnknownPlacementIsAnError() {
        XCTAssertThrowsError(try SQLCompiler.compile(placement: "q", program: program(small), now: now, dialect: .postgres)) { error in
            XCTAssertEqual(error as? SQLCompileError, .unknownPlacement("q", suggestion: "p"))
        }
        XCTAssertThrowsError(try SQLCompiler.compile(placement: "nope", program: program(small), now: now, dialect: .postgres)) { error in
            XCTAssertEqual(error as? SQLCompileError, .unknownPlacement("nope", suggestion: nil))
        }
    }

    func testPostgresQuotingAndColumns() {
        let query = sql(small, "p", .postgres)
        XCTAssertTrue(query.hasPrefix("WITH\nt0 AS (\n"), query)
        // Stages the planner keeps apart but never materialises, passing on only what is used.
        XCTAssertFalse(query.contains("MATERIALIZED"), query)
        XCTAssertFalse(query.contains("SELECT *"), query)
        XCTAssertTrue(query.contains("  FROM t0\n  OFFSET 0\n)"), query)
        XCTAssertTrue(query.contains("(s0_v = 'it''s \\ low')"), query)
        XCTAssertTrue(query.contains("CASE r WHEN 0 THEN 'f''1'"), query)
        XCTAssertTrue(query.contains("  profile_id,\n  'p' AS placement,"), query)
        for column in ["AS audience", "AS kind", "AS id", "AS split"] { XCTAssertTrue(query.contains(column), column) }
        XCTAssertTrue(query.contains("FROM profiles"), query)
    }

    func testSparkQuotingEscapesBackslashesAndQuotes() {
        let query = sql(small, "p", .spark)
        XCTAssertTrue(query.contains("(s0_v = 'it\\'s \\\\ low')"), query)
        XCTAssertTrue(query.contains("CASE r WHEN 0 THEN 'f\\'1'"), query)
        XCTAssertFalse(query.contains("MATERIALIZED"), query)
        XCTAssertTrue(query.contains("CASE WHEN left(pj.`~custom_attributes`, 1) = '{' THEN from_json(pj.`~custom_attributes`, 'MAP<STRING, STRING>') END AS ca"), query)
    }

    func testSparkParsesEachProfileOnceWithTheFieldsTheRulesRead() {
        let rules = """
        attribute level: string
        segment adults = profile.age >= 18 and level == "pro"
        segment here = profile.country == "US" and level != "x" and profile.access_levels has "premium"
        audience a = adults or here
        placement p { a -> flow "f" }
        """
        let query = sql(rules, "p", .spark)
        func count(_ text: String) -> Int { query.components(separatedBy: text).count - 1 }
        XCTAssertEqual(count("regexp_replace(profile, "), 1, query)
        // The profile, then short texts: the custom attributes, the access levels, an array value.
        XCTAssertEqual(count("from_json("), 4, query)
        XCTAssertEqual(count("get_json_object"), 0, query)
        XCTAssertEqual(count("(profile"), 1, query)
        XCTAssertTrue(query.contains("'`~id` STRING, `~birthday` STRING, `~custom_attributes` STRING, `~country` STRING, `~access_levels` STRING'"), query)
        // Every string token gets the mark, keys included, so a string's text starts with `~`.
        XCTAssertTrue(query.contains(#"regexp_replace(profile, '"([^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+)"', '"~$1"')"#), query)
        XCTAssertTrue(query.contains("CASE WHEN (left(pj.`~id`, 1) = '~') THEN substr(pj.`~id`, 2) END AS profile_id"), query)
    }

    func testSplitArithmeticPostgres() {
        let query = sql(small, "p", .postgres)
        // The last 16 hex digits of the MD5 as a signed BIGINT; a negative one is 2^64 less than
        // the unsigned number, and 2^64 mod 100 = 16.
        let hash = "CAST(CAST(('x' || right(md5(('exp-' || profile_id)), 16)) AS BIT(64)) AS BIGINT)"
        XCTAssertTrue(query.contains("((((\(hash)) % 100) + CASE WHEN \(hash) < 0 THEN 116 ELSE 100 END) % 100)"), query)
        // Sorted by weight: `nothing` (40) first, then `b` (60).
        XCTAssertTrue(query.contains(" WHEN 1 THEN CASE WHEN b1 < 40 THEN CAST(NULL AS TEXT) ELSE 'flow' END"), query)
        XCTAssertTrue(query.contains(" WHEN 1 THEN CASE WHEN b1 < 40 THEN CAST(NULL AS TEXT) ELSE 'b' END"), query)
        XCTAssertTrue(query.contains(" WHEN 1 THEN 'exp'"), query)
    }

    func testSplitArithmeticSpark() {
        let query = sql(small, "p", .spark)
        // The two halves of the last 16 hex digits, as PostgreSQL reads them: no decimal.
        let hash = "md5(concat('exp-', profile_id))"
        XCTAssertTrue(query.contains("((((CAST(conv(substr(\(hash), 17, 8), 16, 10) AS BIGINT)) % 100) * 96 + ((CAST(conv(substr(\(hash), 25, 8), 16, 10) AS BIGINT)) % 100)) % 100)"), query)
        XCTAssertFalse(query.contains("DECIMAL"), query)
        XCTAssertTrue(query.contains("CASE WHEN b1 < 40 THEN CAST(NULL AS STRING) ELSE 'b' END"), query)
    }

    func testSplitOrderTiesByDestinationBytes() {
        let rules = """
        audience a = s
        segment s = x is set
        placement p {
          a -> split "t" {
            30% -> flow "b"
            30% -> flow "a"
            40% -> nothing
          }
        }
        """
        let query = sql(rules, "p", .postgres)
        XCTAssertTrue(query.contains("CASE WHEN b0 < 30 THEN 'a' WHEN b0 < 60 THEN 'b' ELSE CAST(NULL AS TEXT) END"), query)
    }

    func testVersionComparisonIsSpecialisedToTheLiteral() {
        let rules = """
        segment s = profile.app_version >= "4.2.0-beta.11"
        audience a = s
        placement p { a -> flow "f" }
        """
        let query = sql(rules, "p", .postgres)
        XCTAssertTrue(query.contains("WHEN (length(s0_maj) < 1 OR (length(s0_maj) = 1 AND (s0_maj COLLATE \"C\") < '4')) THEN -1"), query)
        XCTAssertTrue(query.contains("WHEN cardinality(s0_pre) = 0 THEN 1"), query)
        XCTAssertTrue(query.contains("(((s0_pre)[2] ~ '^[0-9]+$') AND (length((s0_pre)[2]) < 2"), query)
        let spark = sql(rules, "p", .spark)
        XCTAssertTrue(spark.contains("WHEN size(s0_pre) = 0 THEN 1"), spark)
        XCTAssertTrue(spark.contains("try_element_at(s0_pre, 2)"), spark)
    }

    func testNowIsInlined() {
        let rules = """
        segment recent = profile.installed_at >= now - 7d
        segment open = now between 2026-11-27 and 2026-11-30T23:59:59Z
        audience a = recent and open
        placement p { a -> flow "f" }
        """
        let query = sql(rules, "p", .postgres)
        XCTAssertTrue(query.contains("_v >= \(now - 7 * 86_400_000) /* now - 7d = \(Timestamp.format(now - 7 * 86_400_000)) */)"), query)
        XCTAssertTrue(query.contains("TRUE AS seg_open"), query)
    }

    func testColumnsAreNamedAndCommentedAfterTheirDeclarations() {
        let rules = """
        segment pros = experience == "pro"
        segment Pros = experience == "PRO"
        audience pro_adults = pros or Pros
        placement p { pro_adults -> flow "f" }
        """
        let query = sql(rules, "p", .postgres)
        XCTAssertTrue(query.contains("    -- q.rules:1 pros = experience == \"pro\"\n"), query)
        XCTAssertTrue(query.contains("AS seg_pros,"), query)
        XCTAssertTrue(query.contains("AS seg_Pros_2"), "names equal ignoring case stay apart: \(query)")
        XCTAssertTrue(query.contains("(seg_pros OR seg_Pros_2) AS aud_pro_adults"), query)
        XCTAssertTrue(query.contains("WHEN aud_pro_adults THEN 0"), query)
    }

    func testIgnoringCaseUsesUnicodeLowercase() {
        let rules = """
        segment s = name == "ÉCOLE" ignoring case
        audience a = s
        placement p { a -> flow "f" }
        """
        XCTAssertTrue(sql(rules, "p", .postgres).contains("lower(s0_v COLLATE \"und-x-icu\")"))
        XCTAssertTrue(sql(rules, "p", .postgres).contains("(s0_f = 'école')"))
        XCTAssertTrue(sql(rules, "p", .spark).contains("lower(s0_v)"))
    }

    func testIgnoringCaseKeepsTheEnginesFinalSigma() {
        // Both engines' `lower()` apply Final_Sigma, as `ignoring case` does; the literal is
        // folded the same way at compile time.
        let rules = """
        attribute name: string
        attribute tags: set
        segment s = name == "ΟΔΟΣ" ignoring case or tags has "ΑΣ" ignoring case
        audience a = s
        placement p { a -> flow "f" }
        """
        for dialect in [SQLDialect.postgres, .spark] {
            let query = sql(rules, "p", dialect)
            XCTAssertFalse(query.contains("'Σ', 'σ'"), query)
            XCTAssertTrue(query.contains("'οδος'"), query)
            XCTAssertTrue(query.contains("'ας'"), query)
            XCTAssertFalse(query.contains("'οδοσ'"), query)
        }
    }

    func testTextMatchingUsesNoWildcards() {
        let rules = """
        segment s = name contains "%_" or name starts with "a%" or name ends with "_b"
        audience a = s
        placement p { a -> flow "f" }
        """
        let query = sql(rules, "p", .postgres)
        XCTAssertFalse(query.contains("LIKE"), query)
        XCTAssertTrue(query.contains("(strpos(s0_v, '%_') > 0)"), query)
        XCTAssertTrue(query.contains("(left(s0_v, 2) = 'a%')"), query)
        XCTAssertTrue(query.contains("(right(s0_v, 2) = '_b')"), query)
        XCTAssertTrue(sql(rules, "p", .spark).contains("(instr(s0_v, '%_') > 0)"))
    }

    func testNegatedTestsNeedAFittingValue() {
        let rules = """
        attribute n: number
        segment s = n != 3 or n is not set
        audience a = s
        placement p { a -> flow "f" }
        """
        let query = sql(rules, "p", .postgres)
        // An audience only decides whether a row is taken: the comparison alone, NULL (not taken) when unset.
        XCTAssertTrue(query.contains("(NOT (s0_v = CAST('3' AS DOUBLE PRECISION)))"), query)
        XCTAssertTrue(query.contains("(NOT s0_p)"), query)
    }
}
