import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// Caps and sticky experiments in evaluation: counts in rolling windows with exact bounds,
/// the latest instant, sticky assignments deciding whatever the audience, and the tree
/// evaluator and the flat code agreeing on random histories.
final class HistoryEvaluationTests: XCTestCase {
    static let day: Int64 = 86_400_000
    /// 2026-12-01T00:00:00Z.
    static let now: Int64 = 1_796_083_200_000

    static let rules = """
    segment capped = shown main_paywall in 7d < 3
    segment never = shown main_paywall == 0
    segment ever = shown main_paywall >= 1
    segment rested = last shown main_paywall <= now - 3d
    segment seen = last shown onboarding is set
    segment unseen = last shown onboarding is not set
    segment hourly = shown onboarding in 1h > 0
    segment newbie = profile.installed_at >= now - 7d
    audience newbies = newbie
    audience cap_ok = capped and ever
    audience fresh = never
    audience rest = rested
    audience seen_onboarding = seen and not hourly
    audience new_to_onboarding = unseen
    experiment pricing sticky 30d {
      50% control
      50% discount
    }
    experiment plain {
      50% a
      50% b
    }
    placement main_paywall {
      newbies -> pricing {
        control  -> paywall "pw_standard"
        discount -> paywall "pw_discount"
      }
      fresh -> paywall "pw_first"
      cap_ok -> paywall "pw_again"
      rest -> paywall "pw_rested"
      everyone -> paywall "pw_default"
    }
    placement onboarding {
      new_to_onboarding -> flow "intro"
      seen_onboarding -> pricing {
        control  -> flow "onb_control"
        discount -> flow "onb_discount"
      }
      everyone -> plain {
        a -> flow "fa"
        b -> flow "fb"
      }
    }
    """

