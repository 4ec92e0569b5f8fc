import Foundation
import Targeting
import XCTest

/// What the public types print, in the CLI's words, and how an app catches the library's errors.
final class PublicDescriptionTests: XCTestCase {
    static let rules = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    input birthday -> profile.birthday
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    audience pro_adults = pros and adults
    placement onboarding_followup {
      pro_adults -> flow "flow_pro_v2"
      everyone -> nothing
    }
    placement main_paywall {
      pro_adults -> paywall "pw_pro"
    }
    """
    static let now = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30T12:00:00Z

    func load() throws -> RuleSet { try RuleSet(source: Self.rules, fileName: "onboarding.rules") }

    func testOutcomesPrintAsWrittenInRules() {
        XCTAssertEqual("\(Outcome.flow("flow_pro_v2"))", #"flow "flow_pro_v2""#)
        XCTAssertEqual(String(describing: Outcome.paywall("pw_pro")), #"paywall "pw_pro""#)
        XCTAssertEqual("\(Outcome.nothing)", "nothing")
        let optional: Outcome? = .flow("x")
        XCTAssertEqual(optional.map { "\($0)" }, #"flow "x""#)
    }

    func testDecisionAndExplanationPrintAsResolveDoes() throws {
        let rules = try load()
        let profile = try Profile(jsonData: Data(#"{"id":"u1","birthday":"1990-06-15","custom_attributes":{"experience":"pro"}}"#.utf8))
        let decision = try rules.resolve("onboarding_followup", for: profile, at: Self.now)
        XCTAssertEqual("\(decision)", #"u1 onboarding_followup: flow "flow_pro_v2" (audience `pro_adults`)"#)
        let minor = try Profile(jsonData: Data(#"{"id":"u2","birthday":"2015-01-01","custom_attributes":{"experience":"pro"}}"#.utf8))
        let why = try rules.explain("onboarding_followup", for: minor, at: Self.now)
        XCTAssertEqual("\(why.rows[1])", "everyone -> nothing: decided")
        let failure = try XCTUnwrap(why.rows[0].failure)
        XCTAssertEqual("\(failure)", "segment `adults`: profile.age is 11, so `profile.age >= 18` is false (onboarding.rules:4:18)")
        XCTAssertEqual("\(why.rows[0])", #"pro_adults -> flow "flow_pro_v2": not matched; "# + "\(failure)")
        XCTAssertTrue(why.description.contains("       \(failure)\n"), why.description)
    }

    func testValuesPrintAsJSON() throws {
        XCTAssertEqual("\(CustomValue.string("pro"))", #""pro""#)
        XCTAssertEqual("\(CustomValue.number(17))", "17")
        XCTAssertEqual("\(CustomValue.number(2.5))", "2.5")
        XCTAssertEqual("\(JSONValue.array([.string("a"), .bool(true), .null]))", #"["a",true,null]"#)
        let profile = try Profile(jsonData: Data(#"{"id":"u1","country":"DE","custom_attributes":{"experience":"pro"}}"#.utf8))
        XCTAssertEqual("\(profile)", #"{"id":"u1","country":"DE","custom_attributes":{"experience":"pro"}}"#)
        XCTAssertEqual("\(profile)", String(decoding: profile.jsonData, as: UTF8.self))
        XCTAssertEqual(profile["country"].map { "\($0)" }, #""DE""#)
        XCTAssertEqual("\(AttributeTarget.builtin("birthday"))", "profile.birthday")
        XCTAssertEqual("\(AttributeTarget.custom("experience"))", "experience")
    }

    func testDiagnosticsPrintTheirHeaderAndHelp() throws {
        XCTAssertThrowsError(try RuleSet(source: "segment pros = experience == \"pro\"\naudience a = prso\n", fileName: "main.rules")) { error in
            guard let error = error as? RuleSetError, let first = error.diagnostics.first(where: \.isError) else {
                return XCTFail("expected a RuleSetError, got \(error)")
            }
            XCTAssertEqual("\(first)", "main.rules:2:14: error: unknown segment `prso`\n  = help: did you mean `pros`?")
            XCTAssertEqual("\(first.severity)", "error")
        }
    }

    func testAnswersAndRejectionsPrintAsIngestDoes() throws {
        let handler = FlowInputHandler(rules: try load(), timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual("\(handler.pendingAnswers)", "no answers")
        handler.handle(name: "flow_user_input", params: ["instanceId": "scr_quiz", "element_id": "experience",
                                                         "element_type": "single_choice", "item_ids": ["pro"]])
        handler.handle(name: "flow_user_input", params: ["element_id": "nickname", "element_type": "text_input", "value": ""])
        let answers = handler.flowDidDisappear()
        XCTAssertEqual("\(answers)", #"scr_quiz/experience -> experience = "pro""# + "\n" + "nickname -> nickname removed")
        // A profile already holding 30 custom attributes: a 31st is rejected when applied.
        let thirty = (1...30).map { #""k\#($0)":1"# }.joined(separator: ",")
        var profile = try Profile(jsonData: Data(#"{"id":"u1","custom_attributes":{\#(thirty)}}"#.utf8))
        let rejected = profile.apply(answers)
        XCTAssertEqual(rejected.count, 1)
        XCTAssertEqual(rejected.map { "\($0)" }, rejected.map(\.message))
        XCTAssertTrue("\(rejected[0])".hasPrefix("`experience` would be custom attribute number 31"), "\(rejected[0])")
    }

    /// The public API throws untyped errors (SE-0413), so every idiomatic catch form compiles
    /// and sees the documented error types.
    func testEveryCatchFormSeesTheDocumentedErrors() throws {
        let rules = try load()
        let profile = try Profile(jsonData: Data(#"{"id":"u1"}"#.utf8))
        var seen: [String] = []
        do {
            do {
                _ = try rules.resolve("onbording_followup", for: profile, at: Self.now)
            } catch is ResolveError {
                seen.append("is")
            }
            do {
                _ = try rules.explain("nope", for: profile, at: Self.now)
            } catch let error as ResolveError {
                seen.append("as \(error)")
            }
            _ = try rules.resolve("main_paywal", for: profile, at: Self.now)
        } catch {
            seen.append("bare \(error)")
        }
        let untyped: (String, Profile, Date) throws -> Decision = rules.resolve
        XCTAssertNoThrow(try untyped("main_paywall", profile, Self.now))
        XCTAssertEqual(seen, ["is", "as unknown placement `nope`", "bare unknown placement `main_paywal`; did you mean `main_paywall`?"])
    }
}
