import Foundation
import Targeting
import XCTest

/// `RuleSet.placement(_:)`: a placement looked up once, answering as `RuleSet.resolve` does.
final class PlacementHandleTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30T12:00:00Z

    func shippedRules() throws -> RuleSet {
        let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Rules")
        return try RuleSet(contentsOf: rules)
    }

    func profiles() throws -> [Profile] {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/profiles/corpus.jsonl")
        let text = try String(contentsOf: corpus, encoding: .utf8)
        var profiles = try text.split(separator: "\n").prefix(2_000).map { try Profile(jsonData: Data($0.utf8)) }
        // Signed-in users, so the experiment and the holdout draw.
        for index in 0..<300 {
            profiles.append(try Profile(jsonData: Data(#"{"id":"s\#(index)","customer_user_id":"c\#(index)","app_version":"4.3.0","custom_attributes":{"experience":"amateur","reminders":1}}"#.utf8)))
            // Signed-in pro adults, whom the follow-up sends on to the coaching paywall's trial.
            profiles.append(try Profile(jsonData: Data(#"{"id":"p\#(index)","customer_user_id":"d\#(index)","birthday":"1990-06-15","custom_attributes":{"experience":"pro"}}"#.utf8)))
        }
        return profiles
    }

    func testTheHandleAnswersAsResolveDoes() throws {
        let rules = try shippedRules()
        for name in rules.placements {
            let placement = try rules.placement(name)
            XCTAssertEqual(placement.name, name)
            XCTAssertEqual("\(placement)", "placement \(name)")
            var variants: Set<String> = []
            for profile in try profiles() {
                let direct = try rules.resolve(name, for: profile, at: Self.now)
                XCTAssertEqual(try placement.resolve(for: profile, at: Self.now), direct)
                XCTAssertEqual(try placement.explain(for: profile, at: Self.now), try rules.explain(name, for: profile, at: Self.now))
                if let variant = direct.variant { variants.insert(variant) }
            }
            let drawn: Set<String> = name == "coaching_paywall" ? ["trial_7d", "trial_14d"] : ["control", "discount"]
            XCTAssertEqual(variants, drawn, "both variants are drawn in \(name)")
        }
    }

    func testAnUnknownPlacementThrowsWithTheNearestName() throws {
        let rules = try shippedRules()
        XCTAssertThrowsError(try rules.placement("main_paywal")) { error in
            XCTAssertEqual(error as? ResolveError, .unknownPlacement("main_paywal", suggestion: "main_paywall"))
        }
    }

    func testAHandleWithoutAnIDThrowsAsResolveDoes() throws {
        let rules = try shippedRules()
        let followUp = try rules.placement("onboarding_followup")
        let noID = try Profile(jsonData: Data(#"{"custom_attributes":{"experience":"beginner","interests":"sports"}}"#.utf8))
        XCTAssertThrowsError(try followUp.resolve(for: noID, at: Self.now)) { error in
            XCTAssertEqual(error as? ResolveError, .splitNeedsProfileID(split: "sporty_beginners_v1"))
        }
    }

    /// A few placements are found by comparing names in place and many by hashing: both find
    /// every placement by its exact name only (a prefix, a longer name or another case is none).
    func testLookupByNameWithFewAndManyPlacements() throws {
        for count in [1, 8, 9, 20] {
            let names = (0..<count).map { $0 == 0 ? "pay" : "pay\($0)" }
            let source = names.map { #"placement \#($0) { everyone -> flow "f_\#($0)" }"# }.joined(separator: "\n")
            let rules = try RuleSet(source: source)
            for name in names {
                XCTAssertEqual(try rules.resolve(name, for: Profile(), at: Self.now).flowID, "f_" + name, "\(count) placements")
            }
            for stranger in ["pa", "payy", "PAY", "pay\(count)", ""] {
                XCTAssertThrowsError(try rules.resolve(stranger, for: Profile(), at: Self.now), "\(stranger) among \(count)") { error in
                    guard case .unknownPlacement(let name, _)? = error as? ResolveError else { return XCTFail("\(error)") }
                    XCTAssertEqual(name, stranger)
                }
            }
        }
    }
}