    private func profile(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> Profile {
        switch ProfileReader.read(Array(json.utf8)) {
        case .success(let profile): return profile
        case .failure(let error):
            XCTFail(error.message, file: file, line: line)
            return Profile()
        }
    }

    /// A profile whose history shows `main_paywall` at `instants` (Unix ms).
    private func shown(_ instants: [Int64], id: String = "u1", installed: String = "2026-01-01T00:00:00Z") -> Profile {
        let list = instants.map { "\"\(Timestamp.format($0))\"" }.joined(separator: ",")
        return profile(#"{"id":"\#(id)","installed_at":"\#(installed)","history":{"shown":{"main_paywall":[\#(list)]}}}"#)
    }

    private func segment(_ name: String, _ profile: Profile, program: Program, now: Int64 = now) -> Bool {
        var evaluator = Evaluator(program: program, profile: profile, now: now)
        let index = program.ruleSet.segments.firstIndex { $0.name.text == name }!
        return evaluator.segmentMatches(index)
    }

    /// Both evaluators' decision, asserted equal.
    private func decide(_ placement: String, _ profile: Profile, program: Program, now: Int64 = now,
                        file: StaticString = #filePath, line: UInt = #line) -> Decision? {
        let index = program.placementIndex(named: placement)!
        var evaluator = Evaluator(program: program, profile: profile, now: now)
        let tree = try? evaluator.resolve(placement: index, profileID: profile.id).get()
        let flat = try? program.decide(placement: index, for: profile, now: now).get()
        XCTAssertEqual(tree, flat, "tree and flat differ for \(profile.json)", file: file, line: line)
        return flat
    }

    func testTheWindowIsOpenAtNowMinusDurationAndClosedAtNow() {
        let program = checkedProgram(Self.rules)
        let now = Self.now, week = 7 * Self.day
        let history = shown([now - week, now - week + 1, now, now + 1])
        // now − 7d is outside, now − 7d + 1 ms and now inside, after now outside: 2 in the window.
        XCTAssertEqual(program.slots.first { $0.target == .shownCount(placements: ["main_paywall"], window: week) }?
            .read(from: history, now: now), .number(2))
        XCTAssertEqual(ProfileHistory.read(history.history!.json).map { $0.count(of: "main_paywall", window: week, now: now) }, .success(2))
        XCTAssertTrue(segment("capped", history, program: program))
        XCTAssertFalse(segment("capped", shown([now - week + 1, now - 1, now]), program: program))
        XCTAssertTrue(segment("capped", shown([now - week, now - week - 1, now + 1, now + 2]), program: program))
        // Without a window every kept instant counts, the future ones too.
        XCTAssertEqual(program.slots.first { $0.target == .shownCount(placements: ["main_paywall"], window: nil) }?
            .read(from: history, now: now), .number(4))
    }

    func testNoHistoryIsACountOfZeroAndNoLastInstant() {
        let program = checkedProgram(Self.rules)
        let none = profile(#"{"id":"u1"}"#)
        XCTAssertTrue(segment("capped", none, program: program))
        XCTAssertTrue(segment("never", none, program: program))
        XCTAssertFalse(segment("ever", none, program: program))
        XCTAssertFalse(segment("seen", none, program: program))
        XCTAssertTrue(segment("unseen", none, program: program))
        XCTAssertFalse(segment("rested", none, program: program))
        XCTAssertEqual(decide("main_paywall", none, program: program)?.outcome, .paywall("pw_first"))
    }

    func testLastShownIsTheLatestKeptInstant() {
        let program = checkedProgram(Self.rules)
        let now = Self.now
        XCTAssertTrue(segment("rested", shown([now - 10 * Self.day, now - 3 * Self.day]), program: program))
        XCTAssertFalse(segment("rested", shown([now - 10 * Self.day, now - 3 * Self.day + 1]), program: program))
        XCTAssertEqual(decide("main_paywall", shown([now - 10 * Self.day, now - 4 * Self.day, now - 5 * Self.day, now - 6 * Self.day]),
                              program: program)?.outcome, .paywall("pw_rested"))
    }

    func testAStickyAssignmentDecidesWhateverTheAudienceUntilItExpires() throws {
        let program = checkedProgram(Self.rules)
        let now = Self.now
        func assigned(_ variant: String, at: Int64, installed: String = "2026-01-01T00:00:00Z") -> Profile {
            profile(#"{"id":"u1","installed_at":"\#(installed)","history":{"assigned":{"pricing":{"variant":"\#(variant)","at":"\#(Timestamp.format(at))"}}}}"#)
        }
        // No longer a new user, still assigned: the row matches anyway.
        let kept = try XCTUnwrap(decide("main_paywall", assigned("discount", at: now - 29 * Self.day), program: program))
        XCTAssertEqual(kept.outcome, .paywall("pw_discount"))
        XCTAssertEqual(kept.audience, "newbies")
        XCTAssertEqual(kept.variant, "discount")
        XCTAssertTrue(kept.isSticky)
        XCTAssertTrue(kept.jsonLine.hasSuffix(#","held_out":false,"sticky":true}"#), kept.jsonLine)
        XCTAssertEqual(JSONWriter.write(kept.json), kept.jsonLine)
        // Rows above still decide first: never shown the onboarding, the first row takes the profile.
        let base = assigned("control", at: now - Self.day)
        XCTAssertEqual(decide("onboarding", base, program: program)?.outcome, .flow("intro"))
        XCTAssertEqual(decide("onboarding", base, program: program)?.isSticky, false)
        // Once it was shown, the same assignment decides in this placement too.
        var withHistory = base
        withHistory.history?.recordShown("onboarding", at: now - 10 * Self.day)
        let onboarding = try XCTUnwrap(decide("onboarding", withHistory, program: program))
        XCTAssertEqual(onboarding.outcome, .flow("onb_control"))
        XCTAssertTrue(onboarding.isSticky)
        // Expired: `at` must be after now − 30d; exactly then is too old. The row draws as before.
        let expired = try XCTUnwrap(decide("main_paywall", assigned("discount", at: now - 30 * Self.day), program: program))
        XCTAssertFalse(expired.isSticky)
        XCTAssertEqual(expired.outcome, .paywall("pw_first"))
        XCTAssertFalse(expired.jsonLine.contains("sticky"))
        XCTAssertEqual(decide("main_paywall", assigned("discount", at: now - 30 * Self.day + 1), program: program)?.isSticky, true)
        // A variant the experiment does not have: as if there were none.
        let unknown = try XCTUnwrap(decide("main_paywall", assigned("gone", at: now - Self.day), program: program))
        XCTAssertFalse(unknown.isSticky)
        XCTAssertEqual(unknown.outcome, .paywall("pw_first"))
        // A new user without an assignment draws, not sticky.
        let drawn = try XCTUnwrap(decide("main_paywall", shown([], installed: "2026-11-30T00:00:00Z"), program: program))
        XCTAssertNotNil(drawn.variant)
        XCTAssertFalse(drawn.isSticky)
        // A non-sticky experiment ignores assignments.
        let plain = profile(#"{"id":"u1","history":{"shown":{"onboarding":["2026-11-30T23:30:00Z"]},"assigned":{"plain":{"variant":"a","at":"2026-11-30T00:00:00Z"}}}}"#)
        XCTAssertFalse(decide("onboarding", plain, program: program)?.isSticky ?? true)
    }

    func testAHeldOutProfileIsNotStuck() throws {
        let program = checkedProgram(Self.rules.replacingOccurrences(of: "experiment plain", with: "holdout h 100%\nexperiment plain"))
        let held = profile(#"{"id":"u1","history":{"assigned":{"pricing":{"variant":"discount","at":"2026-11-30T00:00:00Z"}}}}"#)
        let decision = try XCTUnwrap(decide("main_paywall", held, program: program))
        XCTAssertTrue(decision.heldOut)
        XCTAssertFalse(decision.isSticky)
        XCTAssertEqual(decision.outcome, .paywall("pw_default"))
    }

    func testAHeldOutProfileDrawsOnAStickyEveryoneRow() throws {
        let rules = Self.rules.replacingOccurrences(of: "experiment plain {", with: "holdout h 100%\nexperiment plain sticky 30d {")
        let program = checkedProgram(rules)
        // `plain` draws `a` for u4 (`targeting bucket plain --id u4`); the history assigned `b`.
        let held = profile(#"{"id":"u4","history":{"shown":{"onboarding":["2026-11-30T23:30:00Z"]},"assigned":{"plain":{"variant":"b","at":"2026-11-30T00:00:00Z"}}}}"#)
        for decision in [try XCTUnwrap(decide("onboarding", held, program: program)), program.decideAll(for: held, now: Self.now)[1]] {
            XCTAssertTrue(decision.heldOut)
            XCTAssertFalse(decision.isSticky)
            XCTAssertEqual(decision.audience, "everyone")
            XCTAssertEqual(decision.variant, "a")
            XCTAssertEqual(decision.outcome, .flow("fa"))
        }
        // Without the holdout the assignment decides.
        let unheld = checkedProgram(rules.replacingOccurrences(of: "holdout h 100%", with: ""))
        XCTAssertTrue(try XCTUnwrap(decide("onboarding", held, program: unheld)).isSticky)
        XCTAssertEqual(decide("onboarding", held, program: unheld)?.outcome, Outcome.flow("fb"))
    }

    func testAHeldOutProfileDrawsAtAnEveryoneRowOfAStickyExperiment() throws {
        let program = checkedProgram("""
        experiment pricing by profile.customer_user_id sticky 30d {
          50% control
          50% discount
        }
        holdout h 100%
        placement main_paywall {
          everyone -> pricing {
            control  -> paywall "pw_standard"
            discount -> paywall "pw_discount"
          }
        }
        """)
        let assigned = #""history":{"assigned":{"pricing":{"variant":"discount","at":"2026-11-30T00:00:00Z"}}}"#
        // Without the experiment's key the held-out profile does not enter the row: the assignment does not take it.
        let keyless = try XCTUnwrap(decide("main_paywall", profile(#"{"id":"u1","#+assigned+"}"), program: program))
        XCTAssertTrue(keyless.heldOut)
        XCTAssertFalse(keyless.isSticky)
        XCTAssertNil(keyless.outcome)
        // With it, the variant is drawn: the one the draw gives, whatever was assigned.
        for key in ["c1", "c2", "c3", "c4"] {
            let drawn = try XCTUnwrap(decide("main_paywall", profile(#"{"id":"u1","customer_user_id":"\#(key)","#+assigned+"}"), program: program))
            XCTAssertTrue(drawn.heldOut)
            XCTAssertFalse(drawn.isSticky)
            let bucket = SplitDraw.bucket(splitID: "pricing", profileID: key)
            XCTAssertEqual(drawn.variant, bucket < 50 ? "control" : "discount", key)
        }
    }

    func testTheExplanationNamesTheAssignment() throws {
        let ruleSet = try RuleSet(source: Self.rules, fileName: "h.rules")
        let profile = profile(#"{"id":"u1","installed_at":"2026-01-01T00:00:00Z","history":{"assigned":{"pricing":{"variant":"discount","at":"2026-11-20T09:00:00Z"}}}}"#)
        let explanation = try ruleSet.explain("main_paywall", for: profile, at: Date(timeIntervalSince1970: Double(Self.now) / 1000))
        XCTAssertEqual(explanation.rows[0].draw, "sticky: assigned discount at 2026-11-20T09:00:00Z (sticky 30d)")
        XCTAssertTrue(explanation.rows[0].decided)
        XCTAssertTrue(explanation.description.contains("1. newbies -> pricing: decided (sticky: assigned discount at 2026-11-20T09:00:00Z (sticky 30d))"),
                      explanation.description)
        XCTAssertTrue(explanation.decision.isSticky)
    }

    func testTheTwoEvaluatorsAgreeOnRandomHistories() {
        let program = checkedProgram(Self.rules)
        var generator = SystemRandomNumberGenerator()
        let placements = ["main_paywall", "onboarding", "elsewhere"]
        let variants = ["control", "discount", "other"]
        var compared = 0
        for index in 0..<1_500 {
            let now = Self.now + Int64.random(in: -Self.day...Self.day, using: &generator)
            var shown: [String] = []
            for placement in placements where Bool.random(using: &generator) {
                let count = Int.random(in: 0...12, using: &generator)
                let instants = (0..<count).map { _ -> String in
                    // Around the window bounds: exactly on them, a millisecond either side, or anywhere.
                    let anchors: [Int64] = [now, now - 7 * Self.day, now - 3 * Self.day, now - Self.day / 24, now - 40 * Self.day]
                    let at = anchors.randomElement(using: &generator)! + [-1, 0, 1, Int64.random(in: -5 * Self.day...Self.day, using: &generator)].randomElement(using: &generator)!
                    return "\"\(Timestamp.format(at))\""
                }
                shown.append("\"\(placement)\":[\(instants.joined(separator: ","))]")
            }
            var assigned: [String] = []
            for experiment in ["pricing", "plain"] where Bool.random(using: &generator) {
                let at = now - [30 * Self.day, 30 * Self.day - 1, 0, Int64.random(in: 0...60 * Self.day, using: &generator)].randomElement(using: &generator)!
                assigned.append(#""\#(experiment)":{"variant":"\#(variants.randomElement(using: &generator)!)","at":"\#(Timestamp.format(at))"}"#)
            }
            var members: [String] = []
            if !shown.isEmpty { members.append("\"shown\":{\(shown.joined(separator: ","))}") }
            if !assigned.isEmpty { members.append("\"assigned\":{\(assigned.joined(separator: ","))}") }
            let installed = Timestamp.format(now - Int64.random(in: 0...14 * Self.day, using: &generator))
            let id = Bool.random(using: &generator) ? #""id":"p\#(index)","# : ""
            let history = members.isEmpty ? "" : #","history":{\#(members.joined(separator: ","))}"#
            let profile = profile("{\(id)\"installed_at\":\"\(installed)\"\(history)}")
            var evaluator = Evaluator(program: program, profile: profile, now: now)
            for placement in program.placements.indices {
                let tree = evaluator.resolve(placement: placement, profileID: profile.id)
                let flat = program.decide(placement: placement, for: profile, now: now)
                XCTAssertEqual(try? tree.get(), try? flat.get(), "\(profile.json) at \(Timestamp.format(now))")
                compared += 1
            }
            // Every placement at once shares slot reads: the same decisions.
            for (index, decision) in program.decideAll(for: profile, now: now).enumerated() {
                var evaluator = Evaluator(program: program, profile: profile, now: now)
                if case .success(let tree) = evaluator.resolve(placement: index, profileID: profile.id) { XCTAssertEqual(decision, tree) }
            }
        }
        XCTAssertEqual(compared, 3_000)
    }
}
