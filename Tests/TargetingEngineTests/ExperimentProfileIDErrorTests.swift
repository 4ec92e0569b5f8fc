import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingEngine
@testable import TargetingProfiles

/// An experiment keyed on `profile.id` (the default) that must draw for a profile without `id`
/// is an error for that profile, as a split is; `decideAll` still answers every
/// placement.
final class ExperimentProfileIDErrorTests: XCTestCase {
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!

    private let rules = """
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing_q4 {
      50% control
      50% discount
    }
    placement onboarding_followup {
      new_users -> pricing_q4 { control -> flow "flow_onb_a" discount -> flow "flow_onb_discount" }
      everyone -> flow "flow_default"
    }
    placement plain {
      new_users -> flow "plain_new"
      everyone -> flow "plain_default"
    }
    placement splits {
      new_users -> split "s" { 50% -> flow "sa" 50% -> flow "sb" }
    }
    """

    private func profile(_ json: String) throws -> Profile { try Profile(jsonData: Data(json.utf8)) }

    func testResolveThrowsExperimentNeedsProfileID() throws {
        let ruleSet = try RuleSet(source: rules, fileName: "errors.rules")
        let anonymous = try profile(#"{"installed_at":"2026-11-20T00:00:00Z"}"#)
        XCTAssertThrowsError(try ruleSet.resolve("onboarding_followup", for: anonymous, at: ExperimentProfileIDErrorTests.now)) { error in
            XCTAssertEqual(error as? ResolveError, .experimentNeedsProfileID(experiment: "pricing_q4"))
            XCTAssertEqual("\(error)", "profile has no `id`, so experiment `pricing_q4` cannot draw a variant")
        }
        XCTAssertThrowsError(try ruleSet.explain("onboarding_followup", for: anonymous, at: ExperimentProfileIDErrorTests.now)) { error in
            XCTAssertEqual(error as? ResolveError, .experimentNeedsProfileID(experiment: "pricing_q4"))
        }
        XCTAssertThrowsError(try ruleSet.resolve("splits", for: anonymous, at: ExperimentProfileIDErrorTests.now)) { error in
            XCTAssertEqual(error as? ResolveError, .splitNeedsProfileID(split: "s"))
        }
        // A profile the experiment row does not take needs no id.
        let old = try profile(#"{"installed_at":"2025-01-01T00:00:00Z"}"#)
        XCTAssertEqual(try ruleSet.resolve("onboarding_followup", for: old, at: ExperimentProfileIDErrorTests.now).flowID, "flow_default")
    }

    func testTreeEvaluatorFailsTheSameWay() throws {
        let loaded = LoadedRules(sources: [SourceFile(path: "errors.rules", text: rules)])
        let program = try XCTUnwrap(loaded.program)
        let anonymous = try ProfileReader.read(Array(#"{"installed_at":"2026-11-20T00:00:00Z"}"#.utf8)).get()
        var evaluator = Evaluator(program: program, profile: anonymous, now: 1_796_040_000_000)
        let index = try XCTUnwrap(program.placementIndex(named: "onboarding_followup"))
        guard case .failure(let error) = evaluator.resolve(placement: index, profileID: nil) else { return XCTFail("no error") }
        XCTAssertEqual(error, .experimentNeedsProfileID(experiment: "pricing_q4"))
        guard case .failure(let flatError) = program.decide(placement: index, for: anonymous, now: 1_796_040_000_000) else { return XCTFail("no error") }
        XCTAssertEqual(flatError, error)
        // Several placements at once stop at the first failure.
        guard case .failure(let first) = program.decide(placements: Array(program.placements.indices), for: anonymous, now: 1_796_040_000_000) else {
            return XCTFail("no error")
        }
        XCTAssertEqual(first, .experimentNeedsProfileID(experiment: "pricing_q4"))
    }

    func testResolveAllStillGivesADecisionPerPlacement() throws {
        let ruleSet = try RuleSet(source: rules, fileName: "errors.rules")
        let all = ruleSet.resolveAll(for: try profile(#"{"installed_at":"2026-11-20T00:00:00Z"}"#), at: ExperimentProfileIDErrorTests.now)
        XCTAssertEqual(all.map(\.placement), ["onboarding_followup", "plain", "splits"])
        // The experiment that could not draw: its row's audience and the experiment, no outcome, no variant.
        XCTAssertEqual(all[0].audience, "new_users")
        XCTAssertEqual(all[0].experiment, "pricing_q4")
        XCTAssertNil(all[0].variant)
        XCTAssertNil(all[0].outcome)
        XCTAssertNil(all[0].profileID)
        XCTAssertFalse(all[0].heldOut)
        // The other placements decide as usual.
        XCTAssertEqual(all[1].flowID, "plain_new")
        XCTAssertEqual(all[2].audience, "new_users")
        XCTAssertEqual(all[2].split, "s")
        XCTAssertNil(all[2].outcome)
    }
}
