import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `diff --prove` settles a placement without a search only when nothing it reads differs:
/// renaming or reordering segments keeps it, a change anywhere below it (however deep), in a
/// split, an experiment or the holdout sends it to the search, which finds the move.
final class ChangeProofUnchangedTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    static let header = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    attribute weekly_hours: number
    attribute plan: string

    """

    private func program(_ text: String, file: StaticString, line: UInt) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: Self.header + text)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics.filter(\.isError)), file: file, line: line)
    }

    /// Whether placement `placement` is settled as unchanged without a search.
    private func isUnchanged(_ old: String, _ new: String, placement: String = "p",
                             file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let before = try program(old, file: file, line: line), after = try program(new, file: file, line: line)
        let graph = ConditionGraph([before, after])
        let oldIndex = try XCTUnwrap(before.placementIndex(named: placement), file: file, line: line)
        let newIndex = try XCTUnwrap(after.placementIndex(named: placement), file: file, line: line)
        return ChangeProof.isUnchanged(old: (before, oldIndex), new: (after, newIndex), graph: graph, canonical: graph.canonicalIDs())
    }

    /// The proof of placement `p`, after checking that every witness moves as claimed.
    private func proof(_ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws -> ChangeProof.Placement {
        let before = try program(old, file: file, line: line), after = try program(new, file: file, line: line)
        let proof = ChangeProof.prove(old: before, new: after, now: Self.now)
        let placement = try XCTUnwrap(proof.placements.first { $0.name == "p" }, file: file, line: line)
        for move in placement.transitions {
            let text = JSONWriter.write(move.witness)
            let profile = try Profile(jsonData: Data(text.utf8))
            let from = try before.decide(placement: XCTUnwrap(before.placementIndex(named: "p")), for: profile, now: Self.now).get()
            let to = try after.decide(placement: XCTUnwrap(after.placementIndex(named: "p")), for: profile, now: Self.now).get()
            XCTAssertEqual(ChangeProof.Seen(from), move.before, "OLD of \(text)", file: file, line: line)
            XCTAssertEqual(ChangeProof.Seen(to), move.after, "NEW of \(text)", file: file, line: line)
            XCTAssertNotEqual(move.before, move.after, file: file, line: line)
        }
        return placement
    }

    /// Asserts the placement is not settled without a search and that the search finds a move.
    private func assertChangedBySearch(_ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(try isUnchanged(old, new, file: file, line: line), "settled without a search", file: file, line: line)
        let placement = try proof(old, new, file: file, line: line)
        XCTAssertEqual(placement.status, .changed, file: file, line: line)
        XCTAssertFalse(placement.transitions.isEmpty, file: file, line: line)
    }

    static let layered = """
    segment keen = weekly_hours > 5
    segment expert = experience == "pro"
    segment serious = keen or expert
    segment paying = plan == "gold"
    segment target = serious and paying
    audience a = target
    placement p {
      a -> flow "yes"
      everyone -> flow "no"
    }

    """

    func testRenamedAndReorderedSegmentsAreUnchanged() throws {
        let renamed = """
        segment gold = plan == "gold"
        segment pro = experience == "pro"
        segment hours = weekly_hours > 5
        segment committed = pro or hours
        segment both = gold and committed
        audience a = both
        placement p {
          a -> flow "yes"
          everyone -> flow "no"
        }

        """
        XCTAssertTrue(try isUnchanged(Self.layered, renamed))
        XCTAssertEqual(try proof(Self.layered, renamed).status, .equivalent)
    }

    func testARenamedAudienceAndAnUnrelatedPlacementAreUnchanged() throws {
        let new = Self.layered.replacingOccurrences(of: "audience a = target", with: "audience b = target")
            .replacingOccurrences(of: "  a -> flow", with: "  b -> flow")
            + "placement q {\n  everyone -> flow \"other\"\n}\n"
        XCTAssertTrue(try isUnchanged(Self.layered, new))
    }

    func testAChangeTwoSegmentsDownIsSearched() throws {
        let new = Self.layered.replacingOccurrences(of: "weekly_hours > 5", with: "weekly_hours > 6")
        try assertChangedBySearch(Self.layered, new)
    }

    func testAChangedDestinationOrRowOrderIsSearched() throws {
        try assertChangedBySearch(Self.layered, Self.layered.replacingOccurrences(of: "flow \"yes\"", with: "flow \"yes2\""))
        let twoRows = Self.layered.replacingOccurrences(of: "audience a = target", with: "audience a = target\naudience b = expert")
            .replacingOccurrences(of: "  a -> flow \"yes\"", with: "  a -> flow \"yes\"\n  b -> flow \"expert\"")
        let swapped = twoRows.replacingOccurrences(of: "  a -> flow \"yes\"\n  b -> flow \"expert\"",
                                                   with: "  b -> flow \"expert\"\n  a -> flow \"yes\"")
        XCTAssertTrue(try isUnchanged(twoRows, twoRows))
        try assertChangedBySearch(twoRows, swapped)
    }

    static func split(_ first: Int, id: String = "t") -> String {
        """
        segment keen = weekly_hours > 5
        audience a = keen
        placement p {
          a -> split "\(id)" {
            \(first)% -> flow "x"
            \(100 - first)% -> flow "y"
          }
          everyone -> flow "no"
        }

        """
    }

    func testSplitsSettledOnlyWhenTheyDrawAlike() throws {
        XCTAssertTrue(try isUnchanged(Self.split(30), Self.split(30)))
        try assertChangedBySearch(Self.split(30), Self.split(40))
        try assertChangedBySearch(Self.split(30), Self.split(30, id: "t2"))
    }

    static func experiment(_ variants: String, holdout: String = "", always: Bool = false) -> String {
        """
        experiment pricing by profile.customer_user_id {
        \(variants)
        }
        segment keen = weekly_hours > 5
        segment light = weekly_hours > 2
        audience a = keen
        audience b = light
        placement p {
          a -> pricing {
            control  -> flow "x"
            discount -> flow "y"
          }
          \(always ? "always " : "")b -> flow "light"
          everyone -> flow "no"
        }
        \(holdout)

        """
    }

    static let evenSplit = "  50% control\n  50% discount"

    func testExperimentsSettledOnlyWhenTheyDrawAlike() throws {
        XCTAssertTrue(try isUnchanged(Self.experiment(Self.evenSplit), Self.experiment(Self.evenSplit)))
        try assertChangedBySearch(Self.experiment(Self.evenSplit), Self.experiment("  30% control\n  70% discount"))
        let renamed = Self.experiment(Self.evenSplit).replacingOccurrences(of: "discount", with: "promo")
        try assertChangedBySearch(Self.experiment(Self.evenSplit), renamed)
    }

    func testTheHoldoutIsSettledOnlyWhenItIsTheSame() throws {
        let held = Self.experiment(Self.evenSplit, holdout: "holdout q4 5%")
        XCTAssertTrue(try isUnchanged(held, held))
        try assertChangedBySearch(Self.experiment(Self.evenSplit), held)
        try assertChangedBySearch(held, Self.experiment(Self.evenSplit, holdout: "holdout q4 20%"))
        try assertChangedBySearch(held, Self.experiment(Self.evenSplit, holdout: "holdout q5 5%"))
        try assertChangedBySearch(held, Self.experiment(Self.evenSplit, holdout: "holdout q4 5% by profile.customer_user_id"))
        try assertChangedBySearch(held, Self.experiment(Self.evenSplit, holdout: "holdout q4 5%", always: true))
        // Not covered on either side: the holdout does not reach the placement.
        XCTAssertTrue(try isUnchanged(Self.experiment(Self.evenSplit, holdout: "holdout q4 5% except p"),
                                      Self.experiment(Self.evenSplit, holdout: "holdout q4 20% except p")))
    }
}
