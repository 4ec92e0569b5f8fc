import XCTest
@testable import TargetingBase
@testable import TargetingEngine
import TargetingProfiles
@testable import TargetingSQL

/// Every construct of `SQLExpression` as each dialect prints it: exact text.
final class SQLExpressionTests: XCTestCase {
    private let v = SQLExpression.column("s0_v")

    /// `expression` prints as `postgres` in PostgreSQL and as `spark` in Spark SQL.
    private func assertPrints(_ expression: SQLExpression, postgres: String, spark: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(SQLDialect.postgres.sql(expression), postgres, "postgres", file: file, line: line)
        XCTAssertEqual(SQLDialect.spark.sql(expression), spark, "spark", file: file, line: line)
    }

    /// `expression` prints as `text` in every dialect.
    private func assertPrints(_ expression: SQLExpression, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertPrints(expression, postgres: text, spark: text, file: file, line: line)
    }

    func testLiterals() {
        assertPrints(.string("it's"), postgres: "'it''s'", spark: "'it\\'s'")
        assertPrints(.string("a\\b\nc\u{1}"), postgres: "'a\\b\nc\u{1}'", spark: "'a\\\\b\\nc\\u0001'")
        // PostgreSQL text cannot hold U+0000: such a literal is a NULL text.
        assertPrints(.string("a\u{0}"), postgres: "CAST(NULL AS TEXT)", spark: "'a\\u0000'")
        assertPrints(.number(5), postgres: "CAST('5' AS DOUBLE PRECISION)", spark: "CAST('5' AS DOUBLE)")
        assertPrints(.number(-2.5), postgres: "CAST('-2.5' AS DOUBLE PRECISION)", spark: "CAST('-2.5' AS DOUBLE)")
        assertPrints(.number(1e20), postgres: "CAST('1e+20' AS DOUBLE PRECISION)", spark: "CAST('1e+20' AS DOUBLE)")
        assertPrints(.integer(-1), "-1")
        assertPrints(.bool(true), "TRUE")
        assertPrints(.bool(false), "FALSE")
        assertPrints(.null, "NULL")
        assertPrints(.column("seg_pro"), "seg_pro")
        assertPrints(.raw("profile ->> 'id'"), "profile ->> 'id'")
        assertPrints(.commented(.integer(1793448000000), "now - 30d = 2026-10-30T12:00:00Z"), "1793448000000 /* now - 30d = 2026-10-30T12:00:00Z */")
    }

    func testCastsNameEachType() {
        assertPrints(.cast(.null, .text), postgres: "CAST(NULL AS TEXT)", spark: "CAST(NULL AS STRING)")
        assertPrints(.cast(v, .double), postgres: "CAST(s0_v AS DOUBLE PRECISION)", spark: "CAST(s0_v AS DOUBLE)")
        assertPrints(.cast(v, .bigint), "CAST(s0_v AS BIGINT)")
        assertPrints(.cast(.null, .int), "CAST(NULL AS INT)")
        assertPrints(.cast(.null, .boolean), "CAST(NULL AS BOOLEAN)")
        assertPrints(.cast(.textArray([]), .textArray), postgres: "CAST(ARRAY[] AS TEXT[])", spark: "CAST(array() AS ARRAY<STRING>)")
    }

    /// `and`, `or`, `not` and comparisons print bare; parentheses are where the tree puts them.
    func testLogicAndComparisons() {
        let a = SQLExpression.column("a"), b = SQLExpression.column("b")
        assertPrints(.parenthesized(.and([a, b, .column("c")])), "(a AND b AND c)")
        assertPrints(.parenthesized(.or([a, b])), "(a OR b)")
        assertPrints(.and([]), "TRUE")
        assertPrints(.or([]), "FALSE")
        assertPrints(.parenthesized(.not(a)), "(NOT a)")
        assertPrints(.parenthesized(.and([a, .not(.coalesce([b, .bool(false)]))])), "(a AND NOT coalesce(b, FALSE))")
        assertPrints(.parenthesized(.not(.parenthesized(.or([a, b])))), "(NOT (a OR b))")
        let operators: [(SQLExpression.Comparison, String)] = [(.equal, "="), (.notEqual, "<>"), (.less, "<"), (.lessOrEqual, "<="),
                                                             (.greater, ">"), (.greaterOrEqual, ">=")]
        for (comparison, written) in operators {
            assertPrints(.compare(v, comparison, .integer(0)), "s0_v \(written) 0")
        }
        assertPrints(.parenthesized(.isIn(v, [.string("a"), .string("b")])), "(s0_v IN ('a', 'b'))")
        assertPrints(.isNull(v, negated: false), "s0_v IS NULL")
        assertPrints(.parenthesized(.isNull(v, negated: true)), "(s0_v IS NOT NULL)")
        assertPrints(.coalesce([v, .string("0")]), "coalesce(s0_v, '0')")
        assertPrints(.call("length", [v]), "length(s0_v)")
    }

