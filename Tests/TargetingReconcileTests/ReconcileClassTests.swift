import XCTest
@testable import TargetingEngine
@testable import TargetingProfiles
@testable import TargetingReconcile

/// Each class from a line and a prediction built by hand, and the order in which they apply.
final class ReconcileClassTests: XCTestCase {
    private func line(_ id: String = "pw_a", kind: ShownEvent.Kind = .paywall, experiment: String? = nil, variant: String? = nil, heldOut: Bool = false) -> ShownEvent {
        ShownEvent(placement: "main_paywall", kind: kind, id: id, experiment: experiment, variant: variant, heldOut: heldOut, at: 0)
    }

    private func decision(_ outcome: Outcome?, experiment: String? = nil, variant: String? = nil, heldOut: Bool = false) -> Decision {
        Decision(placement: "main_paywall", profileID: "u1",
                 shown: DecisionShown(.init(row: outcome == nil ? nil : 0, audience: outcome == nil ? nil : "a", outcome: outcome, experiment: experiment, variant: variant)),
                 heldOut: heldOut, reportsExperiments: true)
    }

    private func kind(_ shown: ShownEvent, _ prediction: Decision?, known: Bool = true, assigned: String? = nil) -> ReconcileClass {
        ReconcileClass.of(shown, prediction: prediction, isKnownPlacement: known, assignedBefore: assigned)
    }

    func testEachClass() {
        XCTAssertEqual(kind(line(), decision(.paywall("pw_a"))), .match)
        XCTAssertEqual(kind(line(experiment: "e", variant: "v"), decision(.paywall("pw_a"), experiment: "e", variant: "v"), assigned: "v"), .match)
        XCTAssertEqual(kind(line(), decision(.paywall("pw_b"))), .differentDestination)
        XCTAssertEqual(kind(line(kind: .flow), decision(.paywall("pw_a"))), .differentDestination)
        XCTAssertEqual(kind(line(experiment: "e", variant: "v"), decision(.paywall("pw_a"), experiment: "e", variant: "w")), .differentVariant)
        XCTAssertEqual(kind(line(experiment: "e", variant: "v"), decision(.paywall("pw_a"))), .differentVariant)
        XCTAssertEqual(kind(line(), decision(.paywall("pw_a"), experiment: "e", variant: "v")), .differentVariant)
        XCTAssertEqual(kind(line(experiment: "f", variant: "v"), decision(.paywall("pw_a"), experiment: "e", variant: "v")), .differentVariant)
        XCTAssertEqual(kind(line(heldOut: true), decision(.paywall("pw_a"))), .differentVariant)
        XCTAssertEqual(kind(line(), decision(.paywall("pw_a"), heldOut: true)), .differentVariant)
        XCTAssertEqual(kind(line(heldOut: true), decision(.paywall("pw_a"), heldOut: true)), .match)
        XCTAssertEqual(kind(line(experiment: "e", variant: "v"), decision(.paywall("pw_a"), experiment: "e", variant: "v"), assigned: "w"), .variantChangedAfterAssignment)
        XCTAssertEqual(kind(line(experiment: "e", variant: "v"), decision(.paywall("pw_a"), heldOut: true)), .heldOutButShownExperiment)
        XCTAssertEqual(kind(line(experiment: "e", variant: "v", heldOut: true), decision(.paywall("pw_a"), experiment: "e", variant: "v")), .heldOutButShownExperiment)
        XCTAssertEqual(kind(line(), decision(.nothing)), .shownButPredictedNothing)
        XCTAssertEqual(kind(line(), decision(nil)), .shownButPredictedNothing)
        XCTAssertEqual(kind(line(), nil), .shownButPredictedNothing)
        XCTAssertEqual(kind(line(), nil, known: false), .unknownPlacement)
    }

    func testTheFirstClassThatAppliesWins() {
        // Every later class applies too, yet the earlier one is given.
        let everything = line("pw_x", experiment: "e", variant: "v", heldOut: true)
        XCTAssertEqual(kind(everything, decision(.paywall("pw_a"), experiment: "e", variant: "w"), known: false, assigned: "w"), .unknownPlacement)
        XCTAssertEqual(kind(everything, decision(.nothing, heldOut: true), assigned: "w"), .shownButPredictedNothing)
        XCTAssertEqual(kind(everything, decision(.paywall("pw_a"), experiment: "e", variant: "w"), assigned: "w"), .heldOutButShownExperiment)
        let notHeld = line("pw_x", experiment: "e", variant: "v")
        XCTAssertEqual(kind(notHeld, decision(.paywall("pw_a"), experiment: "e", variant: "w"), assigned: "w"), .variantChangedAfterAssignment)
        XCTAssertEqual(kind(notHeld, decision(.paywall("pw_a"), experiment: "e", variant: "w"), assigned: "v"), .differentVariant)
    }

    func testNamesAreTheSpecsAndTheOrderIsItsOrder() {
        XCTAssertEqual(ReconcileClass.allCases.map(\.name), [
            "unknown placement", "shown but predicted nothing", "held out but shown an experiment",
            "variant changed after assignment", "different variant", "different destination", "match",
        ])
    }
}
