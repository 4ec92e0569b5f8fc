import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `overlap`'s answers: proved "no"s, and "yes"es whose witness the evaluator confirms.
final class OverlapAnalysisTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    private func program(_ rules: String, file: StaticString = #filePath, line: UInt = #line) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: rules)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics), file: file, line: line)
    }

    private func report(_ rules: String, placement: String = "p", now: Int64 = OverlapAnalysisTests.now,
                        file: StaticString = #filePath, line: UInt = #line) throws -> (OverlapReport, Program) {
        let program = try self.program(rules, file: file, line: line)
        let index = try XCTUnwrap(program.placementIndex(named: placement), file: file, line: line)
        let report = OverlapReport.analyze(program, placement: index, now: now)
        try assertWitnessesAreReal(report, program: program, placement: index, now: now, file: file, line: line)
        return (report, program)
    }

    /// Every witness resolves as reported: a pair's profile matches both audiences, a row's
    /// profile is decided by that row.
    private func assertWitnessesAreReal(_ report: OverlapReport, program: Program, placement: Int, now: Int64,
                                        file: StaticString, line: UInt) throws {
        for row in report.rows {
            XCTAssertEqual(row.reachable == true, row.witness != nil, "row \(row.row)", file: file, line: line)
            guard let witness = row.witness else { continue }
            let profile = try Profile(jsonData: Data(JSONWriter.write(witness).utf8))
            XCTAssertNotNil(profile.id, file: file, line: line)
            let decision = try program.decide(placement: placement, for: profile, now: now).get()
            XCTAssertEqual(decision.row, row.row - 1, "the witness of row \(row.row) resolves elsewhere: \(JSONWriter.write(witness))", file: file, line: line)
        }
        for pair in report.pairs {
            XCTAssertEqual(pair.overlap == true, pair.witness != nil, "\(pair.a) & \(pair.b)", file: file, line: line)
            guard let witness = pair.witness else { continue }
            let profile = try Profile(jsonData: Data(JSONWriter.write(witness).utf8))
            var evaluator = Evaluator(program: program, profile: profile, now: now)
            for name in [pair.a, pair.b] {
                let index = try XCTUnwrap(program.ruleSet.audiences.firstIndex { $0.name.text == name }, file: file, line: line)
                XCTAssertTrue(evaluator.audienceMatches(index), "\(name) does not match \(JSONWriter.write(witness))", file: file, line: line)
            }
        }
    }

    func testARowCoveredByTheUnionOfTheRowsAboveIsUnreachable() throws {
        let (report, _) = try report("""
        attribute plan: string one of ["a", "b", "c"]
        segment on_a = plan == "a"
        segment on_b = plan == "b"
        segment on_a_or_b = plan in ["a", "b"]
        audience first = on_a
        audience second = on_b
        audience either = on_a_or_b
        placement p {
          first -> flow "f1"
          second -> flow "f2"
          either -> flow "f3"
          everyone -> flow "f0"
        }
        """)
        XCTAssertEqual(report.rows.map(\.reachable), [true, true, false, true])
        XCTAssertNil(report.rows[2].witness)
        let pairs = Dictionary(uniqueKeysWithValues: report.pairs.map { ("\($0.a)&\($0.b)", $0.overlap) })
        XCTAssertEqual(pairs, ["first&second": false, "first&either": true, "second&either": true])
        XCTAssertFalse(report.hasUndecided)
        // The everyone row's witness is a profile that no audience above takes.
        let fallback = try Profile(jsonData: Data(JSONWriter.write(report.rows[3].witness!).utf8))
        XCTAssertNotEqual(fallback.customAttributes["plan"], .string("a"))
    }

    func testAnAudienceMatchingNoProfileIsUnreachableAndOverlapsNothing() throws {
        let (report, _) = try report("""
        segment old = profile.age >= 30
        segment young = profile.age < 20
        audience impossible = old and young
        audience adults = old
        placement p {
          impossible -> paywall "x"
          adults -> paywall "y"
        }
        """)
        XCTAssertEqual(report.rows.map(\.reachable), [false, true])
        XCTAssertEqual(report.pairs.map(\.overlap), [false])
    }

    func testAnswersAreAtTheGivenInstant() throws {
        let rules = """
        segment black_friday = now between 2026-11-27 and 2026-11-30T23:59:59Z
        segment new_users = profile.installed_at >= now - 7d
        audience sale = black_friday
        audience newcomers = new_users
        placement p {
          sale -> flow "sale"
          newcomers -> flow "welcome"
        }
        """
        // During the sale every profile sees the sale first.
        let (during, _) = try report(rules)
        XCTAssertEqual(during.rows.map(\.reachable), [true, false])
        XCTAssertEqual(during.pairs.map(\.overlap), [true])
        let december: Int64 = 1_796_169_600_000  // 2026-12-02T00:00:00Z
        let (after, _) = try report(rules, now: december)
        XCTAssertEqual(after.rows.map(\.reachable), [false, true])
        XCTAssertEqual(after.pairs.map(\.overlap), [false])
        // The newcomer's install time is within the week before the instant asked about.
        let witness = try Profile(jsonData: Data(JSONWriter.write(after.rows[1].witness!).utf8))
        let installed = try XCTUnwrap(witness["installed_at"]?.stringValue.flatMap(Timestamp.parse))
        XCTAssertGreaterThanOrEqual(installed, december - 7 * 86_400_000)
    }

    func testASplitRowIsReachedByAProfileWithAnID() throws {
        let (report, _) = try report("""
        attribute interests: set of ["sports", "music"]
        segment sporty = interests has "sports"
        audience sporty_users = sporty
        placement p {
          sporty_users -> split "s1" {
            50% -> flow "a"
            50% -> nothing
          }
          everyone -> flow "default"
        }
        """)
        XCTAssertEqual(report.rows.map(\.reachable), [true, true])
        XCTAssertEqual(report.rows[0].witness?["id"], .string("witness"))
    }

    func testWitnessesKeepAnIDTheRulesCompare() throws {
        let (report, _) = try report("""
        segment staff = profile.id starts with "staff_"
        audience insiders = staff
        placement p {
          insiders -> flow "internal"
          everyone -> flow "public"
        }
        """)
        XCTAssertEqual(report.rows.map(\.reachable), [true, true])
        XCTAssertEqual(report.rows[0].witness?["id"]?.stringValue?.hasPrefix("staff_"), true)
        XCTAssertEqual(report.rows[0].witness.flatMap { $0.objectMembers?.first?.key }, "id")
    }
}
