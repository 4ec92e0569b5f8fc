import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL
import TargetingTestSupport

/// SQL text for experiments and the holdout: experiment rows, `by KEY` draws and the holdout, in both dialects.
/// Tests/SQL/agreement.py and spark_agreement.py run the same forms on real engines against
/// `resolve`; these pin what the query computes and where.
final class SQLExperimentTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private func program(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Program {
        checkedProgram(text, file: file, line: line)
    }

    private func count(_ text: String, in query: String) -> Int { query.components(separatedBy: text).count - 1 }

    /// Two placements share `pricing` (keyed on profile.customer_user_id); `account` keys a split
    /// and the holdout, which `second` is excepted from.
    private let rules = """
    attribute account: string
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing by profile.customer_user_id {
      50% control
      50% discount
    }
    placement first {
      new_users -> pricing {
        control  -> flow "f_control"
        discount -> flow "f_discount"
      }
      everyone -> split "by_account" by account {
        30% -> flow "s_a"
        70% -> nothing
      }
    }
    placement second {
      new_users -> pricing {
        control  -> paywall "p_control"
        discount -> paywall "p_control"
      }
      everyone -> paywall "p_default"
    }
    holdout hold 5% by account except second
    """

    /// The slot index of a draw key, as the program numbered it.
    private func keySlot(_ program: Program, _ target: AttributeTarget) -> Int {
        program.slots.firstIndex { $0.target == SubjectTarget(target) && $0.type == .string }!
    }

    func testRulesWithoutExperimentsKeepTheSixColumns() throws {
        let plain = program("""
        segment s = x == 1
        audience a = s
        placement p {
          a -> split "t" {
            50% -> flow "a"
            50% -> flow "b"
          }
        }
        """)
        for dialect in SQLDialect.allCases {
            let query = try SQLCompiler.compile(placements: ["p"], program: plain, now: now, dialect: dialect)
            XCTAssertNotNil(query.range(of: #" AS split\nFROM t[0-9]+\n(SETTINGS [^\n]*\n)?$"#, options: .regularExpression), query)
            for absent in ["AS experiment", "AS variant", "AS held_out", "in_holdout", "AS exp_", "k0_"] {
                XCTAssertFalse(query.contains(absent), absent)
            }
        }
    }

    func testExperimentRowsReportExperimentAndVariantAndNoSplit() throws {
        let query = try SQLCompiler.compile(placement: "first", program: program(rules), now: now, dialect: .postgres)
        XCTAssertTrue(query.contains("""
          CASE r WHEN 0 THEN CAST(NULL AS TEXT) WHEN 1 THEN 'by_account' END AS split,
          CASE r WHEN 0 THEN 'pricing' WHEN 1 THEN CAST(NULL AS TEXT) END AS experiment,
          CASE r WHEN 0 THEN CASE WHEN exp_pricing < 50 THEN 'control' ELSE 'discount' END WHEN 1 THEN CAST(NULL AS TEXT) END AS variant,
          in_holdout AS held_out
        FROM t
        """), query)
        XCTAssertTrue(query.contains("CASE r WHEN 0 THEN CASE WHEN exp_pricing < 50 THEN 'f_control' ELSE 'f_discount' END"), query)
    }

    func testEachExperimentIsDrawnOncePerProfileForAllPlacements() throws {
        let program = program(rules)
        let key = SQLCompiler.keyPrefix(keySlot(program, .builtin("customer_user_id"))) + "v"
        let query = try SQLCompiler.compile(placements: ["first", "second"], program: program, now: now, dialect: .postgres)
        XCTAssertEqual(count("md5(('pricing-' || \(key)))", in: query), 1, "one hash, once: \(query)")
        XCTAssertTrue(query.contains("    CASE WHEN \(key) IS NOT NULL THEN \(SQLDialect.postgres.sql(.hash(.raw("('pricing-' || \(key))")))) END AS exp_pricing_h"), query)
        XCTAssertEqual(count(SQLDialect.postgres.sql(.bucket(.column("exp_pricing_h"))), in: query), 1, "one bucket of that hash: \(query)")
        XCTAssertTrue(query.contains("    -- experiment pricing by profile.customer_user_id\n    CASE WHEN \(key) IS NOT NULL THEN "), query)
        let definitions = query.ranges(of: #"END AS exp_pricing[,\n]"#)
        XCTAssertEqual(definitions.count, 1, query)
        // Both placements read the bucket from the one shared column, and come after it.
        XCTAssertEqual(count("CASE WHEN exp_pricing < 50 THEN 'control' ELSE 'discount' END", in: query), 2, query)
        let shared = try XCTUnwrap(definitions.first).lowerBound
        XCTAssertLessThan(shared, try XCTUnwrap(query.range(of: "AS p0_r")).lowerBound, "the draw comes before either placement's deciding row")
        XCTAssertEqual(count("AS seg_recent", in: query), 1, "one chain evaluates each segment once for both placements")
        XCTAssertEqual(count("AS aud_new_users", in: query), 1, query)
        XCTAssertFalse(query.contains("UNION ALL"), "one statement: each profile gives one row per placement")
        XCTAssertTrue(query.contains("  CASE decided.placement_number WHEN 0 THEN 'first' WHEN 1 THEN 'second' END AS placement,\n"), query)
        XCTAssertTrue(query.contains("  CASE decided.placement_number WHEN 0 THEN CASE p0_r WHEN 0 THEN CASE WHEN exp_pricing < 50 THEN 'control'"), query)
        XCTAssertTrue(query.contains(" WHEN 1 THEN CASE p1_r WHEN 0 THEN CASE WHEN exp_pricing < 50 THEN 'control' ELSE 'discount' END WHEN 1 THEN CAST(NULL AS TEXT) END END AS variant,\n"), query)
        XCTAssertTrue(query.hasSuffix("CROSS JOIN (VALUES (0), (1)) AS decided(placement_number)\n"), query)
        // Both placements' deciding rows in one stage: a chain as deep for twenty placements as for one.
        XCTAssertNotNil(query.range(of: #"END AS p0_r,\n    CASE WHEN [^\n]* END AS p1_r\n"#, options: .regularExpression), query)
        XCTAssertTrue(query.contains("CASE p1_r WHEN 0 THEN CASE WHEN exp_pricing < 50 THEN 'p_control'"), query)
        XCTAssertEqual(count("FROM profiles", in: query), 1, "the table is read once")
    }

    func testAKeyedRowNeedsTheKeyAndAHeldOutProfileOnlyTheEveryoneRow() throws {
        let program = program(rules)
        let customer = SQLCompiler.keyPrefix(keySlot(program, .builtin("customer_user_id"))) + "v"
        let account = SQLCompiler.keyPrefix(keySlot(program, .custom("account"))) + "v"
        let first = try SQLCompiler.compile(placement: "first", program: program, now: now, dialect: .postgres)
        XCTAssertTrue(first.contains("CASE WHEN aud_new_users AND NOT in_holdout AND \(customer) IS NOT NULL THEN 0 WHEN \(account) IS NOT NULL THEN 1 END AS r"), first)
        // The excepted placement ignores the holdout, and reports nobody held out.
        let second = try SQLCompiler.compile(placement: "second", program: program, now: now, dialect: .postgres)
        XCTAssertTrue(second.contains("CASE WHEN aud_new_users AND \(customer) IS NOT NULL THEN 0 WHEN TRUE THEN 1 END AS r"), second)
        XCTAssertNotNil(second.range(of: #"\n  FALSE AS held_out\nFROM t[0-9]+\n$"#, options: .regularExpression), second)
        XCTAssertFalse(second.contains("in_holdout"), "no holdout draw where no placement is covered")
    }

    func testTheHoldoutDrawHoldsOutBelowItsWeightAndNeverAProfileWithoutTheKey() throws {
        let program = program(rules)
        let account = SQLCompiler.keyPrefix(keySlot(program, .custom("account"))) + "v"
        let query = try SQLCompiler.compile(placement: "first", program: program, now: now, dialect: .postgres)
        let bucket = SQLDialect.postgres.sql(.bucket(.column("in_holdout_h")))
        XCTAssertTrue(query.contains("    CASE WHEN \(account) IS NOT NULL THEN \(SQLDialect.postgres.sql(.hash(.raw("('hold-' || \(account))")))) END AS in_holdout_h"), query)
        XCTAssertTrue(query.contains("    -- holdout hold 5% by account\n    CASE WHEN \(account) IS NOT NULL THEN \(bucket) < 5 ELSE FALSE END AS in_holdout"), query)
        let byID = self.program("""
        segment s = x == 1
        audience a = s
        placement p {
          a -> flow "a"
        }
        holdout h 20%
        """)
        let spark = try SQLCompiler.compile(placement: "p", program: byID, now: now, dialect: .spark)
        // Spark SQL, like PostgreSQL, hashes once into a column that the bucket reads twice.
        XCTAssertTrue(spark.contains("CASE WHEN profile_id IS NOT NULL THEN md5(concat('h-', profile_id)) END AS in_holdout_h"), spark)
        XCTAssertTrue(spark.contains("CASE WHEN profile_id IS NOT NULL THEN \(SQLDialect.spark.sql(.bucket(.column("in_holdout_h")))) < 20 ELSE FALSE END AS in_holdout"), spark)
        XCTAssertTrue(spark.contains("CASE WHEN aud_a AND NOT in_holdout THEN 0 END AS r"), spark)
        XCTAssertTrue(spark.contains("CASE r WHEN 0 THEN CAST(NULL AS STRING) END AS experiment"), spark)
    }

    func testAKeyIsReadAsSlotReadReadsAString() throws {
        let program = program(rules)
        let k = SQLCompiler.keyPrefix(keySlot(program, .custom("account")))
        let c = SQLCompiler.keyPrefix(keySlot(program, .builtin("customer_user_id")))
        let postgres = try SQLCompiler.compile(placement: "first", program: program, now: now, dialect: .postgres)
        // A custom string (or joined array) trimmed, empty as missing; a number or boolean is not a key.
        XCTAssertTrue(postgres.contains("CASE WHEN \(k)t IN ('string', 'array') THEN nullif(\(SQLDialect.postgres.sql(.trim(.column("\(k)x")))), '') END AS \(k)s"), postgres)
        XCTAssertTrue(postgres.contains("\(k)s AS \(k)v"), postgres)
        // A built-in string as stored, untrimmed; any other JSON type is not a key.
        XCTAssertTrue(postgres.contains("CASE WHEN \(c)t = 'string' THEN \(c)x END AS \(c)s"), postgres)
        XCTAssertTrue(postgres.contains("\(c)s AS \(c)v"), postgres)
        let spark = try SQLCompiler.compile(placement: "first", program: program, now: now, dialect: .spark)
        XCTAssertTrue(spark.contains("'`~id` STRING, `~installed_at` STRING, `~custom_attributes` STRING, `~customer_user_id` STRING'"),
                      "the parsed profile has the keys' fields: \(spark)")
        XCTAssertTrue(spark.contains("AS ca"), spark)
        XCTAssertTrue(spark.contains("CASE WHEN r = 1 THEN \(SQLDialect.spark.sql(.bucket(.hash(.raw("concat('by_account-', \(k)v)"))))) END AS b1"), spark)
    }

    func testExperimentVariantsAreDrawnInWeightThenNameOrder() throws {
        let program = program("""
        segment s = x == 1
        audience a = s
        experiment e {
          40% zeta
          30% beta
          30% alpha
        }
        placement p {
          a -> e {
            zeta  -> flow "z"
            beta  -> flow "b"
            alpha -> flow "a"
          }
        }
        """)
        let query = try SQLCompiler.compile(placement: "p", program: program, now: now, dialect: .postgres)
        XCTAssertTrue(query.contains("CASE WHEN exp_e < 30 THEN 'alpha' WHEN exp_e < 60 THEN 'beta' ELSE 'zeta' END"), query)
        XCTAssertTrue(query.contains("CASE WHEN exp_e < 30 THEN 'a' WHEN exp_e < 60 THEN 'b' ELSE 'z' END"), query)
        // Keyed on profile.id: the draw needs the id only; the row matches whatever the key.
        XCTAssertTrue(query.contains("CASE WHEN profile_id IS NOT NULL THEN \(SQLDialect.postgres.sql(.hash(.raw("('e-' || profile_id)")))) END AS exp_e_h"), query)
        XCTAssertTrue(query.contains("CASE WHEN profile_id IS NOT NULL THEN \(SQLDialect.postgres.sql(.bucket(.column("exp_e_h")))) END AS exp_e"), query)
        XCTAssertTrue(query.contains("CASE WHEN aud_a THEN 0 END AS r"), query)
        XCTAssertTrue(query.contains("FALSE AS held_out"), "an experiment alone reports held_out, always false")
    }

    func testSummaryEntriesCarryExperimentVariantAndHoldout() throws {
        let program = program(rules)
        let entries = program.placements.indices.flatMap { program.possibleDecisions(placement: $0) }
        let query = try SQLCompiler.summary(placements: program.placements.map(\.name), program: program, now: now, dialect: .postgres)
        XCTAssertTrue(query.contains("\nSELECT placement, audience, kind, id, split, experiment, variant, held_out, profiles,\n"), query)
        XCTAssertTrue(query.contains(") AS e(entry, placement, audience, kind, id, split, experiment, variant, held_out)"), query)
        XCTAssertTrue(query.contains("(1, 'first', 'new_users', 'flow', 'f_control', CAST(NULL AS TEXT), 'pricing', 'control', FALSE)"), query)
        // A held-out profile sees the `everyone` row's draw, or no match when it lacks the key.
        XCTAssertTrue(query.contains("'first', 'everyone', CAST(NULL AS TEXT), CAST(NULL AS TEXT), 'by_account', CAST(NULL AS TEXT), CAST(NULL AS TEXT), TRUE)"), query)
        XCTAssertTrue(query.contains("'first', CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), TRUE)"), query)
        XCTAssertEqual(count("\n  (", in: query), entries.count, query)
        XCTAssertEqual(entries.filter(\.heldOut).count, 3, "first's everyone variants and no match; second is excepted")
        // Profiles are counted by entry number, grouped once over both placements' numbers.
        XCTAssertTrue(query.contains("GROUP BY p0_e, p1_e) AS g\nCROSS JOIN (VALUES (0), (1)) AS u(placement_number)"), query)
        // Every entry a profile can reach is numbered: no decision is left uncounted.
        let numbering = query.components(separatedBy: " AS p0_e").first?.components(separatedBy: "\n").last ?? ""
        XCTAssertFalse(numbering.contains("CAST(NULL AS INT)"), numbering)
        XCTAssertTrue(numbering.contains("CASE WHEN in_holdout THEN"), "held out and kept profiles of a row count apart: " + numbering)
    }

    func testDiffByRowComparesExperimentColumnsWhenEitherSideHasThem() throws {
        let old = program("""
        attribute account: string
        segment recent = profile.installed_at >= now - 30d
        audience new_users = recent
        placement first {
          new_users -> flow "f_control"
          everyone -> flow "s_a"
        }
        """)
        let new = program(rules)
        let byRow = try SQLCompiler.diff(old: old, new: new, placements: ["first"], now: now, dialect: .postgres, byRow: true)
        XCTAssertTrue(byRow.contains("SELECT profile, placement, audience, kind, id, split, experiment, variant, held_out, audience IS NOT NULL AS matched"), byRow)
        XCTAssertTrue(byRow.contains("o.held_out IS NOT DISTINCT FROM n.held_out"), byRow)
        XCTAssertTrue(byRow.contains("o.variant AS from_variant"), byRow)
        // The old rules have no experiment: their side still has the columns, never set.
        let sides = byRow.components(separatedBy: "new_decisions AS (")
        XCTAssertTrue(sides[0].contains("CASE r WHEN 0 THEN CAST(NULL AS TEXT) WHEN 1 THEN CAST(NULL AS TEXT) END AS experiment"), sides[0])
        XCTAssertTrue(sides[0].contains("  FALSE AS held_out\n"), sides[0])
        XCTAssertTrue(sides[1].contains("  in_holdout AS held_out\n"), sides[1])
        let byDestination = try SQLCompiler.diff(old: old, new: new, placements: ["first"], now: now, dialect: .postgres)
        XCTAssertFalse(byDestination.contains("from_variant"), byDestination)
        XCTAssertTrue(byDestination.contains("WHERE NOT (o.kind IS NOT DISTINCT FROM n.kind AND o.id IS NOT DISTINCT FROM n.id AND o.matched = n.matched)"), byDestination)
        let removed = try SQLCompiler.diff(old: new, new: old, placements: [], removed: ["second"], now: now, dialect: .spark, byRow: true)
        XCTAssertTrue(removed.contains("CAST(NULL AS BOOLEAN) AS to_held_out"), removed)
    }

    func testUnknownPlacementsAndNoPlacementAreErrors() {
        let program = program(rules)
        XCTAssertThrowsError(try SQLCompiler.compile(placements: ["first", "secnd"], program: program, now: now, dialect: .postgres)) { error in
            XCTAssertEqual(error as? SQLCompileError, .unknownPlacement("secnd", suggestion: "second"))
        }
        XCTAssertThrowsError(try SQLCompiler.compile(placements: [], program: program, now: now, dialect: .spark)) { error in
            XCTAssertEqual(error as? SQLCompileError, .noPlacement)
        }
        XCTAssertThrowsError(try SQLCompiler.diff(old: program, new: program, placements: [], now: now, dialect: .postgres)) { error in
            XCTAssertEqual(error as? SQLCompileError, .noPlacement)
        }
    }
}

private extension String {
    /// The ranges of the matches of the regular expression `pattern`, in order.
    func ranges(of pattern: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var start = startIndex
        while let range = range(of: pattern, options: .regularExpression, range: start..<endIndex) {
            found.append(range)
            start = range.upperBound
        }
        return found
    }
}
