// A small app-side example that uses only the library's public API: it loads the
// rules, plays the SDK's analytics callback for one onboarding flow, feeds the events to
// `FlowInputHandler` exactly as `didReceiveAnalyticEvent` delivers them, applies the answers
// when the flow disappears and asks which flow the user gets next, and why; then reports each
// decision it shows as a `placement_shown` event.
//
//     swift run sdk-example [RULES_DIR]
import Foundation
import Targeting

let rulesPath = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Rules"
let rules: RuleSet
do {
    rules = try RuleSet(contentsOf: URL(fileURLWithPath: rulesPath))
} catch {
    print(error)
    exit(2)
}

// In an app: one handler per presented flow; in `flowController(_:didReceiveAnalyticEvent:params:)`
// call `handler.handle(name:params:)`.
let handler = FlowInputHandler(rules: rules, timeZone: TimeZone(identifier: "UTC")!)

/// What the SDK would deliver while the user moves through the flow.
let events: [(String, [String: any Sendable])] = [
    ("flow_screen_showed", ["instanceId": "scr_registration", "screen_order": 0, "is_last_screen": false]),
    ("flow_user_input", ["instanceId": "scr_registration", "element_id": "name", "element_type": "text_input",
                         "value": "Jane", "isBackendEvent": false, "isCustomerEvent": true]),
    ("flow_user_input", ["instanceId": "scr_registration", "element_id": "birthday", "element_type": "date_picker",
                         "value": 645_408_000_000, "isBackendEvent": false, "isCustomerEvent": true]),
    ("flow_user_input", ["instanceId": "scr_quiz", "element_id": "experience", "element_type": "single_choice",
                         "item_ids": ["amateur"], "item_titles": ["I play on weekends"]]),
    ("flow_user_input", ["instanceId": "scr_quiz", "element_id": "experience", "element_type": "single_choice",
                         "item_ids": ["pro"], "item_titles": ["I train professionally"]]),
    ("flow_user_input", ["instanceId": "scr_quiz", "element_id": "interests", "element_type": "multi_choice",
                         "item_ids": ["sports", "music"], "item_titles": ["Sports", "Music"]]),
    ("flow_user_input", ["instanceId": "scr_quiz", "element_id": "reminders", "element_type": "toggle", "value": true]),
    ("flow_user_input", ["instanceId": "scr_registration", "element_id": "password", "element_type": "password_input",
                         "value": "never stored"]),
]

for (name, params) in events {
    let outcome = handler.handle(name: name, params: params)
    print("\(name): \(outcome)")
}

// When the flow closes, take the complete answer set and store it on the profile.
var profile = try Profile(jsonData: Data(#"{"id":"jane","country":"US"}"#.utf8))
let rejected = profile.apply(handler.flowDidDisappear())
for rejection in rejected { print("rejected: \(rejection.message)") }
print("profile: \(String(decoding: profile.jsonData, as: UTF8.self))")

// Which flow does Jane get next, and why?
let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!
do {
    let decision = try rules.resolve("onboarding_followup", for: profile, at: now)
    print("onboarding_followup -> \(decision.flowID ?? "no flow") (audience \(decision.audience ?? "none"))")
    print(try rules.explain("onboarding_followup", for: profile, at: now), terminator: "")
} catch {
    print("error: \(error)")
    exit(2)
}
for decision in rules.resolveAll(for: profile, at: now) { print(decision) }

// A cross-placement experiment gives one variant everywhere: log it once per screen shown.
for decision in rules.resolveAll(for: profile, at: now) {
    if let experiment = decision.experiment, let variant = decision.variant {
        print("\(decision.placement): experiment \(experiment), variant \(variant)")
    } else if decision.heldOut {
        print("\(decision.placement): held out, showing the default")
    }
}

// Each decision the app shows is reported as a `placement_shown` event: forwarded to analytics,
// and, one JSON object per line, an event file `targeting ingest` keeps in the profile's history.
let shownAt = ISO8601DateFormatter().date(from: "2026-11-29T12:05:00Z")!
for decision in rules.resolveAll(for: profile, at: now) {
    guard let event = decision.shownEvent(profileID: profile.id ?? "jane", at: shownAt) else {
        print("\(decision.placement): nothing shown, nothing to report")
        continue
    }
    let line = try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys, .withoutEscapingSlashes])
    print("shown: " + String(decoding: line, as: UTF8.self))
}
