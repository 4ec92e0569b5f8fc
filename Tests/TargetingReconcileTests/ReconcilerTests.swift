import Foundation
import TargetingBase
import TargetingEngine
import TargetingBatch
import TargetingTestSupport
import XCTest
@testable import TargetingReconcile

/// The replay: answers, built-in fields and earlier shown lines reach the prediction of a later
/// line (caps count earlier showings, a sticky assignment recorded by an earlier line decides),
/// never the line itself; bad lines are rejected as `ingest` rejects them.
final class ReconcilerTests: TemporaryDirectoryTestCase {
    static let rules = """
    segment recent = profile.installed_at >= now - 30d
    segment pros = experience == "pro"
    segment busy = shown main_paywall in 1d >= 2
    audience new_users = recent
    audience pro_users = pros
    audience over_cap = busy
    experiment pricing sticky 30d {
      50% control
      50% discount
    }
    placement main_paywall {
      over_cap -> nothing
      new_users -> pricing {
        control -> paywall "pw_a"
        discount -> paywall "pw_b"
      }
      everyone -> paywall "pw_standard"
    }
    placement onboarding {
      pro_users -> flow "flow_pro"
      everyone -> flow "flow_default"
    }

    """

    static let pricing: [(weight: Int, name: String)] = [(50, "control"), (50, "discount")]

    /// A `placement_shown` line.
    static func shown(_ profile: String, _ placement: String, _ kind: String, _ id: String, _ at: String, experiment: (String, String)? = nil, heldOut: Bool = false) -> String {
        var line = #"{"profile_id":"\#(profile)","name":"placement_shown","placement":"\#(placement)","kind":"\#(kind)","id":"\#(id)""#
        if let experiment { line += #","experiment":"\#(experiment.0)","variant":"\#(experiment.1)""# }
        return line + #","held_out":\#(heldOut),"at":"\#(at)"}"#
    }

    private func reconcile(_ lines: [String], rules: String = ReconcilerTests.rules) -> (ReconcileReport, [Diagnostic], rejected: Int) {
        let (reconciler, reported) = replay(lines, rules: rules)
        return (reconciler.report, reported, reconciler.rejected)
    }

    private func replay(_ lines: [String], rules: String = ReconcilerTests.rules, explaining: String? = nil) -> (Reconciler, [Diagnostic]) {
        let path = directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        var reconciler = Reconciler(program: checkedProgram(rules), timeZone: TimeZone(identifier: "UTC")!, zoneName: "UTC", explaining: explaining)
        var reader = LineChunkReader(path: path)!
        var reported: [Diagnostic] = []
        reconciler.replay(&reader, report: { reported.append($0) })
        return (reconciler, reported)
    }

    private func classes(_ report: ReconcileReport, _ placement: String) -> [String: Int] {
        guard let found = report.placements.first(where: { $0.placement == placement }) else { return [:] }
        var counts: [String: Int] = [:]
        for kind in ReconcileClass.allCases where found.count(kind) > 0 { counts[kind.name] = found.count(kind) }
        return counts
    }

    func testAnswersAndEarlierShowingsReachTheNextPrediction() {
        let variant = ReferenceDraw.variant("pricing", "u1", Self.pricing)
        let paywall = variant == "control" ? "pw_a" : "pw_b"
        let (report, reported, rejected) = reconcile([
            #"{"profile_id":"u1","name":"profile_updated","fields":{"installed_at":"2026-11-28T00:00:00Z"}}"#,
            Self.shown("u1", "main_paywall", "paywall", paywall, "2026-11-28T10:00:00Z", experiment: ("pricing", variant)),
            Self.shown("u1", "main_paywall", "paywall", paywall, "2026-11-28T11:00:00Z", experiment: ("pricing", variant)),
            // Two showings in the day before: the cap says nothing.
            Self.shown("u1", "main_paywall", "paywall", paywall, "2026-11-28T12:00:00Z", experiment: ("pricing", variant)),
            Self.shown("u1", "onboarding", "flow", "flow_pro", "2026-11-28T12:05:00Z"),
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["pro"]}"#,
            Self.shown("u1", "onboarding", "flow", "flow_pro", "2026-11-28T12:10:00Z"),
        ])
        XCTAssertEqual(reported.count, 0, "\(reported)")
        XCTAssertEqual(rejected, 0)
        XCTAssertEqual(classes(report, "main_paywall"), ["match": 2, "shown but predicted nothing": 1])
        XCTAssertEqual(classes(report, "onboarding"), ["match": 1, "different destination": 1])
        XCTAssertEqual(report.shown, 5)
        XCTAssertEqual(report.mismatches, 2)
        XCTAssertFalse(report.allMatch)
        let onboarding = report.placements[1]
        let example = onboarding.examples[ReconcileClass.differentDestination.rawValue]
        XCTAssertEqual(example.map(\.profileID), ["u1"])
        XCTAssertEqual(example.map(\.at), [Timestamp.parse("2026-11-28T12:05:00Z")!])
        XCTAssertEqual(example.map(\.line), [5])
        XCTAssertEqual(example.first?.prediction.outcome, ReconcileOutcome(destination: .flow("flow_default")))
        XCTAssertEqual(example.first.map { ReconcileOutcome($0.shown) }, ReconcileOutcome(destination: .flow("flow_pro")))
        XCTAssertEqual(onboarding.examples[ReconcileClass.match.rawValue], [])
    }

