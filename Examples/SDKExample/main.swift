// A small app-side example: it plays the SDK's analytics callback for one onboarding flow,
// feeds the events to `FlowInputHandler` exactly as `didReceiveAnalyticEvent` delivers them,
// applies the answers when the flow disappears and asks which flow the user gets next.
//
//     swift run sdk-example [RULES_DIR]
import Foundation
import Targeting

let rulesPath = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Rules"
let loaded: LoadedRules
switch LoadedRules.load(path: rulesPath) {
case .failure(let error):
    print("error: \(error.message)")
    exit(2)
case .success(let rules):
    loaded = rules
}
guard !loaded.hasErrors else {
    let renderer = DiagnosticRenderer(files: loaded.sources)
    for diagnostic in loaded.diagnostics { print(renderer.text(diagnostic), terminator: "") }
    exit(2)
}

// In an app: `let handler = FlowInputHandler(rules: ruleSet)` once per presented flow, and in
// `flowController(_:didReceiveAnalyticEvent:params:)` call `handler.handle(name:params:)`.
let handler = FlowInputHandler(rules: loaded.ruleSet, timeZone: TimeZone(identifier: "UTC")!)

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
let answers = handler.flowDidDisappear()
var profile = Profile()
profile.setField("id", .string("jane"))
let rejected = profile.apply(answers)
for rejection in rejected { print("rejected: \(rejection.message)") }
print("profile: \(JSONWriter.write(profile.json))")

// Which flow does Jane get next?
let program = Program(loaded.ruleSet)
let now = Timestamp.parse("2026-11-29T12:00:00Z")!
var evaluator = Evaluator(program: program, profile: profile, now: now)
if let placement = program.placementIndex(named: "onboarding_followup") {
    switch evaluator.resolve(placement: placement, profileID: profile.id) {
    case .success(let decision):
        print("onboarding_followup -> \(decision.outcome?.description ?? "no match") (audience \(decision.audience ?? "none"))")
    case .failure(let error):
        print("error: \(error.message)")
    }
}