    func testCase() {
        let whens = [SQLExpression.When(.compare(v, .less, .integer(0)), .integer(-1)), .init(.compare(v, .greater, .integer(0)), .integer(1))]
        assertPrints(.caseWhen(subject: nil, whens, otherwise: .integer(0)), "CASE WHEN s0_v < 0 THEN -1 WHEN s0_v > 0 THEN 1 ELSE 0 END")
        assertPrints(.caseWhen(subject: nil, [.init(.column("ok"), v)], otherwise: nil), "CASE WHEN ok THEN s0_v END")
        assertPrints(.caseWhen(subject: .column("n"), [.init(.integer(0), .string("a"))], otherwise: .null), "CASE n WHEN 0 THEN 'a' ELSE NULL END")
    }

    func testText() {
        assertPrints(.contains(v, .string("x")), postgres: "(strpos(s0_v, 'x') > 0)", spark: "(instr(s0_v, 'x') > 0)")
        assertPrints(.prefix(v, 3), "left(s0_v, 3)")
        assertPrints(.suffix(v, 2), "right(s0_v, 2)")
        assertPrints(.matches(v, .string("^(?:a)$")), postgres: "(s0_v ~ '^(?:a)$')", spark: "(s0_v RLIKE '^(?:a)$')")
        assertPrints(.isDigits(v), postgres: "(s0_v ~ '^[0-9]+$')", spark: "(s0_v RLIKE '^[0-9]+\\\\z')")
        assertPrints(.bytes(v), postgres: "(s0_v COLLATE \"C\")", spark: "s0_v")
        assertPrints(.lowercase(v),
                     postgres: "CASE WHEN octet_length(s0_v) = length(s0_v) THEN lower(s0_v COLLATE \"C\") COLLATE \"default\" "
                        + "ELSE lower(s0_v COLLATE \"und-x-icu\") COLLATE \"default\" END",
                     spark: "lower(s0_v)")
        assertPrints(.trim(v), postgres: "btrim(s0_v, \(SQLDialect.postgresWhiteSpace))",
                     spark: "trim(BOTH '" + AdaptyLimits.whiteSpace.map { "\\u" + SQLDialect.hex4($0) }.joined() + "' FROM s0_v)")
        XCTAssertTrue(SQLDialect.postgresWhiteSpace.hasPrefix("E'\\u0009\\u000A"), SQLDialect.postgresWhiteSpace)
        assertPrints(.concat([.string("e-"), .column("profile_id")]), postgres: "('e-' || profile_id)", spark: "concat('e-', profile_id)")
        assertPrints(.textToDouble(.column("x")),
                     postgres: "CASE WHEN abs(CAST(x AS NUMERIC)) > 1.7976931348623157e308 THEN CAST(sign(CAST(x AS NUMERIC)) AS DOUBLE PRECISION) "
                        + "* CAST('Infinity' AS DOUBLE PRECISION) WHEN abs(CAST(x AS NUMERIC)) < 2.2250738585072014e-308 THEN CAST(0 AS DOUBLE PRECISION) "
                        + "ELSE CAST(CAST(x AS NUMERIC) AS DOUBLE PRECISION) END",
                     spark: "CAST(x AS DOUBLE)")
        assertPrints(.groups(.column("t"), pattern: "^(a)(b)?$", count: 2),
                     postgres: "regexp_match(t, '^(a)(b)?$')",
                     spark: "CASE WHEN t RLIKE '^(a)(b)?$' THEN transform(split(regexp_replace(t, '^(a)(b)?$', '$1|$2'), '[|]', -1), g -> nullif(g, '')) END")
    }

