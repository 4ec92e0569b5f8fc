import XCTest
@testable import TargetingEngine
@testable import TargetingImpact

final class ImpactReportTests: XCTestCase {
    private func decision(_ outcome: Outcome?, audience: String? = "a") -> Decision {
        Decision(placement: "p", profileID: nil, row: outcome == nil ? nil : 0, audience: outcome == nil ? nil : audience, outcome: outcome, split: nil)
    }

    func testTransitionsAreCountedSortedAndExamplesCapped() {
        var report = ImpactReport(oldPlacements: ["p"], newPlacements: ["p"], examplesPerTransition: 2)
        for id in ["u1", "u2", "u3"] {
            report.record(placement: "p", profileID: id, old: decision(.flow("a")), new: decision(.flow("b")))
        }
        report.record(placement: "p", profileID: "u4", old: decision(nil), new: decision(.nothing))
        report.record(placement: "p", profileID: "u5", old: decision(.flow("a")), new: decision(.flow("a"), audience: "other"))
        let impact = report.placements[0]
        XCTAssertEqual(impact.status, "changed")
        XCTAssertEqual(impact.profiles, 5)
        XCTAssertEqual(impact.changed, 4)
        XCTAssertEqual(impact.transitions.map(\.from), ["flow \"a\"", "no match"])
        XCTAssertEqual(impact.transitions.map(\.to), ["flow \"b\"", "nothing"])
        XCTAssertEqual(impact.transitions.map(\.count), [3, 1])
        XCTAssertEqual(impact.transitions[0].examples, ["u1", "u2"])
        XCTAssertTrue(report.hasChanges)
    }

    func testAddedAndRemovedPlacementsCountAsChanges() {
        let report = ImpactReport(oldPlacements: ["kept", "gone"], newPlacements: ["kept", "new"])
        XCTAssertEqual(report.placements.map(\.name), ["kept", "gone", "new"])
        XCTAssertEqual(report.placements.map(\.status), ["unchanged", "removed", "added"])
        XCTAssertTrue(report.hasChanges)
        XCTAssertFalse(ImpactReport(oldPlacements: ["kept"], newPlacements: ["kept"]).hasChanges)
    }
}
