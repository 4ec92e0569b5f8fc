import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL
import TargetingTestSupport

/// `--layout columns`: the typed table the rules read, its `CREATE TABLE`, and queries that read
/// its columns as the JSON readers read the same values.
final class SQLTableSchemaTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private func program(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Program {
        checkedProgram(text, file: file, line: line)
    }

    private let rules = """
    attribute plan: string
    attribute visits: number
    attribute opted_in: bool
    attribute renewal: date
    attribute tags: set
    attribute Mixed.Key: number
    segment a = plan == "pro" and visits >= 3 and opted_in == true
    segment b = renewal < now and tags has "x" and profile.age >= 18
    segment c = profile.country == "US" and profile.access_levels has "premium" and Mixed.Key > 1
    segment d = profile.total_revenue_usd > 5 and profile.id starts with "u" and untyped is set
    audience chosen = a and b and c and d
    placement p {
      chosen -> flow "f"
    }
    """

    func testColumnsFollowWhatTheRulesReadTheValuesAs() {
        let schema = SQLTableSchema(programs: [program(rules)])
        let columns = schema.columns.map { "\($0.name):\($0.kind)" }
        // Built-in fields first (profile.age reads birthday; profile.id is the `id` column), then custom attributes.
        XCTAssertEqual(columns, ["birthday:text", "country:text", "access_levels:text", "total_revenue_usd:number",
                                 "ca_plan:text", "ca_visits:number", "ca_opted_in:bool", "ca_renewal:number", "ca_tags:text",
                                 "ca_Mixed.Key:number", "ca_untyped:text"])
    }

    func testAnAttributeTheTwoRuleSetsOfADiffReadAsTextAndAsANumberIsText() {
        let old = program("attribute level: string\nattribute flag: bool\nsegment a = level == \"x\" and flag == true\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        let new = program("attribute level: number\nattribute flag: number\nsegment a = level > 3 and flag > 0\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        let kinds = Dictionary(uniqueKeysWithValues: SQLTableSchema(programs: [old, new]).columns.map { ($0.name, $0.kind) })
        XCTAssertEqual(kinds["ca_level"], .text)
        XCTAssertEqual(kinds["ca_flag"], .number, "a bool read as a number is 1 or 0")
    }

    func testCreateTableInBothDialects() throws {
        let schema = SQLTableSchema(programs: [program(rules)])
        let table = try SQLIdentifier("lake.users", role: .table)
        XCTAssertEqual(schema.createTable(table, dialect: .postgres), """
        CREATE TABLE lake.users (
          id TEXT,
          birthday TEXT,
          country TEXT,
          access_levels TEXT,
          total_revenue_usd DOUBLE PRECISION,
          ca_plan TEXT,
          ca_visits DOUBLE PRECISION,
          ca_opted_in BOOLEAN,
          ca_renewal DOUBLE PRECISION,
          ca_tags TEXT,
          "ca_Mixed.Key" DOUBLE PRECISION,
          ca_untyped TEXT
        );

        """)
        let spark = schema.createTable(.profiles, dialect: .spark)
        XCTAssertTrue(spark.hasPrefix("CREATE TABLE profiles (\n  id STRING,\n"), spark)
        XCTAssertTrue(spark.contains("  `ca_Mixed.Key` DOUBLE,\n"), spark)
        XCTAssertTrue(spark.contains("  ca_opted_in BOOLEAN,\n"), spark)
    }

    func testTheQueryReadsTheColumnsAsTheJSONReadersReadTheSameValues() throws {
        let program = program(rules)
        let schema = SQLTableSchema(programs: [program])
        for dialect in SQLDialect.allCases {
            let query = try SQLCompiler.compile(placement: "p", program: program, now: now, dialect: dialect, schema: schema)
            XCTAssertTrue(query.contains("  SELECT id AS profile_id,\n    birthday AS col0,\n"), query)
            XCTAssertTrue(query.contains(SQLTableSchema.identifier("ca_Mixed.Key", dialect) + " AS col9"), query)
            XCTAssertTrue(query.contains("\n  FROM profiles\n"), query)
            // A custom attribute's text is trimmed, empty text is not set; NaN is not a number; a bool is 1 or 0.
            XCTAssertTrue(query.contains("nullif(\(dialect.sql(.trim(.column("col4")))), '') AS s"), query)
            XCTAssertTrue(query.contains("nullif(col5, \(dialect.sql(.cast(.string("NaN"), .double)))) AS s"), query)
            XCTAssertTrue(query.contains("CASE WHEN col6 THEN \(dialect.sql(.cast(.integer(1), .double))) WHEN NOT col6 THEN \(dialect.sql(.cast(.integer(0), .double))) END AS s"), query)
            // A built-in set is its comma-joined text; empty text is the empty set.
            XCTAssertTrue(query.contains("CASE WHEN col2 IS NOT NULL THEN CASE WHEN col2 = '' THEN \(dialect.sql(.cast(.textArray([]), .textArray))) ELSE \(dialect.sql(.splitOnComma(.column("col2")))) END END"), query)
            // profile.id reads the id.
            XCTAssertTrue(query.contains("(profile_id IS NOT NULL) AS s"), query)
            XCTAssertFalse(query.contains("custom_attributes"), "nothing parses JSON: \(query)")
        }
    }

    func testADiffReadsOneTableWithTheColumnsOfBothRuleSets() throws {
        let old = program("segment a = plan == \"pro\"\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        let new = program("segment a = visits > 2\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        let query = try SQLCompiler.diff(old: old, new: new, placements: ["p"], now: now, dialect: .postgres, layout: .columns)
        // Each side's profile key is the whole row, both columns, so the sides join profile by profile.
        XCTAssertEqual(query.components(separatedBy: "CAST(ROW(id, ca_plan, ca_visits) AS TEXT) AS profile").count - 1, 2, query)
        let spark = try SQLCompiler.diff(old: old, new: new, placements: ["p"], now: now, dialect: .spark, layout: .columns)
        XCTAssertTrue(spark.contains("to_json(struct(id, ca_plan, ca_visits)) AS profile"), spark)
    }
}