    func testArrays() {
        let array = SQLExpression.column("s0_a")
        assertPrints(.arrayContains(array, .string("x")), postgres: "('x' = ANY(s0_a))", spark: "array_contains(s0_a, 'x')")
        assertPrints(.count(array), postgres: "cardinality(s0_a)", spark: "size(s0_a)")
        assertPrints(.element(array, 2), postgres: "(s0_a)[2]", spark: "try_element_at(s0_a, 2)")
        assertPrints(.textArray([.string("a"), v]), postgres: "ARRAY['a', s0_v]", spark: "array('a', s0_v)")
        assertPrints(.splitOnComma(v), postgres: "string_to_array(s0_v, ',')", spark: "split(s0_v, ',', -1)")
        assertPrints(.splitOnDot(v), postgres: "string_to_array(s0_v, '.')", spark: "split(s0_v, '[.]', -1)")
        assertPrints(.lowercaseAll(array),
                     postgres: "ARRAY(SELECT CASE WHEN octet_length(u.e) = length(u.e) THEN lower(u.e COLLATE \"C\") COLLATE \"default\" "
                        + "ELSE lower(u.e COLLATE \"und-x-icu\") COLLATE \"default\" END FROM unnest(s0_a) AS u(e))",
                     spark: "transform(s0_a, e -> lower(e))")
        assertPrints(.smallest(3, .column("o.profile_id")),
                     postgres: "(array_agg(o.profile_id ORDER BY o.profile_id) FILTER (WHERE o.profile_id IS NOT NULL))[1:3]",
                     spark: "slice(array_sort(collect_set(o.profile_id)), 1, 3)")
        assertPrints(.rowText([.column("id"), .column("country")]), postgres: "CAST(ROW(id, country) AS TEXT)", spark: "to_json(struct(id, country))")
    }

    func testArithmeticAndBuckets() {
        let y = SQLExpression.column("y")
        assertPrints(.arithmetic(.arithmetic(.arithmetic(y, .times, .integer(60)), .plus, .column("m")), .minus,
                                 .arithmetic(.column("s"), .times, .parenthesized(.arithmetic(y, .remainder, .integer(4))))),
                     "y * 60 + m - s * (y % 4)")
        assertPrints(.between(.column("mo"), .integer(1), .integer(12)), "mo BETWEEN 1 AND 12")
        assertPrints(.floorDivide(.arithmetic(.integer(100), .minus, .column("ms")), by: 7),
                     postgres: "((100 - ms) - ((((100 - ms) % 7) + 7) % 7)) / 7", spark: "((100 - ms) - ((((100 - ms) % 7) + 7) % 7)) div 7")
        assertPrints(SQLInstantParts.isLeapYear(y), "(y % 4 = 0 AND (y % 100 <> 0 OR y % 400 = 0))")
        assertPrints(.divide(.raw("n + 3"), .integer(4)), postgres: "(n + 3) / 4", spark: "(n + 3) div 4")
        assertPrints(.hash(.column("k")), postgres: "CAST(CAST(('x' || right(md5(k), 16)) AS BIT(64)) AS BIGINT)", spark: "md5(k)")
        assertPrints(.bucket(.column("h")),
                     postgres: "((((h) % 100) + CASE WHEN h < 0 THEN 116 ELSE 100 END) % 100)",
                     spark: "((((CAST(conv(substr(h, 17, 8), 16, 10) AS BIGINT)) % 100) * 96 + ((CAST(conv(substr(h, 25, 8), 16, 10) AS BIGINT)) % 100)) % 100)")
    }

