import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingEngine
@testable import TargetingProfiles

/// the holdout: drawn once per profile on `"<holdout>-<key value>"`; a held-out profile
/// skips every row but `everyone` in each covered placement, and is decided normally in the
/// `except` placements; a profile without the key is never held out.
final class HoldoutTests: XCTestCase {
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!

    /// Rules with a holdout of `weight`% (and `tail` after the weight: `by …`, `except …`).
    private func rules(_ weight: Int, _ tail: String = "except main_paywall") -> String {
        """
        segment recent = profile.installed_at >= now - 30d
        audience new_users = recent
        experiment pricing_q4 {
          50% control
          50% discount
        }
        placement onboarding_followup {
          new_users -> pricing_q4 {
            control  -> flow "flow_onb_a"
            discount -> flow "flow_onb_discount"
          }
          everyone -> flow "flow_default"
        }
        placement main_paywall {
          new_users -> pricing_q4 {
            control  -> paywall "pw_standard"
            discount -> paywall "pw_discount"
          }
          everyone -> paywall "pw_standard"
        }
        placement no_default {
          new_users -> flow "nd_new"
        }
        placement everyone_split {
          new_users -> flow "es_new"
          everyone -> split "es_split" { 50% -> flow "es_a" 50% -> flow "es_b" }
        }
        holdout q4_holdout \(weight)% \(tail)
        """
    }

    private func profile(_ json: String) throws -> Profile { try Profile(jsonData: Data(json.utf8)) }

    /// `count` distinct random ids from a seeded generator.
    private func randomIDs(_ count: Int, seed: UInt64) -> [String] {
        var generator = ReferenceDraw.Generator(seed: seed)
        return (0..<count).map { index in generator.string(10) + "-\(index)" }
    }

    func testHeldOutShareIsTheWeight() throws {
        for weight in [5, 20] {
            let ruleSet = try RuleSet(source: rules(weight), fileName: "holdout.rules")
            let program = ruleSet.program
            let index = try XCTUnwrap(program.placementIndex(named: "onboarding_followup"))
            var heldOut = 0
            let ids = randomIDs(100_000, seed: UInt64(weight))
            for id in ids {
                let profile = try ProfileReader.read(Array("{\"id\":\"\(id)\"}".utf8)).get()
                let decision = try program.decide(placement: index, for: profile, now: 1_796_040_000_000).get()
                if decision.heldOut { heldOut += 1 }
            }
            let share = Double(heldOut) / Double(ids.count)
            XCTAssertEqual(share, Double(weight) / 100, accuracy: 0.005, "weight \(weight)%: \(heldOut) of \(ids.count) held out")
        }
    }

    func testHeldOutExactlyWhenTheReferenceBucketIsBelowTheWeight() throws {
        let ruleSet = try RuleSet(source: rules(20), fileName: "holdout.rules")
        var counted = (held: 0, kept: 0)
        for id in randomIDs(2_000, seed: 7) {
            let decision = try ruleSet.resolve("onboarding_followup", for: try profile("{\"id\":\"\(id)\"}"), at: HoldoutTests.now)
            let expected = ReferenceDraw.bucket("q4_holdout", id) < 20
            XCTAssertEqual(decision.heldOut, expected, id)
            if expected { counted.held += 1 } else { counted.kept += 1 }
        }
        XCTAssertGreaterThan(counted.held, 100)
        XCTAssertGreaterThan(counted.kept, 100)
    }

