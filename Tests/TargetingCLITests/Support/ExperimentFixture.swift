import Foundation
import TargetingTestSupport

/// The experiments and the holdout rule set the command tests share, and what it decides for a profile, worked out
/// from the spec's words with `ReferenceDraw` (never by running the code under test).
enum ExperimentFixture {
    static let now = "2026-11-29T12:00:00Z"

    static let rules = """
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing_q4 {
      50% control
      50% discount
    }
    experiment by_customer by profile.customer_user_id {
      50% red
      50% blue
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
    placement colors {
      new_users -> by_customer { red -> flow "red" blue -> flow "blue" }
    }
    holdout q4_holdout 20% except main_paywall

    """

    static let pricing: [(weight: Int, name: String)] = [(50, "control"), (50, "discount")]
    static let colors: [(weight: Int, name: String)] = [(50, "red"), (50, "blue")]

    /// One corpus profile: a new user with an id, and a customer_user_id for every third.
    struct Person {
        var id: String
        var customer: String?

        var json: String {
            var fields = ["\"id\":\"\(id)\"", "\"installed_at\":\"2026-11-20T00:00:00Z\""]
            if let customer { fields.append("\"customer_user_id\":\"\(customer)\"") }
            return "{" + fields.joined(separator: ",") + "}"
        }

        var heldOut: Bool { ReferenceDraw.bucket("q4_holdout", id) < 20 }
        var pricingVariant: String { ReferenceDraw.variant("pricing_q4", id, ExperimentFixture.pricing) }
    }

    /// `count` people `u1`, `u2`, …
    static func people(_ count: Int) -> [Person] {
        (1...count).map { Person(id: "u\($0)", customer: $0 % 3 == 0 ? "c\($0 / 3)" : nil) }
    }

    /// What `resolve --format json` must print for `person` in `placement`, as its members in
    /// resolve's order then the experiment keys, with JSON values written out.
    static func expectedJSON(_ person: Person, _ placement: String) -> String {
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
        var audience: String?, kind: String?, id: String?, experiment: String?, variant: String?
        var heldOut = false
        switch placement {
        case "onboarding_followup":
            if person.heldOut {
                heldOut = true
                (audience, kind, id) = ("everyone", "flow", "flow_default")
            } else {
                (audience, kind, experiment, variant) = ("new_users", "flow", "pricing_q4", person.pricingVariant)
                id = variant == "control" ? "flow_onb_a" : "flow_onb_discount"
            }
        case "main_paywall":
            (audience, kind, experiment, variant) = ("new_users", "paywall", "pricing_q4", person.pricingVariant)
            id = variant == "control" ? "pw_standard" : "pw_discount"
        default:
            heldOut = person.heldOut
            if !heldOut, let customer = person.customer {
                variant = ReferenceDraw.variant("by_customer", customer, colors)
                (audience, kind, id, experiment) = ("new_users", "flow", variant, "by_customer")
            }
        }
        return "{\"profile_id\":\"\(person.id)\",\"placement\":\"\(placement)\",\"audience\":\(quoted(audience)),\"kind\":\(quoted(kind)),\"id\":\(quoted(id)),\"split\":null,\"experiment\":\(quoted(experiment)),\"variant\":\(quoted(variant)),\"held_out\":\(heldOut)}"
    }
}