    /// Reading JSON: PostgreSQL's `jsonb` operators, Spark SQL's parsed text whose strings carry the mark `~`.
    func testJSON() {
        let member = SQLExpression.column("m")
        assertPrints(.profileMember("country"), postgres: "profile -> 'country'", spark: "pj.`~country`")
        assertPrints(.jsonMember(.column("hj"), ["shown", "home"]), postgres: "hj -> 'shown' -> 'home'", spark: "get_json_object(hj, '$.~shown.~home')")
        assertPrints(.jsonType(member),
                     postgres: "nullif(jsonb_typeof(m), 'null')",
                     spark: "CASE WHEN m IS NULL THEN NULL WHEN (left(m, 1) = '~') THEN 'string' WHEN m IN ('true', 'false') THEN 'boolean' "
                        + "WHEN left(m, 1) = '[' THEN 'array' WHEN left(m, 1) = '{' THEN 'object' ELSE 'number' END")
        assertPrints(.jsonIsString(member), postgres: "jsonb_typeof(m) = 'string'", spark: "(left(m, 1) = '~')")
        assertPrints(.jsonIsObject(member), postgres: "jsonb_typeof(m) = 'object'", spark: "left(m, 1) = '{'")
        assertPrints(.jsonStringText(member), postgres: "m #>> '{}'", spark: "substr(m, 2)")
        assertPrints(.jsonScalarText(member),
                     postgres: "CASE WHEN jsonb_typeof(m) IN ('string', 'number') THEN m #>> '{}' END",
                     spark: "CASE WHEN (left(m, 1) = '~') THEN substr(m, 2) WHEN left(m, 1) IN ('[', '{') THEN NULL ELSE m END")
        assertPrints(.jsonFromText(.column("history")),
                     postgres: "CAST(history AS JSONB)",
                     spark: #"regexp_replace(history, '"([^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+)"', '"~$1"')"#)
    }

    /// Shown instants: PostgreSQL unnests the array, Spark SQL works on it with higher-order functions.
    func testHistoryArrays() {
        let instants = SQLExpression.column("h0")
        assertPrints(.countWithin(instants, after: 100, upTo: 200),
                     postgres: "CASE WHEN cardinality(h0) = 0 THEN 0 ELSE (SELECT count(*) FROM unnest(h0) AS u(ms) WHERE u.ms > 100 AND u.ms <= 200) END",
                     spark: "size(filter(h0, m -> m > 100 AND m <= 200))")
        assertPrints(.arrayMax(instants),
                     postgres: "CASE WHEN cardinality(h0) > 0 THEN (SELECT max(u.ms) FROM unnest(h0) AS u(ms)) END",
                     spark: "array_max(h0)")
        let postgres = SQLDialect.postgres.sql(.shownInstants(.column("l")))
        XCTAssertTrue(postgres.hasPrefix("CASE WHEN jsonb_typeof(l) = 'array' THEN ARRAY(SELECT DISTINCT i.ms FROM (SELECT "), postgres)
        XCTAssertTrue(postgres.hasSuffix(" FROM jsonb_array_elements_text(l) AS e(t) WHERE e.t ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.][0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$') AS p) AS i "
            + "WHERE i.ms IS NOT NULL) ELSE CAST(ARRAY[] AS BIGINT[]) END"), postgres)
        let spark = SQLDialect.spark.sql(.shownInstants(.column("l")))
        XCTAssertTrue(spark.hasPrefix("coalesce(array_distinct(filter(transform(transform(transform(from_json(l, 'ARRAY<STRING>'), "
            + "t -> CASE WHEN (left(t, 1) = '~') THEN substr(t, 2) END), u -> CASE WHEN u RLIKE '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.][0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})\\\\z' THEN named_struct('y', "), spark)
        XCTAssertTrue(spark.hasSuffix("), m -> m IS NOT NULL)), CAST(array() AS ARRAY<BIGINT>))"), spark)
    }

    /// An instant's parts: in range, then Unix milliseconds by integer arithmetic (division is the dialect's).
    func testInstantParts() {
        let parts = SQLInstantParts.columns(prefix: "x.")
        let valid = "x.ok AND x.mo BETWEEN 1 AND 12 AND x.d BETWEEN 1 AND CASE WHEN x.mo IN (1, 3, 5, 7, 8, 10, 12) THEN 31 WHEN x.mo IN (4, 6, 9, 11) THEN 30 "
            + "WHEN x.mo = 2 THEN CASE WHEN (x.y % 4 = 0 AND (x.y % 100 <> 0 OR x.y % 400 = 0)) THEN 29 ELSE 28 END ELSE 0 END "
            + "AND x.h <= 23 AND x.mi <= 59 AND x.se <= 59 AND x.oh <= 23 AND x.om <= 59"
        assertPrints(parts.valid, valid)
        func milliseconds(_ divide: String) -> String {
            "CASE WHEN \(valid) THEN (365 * (x.y + 400) + ((x.y + 400) + 3) \(divide) 4 - ((x.y + 400) + 99) \(divide) 100 + ((x.y + 400) + 399) \(divide) 400 "
                + "+ (367 * x.mo - 362) \(divide) 12 + CASE WHEN x.mo <= 2 THEN 0 WHEN (x.y % 4 = 0 AND (x.y % 100 <> 0 OR x.y % 400 = 0)) THEN -1 ELSE -2 END "
                + "+ x.d - 1 - 865625) * 86400000 + (x.h * 3600 + x.mi * 60 + x.se - x.sg * (x.oh * 60 + x.om) * 60) * 1000 + x.fr END"
        }
        assertPrints(parts.milliseconds, postgres: milliseconds("/"), spark: milliseconds("div"))
        let positional = SQLInstantParts.positional(.column("t"))
        assertPrints(positional.month, "CAST(substr(t, 6, 2) AS BIGINT)")
        assertPrints(positional.millis,
                     "CASE WHEN substr(t, 20, 1) = '.' THEN CAST(rpad(substr(t, 21, least(3, length(t) - 20 - CASE WHEN right(t, 1) IN ('Z', 'z') THEN 1 ELSE 6 END)), 3, '0') AS BIGINT) ELSE 0 END")
        assertPrints(positional.offsetSign, "CASE WHEN NOT right(t, 1) IN ('Z', 'z') AND substr(right(t, 6), 1, 1) = '-' THEN -1 ELSE 1 END")
    }

    /// Conditions keep their grouping: each `and` and `or` in parentheses, `TRUE` and `FALSE` for empty ones.
    func testConditionsGroupAsWritten() {
        let compiler = SQLConditionCompiler(dialect: .postgres, now: 0, segmentColumn: { "seg_\($0)" })
        let condition = Condition.and([.segment(0), .not(.or([.segment(1), .segment(2)])), .or([])])
        XCTAssertEqual(compiler.compile(condition), "(seg_0 AND (NOT (seg_1 OR seg_2)) AND FALSE)")
        XCTAssertEqual(compiler.compile(.and([])), "TRUE")
    }

    /// A version comparison is one tree for every dialect; only its printing differs.
    func testVersionComparison() throws {
        let release = try XCTUnwrap(SemanticVersion(parsing: "2.10.0"))
        let compared = SQLVersionComparison(prefix: "s0_").compare(to: release)
        func part(_ column: String, _ digits: String, _ bytes: (String) -> String) -> String {
            let n = digits.count
            return "WHEN (length(s0_\(column)) < \(n) OR (length(s0_\(column)) = \(n) AND \(bytes("s0_" + column)) < '\(digits)')) THEN -1 "
                + "WHEN (length(s0_\(column)) > \(n) OR (length(s0_\(column)) = \(n) AND \(bytes("s0_" + column)) > '\(digits)')) THEN 1 "
        }
        let postgresBytes = { (column: String) in "(\(column) COLLATE \"C\")" }
        XCTAssertEqual(SQLDialect.postgres.sql(compared),
                       "(CASE " + part("maj", "2", postgresBytes) + part("min", "10", postgresBytes) + part("pat", "0", postgresBytes)
                        + "WHEN cardinality(s0_pre) > 0 THEN -1 ELSE 0 END)")
        XCTAssertEqual(SQLDialect.spark.sql(compared),
                       "(CASE " + part("maj", "2", { $0 }) + part("min", "10", { $0 }) + part("pat", "0", { $0 })
                        + "WHEN size(s0_pre) > 0 THEN -1 ELSE 0 END)")

        let preRelease = try XCTUnwrap(SemanticVersion(parsing: "1.0.0-rc.2"))
        let spark = SQLDialect.spark.sql(SQLVersionComparison(prefix: "s0_").compare(to: preRelease))
        XCTAssertTrue(spark.hasSuffix("WHEN size(s0_pre) = 0 THEN 1 "
            + "WHEN size(s0_pre) <= 0 THEN -1 "
            + "WHEN ((try_element_at(s0_pre, 1) RLIKE '^[0-9]+\\\\z') OR try_element_at(s0_pre, 1) < 'rc') THEN -1 "
            + "WHEN (NOT (try_element_at(s0_pre, 1) RLIKE '^[0-9]+\\\\z') AND try_element_at(s0_pre, 1) > 'rc') THEN 1 "
            + "WHEN size(s0_pre) <= 1 THEN -1 "
            + "WHEN ((try_element_at(s0_pre, 2) RLIKE '^[0-9]+\\\\z') AND (length(try_element_at(s0_pre, 2)) < 1 OR (length(try_element_at(s0_pre, 2)) = 1 AND try_element_at(s0_pre, 2) < '2'))) THEN -1 "
            + "WHEN (NOT (try_element_at(s0_pre, 2) RLIKE '^[0-9]+\\\\z') OR (length(try_element_at(s0_pre, 2)) > 1 OR (length(try_element_at(s0_pre, 2)) = 1 AND try_element_at(s0_pre, 2) > '2'))) THEN 1 "
            + "WHEN size(s0_pre) > 2 THEN 1 ELSE 0 END)"), spark)
    }
}

/// DuckDB's and ClickHouse's spellings of the constructs where they differ from PostgreSQL's.
final class SQLExpressionOtherEngineTests: XCTestCase {
    private let v = SQLExpression.column("s0_v")