    func testHeldOutProfilesSeeOnlyTheDefaultInCoveredPlacements() throws {
        let ruleSet = try RuleSet(source: rules(20), fileName: "holdout.rules")
        var checked = 0
        for id in randomIDs(2_000, seed: 11) where ReferenceDraw.bucket("q4_holdout", id) < 20 {
            // A new user: without the holdout, the experiment row (or `new_users` row) would decide.
            let json = "{\"id\":\"\(id)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}"
            let all = ruleSet.resolveAll(for: try profile(json), at: HoldoutTests.now)
            let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.placement, $0) })

            let onboarding = try XCTUnwrap(byName["onboarding_followup"])
            XCTAssertTrue(onboarding.heldOut, id)
            XCTAssertEqual(onboarding.audience, "everyone", id)
            XCTAssertEqual(onboarding.flowID, "flow_default", id)
            XCTAssertNil(onboarding.experiment, id)
            XCTAssertNil(onboarding.variant, id)

            // No `everyone` row: no match.
            let noDefault = try XCTUnwrap(byName["no_default"])
            XCTAssertTrue(noDefault.heldOut, id)
            XCTAssertNil(noDefault.audience, id)
            XCTAssertNil(noDefault.outcome, id)

            // An `everyone` row that is a split still draws.
            let everyoneSplit = try XCTUnwrap(byName["everyone_split"])
            XCTAssertTrue(everyoneSplit.heldOut, id)
            XCTAssertEqual(everyoneSplit.audience, "everyone", id)
            XCTAssertEqual(everyoneSplit.split, "es_split", id)

            // The `except` placement decides as if there were no holdout.
            let paywall = try XCTUnwrap(byName["main_paywall"])
            XCTAssertFalse(paywall.heldOut, id)
            XCTAssertEqual(paywall.audience, "new_users", id)
            XCTAssertEqual(paywall.experiment, "pricing_q4", id)
            let variant = ReferenceDraw.variant("pricing_q4", id, [(50, "control"), (50, "discount")])
            XCTAssertEqual(paywall.variant, variant, id)
            XCTAssertEqual(paywall.paywallID, variant == "control" ? "pw_standard" : "pw_discount", id)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
    }

    func testProfilesNotHeldOutAreDecidedNormally() throws {
        let ruleSet = try RuleSet(source: rules(20), fileName: "holdout.rules")
        var checked = 0
        for id in randomIDs(1_000, seed: 13) where ReferenceDraw.bucket("q4_holdout", id) >= 20 {
            let json = "{\"id\":\"\(id)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}"
            for decision in ruleSet.resolveAll(for: try profile(json), at: HoldoutTests.now) {
                XCTAssertFalse(decision.heldOut, "\(decision)")
                XCTAssertEqual(decision.audience, "new_users", "\(decision)")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 500)
    }

    func testHoldoutWithoutExceptCoversEveryPlacement() throws {
        let ruleSet = try RuleSet(source: rules(20, ""), fileName: "holdout.rules")
        guard let id = randomIDs(1_000, seed: 17).first(where: { ReferenceDraw.bucket("q4_holdout", $0) < 20 }) else {
            return XCTFail("no held-out id")
        }
        let json = "{\"id\":\"\(id)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}"
        let all = ruleSet.resolveAll(for: try profile(json), at: HoldoutTests.now)
        XCTAssertEqual(all.map(\.heldOut), [true, true, true, true])
        XCTAssertEqual(all.map(\.audience), ["everyone", "everyone", nil, "everyone"])
    }

    func testHoldoutByCustomerUserID() throws {
        let ruleSet = try RuleSet(source: rules(20, "by profile.customer_user_id"), fileName: "holdout.rules")
        var held = 0
        for (index, id) in randomIDs(2_000, seed: 19).enumerated() {
            let customer = "cust-\(index % 500)"
            let keyed = try ruleSet.resolve("onboarding_followup", for: try profile("{\"id\":\"\(id)\",\"customer_user_id\":\"\(customer)\"}"),
                                            at: HoldoutTests.now)
            XCTAssertEqual(keyed.heldOut, ReferenceDraw.bucket("q4_holdout", customer) < 20, "\(id) \(customer)")
            if keyed.heldOut { held += 1 }
            // Without a customer_user_id (or with a number) a profile is never held out.
            for json in ["{\"id\":\"\(id)\"}", "{\"id\":\"\(id)\",\"customer_user_id\":\(index)}"] {
                let decision = try ruleSet.resolve("onboarding_followup", for: try profile(json), at: HoldoutTests.now)
                XCTAssertFalse(decision.heldOut, json)
            }
        }
        XCTAssertGreaterThan(held, 100)
    }

    func testHoldoutByIDWithoutAnIDIsNotHeldOut() throws {
        let ruleSet = try RuleSet(source: rules(100), fileName: "holdout.rules")
        // A 100% holdout holds out every profile that has an id …
        XCTAssertTrue(try ruleSet.resolve("onboarding_followup", for: try profile(#"{"id":"u1"}"#), at: HoldoutTests.now).heldOut)
        // … but one without an id cannot be drawn, so it is not held out.
        let anonymous = try ruleSet.resolve("onboarding_followup", for: try profile(#"{"installed_at":"2025-01-01T00:00:00Z"}"#), at: HoldoutTests.now)
        XCTAssertFalse(anonymous.heldOut)
        XCTAssertEqual(anonymous.audience, "everyone")
    }

    func testExplainShowsTheHoldoutDraw() throws {
        let ruleSet = try RuleSet(source: rules(20), fileName: "holdout.rules")
        let ids = randomIDs(1_000, seed: 23)
        let held = try XCTUnwrap(ids.first { ReferenceDraw.bucket("q4_holdout", $0) < 20 })
        let kept = try XCTUnwrap(ids.first { ReferenceDraw.bucket("q4_holdout", $0) >= 20 })
        let json = { (id: String) in "{\"id\":\"\(id)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}" }

        let out = try ruleSet.explain("onboarding_followup", for: try profile(json(held)), at: HoldoutTests.now)
        XCTAssertEqual(out.holdout, "holdout q4_holdout 20%: bucket \(ReferenceDraw.bucket("q4_holdout", held)) < 20, held out")
        XCTAssertEqual(out.rows[0].draw, "skipped: held out by q4_holdout")
        XCTAssertTrue(out.rows[1].decided)
        XCTAssertTrue(out.description.hasSuffix("  decision: flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)\n"), out.description)

        let inside = try ruleSet.explain("onboarding_followup", for: try profile(json(kept)), at: HoldoutTests.now)
        XCTAssertEqual(inside.holdout, "holdout q4_holdout 20%: bucket \(ReferenceDraw.bucket("q4_holdout", kept)), not held out")
        // The `except` placement shows no holdout line.
        let paywall = try ruleSet.explain("main_paywall", for: try profile(json(held)), at: HoldoutTests.now)
        XCTAssertNil(paywall.holdout)
        XCTAssertFalse(paywall.description.contains("holdout"), paywall.description)
    }
}