    func testAStickyAssignmentFromAnEarlierLineDecidesAndAChangeIsReported() {
        // u2 is no new user: the rules show the default, but the app showed the experiment.
        let (report, _, _) = reconcile([
            Self.shown("u2", "main_paywall", "paywall", "pw_standard", "2026-11-20T10:00:00Z", experiment: ("pricing", "control")),
            // The assignment sticks: the rules now give control's paywall whatever the audience.
            Self.shown("u2", "main_paywall", "paywall", "pw_a", "2026-11-22T10:00:00Z", experiment: ("pricing", "control")),
            Self.shown("u2", "main_paywall", "paywall", "pw_b", "2026-11-24T10:00:00Z", experiment: ("pricing", "discount")),
        ])
        XCTAssertEqual(classes(report, "main_paywall"), ["different variant": 1, "match": 1, "variant changed after assignment": 1])
        // The first assignment counts once for the sample-ratio check; the later variant never.
        XCTAssertEqual(report.experiments.map { $0.variants.map(\.assigned) }, [[1, 0]])
    }

    func testUnknownPlacementsFollowTheDeclaredOnesInTheOrderSeen() {
        let (report, _, _) = reconcile([
            Self.shown("u3", "zeta", "flow", "f", "2026-11-28T10:00:00Z"),
            Self.shown("u3", "onboarding", "flow", "flow_default", "2026-11-28T10:00:00Z"),
            Self.shown("u3", "alpha", "flow", "f", "2026-11-28T10:00:00Z"),
            Self.shown("u4", "zeta", "flow", "f", "2026-11-28T10:00:00Z"),
        ])
        XCTAssertEqual(report.placements.map(\.placement), ["main_paywall", "onboarding", "zeta", "alpha"])
        XCTAssertEqual(report.placements.map(\.isDeclared), [true, true, false, false])
        XCTAssertEqual(classes(report, "zeta"), ["unknown placement": 2])
        XCTAssertEqual(classes(report, "onboarding"), ["match": 1])
        XCTAssertEqual(report.placements[0].shown, 0)
    }

    func testExamplesAreTheFirstThreeOfEachClass() {
        let lines = (0..<5).map { Self.shown("p\($0)", "onboarding", "flow", "flow_pro", "2026-11-28T10:0\($0):00Z") }
        let (report, _, _) = reconcile(lines)
        let examples = report.placements[1].examples[ReconcileClass.differentDestination.rawValue]
        XCTAssertEqual(examples.map(\.profileID), ["p0", "p1", "p2"])
        XCTAssertEqual(report.placements[1].count(.differentDestination), 5)
    }