    private func assertPrints(_ expression: SQLExpression, duckdb: String, clickhouse: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(SQLDialect.duckdb.sql(expression), duckdb, "duckdb", file: file, line: line)
        XCTAssertEqual(SQLDialect.clickhouse.sql(expression), clickhouse, "clickhouse", file: file, line: line)
    }

    func testLiteralsAndTypes() {
        assertPrints(.string("it's\\"), duckdb: "'it''s\\'", clickhouse: "'it\\'s\\\\'")
        // DuckDB text holds U+0000, written with chr(0); ClickHouse escapes it.
        assertPrints(.string("a\u{0}b"), duckdb: "('a' || chr(0) || 'b')", clickhouse: "'a\\x00b'")
        assertPrints(.cast(.null, .text), duckdb: "CAST(NULL AS VARCHAR)", clickhouse: "CAST(NULL AS Nullable(String))")
        assertPrints(.instant(1_796_040_000_123), duckdb: "TIMESTAMPTZ '2026-11-30 12:00:00.123+00'",
                     clickhouse: "toDateTime64('2026-11-30 12:00:00.123', 3, 'UTC')")
        assertPrints(.calendarDate(0), duckdb: "DATE '1970-01-01'", clickhouse: "toDate32('1970-01-01')")
        assertPrints(.nullArray, duckdb: "CAST(NULL AS VARCHAR[])", clickhouse: "CAST([] AS Array(String))")
    }

