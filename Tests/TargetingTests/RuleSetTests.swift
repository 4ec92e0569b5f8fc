import Foundation
import Targeting
import XCTest

/// The library's public API of the library API, used as an app would: `import Targeting` alone.
final class RuleSetTests: XCTestCase {
    static let rules = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    input scr_quiz/experience -> experience
    input birthday -> profile.birthday
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    segment beginners = experience == "beginner"
    audience pro_adults = pros and adults
    audience starters = beginners
    placement onboarding_followup {
      pro_adults -> flow "flow_pro_v2"
      starters -> split "starter_test" {
        50% -> flow "flow_a"
        50% -> flow "flow_b"
      }
      everyone -> flow "flow_default"
    }
    placement main_paywall {
      pro_adults -> paywall "pw_pro"
    }
    """
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!

    func load() throws -> RuleSet { try RuleSet(source: RuleSetTests.rules, fileName: "onboarding.rules") }

    func profile(_ json: String) throws -> Profile { try Profile(jsonData: Data(json.utf8)) }

    func testResolveFromTextAndProfileJSON() throws {
        let rules = try load()
        XCTAssertEqual(rules.placements, ["onboarding_followup", "main_paywall"])
        let jane = try profile(#"{"id":"u1","birthday":"1990-06-15","custom_attributes":{"experience":"pro"}}"#)
        let decision = try rules.resolve("onboarding_followup", for: jane, at: RuleSetTests.now)
        XCTAssertEqual(decision.placement, "onboarding_followup")
        XCTAssertEqual(decision.profileID, "u1")
        XCTAssertEqual(decision.audience, "pro_adults")
        XCTAssertEqual(decision.outcome, .flow("flow_pro_v2"))
        XCTAssertEqual(decision.flowID, "flow_pro_v2")
        XCTAssertNil(decision.paywallID)
        XCTAssertNil(decision.split)
        let paywall = try rules.resolve("main_paywall", for: jane, at: RuleSetTests.now)
        XCTAssertEqual(paywall.paywallID, "pw_pro")
        XCTAssertNil(paywall.flowID)
    }

    func testEveryoneRowAndNoMatch() throws {
        let rules = try load()
        let nobody = try profile(#"{"id":"u2"}"#)
        let followup = try rules.resolve("onboarding_followup", for: nobody, at: RuleSetTests.now)
        XCTAssertEqual(followup.audience, "everyone")
        XCTAssertEqual(followup.flowID, "flow_default")
        let paywall = try rules.resolve("main_paywall", for: nobody, at: RuleSetTests.now)
        XCTAssertNil(paywall.audience)
        XCTAssertNil(paywall.outcome)
    }

    func testSplitDecidesByProfileID() throws {
        let rules = try load()
        let starter = try profile(#"{"id":"u1","custom_attributes":{"experience":"beginner"}}"#)
        let decision = try rules.resolve("onboarding_followup", for: starter, at: RuleSetTests.now)
        XCTAssertEqual(decision.split, "starter_test")
        XCTAssertEqual(decision.audience, "starters")
        XCTAssertTrue(["flow_a", "flow_b"].contains(decision.flowID ?? ""), "\(decision)")
    }

    func testResolveErrors() throws {
        let rules = try load()
        let anonymous = try profile(#"{"custom_attributes":{"experience":"beginner"}}"#)
        XCTAssertThrowsError(try rules.resolve("onboarding_folowup", for: anonymous, at: RuleSetTests.now)) { error in
            XCTAssertEqual(error as? ResolveError, .unknownPlacement("onboarding_folowup", suggestion: "onboarding_followup"))
            XCTAssertEqual("\(error)", "unknown placement `onboarding_folowup`; did you mean `onboarding_followup`?")
        }
        XCTAssertThrowsError(try rules.resolve("onboarding_followup", for: anonymous, at: RuleSetTests.now)) { error in
            XCTAssertEqual(error as? ResolveError, .splitNeedsProfileID(split: "starter_test"))
        }
    }

    func testResolveAllGivesOneDecisionPerPlacement() throws {
        let rules = try load()
        let all = rules.resolveAll(for: try profile(#"{"id":"u2"}"#), at: RuleSetTests.now)
        XCTAssertEqual(all.map(\.placement), ["onboarding_followup", "main_paywall"])
        XCTAssertEqual(all.map(\.flowID), ["flow_default", nil])
        // A split that cannot choose: the audience and split are known, the outcome is not.
        let undecided = rules.resolveAll(for: try profile(#"{"custom_attributes":{"experience":"beginner"}}"#), at: RuleSetTests.now)
        XCTAssertEqual(undecided[0].audience, "starters")
        XCTAssertEqual(undecided[0].split, "starter_test")
        XCTAssertNil(undecided[0].outcome)
    }

    func testIgnoringCaseAppliesFinalSigmaInResolveAndExplain() throws {
        let rules = try RuleSet(source: """
        attribute word: string
        segment medial = word == "οδοσ" ignoring case
        segment road = word == "οδος" ignoring case
        audience medials = medial
        audience roads = road
        placement p {
          medials -> flow "f_medial"
          roads -> flow "f_road"
        }
        """, fileName: "greek.rules")
        // "ΟΔΟΣ" lowercases to "οδος", with a final sigma.
        let road = try profile(#"{"id":"g1","custom_attributes":{"word":"ΟΔΟΣ"}}"#)
        XCTAssertEqual(try rules.resolve("p", for: road, at: RuleSetTests.now).flowID, "f_road")
        XCTAssertEqual(rules.resolveAll(for: road, at: RuleSetTests.now).map(\.flowID), ["f_road"])
        let why = try rules.explain("p", for: road, at: RuleSetTests.now)
        XCTAssertEqual(why.rows.map(\.matched), [false, true])
        XCTAssertEqual(why.decision.flowID, "f_road")
    }

    func testExplainDescribesEveryRowAndTheDecision() throws {
        let rules = try load()
        let amateur = try profile(#"{"id":"u3","birthday":"2015-01-01","custom_attributes":{"experience":"pro"}}"#)
        let why = try rules.explain("onboarding_followup", for: amateur, at: RuleSetTests.now)
        XCTAssertEqual(why.decision.audience, "everyone")
        XCTAssertEqual(why.rows.map(\.matched), [false, false, true])
        XCTAssertEqual(why.rows[0].failure?.attribute, "profile.age")
        XCTAssertEqual(why.description, """
        u3 onboarding_followup: flow "flow_default" (audience `everyone`)
          1. pro_adults -> flow "flow_pro_v2": not matched
               segment `adults`: profile.age is 11, so `profile.age >= 18` is false (onboarding.rules:5:18)
          2. starters -> split "starter_test": not matched
               segment `beginners`: experience is "pro", so `experience == "beginner"` is false (onboarding.rules:6:21)
          3. everyone -> flow "flow_default": decided
          decision: flow "flow_default" (audience `everyone`)

