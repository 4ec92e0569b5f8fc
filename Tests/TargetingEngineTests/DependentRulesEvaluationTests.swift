import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// Rules that depend on rules in evaluation: prerequisites decided as their placement decides,
/// layers letting each profile into at most one of their experiments, counts over several
/// placements; the tree evaluator and the flat code agreeing, and both agreeing with a second
/// reading of the same rules written here from their description.
final class DependentRulesEvaluationTests: XCTestCase {
    /// 2026-12-01T00:00:00Z.
    static let now: Int64 = 1_796_083_200_000
    static let hour: Int64 = 3_600_000

    static let rules = """
    attribute level: string
    attribute account: string
    segment pros = level == "pro"
    segment beginners = level == "beginner"
    segment onboarded_pro = placement onboarding -> flow "onb_pro"
    segment onboarded_other = placement onboarding -> [flow "onb_beginner", no match]
    segment saw_discount = placement main_paywall -> pricing.discount
    segment paywall_free = placement main_paywall -> nothing
    segment tired = shown [main_paywall, coach_paywall] in 24h >= 2
    segment seen_lately = last shown [main_paywall, coach_paywall] >= now - 1h
    audience pro_users = pros
    audience beginner_users = beginners
    audience coached = onboarded_pro and not tired
    audience others = onboarded_other
    audience discounted = saw_discount
    audience nothing_before = paywall_free and not seen_lately
    experiment pricing { 50% control 50% discount }
    experiment trial by account sticky 30d { 50% short 50% long }
    layer paywall_tests {
      40% pricing
      30% trial
    }
    placement onboarding {
      pro_users -> flow "onb_pro"
      beginner_users -> flow "onb_beginner"
    }
    placement main_paywall {
      coached -> paywall "coach"
      others -> nothing
      everyone -> pricing { control -> paywall "p_control" discount -> paywall "p_discount" }
    }
    placement coach_paywall {
      discounted -> paywall "second_discount"
      nothing_before -> paywall "after_nothing"
      everyone -> trial { short -> paywall "s_short" long -> paywall "s_long" }
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

    /// What a profile sees, read from the rules' description rather than the engine: the
    /// onboarding by level; the main paywall by the onboarding's flow, the cap over both
    /// paywalls, and the layer's draw (pricing takes buckets 0–39 of `paywall_tests-<id>`);
    /// the coach paywall by the main paywall's decision and the layer (trial takes 40–69 of
    /// `paywall_tests-<id>`, the layer drawn on the id, the trial on `account`).
    private func expected(_ json: [String: Any], now: Int64) -> (onboarding: String?, main: String?, coach: String?) {
        let level = (json["custom_attributes"] as? [String: Any])?["level"] as? String
        let account = (json["custom_attributes"] as? [String: Any])?["account"] as? String
        let id = json["id"] as? String
        let onboarding: String? = level == "pro" ? "flow onb_pro" : level == "beginner" ? "flow onb_beginner" : nil
        let shown = ((json["history"] as? [String: Any])?["shown"] as? [String: [String]]) ?? [:]
        var count = 0
        var latest: Int64?
        for placement in ["main_paywall", "coach_paywall"] {
            // A placement keeps each instant once.
            for text in Set(shown[placement] ?? []) {
                guard let at = Timestamp.parse(text) else { continue }
                if at > now - 24 * Self.hour && at <= now { count += 1 }
                latest = max(latest ?? at, at)
            }
        }
        let layerBucket = id.map { ReferenceDraw.bucket("paywall_tests", $0) }
        var main: String?
        var mainVariant: String?
        if onboarding == "flow onb_pro" && count < 2 {
            main = "paywall coach"
        } else if onboarding != "flow onb_pro" {
            main = "nothing"
        } else if let id, let bucket = layerBucket, bucket < 40 {
            mainVariant = ReferenceDraw.variant("pricing", id, [(50, "control"), (50, "discount")])
            main = mainVariant == "control" ? "paywall p_control" : "paywall p_discount"
        }
        var coach: String?
        let seenLately = latest.map { $0 >= now - Self.hour } ?? false
        if mainVariant == "discount" {
            coach = "paywall second_discount"
        } else if main == "nothing" && !seenLately {
            coach = "paywall after_nothing"
        } else if let bucket = layerBucket, (40..<70).contains(bucket), let account {
            coach = ReferenceDraw.variant("trial", account, [(50, "short"), (50, "long")]) == "short" ? "paywall s_short" : "paywall s_long"
        }
        return (onboarding, main, coach)
    }

    private func text(_ decision: Decision?) -> String? {
        guard let decision, decision.row != nil, let outcome = decision.outcome else { return nil }
        switch outcome {
        case .flow(let id): return "flow " + id
        case .paywall(let id): return "paywall " + id
        case .nothing: return "nothing"
        }
    }

    func testPrerequisitesLayersAndGroupedCapsAgreeWithTheirDescription() throws {
        let program = checkedProgram(Self.rules)
        var generator = SystemRandomNumberGenerator()
        var seen: Set<String> = []
        for index in 0..<800 {
            let now = Self.now
            var json: [String: Any] = [:]
            if Int.random(in: 0..<8, using: &generator) != 0 { json["id"] = "u\(index)" }
            var custom: [String: Any] = [:]
            if let level = ["pro", "beginner", "amateur", nil].randomElement(using: &generator)! { custom["level"] = level }
            if Bool.random(using: &generator) { custom["account"] = "a\(index % 50)" }
            if !custom.isEmpty { json["custom_attributes"] = custom }
            var shown: [String: [String]] = [:]
            for placement in ["main_paywall", "coach_paywall"] where Bool.random(using: &generator) {
                let offsets: [Int64] = [0, 1, -1, Self.hour, 24 * Self.hour, 24 * Self.hour - 1, 30 * Self.hour]
                shown[placement] = (0..<Int.random(in: 1...2, using: &generator)).map { _ in
                    Timestamp.format(now - offsets.randomElement(using: &generator)!)
                }.sorted()
            }
            if !shown.isEmpty { json["history"] = ["shown": shown] }
            let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            let profile = profile(String(decoding: data, as: UTF8.self))
            let want = expected(json, now: now)
            XCTAssertEqual(text(decide("onboarding", profile, program: program)), want.onboarding, "\(json)")
            let main = decide("main_paywall", profile, program: program)
            let coach = decide("coach_paywall", profile, program: program)
            if json["id"] != nil || want.main == "paywall coach" || want.main == "nothing" {
                XCTAssertEqual(text(main), want.main, "\(json)")
                XCTAssertEqual(text(coach), want.coach, "\(json)")
            }
            seen.insert("main \(want.main ?? "no match") coach \(want.coach ?? "no match")")
            // Every placement at once: the same decisions as one at a time.
            for (placement, decision) in program.decideAll(for: profile, now: now).enumerated() {
                var evaluator = Evaluator(program: program, profile: profile, now: now)
                if case .success(let tree) = evaluator.resolve(placement: placement, profileID: profile.id) { XCTAssertEqual(decision, tree) }
            }
        }
        // The profiles reached every kind of decision the rules make.
        for wanted in ["main paywall coach", "main nothing coach paywall after_nothing", "main paywall p_discount coach paywall second_discount",
                       "main paywall p_control", "main no match coach paywall s_"] {
            XCTAssertTrue(seen.contains { $0.hasPrefix(wanted) }, "no profile gave \(wanted): \(seen.sorted())")
        }
    }

    func testAStickyAssignmentOutsideItsShareOfTheLayerDoesNotEnter() throws {
        let program = checkedProgram(Self.rules)
        let assigned = #""history":{"assigned":{"trial":{"variant":"long","at":"2026-11-30T00:00:00Z"}}}"#
        // Find an id in trial's share (40–69) and one outside it.
        let inside = (0..<1_000).map { "s\($0)" }.first { (40..<70).contains(ReferenceDraw.bucket("paywall_tests", $0)) }!
        let outside = (0..<1_000).map { "s\($0)" }.first { ReferenceDraw.bucket("paywall_tests", $0) >= 70 }!
        let entered = decide("coach_paywall", profile(#"{"id":"\#(inside)","custom_attributes":{"level":"pro","account":"a1"},\#(assigned)}"#), program: program)
        XCTAssertEqual(entered?.outcome, .paywall("s_long"))
        XCTAssertEqual(entered?.isSticky, true)
        let kept = decide("coach_paywall", profile(#"{"id":"\#(outside)","custom_attributes":{"level":"pro","account":"a1"},\#(assigned)}"#), program: program)
        XCTAssertNil(kept?.row, "outside the share, the assignment does not enter the experiment")
        // Without the layer's key (the id), no experiment of the layer is entered.
        let keyless = decide("coach_paywall", profile(#"{"custom_attributes":{"level":"pro","account":"a1"},\#(assigned)}"#), program: program)
        XCTAssertNil(keyless?.row)
    }

    func testTheExplanationShowsThePrerequisiteAndTheLayer() throws {
        let program = checkedProgram(Self.rules)
        let outside = (0..<1_000).map { "e\($0)" }.first { ReferenceDraw.bucket("paywall_tests", $0) >= 70 }!
        let bucket = ReferenceDraw.bucket("paywall_tests", outside)
        let beginner = profile(#"{"id":"\#(outside)","custom_attributes":{"level":"amateur"}}"#)
        let explained = try program.explain(placement: program.placementIndex(named: "main_paywall")!, for: beginner, now: Self.now).get()
        let text = explained.description
        XCTAssertTrue(text.contains("outside pricing's share of layer paywall_tests (r = \(bucket))"), text)
        XCTAssertTrue(text.contains("segment `onboarded_pro`: placement onboarding is no match, so `placement onboarding -> flow \"onb_pro\"` is false"), text)
        // The decision itself carries nothing of the prerequisite.
        XCTAssertEqual(explained.decision, decide("main_paywall", beginner, program: program))
    }

    func testAGroupedCountIsTheSumAndTheLastIsTheLatestOfAny() {
        let program = checkedProgram(Self.rules)
        let now = Self.now
        let both = profile(#"{"id":"g","history":{"shown":{"main_paywall":["\#(Timestamp.format(now - 2 * Self.hour))"],"coach_paywall":["\#(Timestamp.format(now - 3 * Self.hour))","\#(Timestamp.format(now - 30 * Self.hour))"]}}}"#)
        let count = program.slots.first { $0.target == .shownCount(placements: ["main_paywall", "coach_paywall"], window: 24 * Self.hour) }
        XCTAssertEqual(count?.read(from: both, now: now), .number(2))
        let last = program.slots.first { $0.target == .lastShown(placements: ["main_paywall", "coach_paywall"]) }
        XCTAssertEqual(last?.read(from: both, now: now), .date(now - 2 * Self.hour))
        XCTAssertEqual(last?.read(from: profile(#"{"id":"g"}"#), now: now), .missing)
    }

    func testAPrerequisiteOnAPlacementThatCannotDecideIsFalse() {
        let program = checkedProgram("""
        segment drew = placement first -> [flow "a", flow "b"]
        segment undrawn = not drew
        audience drawn = drew
        audience other = undrawn
        placement first {
          everyone -> split "s" { 50% -> flow "a" 50% -> flow "b" }
        }
        placement second {
          drawn -> flow "drawn"
          other -> flow "other"
        }
        """)
        // Without an id, `first` cannot draw: its prerequisite is false, and `second` decides.
        XCTAssertEqual(decide("second", profile(#"{}"#), program: program)?.outcome, .flow("other"))
        XCTAssertEqual(decide("second", profile(#"{"id":"x"}"#), program: program)?.outcome, .flow("drawn"))
    }
}
