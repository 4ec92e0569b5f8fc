import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingEngine
@testable import TargetingProfiles

/// `by profile.customer_user_id` and `by` a custom attribute: the draw follows the
/// key's value, not the profile id; a profile without a string value for the key does not
/// enter, so its row does not match and later rows decide.
final class ExperimentKeyTests: XCTestCase {
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!

    private let rules = """
    attribute account: string
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }
    experiment teams by account { 50% red 50% blue }
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
      new_users -> teams { red -> paywall "pw_red" blue -> paywall "pw_blue" }
    }
    placement keyed_split {
      everyone -> split "by_customer" by profile.customer_user_id { 50% -> flow "split_a" 50% -> flow "split_b" }
    }
    """

    private func ruleSet() throws -> RuleSet { try RuleSet(source: rules, fileName: "keys.rules") }

    private func profile(_ json: String) throws -> Profile { try Profile(jsonData: Data(json.utf8)) }

    private func decision(_ placement: String, _ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> Decision {
        try ruleSet().resolve(placement, for: profile(json), at: ExperimentKeyTests.now)
    }

    func testSameCustomerUserIDDifferentIDsGetTheSameVariant() throws {
        let rules = try ruleSet()
        var variants: Set<String> = []
        for customer in 0..<200 {
            var drawn: Set<String> = []
            for id in 0..<4 {
                let json = "{\"id\":\"device-\(customer)-\(id)\",\"customer_user_id\":\"cust-\(customer)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}"
                for decision in rules.resolveAll(for: try profile(json), at: ExperimentKeyTests.now) where decision.experiment != nil {
                    XCTAssertEqual(decision.experiment, "pricing_q4")
                    drawn.insert(decision.variant ?? "(none)")
                }
                let onboarding = try rules.resolve("onboarding_followup", for: try profile(json), at: ExperimentKeyTests.now)
                XCTAssertEqual(onboarding.audience, "new_users")
                XCTAssertNotNil(onboarding.variant, json)
            }
            XCTAssertEqual(drawn.count, 1, "cust-\(customer): \(drawn)")
            variants.formUnion(drawn)
        }
        // Different customers do land in different variants: the key is what is drawn on.
        XCTAssertEqual(variants, ["control", "discount"])
    }

    func testTheVariantFollowsTheCustomerUserIDNotTheID() throws {
        // Reference: the draw of "pricing_q4-<customer_user_id>", independently of the id.
        for customer in ["c1", "c2", "c3", "c4", "jos\u{E9}"] {
            let expected = ReferenceDraw.variant("pricing_q4", customer, [(50, "control"), (50, "discount")])
            let json = "{\"id\":\"\(customer)-device\",\"customer_user_id\":\"\(customer)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}"
            XCTAssertEqual(try decision("onboarding_followup", json).variant, expected, customer)
            XCTAssertEqual(try decision("main_paywall", json).variant, expected, customer)
        }
    }

    func testWithoutACustomerUserIDTheProfileFallsThrough() throws {
        let cases = [
            #"{"id":"u1","installed_at":"2026-11-20T00:00:00Z"}"#,
            #"{"id":"u1","customer_user_id":42,"installed_at":"2026-11-20T00:00:00Z"}"#,
            #"{"id":"u1","customer_user_id":null,"installed_at":"2026-11-20T00:00:00Z"}"#,
            #"{"installed_at":"2026-11-20T00:00:00Z"}"#,
        ]
        for json in cases {
            let onboarding = try decision("onboarding_followup", json)
            XCTAssertEqual(onboarding.audience, "everyone", json)
            XCTAssertEqual(onboarding.flowID, "flow_default", json)
            XCTAssertNil(onboarding.experiment, json)
            XCTAssertNil(onboarding.variant, json)
            // In main_paywall the next row is another experiment, keyed on an attribute it lacks too.
            let paywall = try decision("main_paywall", json)
            XCTAssertNil(paywall.audience, json)
            XCTAssertNil(paywall.outcome, json)
            XCTAssertNil(paywall.experiment, json)
            // A keyed split follows the same rule: no match, not an error.
            let split = try decision("keyed_split", json)
            XCTAssertNil(split.audience, json)
            XCTAssertNil(split.split, json)
        }
        // With an account, the second experiment decides instead.
        let teams = try decision("main_paywall", #"{"id":"u1","installed_at":"2026-11-20T00:00:00Z","custom_attributes":{"account":"acme"}}"#)
        XCTAssertEqual(teams.experiment, "teams")
        XCTAssertEqual(teams.variant, ReferenceDraw.variant("teams", "acme", [(50, "red"), (50, "blue")]))
        XCTAssertEqual(teams.paywallID, "pw_" + (teams.variant ?? ""))
        // A number stored for the custom key does not enter either.
        let numeric = try decision("main_paywall", #"{"id":"u1","installed_at":"2026-11-20T00:00:00Z","custom_attributes":{"account":7}}"#)
        XCTAssertNil(numeric.audience)
    }

    func testExplainSaysTheProfileDoesNotEnter() throws {
        let rules = try ruleSet()
        let explanation = try rules.explain("onboarding_followup", for: try profile(#"{"id":"u1","installed_at":"2026-11-20T00:00:00Z"}"#),
                                            at: ExperimentKeyTests.now)
        XCTAssertEqual(explanation.rows.map(\.matched), [true, true])
        XCTAssertEqual(explanation.rows.map(\.decided), [false, true])
        XCTAssertEqual(explanation.rows[0].draw, "does not enter: no customer_user_id")
        XCTAssertNil(explanation.rows[1].draw)
        XCTAssertTrue(explanation.description.contains("1. new_users -> pricing_q4: matched (does not enter: no customer_user_id)"),
                      explanation.description)
        let teams = try rules.explain("main_paywall", for: try profile(#"{"id":"u1","installed_at":"2026-11-20T00:00:00Z"}"#),
                                      at: ExperimentKeyTests.now)
        XCTAssertEqual(teams.rows.map(\.draw), ["does not enter: no customer_user_id", "does not enter: no account"])
        XCTAssertNil(teams.decision.audience)
        // An audience that does not match says nothing about the draw.
        let old = try rules.explain("onboarding_followup", for: try profile(#"{"id":"u1","installed_at":"2025-01-01T00:00:00Z"}"#),
                                    at: ExperimentKeyTests.now)
        XCTAssertNil(old.rows[0].draw)
        XCTAssertFalse(old.rows[0].matched)
    }

    func testAKeyedDrawNeedsNoProfileID() throws {
        // The key is not the id, so a profile without id is drawn, not an error.
        let json = #"{"customer_user_id":"c1","installed_at":"2026-11-20T00:00:00Z"}"#
        let onboarding = try decision("onboarding_followup", json)
        XCTAssertNil(onboarding.profileID)
        XCTAssertEqual(onboarding.variant, ReferenceDraw.variant("pricing_q4", "c1", [(50, "control"), (50, "discount")]))
        let split = try decision("keyed_split", json)
        XCTAssertEqual(split.split, "by_customer")
    }
}