        """)
    }

    func testExplainSaysADerivedFieldIsNotSetWhenItsSourceIsNotADate() throws {
        let rules = try load()
        for (birthday, shown) in [(#""garbage""#, #""garbage""#), ("19900101", "19900101"), (#""2025-02-30""#, #""2025-02-30""#)] {
            let unknown = try profile(#"{"id":"u4","birthday":"# + birthday + #","custom_attributes":{"experience":"pro"}}"#)
            let why = try rules.explain("onboarding_followup", for: unknown, at: RuleSetTests.now)
            XCTAssertEqual(why.rows[0].failure?.actual, "missing (`birthday` is \(shown), not a valid date)")
            XCTAssertTrue(why.description.contains("segment `adults`: profile.age is missing (`birthday` is \(shown), not a valid date), so `profile.age >= 18` is false"), why.description)
        }
        let absent = try rules.explain("onboarding_followup", for: try profile(#"{"id":"u5"}"#), at: RuleSetTests.now)
        XCTAssertEqual(absent.rows[0].failure?.actual, "missing")
    }

    func testErrorsThrowRuleSetErrorWithDiagnostics() {
        XCTAssertThrowsError(try RuleSet(source: "audience a = prso\nsegment pros = x == 1\n", fileName: "bad.rules")) { error in
            guard let error = error as? RuleSetError else { return XCTFail("\(error)") }
            let first = error.diagnostics.first { $0.severity == .error }
            XCTAssertEqual(first?.file, "bad.rules")
            XCTAssertEqual(first?.line, 1)
            XCTAssertEqual(first?.column, 14)
            XCTAssertEqual(first?.message, "unknown segment `prso`")
            XCTAssertTrue(error.description.contains("bad.rules:1:14: error: unknown segment `prso`\n  |\n1 | audience a = prso\n  |              ^~~~\n"), error.description)
            XCTAssertTrue(error.description.hasSuffix("\n1 errors, 3 warnings\n"), error.description)
        }
    }

    func testWarningsAreKept() throws {
        let rules = try RuleSet(source: "segment s = level == 1\naudience a = s\nplacement p {\n  a -> flow \"f\"\n}\n", fileName: "w.rules")
        XCTAssertEqual(rules.warnings.map(\.severity), rules.warnings.map { _ in .warning })
        XCTAssertTrue(rules.warnings.contains { $0.message == "attribute `level` is not declared" && $0.line == 1 && $0.column == 13 },
                      "\(rules.warnings.map(\.message))")
    }

    func testContentsOfDirectoryAndUnreadablePath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ruleset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(RuleSetTests.rules.utf8).write(to: folder.appendingPathComponent("main.rules"))
        let rules = try RuleSet(contentsOf: folder)
        XCTAssertEqual(rules.placements, ["onboarding_followup", "main_paywall"])
        XCTAssertThrowsError(try RuleSet(contentsOf: folder.appendingPathComponent("missing"))) { error in
            let diagnostics = (error as? RuleSetError)?.diagnostics ?? []
            XCTAssertEqual(diagnostics.count, 1)
            XCTAssertTrue(diagnostics.first?.message.contains("missing") ?? false, "\(diagnostics)")
        }
    }

    func testHandlerAnswersGoToTheProfile() throws {
        let rules = try load()
        let handler = FlowInputHandler(rules: rules, timeZone: TimeZone(identifier: "UTC")!)
        handler.handle(name: "flow_user_input", params: ["instanceId": "scr_quiz", "element_id": "experience",
                                                         "element_type": "single_choice", "item_ids": ["pro"]])
        handler.handle(name: "flow_user_input", params: ["element_id": "birthday", "element_type": "date_picker",
                                                         "value": 645_408_000_000])
        var profile = try profile(#"{"id":"u1"}"#)
        XCTAssertEqual(profile.apply(handler.flowDidDisappear()), [])
        XCTAssertEqual(profile.customAttributes["experience"], .string("pro"))
        XCTAssertEqual(profile["birthday"], .string("1990-06-15"))
        XCTAssertEqual(try rules.resolve("onboarding_followup", for: profile, at: RuleSetTests.now).flowID, "flow_pro_v2")
        let stored = try Profile(jsonData: profile.jsonData)
        XCTAssertEqual(stored, profile)
    }

    func testProfileErrorsNameTheKeyAndTheRule() {
        XCTAssertThrowsError(try profile(#"{"id":"u9","custom_attributes":{"bad key":"x"}}"#)) { error in
            XCTAssertTrue("\(error)".contains("profile `u9`"), "\(error)")
            XCTAssertTrue("\(error)".contains("`bad key`"), "\(error)")
        }
    }

    func testRuleSetIsSharedAcrossThreads() throws {
        let rules = try load()
        let jane = try profile(#"{"id":"u1","birthday":"1990-06-15","custom_attributes":{"experience":"pro"}}"#)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                results.add((try? rules.resolve("onboarding_followup", for: jane, at: RuleSetTests.now))?.flowID)
            }
        }
        XCTAssertEqual(results.all.count, 1_600)
        XCTAssertEqual(Set(results.all), ["flow_pro_v2"])
    }
}

/// Results gathered from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String?] = []
    func add(_ item: String?) { lock.withLock { items.append(item) } }
    var all: [String?] { lock.withLock { items } }
}
