import XCTest
@testable import TargetingEngine
@testable import TargetingImpact

final class ImpactReportTests: XCTestCase {
    private func decision(_ outcome: Outcome?, audience: String? = "a") -> Decision {
        Decision(placement: "p", profileID: nil, row: outcome == nil ? nil : 0, audience: outcome == nil ? nil : audience, outcome: outcome, split: nil)
    }

    func testTransitionsAreCountedSortedAndExamplesCapped() {
        var report = ImpactReport(oldPlacements: ["p"], newPlacements: ["p"], examplesPerTransition: 2, view: .destination)
        for id in ["u1", "u2", "u3"] {
            report.record(placement: "p", profileID: id, old: decision(.flow("a")), new: decision(.flow("b")))
        }
        report.record(placement: "p", profileID: "u4", old: decision(nil), new: decision(.nothing))
        report.record(placement: "p", profileID: "u5", old: decision(.flow("a")), new: decision(.flow("a"), audience: "other"))
        let impact = report.placements[0]
        XCTAssertEqual(impact.status, .changed)
        XCTAssertEqual(impact.profiles, 5)
        XCTAssertEqual(impact.changed, 4)
        XCTAssertEqual(impact.transitions.map(\.from.description), ["flow \"a\"", "no match"])
        XCTAssertEqual(impact.transitions.map(\.to.description), ["flow \"b\"", "nothing"])
        // Sizes: before flow a 4, no match 1; after flow b 3, nothing 1, flow a 1.
        let sizes = Dictionary(uniqueKeysWithValues: impact.sizes.map { ($0.shown.description, ($0.before, $0.after)) })
        XCTAssertEqual(sizes["flow \"a\""]?.0, 4)
        XCTAssertEqual(sizes["flow \"a\""]?.1, 1)
        XCTAssertEqual(sizes["flow \"b\""]?.1, 3)
        XCTAssertEqual(sizes["no match"]?.0, 1)
        XCTAssertEqual(sizes["nothing"]?.1, 1)
        XCTAssertEqual(impact.transitions.map(\.count), [3, 1])
        XCTAssertEqual(impact.transitions[0].examples, ["u1", "u2"])
        XCTAssertTrue(report.hasChanges)
    }

    func testReportsOfConsecutiveRunsMergeIntoTheReportOfTheWholeRun() {
        // Profile i: flow a -> b when i is even, a -> a otherwise; every third has no old match.
        func record(_ range: Range<Int>, into report: inout ImpactReport) {
            for index in range {
                let old = index % 3 == 0 ? decision(nil) : decision(.flow("a"))
                report.record(placement: "p", profileID: "u\(index)", old: old, new: decision(index % 2 == 0 ? .flow("b") : .flow("a")))
            }
        }
        let empty = ImpactReport(oldPlacements: ["p", "gone"], newPlacements: ["p", "new"], examplesPerTransition: 3, view: .destination)
        var whole = empty
        record(0..<20, into: &whole)
        for cuts in [[0, 20], [0, 1, 20], [0, 3, 4, 11, 20], [0, 0, 20, 20]] {
            var merged = empty
            for (start, end) in zip(cuts, cuts.dropFirst()) {
                var part = empty
                record(start..<end, into: &part)
                merged.merge(part)
            }
            XCTAssertEqual(merged.placements.map(\.status), whole.placements.map(\.status), "\(cuts)")
            XCTAssertEqual(merged.placements.map(\.profiles), whole.placements.map(\.profiles), "\(cuts)")
            XCTAssertEqual(merged.placements[0].transitions, whole.placements[0].transitions, "\(cuts)")
            XCTAssertEqual(merged.placements[0].sizes, whole.placements[0].sizes, "\(cuts)")
        }
        XCTAssertEqual(whole.placements.map(\.status), [.changed, .removed, .added])
        XCTAssertEqual(whole.placements[0].transitions.first?.examples, ["u2", "u4", "u8"], "the first examples in corpus order")
        // A part with a change makes the placement changed, whichever part it is.
        var quietFirst = empty
        record(1..<2, into: &quietFirst)
        var changing = empty
        record(2..<3, into: &changing)
        quietFirst.merge(changing)
        XCTAssertEqual(quietFirst.placements[0].status, .changed)
    }

    func testTheRowViewTellsAudiencesAndSplitsApart() {
        let held = Decision(placement: "p", profileID: "u1", row: 0, audience: "fans", outcome: .nothing, split: "hold")
        let quiet = Decision(placement: "p", profileID: "u1", row: 1, audience: "everyone", outcome: .nothing, split: nil)
        var byRow = ImpactReport(oldPlacements: ["p"], newPlacements: ["p"])
        var byDestination = ImpactReport(oldPlacements: ["p"], newPlacements: ["p"], view: .destination)
        for index in 0..<3 {
            byRow.record(placement: "p", profileID: "u\(index)", old: held, new: quiet)
            byDestination.record(placement: "p", profileID: "u\(index)", old: held, new: quiet)
        }
        let impact = byRow.placements[0]
        XCTAssertEqual(impact.status, .changed)
        XCTAssertEqual(impact.changed, 3)
        XCTAssertEqual(impact.transitions.map(\.from.description), ["nothing (audience `fans`, split `hold`)"])
        XCTAssertEqual(impact.transitions.map(\.to.description), ["nothing (audience `everyone`)"])
        XCTAssertEqual(impact.transitions[0].from.audience, "fans")
        XCTAssertEqual(impact.transitions[0].from.split, "hold")
        XCTAssertEqual(impact.sizes.map { [$0.before, $0.after] }, [[0, 3], [3, 0]])
        XCTAssertTrue(byRow.hasChanges)
        // Merged by destination, both are `nothing`: nothing moved.
        XCTAssertEqual(byDestination.placements[0].status, .unchanged)
        XCTAssertEqual(byDestination.placements[0].sizes.map(\.shown.description), ["nothing"])
        XCTAssertNil(byDestination.placements[0].sizes[0].shown.audience)
        XCTAssertFalse(byDestination.hasChanges)
    }

    func testOneSidedPlacementsAreSizedOnTheirSide() {
        var report = ImpactReport(oldPlacements: ["gone"], newPlacements: ["new"], view: .destination)
        report.record(placement: "gone", profileID: "u1", old: decision(.flow("a")), new: nil)
        report.record(placement: "new", profileID: "u1", old: nil, new: decision(nil))
        XCTAssertEqual(report.placements.map(\.status), [.removed, .added])
        XCTAssertEqual(report.placements[0].sizes.map { [$0.before, $0.after] }, [[1, 0]])
        XCTAssertEqual(report.placements[1].sizes.map { [$0.before, $0.after] }, [[0, 1]])
        XCTAssertEqual(report.placements[1].sizes[0].shown.description, "no match")
        XCTAssertTrue(report.placements.allSatisfy { $0.transitions.isEmpty })
    }

    func testAddedAndRemovedPlacementsCountAsChanges() {
        let report = ImpactReport(oldPlacements: ["kept", "gone"], newPlacements: ["kept", "new"])
        XCTAssertEqual(report.placements.map(\.name), ["kept", "gone", "new"])
        XCTAssertEqual(report.placements.map(\.status), [.unchanged, .removed, .added])
        XCTAssertTrue(report.hasChanges)
        XCTAssertFalse(ImpactReport(oldPlacements: ["kept"], newPlacements: ["kept"]).hasChanges)
    }
}
