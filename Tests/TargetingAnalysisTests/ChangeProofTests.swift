import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `diff --prove`: refactorings proved equivalent, and changes shown by counterexamples that
/// both rule sets resolve as reported.
final class ChangeProofTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    static let header = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    attribute weekly_hours: number
    attribute interests: set of ["sports", "music", "travel"]
    attribute nickname: string
    attribute sdk_version: version

    """

    private func program(_ text: String, file: StaticString, line: UInt) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: Self.header + text)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics.filter(\.isError)), file: file, line: line)
    }

    /// The proof, after checking that every witness moves as claimed under both rule sets.
    private func prove(_ old: String, _ new: String, now: Int64 = ChangeProofTests.now,
                       file: StaticString = #filePath, line: UInt = #line) throws -> ChangeProof {
        let before = try program(old, file: file, line: line), after = try program(new, file: file, line: line)
        let proof = ChangeProof.prove(old: before, new: after, now: now)
        for placement in proof.placements {
            for move in placement.transitions {
                let profile = try Profile(jsonData: Data(JSONWriter.write(move.witness).utf8))
                XCTAssertNotNil(profile.id, "a witness names an id", file: file, line: line)
                let from = try before.decide(placement: before.placementIndex(named: placement.name)!, for: profile, now: now).get()
                let to = try after.decide(placement: after.placementIndex(named: placement.name)!, for: profile, now: now).get()
                XCTAssertEqual(from.outcome, move.from, "OLD of \(JSONWriter.write(move.witness))", file: file, line: line)
                XCTAssertEqual(to.outcome, move.to, "NEW of \(JSONWriter.write(move.witness))", file: file, line: line)
                XCTAssertNotEqual(move.from, move.to, file: file, line: line)
            }
        }
        return proof
    }

    private func assertEquivalent(_ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let proof = try prove(old, new, file: file, line: line)
        XCTAssertEqual(proof.placements.map(\.status), Array(repeating: .equivalent, count: proof.placements.count),
                       proof.placements.map { "\($0.name): \($0.transitions.map { JSONWriter.write($0.witness) })" }.joined(separator: "; "),
                       file: file, line: line)
        XCTAssertFalse(proof.placements.isEmpty, file: file, line: line)
    }

    /// The moves of placement `p`, as `from -> to` text.
    private func moves(_ old: String, _ new: String, now: Int64 = ChangeProofTests.now,
                       file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let proof = try prove(old, new, now: now, file: file, line: line)
        let placement = try XCTUnwrap(proof.placements.first { $0.name == "p" }, file: file, line: line)
        XCTAssertEqual(placement.status, placement.transitions.isEmpty ? .equivalent : .changed, file: file, line: line)
        return placement.transitions.map { "\($0.from.map(\.description) ?? "no match") -> \($0.to.map(\.description) ?? "no match")" }
    }

    private func placement(_ segment: String, rows: String = "a -> flow \"yes\"\n  everyone -> flow \"no\"") -> String {
        "\(segment)\naudience a = s\nplacement p {\n  \(rows)\n}\n"
    }

    // MARK: - Refactorings that change nothing

    func testDeMorgan() throws {
        try assertEquivalent(placement(#"segment s = not (experience == "pro" or weekly_hours > 5)"#),
                             placement(#"segment s = not experience == "pro" and not weekly_hours > 5"#))
    }

    func testBetweenAgainstTwoBounds() throws {
        try assertEquivalent(placement("segment s = weekly_hours between 2 and 5"),
                             placement("segment s = weekly_hours >= 2 and weekly_hours <= 5"))
    }

    func testInAgainstOr() throws {
        try assertEquivalent(placement(#"segment s = experience in ["pro", "amateur"]"#),
                             placement(#"segment s = experience == "pro" or experience == "amateur""#))
    }

    func testInliningAndRenaming() throws {
        try assertEquivalent("""
        segment pros = experience == "pro"
        segment busy = weekly_hours >= 10
        segment s = pros and busy
        audience a = s
        placement p {
          a -> flow "yes"
          everyone -> flow "no"
        }
        """, """
        segment dedicated_pros = experience == "pro" and weekly_hours >= 10
        audience renamed = dedicated_pros
        placement p {
          renamed -> flow "yes"
          everyone -> flow "no"
        }
        """)
    }

    func testReorderingDisjointRowsAndRemovingAShadowedRow() throws {
        let segments = """
        segment pros = experience == "pro"
        segment amateurs = experience == "amateur"
        segment pro_or_amateur = experience in ["pro", "amateur"]
        audience pro = pros
        audience amateur = amateurs
        audience either = pro_or_amateur

        """
        try assertEquivalent(segments + """
        placement p {
          pro -> flow "f_pro"
          amateur -> flow "f_amateur"
          either -> flow "f_never"
          everyone -> flow "f_default"
        }
        """, segments + """
        placement p {
          amateur -> flow "f_amateur"
          pro -> flow "f_pro"
          everyone -> flow "f_default"
        }
        """)
    }

    func testReorderingSplitVariants() throws {
        try assertEquivalent(placement("segment s = weekly_hours > 1", rows: """
        a -> split "t" {
            30% -> flow "x"
            70% -> flow "y"
          }
          everyone -> flow "no"
        """), placement("segment s = weekly_hours > 1", rows: """
        a -> split "t" {
            70% -> flow "y"
            30% -> flow "x"
          }
          everyone -> flow "no"
        """))
    }

    func testShippedRulesAgainstThemselves() throws {
        let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Rules").path
        guard case .success(let loaded) = LoadedRules.load(path: rules), let program = loaded.program else { return XCTFail("Rules do not load") }
        let proof = ChangeProof.prove(old: program, new: program, now: Self.now)
        XCTAssertEqual(proof.placements.map(\.status), [.equivalent, .equivalent, .equivalent])
    }

    // MARK: - Changes, each with a counterexample

    func testAThreshold() throws {
        XCTAssertEqual(try moves(placement("segment s = weekly_hours >= 5"), placement("segment s = weekly_hours > 5")),
                       [#"flow "yes" -> flow "no""#])
    }

    func testNotGreaterAgainstAtMostDiffersForAnUnsetValue() throws {
        let proof = try prove(placement("segment s = not (weekly_hours > 5)"), placement("segment s = weekly_hours <= 5"))
        let move = try XCTUnwrap(proof.placements[0].transitions.first)
        XCTAssertEqual(proof.placements[0].transitions.count, 1)
        XCTAssertEqual(move.from, .flow("yes"))
        XCTAssertEqual(move.to, .flow("no"))
        // The profile that tells them apart has no (or no numeric) weekly_hours.
        let profile = try Profile(jsonData: Data(JSONWriter.write(move.witness).utf8))
        XCTAssertNil(profile.customAttributes["weekly_hours"]?.json.numberValue)
    }

    func testIgnoringCase() throws {
        let found = try moves(placement(#"segment s = nickname == "max""#), placement(#"segment s = nickname == "max" ignoring case"#))
        XCTAssertEqual(found, [#"flow "no" -> flow "yes""#])
    }

    func testRelativeDatesAtTheGivenInstant() throws {
        XCTAssertEqual(try moves(placement("segment s = profile.installed_at >= now - 7d"),
                                 placement("segment s = profile.installed_at >= now - 14d")),
                       [#"flow "no" -> flow "yes""#])
    }

    func testPreReleases() throws {
        let proof = try prove(placement(#"segment s = sdk_version >= "5.2.0""#), placement(#"segment s = sdk_version >= "5.2.0-0""#))
        let move = try XCTUnwrap(proof.placements[0].transitions.first)
        let version = try XCTUnwrap(move.witness["custom_attributes"]?["sdk_version"]?.stringValue)
        XCTAssertTrue(version.contains("-"), "a pre-release of 5.2.0 tells them apart, got \(version)")
    }

    func testHasAnyAgainstHasAll() throws {
        let found = try moves(placement(#"segment s = interests has any ["sports", "music"]"#),
                              placement(#"segment s = interests has all ["sports", "music"]"#))
        XCTAssertEqual(found, [#"flow "yes" -> flow "no""#])
    }

    func testSplitWeightsMoveSomeIDs() throws {
        let found = try moves(placement("segment s = weekly_hours > 1", rows: """
        a -> split "t" {
            50% -> flow "x"
            50% -> flow "y"
          }
          everyone -> flow "no"
        """), placement("segment s = weekly_hours > 1", rows: """
        a -> split "t" {
            40% -> flow "x"
            60% -> flow "y"
          }
          everyone -> flow "no"
        """))
        // Same split id: buckets 40–49 move from x to y, and no bucket moves the other way.
        XCTAssertEqual(found, [#"flow "x" -> flow "y""#])
    }

    func testARenamedSplitDrawsAfresh() throws {
        let rows = { (id: String) in """
        a -> split "\(id)" {
            50% -> flow "x"
            50% -> flow "y"
          }
          everyone -> flow "no"
        """ }
        let found = try moves(placement("segment s = weekly_hours > 1", rows: rows("t1")), placement("segment s = weekly_hours > 1", rows: rows("t2")))
        XCTAssertEqual(Set(found), [#"flow "x" -> flow "y""#, #"flow "y" -> flow "x""#])
    }

    func testRemovingEveryone() throws {
        let found = try moves(placement("segment s = weekly_hours > 1"), placement("segment s = weekly_hours > 1", rows: "a -> flow \"yes\""))
        XCTAssertEqual(found, [#"flow "no" -> no match"#])
    }

    func testAddedAndRemovedPlacements() throws {
        let proof = try prove(placement("segment s = weekly_hours > 1"),
                              placement("segment s = weekly_hours > 1").replacingOccurrences(of: "placement p", with: "placement q"))
        XCTAssertEqual(proof.placements.map { "\($0.name): \($0.status.rawValue)" }, ["p: removed", "q: added"])
    }
}
