import XCTest
import TargetingBase
import TargetingEngine
import TargetingProfiles
@testable import TargetingServer

final class OFREPRouteTests: XCTestCase {
    func flag(_ key: String, _ body: String) -> ServeAnswer {
        ServeFixture.post("/ofrep/v1/evaluate/flags/\(key)", body)
    }

    func bulk(_ body: String, headers: [HTTPHeader] = []) -> ServeAnswer {
        ServeFixture.answer(ServeFixture.request("POST", "/ofrep/v1/evaluate/flags", body: body, headers: headers))
    }

    /// The engine's decision for `context` read as OFREP reads it.
    func decision(_ placement: String, _ context: String) -> Decision? {
        guard case .success(let value) = JSONParser.parse(context), case .success(let profile) = OFREPContext.profile(value),
              case .success(let decision) = ServeFixture.program.decide(placement: ServeFixture.program.placementIndex(named: placement)!,
                                                                        for: profile, now: ServeFixture.now) else { return nil }
        return decision
    }

    func metadata(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { JSONMember(key: $0.0, value: $0.1) })
    }

    func testAnExperimentGivesItsVariantAndSplit() {
        let answer = flag("home", #"{"context": {"targetingKey": "u1", "plan": "pro"}}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.route, "/ofrep/v1/evaluate/flags/{key}")
        guard let decision = decision("home", #"{"targetingKey": "u1", "plan": "pro"}"#), let variant = decision.variant else { return XCTFail() }
        XCTAssertEqual(decision.experiment, "pricing")
        let destination = variant == "control" ? "pw_control" : "pw_discount"
        XCTAssertEqual(answer.json, metadata([
            ("key", .string("home")),
            ("value", .string(destination)),
            ("variant", .string(variant)),
            ("reason", .string("SPLIT")),
            ("metadata", metadata([("kind", .string("paywall")), ("audience", .string("pro_users")), ("experiment", .string("pricing")),
                                   ("held_out", .bool(false)), ("sticky", .bool(false)), ("rules", .string(ServeFixture.version))])),
        ]))
        XCTAssertEqual(answer.decisionLabels, ["home=paywall:\(destination)"])
    }

    func testARecordedAssignmentDecidesAndIsReportedAsSticky() {
        // Not a pro user, but the history holds the experiment's variant from two weeks ago.
        let context = #"{"targetingKey": "u1", "history": {"assigned": {"pricing": {"variant": "discount", "at": "2026-11-01T00:00:00Z"}}}}"#
        let answer = flag("home", #"{"context": \#(context)}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.json["value"], .string("pw_discount"))
        XCTAssertEqual(answer.json["variant"], .string("discount"))
        XCTAssertEqual(answer.json["reason"], .string("SPLIT"))
        XCTAssertEqual(answer.json["metadata"]?["sticky"], .bool(true))
        XCTAssertEqual(answer.json["metadata"]?["experiment"], .string("pricing"))
    }

    func testASplitGivesItsDestinationAsTheVariant() {
        let answer = flag("home", #"{"context": {"targetingKey": "u2", "country": "DE"}}"#)
        XCTAssertEqual(answer.status, 200)
        guard let decision = decision("home", #"{"targetingKey": "u2", "country": "DE"}"#), let id = decision.paywallID else { return XCTFail() }
        XCTAssertEqual(decision.split, "de_test")
        XCTAssertTrue(["pw_de_a", "pw_de_b"].contains(id))
        XCTAssertEqual(answer.json, metadata([
            ("key", .string("home")),
            ("value", .string(id)),
            ("variant", .string(id)),
            ("reason", .string("SPLIT")),
            ("metadata", metadata([("kind", .string("paywall")), ("audience", .string("german_users")),
                                   ("held_out", .bool(false)), ("sticky", .bool(false)), ("rules", .string(ServeFixture.version))])),
        ]))
    }

    func testANothingRowIsATargetingMatchWithAnEmptyValue() {
        let answer = flag("home", #"{"context": {"targetingKey": "u3", "email": "qa@example.com"}}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.json, metadata([
            ("key", .string("home")),
            ("value", .string("")),
            ("variant", .string("nothing")),
            ("reason", .string("TARGETING_MATCH")),
            ("metadata", metadata([("kind", .string("nothing")), ("audience", .string("qa_users")),
                                   ("held_out", .bool(false)), ("sticky", .bool(false)), ("rules", .string(ServeFixture.version))])),
        ]))
        XCTAssertEqual(answer.decisionLabels, ["home=nothing"])
    }

    func testNoMatchIsTheDefaultWithAnEmptyValue() {
        let answer = flag("banner", #"{"context": {"plan": "free"}}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.json, metadata([
            ("key", .string("banner")),
            ("value", .string("")),
            ("variant", .string("no match")),
            ("reason", .string("DEFAULT")),
            ("metadata", metadata([("kind", .string("no match")), ("held_out", .bool(false)), ("sticky", .bool(false)),
                                   ("rules", .string(ServeFixture.version))])),
        ]))
        XCTAssertEqual(answer.decisionLabels, ["banner=no match"])
    }

    func testTheEveryoneRowIsTheDefault() {
        for body in [#"{"context": {"plan": "free"}}"#, "{}", #"{"context": {}}"#] {
            let answer = flag("home", body)
            XCTAssertEqual(answer.status, 200, body)
            XCTAssertEqual(answer.json["value"], .string("pw_default"), body)
            XCTAssertEqual(answer.json["variant"], .string("pw_default"), body)
            XCTAssertEqual(answer.json["reason"], .string("DEFAULT"), body)
            XCTAssertEqual(answer.json["metadata"]?["audience"], .string("everyone"), body)
        }
    }

    func testARowOtherThanEveryoneIsATargetingMatch() {
        let answer = flag("banner", #"{"context": {"plan": "team"}}"#)
        XCTAssertEqual(answer.json["value"], .string("flow_team"))
        XCTAssertEqual(answer.json["reason"], .string("TARGETING_MATCH"))
        XCTAssertEqual(answer.json["metadata"]?["kind"], .string("flow"))
    }

    func testErrors() {
        func check(_ answer: ServeAnswer, _ status: Int, _ code: String, key: String = "home", file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(answer.status, status, answer.bodyText, file: file, line: line)
            XCTAssertEqual(answer.json["errorCode"], .string(code), answer.bodyText, file: file, line: line)
            XCTAssertEqual(answer.json["key"], .string(key), answer.bodyText, file: file, line: line)
            XCTAssertFalse(answer.json["errorDetails"]?.stringValue?.isEmpty ?? true, file: file, line: line)
        }
        let missing = flag("hom", "{}")
        check(missing, 404, "FLAG_NOT_FOUND", key: "hom")
        XCTAssertEqual(missing.json["errorDetails"], .string("unknown placement `hom`; did you mean `home`?"))
        check(flag("home", "{"), 400, "PARSE_ERROR")
        check(flag("home", ""), 400, "PARSE_ERROR")
        check(flag("home", "[]"), 400, "INVALID_CONTEXT")
        check(flag("home", #"{"context": 5}"#), 400, "INVALID_CONTEXT")
        check(flag("home", #"{"context": {"targetingKey": 5}}"#), 400, "INVALID_CONTEXT")
        check(flag("home", #"{"context": {"targetingKey": "a", "id": "b"}}"#), 400, "INVALID_CONTEXT")
        check(flag("home", #"{"context": {"targetingKey": "a", "bad key!": "x"}}"#), 400, "INVALID_CONTEXT")
        check(flag("home", #"{"context": {"plan": "pro"}}"#), 400, "TARGETING_KEY_MISSING")
        check(flag("home", #"{"context": {"country": "DE"}}"#), 400, "TARGETING_KEY_MISSING")
        XCTAssertEqual(flag("home", #"{"context": {"plan": "pro"}}"#).json["errorDetails"],
                       .string(ResolveError.experimentNeedsProfileID(experiment: "pricing").message))
        // The unknown flag is found before the body is read.
        check(flag("nope", "{"), 404, "FLAG_NOT_FOUND", key: "nope")
        XCTAssertEqual(flag("home", #"{"context": 5}"#).json["errorDetails"], .string("`context` must be an object, found number"))
        XCTAssertEqual(flag("home", #"{"context": {"targetingKey": 5}}"#).json["errorDetails"], .string("`targetingKey` must be a string, found number"))
    }

    func testABadCustomAttributeIsAnInvalidContextWithTheReadersMessage() {
        let long = String(repeating: "b", count: 60)
        let answer = flag("home", #"{"context": {"targetingKey": "u1", "bio": "\#(long)"}}"#)
        guard case .failure(let error) = ProfileReader.read(Array(#"{"id": "u1", "custom_attributes": {"bio": "\#(long)"}}"#.utf8)) else {
            return XCTFail("the profile is accepted")
        }
        XCTAssertEqual(answer.status, 400)
        XCTAssertEqual(answer.json["errorCode"], .string("INVALID_CONTEXT"))
        XCTAssertEqual(answer.json["errorDetails"], .string(error.message))
    }

    func testBulkEvaluatesEveryPlacementWithAnETag() {
        let answer = bulk(#"{"context": {"plan": "pro"}}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.route, "/ofrep/v1/evaluate/flags")
        let tag = answer.header("etag") ?? ""
        XCTAssertTrue(tag.hasPrefix("\"\(ServeFixture.version)-") && tag.hasSuffix("\"") && tag.count == ServeFixture.version.count + 11, tag)
        let flags = answer.json["flags"]?.arrayValue ?? []
        XCTAssertEqual(flags.count, 2)
        // `home` needs the key for the experiment; `banner` does not.
        XCTAssertEqual(flags.first?["key"], .string("home"))
        XCTAssertEqual(flags.first?["errorCode"], .string("TARGETING_KEY_MISSING"))
        XCTAssertEqual(flags.last?["key"], .string("banner"))
        XCTAssertEqual(flags.last?["variant"], .string("no match"))
        XCTAssertEqual(answer.json["metadata"], metadata([("rules", .string(ServeFixture.version))]))
        XCTAssertEqual(answer.decisionLabels, ["banner=no match"])

        let keyed = bulk(#"{"context": {"targetingKey": "u1", "plan": "pro"}}"#)
        let single = ["home", "banner"].map { flag($0, #"{"context": {"targetingKey": "u1", "plan": "pro"}}"#).json }
        XCTAssertEqual(keyed.json["flags"], .array(single), "each flag is what the single evaluation answers")
    }

    func testBulkRefusesBadBodiesWithoutAKey() {
        for (body, code) in [("{", "PARSE_ERROR"), ("7", "INVALID_CONTEXT"), (#"{"context": []}"#, "INVALID_CONTEXT")] {
            let answer = bulk(body)
            XCTAssertEqual(answer.status, 400, body)
            XCTAssertEqual(answer.json["errorCode"], .string(code), body)
            XCTAssertNil(answer.json["key"], body)
            XCTAssertNotNil(answer.json["errorDetails"]?.stringValue, body)
        }
    }

    func testIfNoneMatchGives304() {
        let tag = bulk("{}").header("etag") ?? ""
        for given in [tag, "W/\(tag)", "*", "\"other\", \(tag)", " \"other\" ,W/\(tag) "] {
            let answer = bulk("{}", headers: [HTTPHeader(name: "if-none-match", value: given)])
            XCTAssertEqual(answer.status, 304, given)
            XCTAssertEqual(answer.response.body, [], given)
            XCTAssertEqual(answer.header("etag"), tag, given)
        }
        for given in ["\"other\"", "\"\(ServeFixture.version)\"", String(tag.dropFirst().dropLast()), "\"\(tag.dropFirst().dropLast().dropLast())\"", ""] {
            let answer = bulk("{}", headers: [HTTPHeader(name: "if-none-match", value: given)])
            XCTAssertEqual(answer.status, 200, given)
        }
        var bytes: [UInt8] = []
        bulk("{}", headers: [HTTPHeader(name: "if-none-match", value: tag)]).response.append(to: &bytes, keepAlive: true)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "HTTP/1.1 304 Not Modified\r\nETag: \(tag)\r\n\r\n")
    }

    func testTheETagNamesTheAnswerSoAChangedContextIsAnsweredAgain() {
        let first = bulk(#"{"context": {"targetingKey": "u1"}}"#)
        let tag = first.header("etag") ?? ""
        let changed = bulk(#"{"context": {"targetingKey": "u1", "plan": "pro"}}"#, headers: [HTTPHeader(name: "if-none-match", value: tag)])
        XCTAssertNotEqual(first.json["flags"], changed.json["flags"], "the fixture answers the two contexts differently")
        XCTAssertEqual(changed.status, 200)
        XCTAssertNotEqual(changed.header("etag"), tag)
        let same = bulk(#"{"context": {"targetingKey": "u1"}}"#, headers: [HTTPHeader(name: "if-none-match", value: tag)])
        XCTAssertEqual(same.status, 304)
    }
}