    func testAHeldOutProfileShownAnExperiment() {
        let rules = Self.rules + "holdout everybody 100%\n"
        let (report, _, _) = reconcile([
            Self.shown("u5", "main_paywall", "paywall", "pw_a", "2026-11-28T10:00:00Z", experiment: ("pricing", "control")),
            Self.shown("u5", "main_paywall", "paywall", "pw_standard", "2026-11-28T11:00:00Z", heldOut: true),
            Self.shown("u5", "onboarding", "flow", "flow_default", "2026-11-28T11:00:00Z"),
        ], rules: rules)
        XCTAssertEqual(classes(report, "main_paywall"), ["held out but shown an experiment": 1, "match": 1])
        XCTAssertEqual(classes(report, "onboarding"), ["different variant": 1])
    }

    func testBadLinesAreRejectedAsIngestRejectsThemAndTheRestReplayed() {
        let good = Self.shown("u6", "onboarding", "flow", "flow_default", "2026-11-28T10:00:00Z")
        let (report, reported, rejected) = reconcile([
            good.replacingOccurrences(of: #""kind":"flow""#, with: #""kind":"banner""#),
            "{not json",
            good,
        ])
        XCTAssertEqual(rejected, 2)
        XCTAssertEqual(reported.count, 2)
        XCTAssertEqual(reported.first?.message, "profile `u6`: `kind` must be `flow` or `paywall`, found `banner`")
        XCTAssertEqual(reported.first?.line, 1)
        XCTAssertEqual(classes(report, "onboarding"), ["match": 1])
    }

    func testTheSampleRatioCountsFirstAssignmentsPerVariant() {
        var lines: [String] = []
        var expected = ["control": 0, "discount": 0]
        for index in 0..<40 {
            let id = "s\(index)"
            let variant = ReferenceDraw.variant("pricing", id, Self.pricing)
            expected[variant, default: 0] += 1
            lines.append(#"{"profile_id":"\#(id)","name":"profile_updated","fields":{"installed_at":"2026-11-28T00:00:00Z"}}"#)
            lines.append(Self.shown(id, "main_paywall", "paywall", variant == "control" ? "pw_a" : "pw_b", "2026-11-28T10:00:00Z", experiment: ("pricing", variant)))
        }
        lines.append(Self.shown("s0", "main_paywall", "paywall", "pw_b", "2026-11-28T10:30:00Z", experiment: ("pricing", "other")))
        lines.append(Self.shown("t0", "main_paywall", "paywall", "pw_b", "2026-11-28T10:30:00Z", experiment: ("pricing", "other")))
        let (report, _, _) = reconcile(lines)
        let check = report.experiments[0]
        XCTAssertEqual(check.variants.map(\.name), ["control", "discount", "other"])
        XCTAssertEqual(check.variants.map(\.assigned), [expected["control"]!, expected["discount"]!, 1])
        XCTAssertEqual(check.variants.map(\.isDeclared), [true, true, false])
        XCTAssertEqual(classes(report, "main_paywall")["match"], 40)
    }

    func testExamplesKeepWhatTheRulesPredictedAndWhatWasShown() {
        let variant = ReferenceDraw.variant("pricing", "u7", Self.pricing)
        let other = variant == "control" ? "discount" : "control"
        let (report, _, _) = reconcile([
            #"{"profile_id":"u7","name":"profile_updated","fields":{"installed_at":"2026-11-28T00:00:00Z"}}"#,
            Self.shown("u7", "main_paywall", "paywall", "pw_x", "2026-11-28T10:00:00Z", experiment: ("pricing", other)),
            Self.shown("u8", "main_paywall", "paywall", "pw_standard", "2026-11-28T10:00:00Z"),
            Self.shown("u8", "main_paywall", "paywall", "pw_standard", "2026-11-28T10:01:00Z"),
            // Two showings within a day: the cap row shows nothing.
            Self.shown("u8", "main_paywall", "paywall", "pw_standard", "2026-11-28T10:02:00Z"),
            Self.shown("u9", "gone", "flow", "f", "2026-11-28T10:00:00Z", heldOut: true),
        ])
        let paywall = report.placements[0]
        guard let drawn = paywall.examples[ReconcileClass.differentVariant.rawValue].first,
              let capped = paywall.examples[ReconcileClass.shownButPredictedNothing.rawValue].first,
              let unknown = report.placements[2].examples[ReconcileClass.unknownPlacement.rawValue].first else {
            return XCTFail("\(report)")
        }
        XCTAssertEqual(drawn.prediction.outcome, ReconcileOutcome(destination: .paywall(variant == "control" ? "pw_a" : "pw_b"), experiment: "pricing", variant: variant))
        XCTAssertEqual(ReconcileOutcome(drawn.shown), ReconcileOutcome(destination: .paywall("pw_x"), experiment: "pricing", variant: other))
        XCTAssertEqual(capped.prediction.decision?.audience, "over_cap")
        XCTAssertEqual(capped.prediction.outcome, ReconcileOutcome(destination: .nothing))
        XCTAssertEqual(capped.line, 5)
        XCTAssertEqual(unknown.prediction, .unknownPlacement)
        XCTAssertNil(unknown.prediction.outcome)
        XCTAssertEqual(ReconcileOutcome(unknown.shown), ReconcileOutcome(destination: .flow("f"), heldOut: true))
    }

    func testTheTraceFollowsOneProfileWithTheExplanationOfEachDecision() {
        let lines = [
            Self.shown("u1", "onboarding", "flow", "flow_default", "2026-11-28T10:00:00Z"),
            Self.shown("u2", "onboarding", "flow", "flow_default", "2026-11-28T10:00:00Z"),
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["pro"]}"#,
            Self.shown("u1", "onboarding", "flow", "flow_default", "2026-11-28T10:05:00Z"),
            Self.shown("u1", "gone", "flow", "f", "2026-11-28T10:06:00Z"),
        ]
        let (reconciler, _) = replay(lines, explaining: "u1")
        guard let trace = reconciler.trace else { return XCTFail("no trace") }
        XCTAssertTrue(trace.isKnown)
        XCTAssertEqual(trace.profileID, "u1")
        XCTAssertEqual(trace.entries.map(\.line.line), [1, 4, 5])
        XCTAssertEqual(trace.entries.map(\.line.kind), [.match, .differentDestination, .unknownPlacement])
        XCTAssertEqual(trace.mismatches, 2)
        // Each explanation is of the decision the line was classified against, made with the
        // answer given between the lines.
        XCTAssertEqual(trace.entries[0].explanation?.decision, trace.entries[0].line.prediction.decision)
        XCTAssertEqual(trace.entries[0].explanation?.rows.map(\.decided), [false, true])
        XCTAssertEqual(trace.entries[1].explanation?.decision, trace.entries[1].line.prediction.decision)
        XCTAssertEqual(trace.entries[1].explanation?.decision.audience, "pro_users")
        XCTAssertEqual(trace.entries[1].explanation?.rows.map(\.decided), [true, false])
        XCTAssertNil(trace.entries[2].explanation)
        // A profile named only by an answer is known, with no shown line; one no line names is not.
        let answered = replay([lines[2]], explaining: "u1").0.trace
        XCTAssertEqual(answered?.isKnown, true)
        XCTAssertEqual(answered?.entries.count, 0)
        XCTAssertEqual(replay(lines, explaining: "u3").0.trace?.isKnown, false)
        XCTAssertNil(replay(lines).0.trace)
    }
}
