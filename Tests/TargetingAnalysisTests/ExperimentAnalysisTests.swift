import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// experiments and the holdout in the reachability analysis (`check`) and in `overlap` and `table`: keyed rows
/// take only profiles with a string key, the holdout leaves held-out profiles only `everyone`,
/// and every witness resolves through `Program` as reported.
final class ExperimentAnalysisTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    static let header = """
    attribute plan: string
    attribute tier: string one of ["gold", "silver", "bronze"]
    segment recent = profile.installed_at >= now - 30d
    segment no_cuid = profile.customer_user_id is not set
    segment with_cuid = profile.customer_user_id is set
    segment members = profile.customer_user_id starts with "u"
    audience new_users = recent
    audience anon = no_cuid
    audience known = with_cuid
    audience member_users = members

    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }

    """

    private func program(_ rules: String, file: StaticString = #filePath, line: UInt = #line) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: Self.header + rules)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics), file: file, line: line)
    }

    /// The analysis warnings of the marked rules (header prepended), each asserted at its marker.
    private func assertWarnings(_ marked: String, _ expected: [(marker: String, code: String, message: String)],
                                file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        let source = MarkedSource(Self.header + marked)
        let all = diagnostics(source.text)
        XCTAssertFalse(all.contains { $0.isError }, describe(all), file: file, line: line)
        let found = all.filter { $0.code == "unreachable-row" || $0.code == "placement-falls-through" }
        XCTAssertEqual(found.count, expected.count, "got:\n\(describe(found))", file: file, line: line)
        for item in expected {
            assertDiagnostic(in: found, severity: .warning, code: item.code, messageContains: item.message,
                             at: source.position(item.marker, file: file, line: line), file: file, line: line)
        }
        return found
    }

    /// The example profile of a fall-through warning.
    private func example(_ diagnostic: Diagnostic?, file: StaticString = #filePath, line: UInt = #line) throws -> Profile {
        let message = try XCTUnwrap(diagnostic?.message, file: file, line: line)
        let range = try XCTUnwrap(message.range(of: ", e.g. "), file: file, line: line)
        return try Profile(jsonData: Data(message[range.upperBound...].utf8))
    }

    private func decide(_ program: Program, _ placement: String, _ json: String, now: Int64 = ExperimentAnalysisTests.now) throws -> Decision {
        let profile = try Profile(jsonData: Data(json.utf8))
        return try program.decide(placement: XCTUnwrap(program.placementIndex(named: placement)), for: profile, now: now).get()
    }

    private func decide(_ program: Program, _ placement: String, _ witness: JSONValue, now: Int64 = ExperimentAnalysisTests.now) throws -> Decision {
        try decide(program, placement, JSONWriter.write(witness), now: now)
    }

    // MARK: - The holdout

    private let fullHoldout = """
    placement main_paywall {
      1️⃣new_users -> paywall "pw_new"
      everyone -> paywall "pw_standard"
    }
    placement elsewhere {
      new_users -> paywall "pw_new"
      everyone -> paywall "pw_standard"
    }
    holdout q4_holdout 100% except elsewhere

    """

    func testAFullHoldoutLeavesRowsAboveEveryoneToProfilesWithoutAnID() throws {
        let found = assertWarnings(fullHoldout, [
            ("1️⃣", "unreachable-row", "row `new_users` can never decide for a profile with an `id`: every one that reaches it is held out by `q4_holdout`"),
        ])
        XCTAssertTrue(found.first?.help?.contains("only a profile without an `id`") == true, describe(found))
        let program = try program(fullHoldout.replacingOccurrences(of: "1️⃣", with: ""))
        // Every profile with an id is held out: only `everyone` decides for it.
        for id in ["u1", "witness", "a-much-longer-profile-id", "42"] {
            let decision = try decide(program, "main_paywall", #"{"id":"\#(id)","installed_at":"2026-11-29"}"#)
            XCTAssertTrue(decision.heldOut, id)
            XCTAssertEqual(decision.audience, "everyone", id)
            XCTAssertEqual(decision.outcome, .paywall("pw_standard"), id)
            // The excepted placement still decides by its rows.
            XCTAssertEqual(try decide(program, "elsewhere", #"{"id":"\#(id)","installed_at":"2026-11-29"}"#).outcome, .paywall("pw_new"))
        }
        // The one profile the help points at: without an id it is not drawn.
        let idless = try decide(program, "main_paywall", #"{"installed_at":"2026-11-29"}"#)
        XCTAssertFalse(idless.heldOut)
        XCTAssertEqual(idless.outcome, .paywall("pw_new"))
    }

    func testAFullHoldoutMakesASplitRowUnreachable() throws {
        let rules = """
        placement p {
          1️⃣new_users -> split "s" {
            50% -> flow "a"
            50% -> flow "b"
          }
          everyone -> flow "d"
        }
        holdout h 100%

        """
        let found = assertWarnings(rules, [("1️⃣", "unreachable-row", "row `new_users` can never decide: every profile that reaches it is held out by `h`")])
        XCTAssertEqual(found.first?.help, "a 100% holdout leaves the profiles it holds out only an `everyone` row")
        let program = try program(rules.replacingOccurrences(of: "1️⃣", with: ""))
        for id in ["u1", "u2", "u3"] {
            XCTAssertEqual(try decide(program, "p", #"{"id":"\#(id)","installed_at":"2026-11-29"}"#).outcome, .flow("d"))
        }
        // Without an id the split cannot draw: an error, never the row.
        XCTAssertThrowsError(try decide(program, "p", #"{"installed_at":"2026-11-29"}"#))
    }

    func testAFullHoldoutOnAnAttributeLeavesRowsToProfilesWithoutIt() throws {
        let rules = """
        placement p {
          new_users -> flow "n"
          1️⃣member_users -> flow "m"
          everyone -> flow "d"
        }
        holdout h 100% by profile.customer_user_id

        """
        // `new_users` stays reachable (profiles without a customer_user_id are not drawn);
        // `member_users` needs a string customer_user_id, so every profile it takes is held out.
        _ = assertWarnings(rules, [("1️⃣", "unreachable-row", "row `member_users` can never decide: every profile that reaches it is held out by `h`")])
        let program = try program(rules.replacingOccurrences(of: "1️⃣", with: ""))
        let index = try XCTUnwrap(program.placementIndex(named: "p"))
        let report = OverlapReport.analyze(program, placement: index, now: Self.now)
        XCTAssertEqual(report.rows.map(\.reachable), [true, false, true])
        XCTAssertEqual(report.holdout, "h")
        for row in report.rows where row.reachable == true {
            let witness = try XCTUnwrap(row.witness)
            XCTAssertEqual(try decide(program, "p", witness).row, row.row - 1, JSONWriter.write(witness))
        }
        XCTAssertNil(report.rows[0].witness?["customer_user_id"]?.stringValue, "a profile with a string key would be held out")
        // A held-out profile (it has a string key) sees `everyone`.
        XCTAssertEqual(try decide(program, "p", #"{"id":"x","customer_user_id":"u1","installed_at":"2026-11-29"}"#).outcome, .flow("d"))
    }

    func testAPartialHoldoutLeavesEveryRowReachable() {
        _ = assertWarnings("""
        placement p {
          new_users -> flow "n"
          everyone -> flow "d"
        }
        holdout h 99%

        """, [])
    }

    func testHeldOutProfilesFallThroughAPlacementWithoutEveryone() throws {
        let rules = """
        placement 1️⃣p {
          known -> flow "k"
          anon -> flow "a"
        }
        holdout q4_holdout 5%

        """
        let found = assertWarnings(rules, [("1️⃣", "placement-falls-through", "some profiles match no row of `p` (held out by `q4_holdout`), e.g. {\"id\":")])
        XCTAssertEqual(found.first?.help, "`q4_holdout` leaves the profiles it holds out only an `everyone` row; add one to decide for them")
        let program = try program(rules.replacingOccurrences(of: "1️⃣", with: ""))
        let profile = try example(found.first)
        let decision = try program.decide(placement: 0, for: profile, now: Self.now).get()
        XCTAssertTrue(decision.heldOut)
        XCTAssertNil(decision.outcome)
    }

    // MARK: - Keyed rows

    func testAnExperimentRowWhoseAudienceLacksTheKeyIsUnreachable() throws {
        let found = assertWarnings("""
        placement p {
          1️⃣anon -> pricing_q4 {
            control -> flow "a"
            discount -> flow "b"
          }
          everyone -> flow "d"
        }

        """, [("1️⃣", "unreachable-row",
               "row `anon` can never decide: no profile that reaches it has a string value for `profile.customer_user_id`, the key of experiment `pricing_q4`")])
        XCTAssertEqual(found.first?.help, "a profile without one does not enter the experiment; the rows below decide for it")
    }

    func testAnExperimentRowBelowARowThatTakesEveryKeyIsUnreachable() throws {
        let rules = """
        placement p {
          known -> flow "k"
          1️⃣new_users -> pricing_q4 {
            control -> flow "a"
            discount -> flow "b"
          }
          everyone -> flow "d"
        }

        """
        _ = assertWarnings(rules, [("1️⃣", "unreachable-row", "row `new_users` can never decide: no profile that reaches it has a string value for `profile.customer_user_id`")])
        let program = try program(rules.replacingOccurrences(of: "1️⃣", with: ""))
        let report = OverlapReport.analyze(program, placement: 0, now: Self.now)
        XCTAssertEqual(report.rows.map(\.reachable), [true, false, true])
        XCTAssertEqual(report.rows[1].key, "profile.customer_user_id")
        // A profile of `new_users` either has a customer_user_id (taken by `known`) or does not enter.
        for cuid in [#""u1""#, "5", "null"] {
            XCTAssertNotEqual(try decide(program, "p", #"{"id":"x","customer_user_id":\#(cuid),"installed_at":"2026-11-29"}"#).row, 1, cuid)
        }
    }

    func testAKeyThatTheAudienceHoldsOnlyAsANonStringIsNeverDrawn() throws {
        // `plan in [..]` and `plan not in [..]` are both false only for a value that is not a
        // string: the audience takes profiles whose `plan` is a number, which do not enter.
        let rules = """
        segment odd_plan = plan is set and not plan in ["a"] and not plan not in ["a"]
        audience odd = odd_plan
        experiment by_plan by plan {
          50% a
          50% b
        }
        placement p {
          1️⃣odd -> by_plan {
            a -> flow "fa"
            b -> flow "fb"
          }
          everyone -> flow "d"
        }

        """
        _ = assertWarnings(rules, [("1️⃣", "unreachable-row", "row `odd` can never decide: no profile that reaches it has a string value for `plan`, the key of experiment `by_plan`")])
        let program = try program(rules.replacingOccurrences(of: "1️⃣", with: ""))
        let decision = try decide(program, "p", #"{"id":"x","custom_attributes":{"plan":7}}"#)
        XCTAssertEqual(decision.outcome, .flow("d"))
    }

    func testRowsBelowAKeyedRowAreReachedByProfilesWithoutTheKey() throws {
        let rules = """
        placement p {
          new_users -> pricing_q4 {
            control -> flow "a"
            discount -> flow "b"
          }
          new_users -> flow "no_key"
          everyone -> flow "d"
        }

        """
        _ = assertWarnings(rules, [])
        let program = try program(rules)
        let report = OverlapReport.analyze(program, placement: 0, now: Self.now)
        XCTAssertEqual(report.rows.map(\.reachable), [true, true, true])
        for row in report.rows {
            let witness = try XCTUnwrap(row.witness)
            XCTAssertEqual(try decide(program, "p", witness).row, row.row - 1, JSONWriter.write(witness))
        }
        XCTAssertNil(report.rows[1].witness?["customer_user_id"]?.stringValue)
        XCTAssertNotNil(report.rows[0].witness?["customer_user_id"]?.stringValue)
    }

    func testAKeyedEveryoneRowLetsProfilesWithoutTheKeyFallThrough() throws {
        let rules = """
        placement 1️⃣q {
          everyone -> split "by_plan" by plan {
            50% -> flow "x"
            50% -> flow "y"
          }
        }

        """
        let found = assertWarnings(rules, [("1️⃣", "placement-falls-through", "some profiles match no row of `q`, e.g. ")])
        XCTAssertEqual(found.first?.help, "the `everyone` row's split `by_plan` does not take profiles without a string `plan`")
        let program = try program(rules.replacingOccurrences(of: "1️⃣", with: ""))
        let decision = try program.decide(placement: 0, for: example(found.first), now: Self.now).get()
        XCTAssertNil(decision.outcome)
        XCTAssertFalse(decision.heldOut)
    }

    // MARK: - table

    func testATableByTheKeyDrawsEachValueExactly() throws {
        let rules = """
        experiment by_tier by tier {
          50% a
          50% b
        }
        segment tiered = tier is set
        audience t = tiered
        placement p {
          t -> by_tier {
            a -> flow "fa"
            b -> flow "fb"
          }
          everyone -> flow "d"
        }

        """
        let program = try program(rules)
        let index = try XCTUnwrap(program.placementIndex(named: "p"))
        let table = try DecisionTable.build(program, placement: index, by: ["tier"], now: Self.now).get()
        XCTAssertFalse(table.hasUndecided)
        let plan = try XCTUnwrap(program.placements[index].rows[0].split)
        for row in table.rows {
            for value in row.when[0] {
                guard let value else {
                    XCTAssertEqual(row.destinations, [.flow("d")])
                    continue
                }
                // Exactly the variant the value draws.
                let tier = try XCTUnwrap(value.stringValue)
                let expected = Outcome(plan.steps[plan.step(forKeyValue: tier)].destination)
                XCTAssertEqual(row.destinations, [expected], tier)
                XCTAssertEqual(try decide(program, "p", #"{"id":"x","custom_attributes":{"tier":"\#(tier)"}}"#).outcome, expected, tier)
            }
        }
    }

    func testATableNamesTheExperimentKeyAndHoldout() throws {
        let program = try program("""
        placement p {
          new_users -> pricing_q4 {
            control -> flow "a"
            discount -> flow "b"
          }
        }
        holdout h 10%

        """)
        let table = try DecisionTable.build(program, placement: 0, by: nil, now: Self.now).get()
        XCTAssertEqual(table.rows.count, 1)
        // Held-out profiles get no match, as new users do not.
        XCTAssertEqual(table.rows[0].destinations, [.flow("a"), .flow("b"), nil])
        XCTAssertEqual(table.rows[0].dependsOn.map(\.testName), ["profile.installed_at >= now - 30d", "key profile.customer_user_id", "experiment pricing_q4", "holdout h"])
    }
}