    func testSetsPatternsAndDraws() {
        assertPrints(.arrayContains(v, .string("x")), duckdb: "list_contains(s0_v, 'x')", clickhouse: "has(s0_v, 'x')")
        assertPrints(.setIsPresent(v), duckdb: "s0_v IS NOT NULL", clickhouse: "notEmpty(s0_v)")
        assertPrints(.matches(v, .string("^(?:a)$")), duckdb: "regexp_full_match(s0_v, '^(?:a)$')", clickhouse: "match(s0_v, '^(?:a)$')")
        assertPrints(.lowercase(v), duckdb: "CASE WHEN regexp_matches(s0_v, '[\\x{130}\\x{3A3}]') THEN \(SQLDialect.duckdbSpecialLowercase("s0_v")) ELSE lower(s0_v) END",
                     clickhouse: "lowerUTF8(s0_v)")
        assertPrints(.bucket(.hash(.column("k"))), duckdb: "CAST(CAST('0x' || right(md5(k), 16) AS UBIGINT) % 100 AS INTEGER)",
                     clickhouse: "toInt32(reinterpretAsUInt64(reverse(substring(MD5(k), 9, 8))) % 100)")
        assertPrints(.notDistinct(.column("a"), .column("b")), duckdb: "a IS NOT DISTINCT FROM b",
                     clickhouse: "coalesce(a = b, isNull(a) AND isNull(b))")
    }

    func testConstantTables() {
        XCTAssertEqual(SQLDialect.duckdb.valuesTable([["1", "'a'"], ["2", "'b'"]], alias: "e", columns: ["n", "t"]),
                       "(VALUES\n  (1, 'a'),\n  (2, 'b')\n) AS e(n, t)")
        XCTAssertEqual(SQLDialect.clickhouse.valuesTable([["1", "'a'"], ["2", "'b'"]], alias: "e", columns: ["n", "t"]),
                       "(\n  SELECT 1 AS n, 'a' AS t\n  UNION ALL\n  SELECT 2 AS n, 'b' AS t\n) AS e")
    }

    func testTheFinalSigmaClassesHoldCasedAndCaseIgnorableCharacters() {
        let (cased, ignorable) = SQLDialect.finalSigmaClasses
        XCTAssertTrue(cased.hasPrefix("\\x{41}-\\x{5A}\\x{61}-\\x{7A}"), String(cased.prefix(40)))
        XCTAssertTrue(ignorable.contains("\\x{27}"), "the apostrophe is case-ignorable")
        XCTAssertTrue(ignorable.contains("-\\x{36F}"), "combining marks are case-ignorable")
    }
}
