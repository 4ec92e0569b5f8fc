import Foundation
import Targeting
import TargetingTestSupport
import XCTest

/// `Decision.shownEvent(profileID:at:)`: the `placement_shown` event an app reports when it
/// shows a decision, with exactly its keys, and none for a decision that shows nothing.
final class DecisionShownEventTests: XCTestCase {
    static let rules = """
    segment recent = profile.installed_at >= now - 30d
    segment subscribed = profile.access_levels has "premium"
    audience new_users = recent
    audience members = subscribed
    experiment pricing_q4 {
      50% control
      50% discount
    }
    placement main_paywall {
      always members -> nothing
      new_users -> pricing_q4 {
        control  -> paywall "pw_standard"
        discount -> paywall "pw_discount"
      }
      everyone -> paywall "pw_default"
    }
    placement onboarding {
      new_users -> flow "flow_new"
    }
    holdout q4_holdout 10% except onboarding
    """
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!
    static let shownAt = Date(timeIntervalSince1970: 1_796_119_200.25)  // 2026-12-01T10:00:00.250Z

    private func load() throws -> RuleSet { try RuleSet(source: DecisionShownEventTests.rules, fileName: "shown.rules") }

    private func profile(_ json: String) throws -> Profile { try Profile(jsonData: Data(json.utf8)) }

    private func isHeldOut(_ id: String) -> Bool { ReferenceDraw.bucket("q4_holdout", id) < 10 }

    func testAnExperimentDecisionNamesItsExperimentAndVariant() throws {
        let rules = try load()
        let id = (1...100).map { "user-\($0)" }.first { !isHeldOut($0) }!
        let decision = try rules.resolve("main_paywall", for: try profile(#"{"id":"\#(id)","installed_at":"2026-11-20T00:00:00Z"}"#), at: DecisionShownEventTests.now)
        let event = try XCTUnwrap(decision.shownEvent(profileID: "app-\(id)", at: DecisionShownEventTests.shownAt))
        XCTAssertEqual(Set(event.keys), ["profile_id", "name", "placement", "kind", "id", "experiment", "variant", "held_out", "at"])
        XCTAssertEqual(event["profile_id"] as? String, "app-\(id)")
        XCTAssertEqual(event["name"] as? String, "placement_shown")
        XCTAssertEqual(event["placement"] as? String, "main_paywall")
        XCTAssertEqual(event["kind"] as? String, "paywall")
        XCTAssertEqual(event["id"] as? String, decision.paywallID)
        XCTAssertEqual(event["experiment"] as? String, "pricing_q4")
        XCTAssertEqual(event["variant"] as? String, decision.variant)
        XCTAssertEqual(event["held_out"] as? Bool, false)
        XCTAssertEqual(event["at"] as? String, "2026-12-01T10:00:00.250Z")
        XCTAssertEqual(event.count, 9)
    }

    func testAPlainDecisionHasNoExperimentKeysAndAHeldOutOneSaysSo() throws {
        let rules = try load()
        let flow = try rules.resolve("onboarding", for: try profile(#"{"id":"u1","installed_at":"2026-11-20T00:00:00Z"}"#), at: DecisionShownEventTests.now)
        let event = try XCTUnwrap(flow.shownEvent(profileID: "u1", at: Date(timeIntervalSince1970: 1_796_119_200)))
        XCTAssertEqual(Set(event.keys), ["profile_id", "name", "placement", "kind", "id", "held_out", "at"])
        XCTAssertEqual(event["kind"] as? String, "flow")
        XCTAssertEqual(event["id"] as? String, "flow_new")
        XCTAssertEqual(event["at"] as? String, "2026-12-01T10:00:00Z")

        let heldID = (1...300).map { "user-\($0)" }.first(where: isHeldOut)!
        let held = try rules.resolve("main_paywall", for: try profile(#"{"id":"\#(heldID)","installed_at":"2026-11-20T00:00:00Z"}"#), at: DecisionShownEventTests.now)
        XCTAssertTrue(held.heldOut)
        let heldEvent = try XCTUnwrap(held.shownEvent(profileID: heldID, at: DecisionShownEventTests.shownAt))
        XCTAssertEqual(heldEvent["held_out"] as? Bool, true)
        XCTAssertEqual(heldEvent["id"] as? String, "pw_default")
        XCTAssertNil(heldEvent["experiment"])
        XCTAssertNil(heldEvent["variant"])
    }

    func testNothingAndNoMatchHaveNoShownEvent() throws {
        let rules = try load()
        let member = try rules.resolve("main_paywall", for: try profile(#"{"id":"u1","access_levels":["premium"]}"#), at: DecisionShownEventTests.now)
        XCTAssertEqual(member.outcome, .nothing)
        XCTAssertNil(member.shownEvent(profileID: "u1", at: DecisionShownEventTests.shownAt))
        let unmatched = try rules.resolve("onboarding", for: try profile(#"{"id":"u1"}"#), at: DecisionShownEventTests.now)
        XCTAssertNil(unmatched.outcome)
        XCTAssertNil(unmatched.shownEvent(profileID: "u1"))
    }
}
