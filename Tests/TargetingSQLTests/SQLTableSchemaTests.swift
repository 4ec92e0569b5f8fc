import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL
import TargetingTestSupport

/// `--layout columns`: the typed table the rules read, its `CREATE TABLE`, and queries that read
/// its columns as the JSON readers read the same values.
final class SQLTableSchemaTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

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

    func testColumnsFollowWhatTheRulesReadTheValuesAs() throws {
        let schema = try SQLTableSchema(programs: [program(rules)])
        let columns = schema.columns.map { "\($0.name):\($0.kind)" }
        // Built-in fields first (profile.age reads birthday; profile.id is the `id` column), then custom attributes.
        XCTAssertEqual(columns, ["birthday:date", "country:text", "access_levels:set", "total_revenue_usd:number",
                                 "ca_plan:text", "ca_visits:number", "ca_opted_in:bool", "ca_renewal:instant", "ca_tags:set",
                                 "ca_Mixed_Key:number", "ca_untyped:text"])
    }

    func testAnAttributeTheTwoRuleSetsOfADiffReadAsTextAndAsANumberIsText() throws {
        let old = program("attribute level: string\nattribute flag: bool\nsegment a = level == \"x\" and flag == true\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        let new = program("attribute level: number\nattribute flag: number\nsegment a = level > 3 and flag > 0\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        let kinds = Dictionary(uniqueKeysWithValues: try SQLTableSchema(programs: [old, new]).columns.map { ($0.name, $0.kind) })
        XCTAssertEqual(kinds["ca_level"], .text)
        XCTAssertEqual(kinds["ca_flag"], .number, "a bool read as a number is 1 or 0")
    }

    func testTwoKeysWithOneColumnNameAreAnError() {
        let clash = program("segment a = a.b == \"x\" and a_b == \"y\"\naudience u = a\nplacement p {\n  u -> flow \"f\"\n}\n")
        XCTAssertThrowsError(try SQLTableSchema(programs: [clash])) { error in
            XCTAssertEqual(error as? SQLCompileError, .columnClash("ca_a_b", keys: ["a.b", "a_b"]))
        }
    }

    func testCreateTableInBothDialects() throws {
        let schema = try SQLTableSchema(programs: [program(rules)])
        let table = try SQLIdentifier("lake.users", role: .table)
        XCTAssertEqual(schema.createTable(table, dialect: .postgres), """
        CREATE TABLE lake.users (
          id TEXT,
          birthday DATE,
          country TEXT,
          access_levels TEXT[],
          total_revenue_usd DOUBLE PRECISION,
          ca_plan TEXT,
          ca_visits DOUBLE PRECISION,
          ca_opted_in BOOLEAN,
          ca_renewal TIMESTAMPTZ,
          ca_tags TEXT[],
          "ca_Mixed_Key" DOUBLE PRECISION,
          ca_untyped TEXT
        );

        """)
        let spark = schema.createTable(.profiles, dialect: .spark)
        XCTAssertTrue(spark.hasPrefix("CREATE TABLE profiles (\n  id STRING,\n  birthday DATE,\n"), spark)
        XCTAssertTrue(spark.contains("  `ca_Mixed_Key` DOUBLE,\n"), spark)
        XCTAssertTrue(spark.contains("  ca_opted_in BOOLEAN,\n"), spark)
        XCTAssertTrue(spark.contains("  ca_renewal TIMESTAMP,\n  ca_tags ARRAY<STRING>,\n"), spark)
    }

    func testTheQueryComparesTheColumnsAsTheyAre() throws {
        let program = program(rules)
        let schema = try SQLTableSchema(programs: [program])
        for dialect in SQLDialect.allCases {
            let query = try SQLCompiler.compile(placement: "p", program: program, now: now, dialect: dialect, schema: schema)
            XCTAssertTrue(query.contains("  SELECT id AS profile_id,\n    birthday AS col0,\n"), query)
            XCTAssertTrue(query.contains(SQLTableSchema.identifier("ca_Mixed_Key", dialect) + " AS col9"), query)
            XCTAssertTrue(query.contains("\n  FROM profiles\n"), query)
            // No value is trimmed or parsed: each test compares its column with a literal of the column's type.
            for parsing in ["trim", "regexp", "nullif", "substr", "translate"] {
                XCTAssertFalse(query.contains(parsing), "\(dialect): \(parsing) in \(query)")
            }
            // profile.age >= 18 at 2026-11-30: born on or before 2008-11-30.
            let day = CivilDate(year: 2008, month: 11, day: 30).daysSinceEpoch
            XCTAssertTrue(query.contains("(col0 <= \(dialect.sql(.calendarDate(Int64(day)))))"), query)
            XCTAssertTrue(query.contains("(col7 < \(dialect.sql(.instant(now))) /* now = 2026-11-30T12:00:00Z */)"), query)
            XCTAssertTrue(query.contains(dialect.sql(.arrayContains(.column("col8"), .string("x")))), query)
            XCTAssertTrue(query.contains("(col6 = TRUE)"), query)
            XCTAssertTrue(query.contains("(col4 = 'pro')"), query)
            // profile.id reads the id.
            XCTAssertTrue(query.contains(dialect.sql(.prefix(.column("profile_id"), 1)) + " = 'u'"), query)
            XCTAssertTrue(query.contains("(col10 IS NOT NULL)"), query)
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
