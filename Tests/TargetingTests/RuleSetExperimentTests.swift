import Foundation
import Targeting
import TargetingTestSupport
import XCTest

/// the `Decision.experiment`, `.variant` and `.heldOut` through the public API, as an
/// app sees them.
final class RuleSetExperimentTests: XCTestCase {
    static let rules = """
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
    placement plain {
      new_users -> split "plain_split" { 50% -> flow "p_a" 50% -> flow "p_b" }
      everyone -> flow "p_default"
    }
    holdout q4_holdout 10% except main_paywall
    """
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!

    private func load() throws -> RuleSet { try RuleSet(source: RuleSetExperimentTests.rules, fileName: "pricing.rules") }

    private func newUser(_ id: String) throws -> Profile {
        try Profile(jsonData: Data("{\"id\":\"\(id)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}".utf8))
    }

    private let ids = (1...300).map { "app-user-\($0)" }
    private func isHeldOut(_ id: String) -> Bool { ReferenceDraw.bucket("q4_holdout", id) < 10 }
    private func variant(_ id: String) -> String { ReferenceDraw.variant("pricing_q4", id, [(50, "control"), (50, "discount")]) }

    func testResolveReportsTheExperimentAndVariant() throws {
        let rules = try load()
        XCTAssertEqual(rules.warnings, [])
        var seen: Set<String> = []
        for id in ids where !isHeldOut(id) {
            let decision = try rules.resolve("onboarding_followup", for: try newUser(id), at: RuleSetExperimentTests.now)
            XCTAssertEqual(decision.experiment, "pricing_q4", id)
            XCTAssertEqual(decision.variant, variant(id), id)
            XCTAssertFalse(decision.heldOut, id)
            XCTAssertNil(decision.split, id)
            XCTAssertEqual(decision.audience, "new_users", id)
            XCTAssertEqual(decision.flowID, variant(id) == "control" ? "flow_onb_a" : "flow_onb_discount", id)
            seen.insert(decision.variant ?? "")
        }
        XCTAssertEqual(seen, ["control", "discount"])
    }

    func testResolveReportsTheHoldout() throws {
        let rules = try load()
        let held = ids.filter(isHeldOut)
        XCTAssertFalse(held.isEmpty)
        for id in held {
            let onboarding = try rules.resolve("onboarding_followup", for: try newUser(id), at: RuleSetExperimentTests.now)
            XCTAssertTrue(onboarding.heldOut, id)
            XCTAssertNil(onboarding.experiment, id)
            XCTAssertNil(onboarding.variant, id)
            XCTAssertEqual(onboarding.audience, "everyone", id)
            XCTAssertEqual(onboarding.flowID, "flow_default", id)
            // The excepted placement: not held out, the experiment decides.
            let paywall = try rules.resolve("main_paywall", for: try newUser(id), at: RuleSetExperimentTests.now)
            XCTAssertFalse(paywall.heldOut, id)
            XCTAssertEqual(paywall.variant, variant(id), id)
            XCTAssertEqual(paywall.description.hasSuffix("(experiment pricing_q4: \(variant(id)))"), true, paywall.description)
            XCTAssertEqual(onboarding.description, "\(id) onboarding_followup: flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)")
        }
    }

    func testResolveAllGivesOneVariantAcrossPlacements() throws {
        let rules = try load()
        for id in ids {
            let all = rules.resolveAll(for: try newUser(id), at: RuleSetExperimentTests.now)
            XCTAssertEqual(all.map(\.placement), ["onboarding_followup", "main_paywall", "plain"])
            XCTAssertEqual(all.map(\.heldOut), isHeldOut(id) ? [true, false, true] : [false, false, false], id)
            let variants = Set(all.compactMap(\.variant))
            XCTAssertEqual(variants, [variant(id)], id)
            // A split reports its id, never an experiment.
            XCTAssertNil(all[2].experiment, id)
            XCTAssertNil(all[2].variant, id)
            XCTAssertEqual(all[2].split, isHeldOut(id) ? nil : "plain_split", id)
        }
    }

    func testRulesWithoutExperimentsReportNone() throws {
        let rules = try RuleSet(source: """
        placement p { everyone -> split "s" { 50% -> flow "a" 50% -> flow "b" } }
        """)
        let decision = try rules.resolve("p", for: try newUser("u1"), at: RuleSetExperimentTests.now)
        XCTAssertNil(decision.experiment)
        XCTAssertNil(decision.variant)
        XCTAssertFalse(decision.heldOut)
        XCTAssertEqual(decision.split, "s")
    }

    func testProfileWithoutIDThrowsAndResolveAllStillAnswers() throws {
        let rules = try load()
        let anonymous = try Profile(jsonData: Data(#"{"installed_at":"2026-11-20T00:00:00Z"}"#.utf8))
        XCTAssertThrowsError(try rules.resolve("main_paywall", for: anonymous, at: RuleSetExperimentTests.now)) { error in
            XCTAssertEqual(error as? ResolveError, .experimentNeedsProfileID(experiment: "pricing_q4"))
        }
        let all = rules.resolveAll(for: anonymous, at: RuleSetExperimentTests.now)
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(all.map(\.experiment), ["pricing_q4", "pricing_q4", nil])
        XCTAssertEqual(all.map(\.variant), [nil, nil, nil])
        XCTAssertEqual(all.map(\.outcome), [nil, nil, nil])
        XCTAssertEqual(all.map(\.heldOut), [false, false, false])
    }
}
