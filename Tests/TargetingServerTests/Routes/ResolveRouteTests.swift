import XCTest
import TargetingBase
import TargetingEngine
import TargetingProfiles
@testable import TargetingServer

final class ResolveRouteTests: XCTestCase {
    let pro = #"{"id":"u1","custom_attributes":{"plan":"pro"}}"#

    func resolve(_ body: String, now: Int64 = ServeFixture.now) -> ServeAnswer {
        ServeFixture.post("/v1/resolve", body, now: now)
    }

    func testDecidesEveryPlacementAsResolveDoes() {
        let answer = resolve(#"{"profile": \#(pro)}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.header("content-type"), "application/json")
        XCTAssertEqual(answer.bodyText, expectedDecisionsBody(profile(pro), ["home", "banner"]))
        XCTAssertEqual(answer.route, "/v1/resolve")
        // The pro user enters the experiment in `home`, and no row of `banner` takes them.
        let decisions = answer.json["decisions"]?.arrayValue ?? []
        XCTAssertEqual(decisions.count, 2)
        XCTAssertEqual(decisions.first?["experiment"], .string("pricing"))
        let variant = decisions.first?["variant"]?.stringValue
        XCTAssertEqual(decisions.first?["id"]?.stringValue, variant == "control" ? "pw_control" : "pw_discount")
        XCTAssertEqual(decisions.last?["audience"], .null)
        XCTAssertEqual(answer.decisionLabels, ["home=paywall:\(variant == "control" ? "pw_control" : "pw_discount")", "banner=no match"])
    }

    func testDecidesTheNamedPlacementsInTheirOrderAtTheGivenTime() {
        let free = #"{"id":"u9","custom_attributes":{"plan":"free"}}"#
        let answer = resolve(#"{"placements": ["banner", "home"], "profile": \#(free), "now": "2026-12-10T00:00:00Z"}"#)
        XCTAssertEqual(answer.status, 200)
        let december = Timestamp.parse("2026-12-10T00:00:00Z")!
        XCTAssertEqual(answer.bodyText, expectedDecisionsBody(profile(free), ["banner", "home"], now: december))
        XCTAssertEqual(answer.decisionLabels, ["banner=flow:flow_winter", "home=paywall:pw_default"])
        // Without `now`, the server's time (November) decides: no winter sale.
        XCTAssertEqual(resolve(#"{"placements": ["banner"], "profile": \#(free)}"#).decisionLabels, ["banner=no match"])
        XCTAssertEqual(resolve(#"{"placements": ["banner"], "profile": \#(free)}"#, now: december).decisionLabels, ["banner=flow:flow_winter"])
        XCTAssertEqual(resolve(#"{"placements": [], "profile": \#(free)}"#).bodyText, #"{"rules":"0123456789abcdef","decisions":[]}"#)
    }

    func testExplainAddsTheLinesResolveExplainPrints() {
        let tester = #"{"id":"u2","email":"qa@example.com"}"#
        let answer = resolve(#"{"profile": \#(tester), "explain": true}"#)
        XCTAssertEqual(answer.status, 200)
        let decisions = answer.json["decisions"]?.arrayValue ?? []
        XCTAssertEqual(decisions.count, 2)
        let program = ServeFixture.program
        for (index, decision) in decisions.enumerated() {
            guard case .success(let explanation) = program.explain(placement: index, for: profile(tester), now: ServeFixture.now) else {
                return XCTFail("no explanation")
            }
            var lines = explanation.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            XCTAssertGreaterThan(lines.count, 1)
            XCTAssertEqual(decision["explanation"], .array(lines.map(JSONValue.string)))
            var members = explanation.decision.json.objectMembers ?? []
            members.append(JSONMember(key: "explanation", value: .array(lines.map(JSONValue.string))))
            XCTAssertEqual(decision, .object(members))
        }
        XCTAssertEqual(decisions.first?["kind"], .null, "the tester's row shows nothing")
        XCTAssertEqual(decisions.first?["audience"], .string("qa_users"))
        let off = resolve(#"{"profile": \#(tester), "explain": false}"#)
        XCTAssertEqual(off.bodyText, expectedDecisionsBody(profile(tester), ["home", "banner"]))
    }

    func testRefusesBodiesThatAreNotJSON() {
        for body in ["", "{", #"{"profile": }"#, "nope"] {
            let answer = resolve(body)
            XCTAssertEqual(answer.status, 400, body)
            XCTAssertEqual(answer.errorCode, "invalid_json", body)
            XCTAssertTrue(answer.errorMessage?.hasPrefix("invalid JSON at ") == true, answer.bodyText)
        }
    }

    func testChecksEveryMember() {
        let cases: [(String, String)] = [
            ("[]", "the request must be a JSON object, found"),
            (#"{}"#, "missing `profile`"),
            (#"{"placements": ["home"]}"#, "missing `profile`"),
            (#"{"profile": {}, "placements": "home"}"#, "`placements` must be an array of placement names"),
            (#"{"profile": {}, "placements": ["home", 1]}"#, "`placements` must be an array of placement names"),
            (#"{"profile": {}, "now": 5}"#, "`now` must be a string"),
            (#"{"profile": {}, "now": "yesterday"}"#, "invalid time `yesterday` for `now`"),
            (#"{"profile": {}, "explain": "yes"}"#, "`explain` must be true or false"),
            (#"{"profile": {}, "placement": ["home"]}"#, "unknown member `placement`; did you mean `placements`?"),
            (#"{"profile": {}, "explian": true}"#, "unknown member `explian`; did you mean `explain`?"),
            (#"{"profile": {}, "zzzzzzzz": 1}"#, "unknown member `zzzzzzzz`; a request has"),
        ]
        for (body, message) in cases {
            let answer = resolve(body)
            XCTAssertEqual(answer.status, 400, body)
            XCTAssertEqual(answer.errorCode, "invalid_request", body)
            XCTAssertTrue(answer.errorMessage?.hasPrefix(message) == true, "\(body): \(answer.bodyText)")
        }
    }

    func testAnUnknownPlacementIs404WithASuggestion() {
        let answer = resolve(#"{"profile": {"id": "u1"}, "placements": ["home", "banerr"]}"#)
        XCTAssertEqual(answer.status, 404)
        XCTAssertEqual(answer.errorCode, "unknown_placement")
        XCTAssertEqual(answer.errorMessage, "unknown placement `banerr`; did you mean `banner`?")
    }

    func testAnInvalidProfileIs422WithTheReadersMessage() {
        let bio = String(repeating: "b", count: 60)
        let profileText = #"{"id":"u1","custom_attributes":{"bio":"\#(bio)"}}"#
        guard case .failure(let error) = ProfileReader.read(Array(profileText.utf8)) else { return XCTFail("the profile is accepted") }
        let answer = resolve(#"{"profile": \#(profileText)}"#)
        XCTAssertEqual(answer.status, 422)
        XCTAssertEqual(answer.errorCode, "invalid_profile")
        XCTAssertEqual(answer.errorMessage, error.message)
        XCTAssertTrue(error.message.contains("`bio`"), error.message)
        let notObject = resolve(#"{"profile": 5}"#)
        XCTAssertEqual(notObject.status, 422)
        XCTAssertEqual(notObject.errorCode, "invalid_profile")
    }

    func testADrawWithoutAnIdIs422() {
        let german = resolve(#"{"profile": {"country": "DE"}}"#)
        XCTAssertEqual(german.status, 422)
        XCTAssertEqual(german.errorCode, "invalid_profile")
        XCTAssertEqual(german.errorMessage, ResolveError.splitNeedsProfileID(split: "de_test").message)
        let pro = resolve(#"{"profile": {"custom_attributes": {"plan": "pro"}}}"#)
        XCTAssertEqual(pro.status, 422)
        XCTAssertEqual(pro.errorMessage, ResolveError.experimentNeedsProfileID(experiment: "pricing").message)
        // Only the placements asked for are decided: `banner` needs no id.
        XCTAssertEqual(resolve(#"{"profile": {"country": "DE"}, "placements": ["banner"]}"#).decisionLabels, ["banner=no match"])
    }
}
