import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSyntax

final class SplitPlanTests: XCTestCase {
    private func plan(_ text: String) throws -> SplitPlan {
        let loaded = LoadedRules(sources: [SourceFile(path: "s.rules", text: text)])
        XCTAssertFalse(loaded.hasErrors, "\(loaded.diagnostics.map(\.message))")
        var split: SplitDestination?
        if case .split(let declared)? = loaded.program!.ruleSet.placements.first?.rows.first?.destination { split = declared }
        return SplitPlan(try XCTUnwrap(split, "the first row must be a split"))
    }

    private let welcome = """
    segment all_users = x is set
    audience everybody = all_users
    placement welcome {
      everybody -> split "welcome_test_v1" {
        60% -> flow "flow_welcome_a"
        30% -> flow "flow_welcome_b"
        10% -> nothing
      }
    }
    """

    func testStepsAreInDrawOrderWithRunningBounds() throws {
        let plan = try plan(welcome)
        XCTAssertEqual(plan.id, "welcome_test_v1")
        XCTAssertEqual(plan.steps.map(\.bound), [10, 40, 100])
        XCTAssertEqual(plan.steps.map(\.destination.description), ["nothing", "flow \"flow_welcome_b\"", "flow \"flow_welcome_a\""])
    }

    func testBucketBoundariesFollowTheSubtractionWalk() throws {
        let plan = try plan(welcome)
        let chosen = [0, 9, 10, 39, 40, 99].map { plan.destination(forBucket: $0).description }
        XCTAssertEqual(chosen, ["nothing", "nothing", "flow \"flow_welcome_b\"", "flow \"flow_welcome_b\"",
                                "flow \"flow_welcome_a\"", "flow \"flow_welcome_a\""])
    }

    func testProfilesGetTheSameVariantsAsTheReferenceDraw() throws {
        let plan = try plan(welcome)
        let expected = ["a", "b", "b", "b", "a", "a", "a", "nothing", "b", "a", "a", "a"]  // see SplitDrawTests (hashlib)
        let got = (0..<12).map { index -> String in
            switch plan.destination(forProfileID: "user-\(index)") {
            case .flow(let id, _): return String(id.last!)
            default: return "nothing"
            }
        }
        XCTAssertEqual(got, expected)
        let reference = [(weight: 60, sortKey: "flow_welcome_a"), (weight: 30, sortKey: "flow_welcome_b"), (weight: 10, sortKey: "")]
        for index in 0..<200 {
            let id = "p\(index)"
            let variant = SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: id, variants: reference)
            XCTAssertEqual(plan.destination(forProfileID: id).splitSortKey, reference[variant].sortKey, id)
        }
    }
}
