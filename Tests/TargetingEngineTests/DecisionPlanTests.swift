import XCTest
import TargetingTestSupport
@testable import TargetingEngine
@testable import TargetingProfiles

/// A placement's decision plan: the guards each row compiles to, in the order they are asked,
/// and the one list of choices that summaries, printed tails and SQL number.
final class DecisionPlanTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private let rules = """
    attribute device: string
    segment premium = profile.access_levels has "premium"
    segment minor = profile.age < 18
    audience subscribers = premium
    audience minors = minor
    experiment pricing by device sticky 30d {
      50% control
      50% discount
    }
    placement main_screen {
      always subscribers -> nothing
      minors             -> pricing {
        control  -> paywall "pw_a"
        discount -> paywall "pw_b"
      }
      everyone           -> split "tail" {
        50% -> paywall "pw_c"
        50% -> nothing
      }
    }
    placement uncovered {
      minors   -> paywall "u_minor"
    }
    holdout hold 30% except uncovered
    """

    func testEachRowAsksItsGuardsInOrder() throws {
        let program = checkedProgram(rules)
        let main = try XCTUnwrap(program.placementIndex(named: "main_screen"))
        let rows = program.placements[main].rows
        let subscribers = try XCTUnwrap(program.audiences.firstIndex { $0.name == "subscribers" })
        let minors = try XCTUnwrap(program.audiences.firstIndex { $0.name == "minors" })
        let device = try XCTUnwrap(program.slots.firstIndex { $0.target == .custom("device") })
        // `always` lets held-out profiles in; the sticky experiment's assignment is asked before
        // the holdout-free guards it passes over; its key after its audience.
        XCTAssertEqual(rows.map(\.guards), [
            [.audience(subscribers)],
            [.notHeldOut, .assignment, .audience(minors), .key(slot: device)],
            [],
        ])
        XCTAssertEqual(rows.map(\.admitsHeldOut), [true, false, true])
        XCTAssertFalse(program.placements[main].canMiss)
        // Outside the holdout no row asks it; a placement without `everyone` can miss.
        let uncovered = try XCTUnwrap(program.placementIndex(named: "uncovered"))
        XCTAssertEqual(program.placements[uncovered].rows.map(\.guards), [[.audience(minors)]])
        XCTAssertTrue(program.placements[uncovered].canMiss)
    }

    func testChoicesListEachWayToDecideOnceAndEveryDecisionIsAmongThem() throws {
        let program = checkedProgram(rules)
        let main = try XCTUnwrap(program.placementIndex(named: "main_screen"))
        let plan = program.placements[main]
        XCTAssertEqual(plan.choices, [
            Choice(row: 0), Choice(row: 1, step: 0), Choice(row: 1, step: 1), Choice(row: 2, step: 0), Choice(row: 2, step: 1), Choice(),
            Choice(row: 0, heldOut: true), Choice(row: 2, step: 0, heldOut: true), Choice(row: 2, step: 1, heldOut: true), Choice(heldOut: true),
            Choice(row: 1, step: 0, sticky: true), Choice(row: 1, step: 1, sticky: true),
        ])
        // Profiles of every kind (held out or not, stuck or not, with and without the key)
        // choose only listed choices, and both evaluators choose the same.
        var seen = Set<Choice>()
        for index in 0..<400 {
            var fields = [#""id":"p\#(index)""#]
            if index % 2 == 0 { fields.append(#""birthday":"2015-01-01""#) }
            if index % 5 == 0 { fields.append(#""access_levels":["premium"]"#) }
            if index % 3 != 0 { fields.append(#""custom_attributes":{"device":"d\#(index % 7)"}"#) }
            if index % 4 == 0 {
                let variant = index % 8 == 0 ? "control" : "discount"
                fields.append(#""history":{"assigned":{"pricing":{"variant":"\#(variant)","at":"2026-11-20T00:00:00Z"}}}"#)
            }
            let profile = try ProfileReader.read(Array(("{" + fields.joined(separator: ",") + "}").utf8)).get()
            var chosen: Choice?
            _ = program.choose(placements: [main], for: profile, now: DecisionPlanTests.now) { _, choice in chosen = choice }
            let choice = try XCTUnwrap(chosen)
            XCTAssertTrue(plan.choices.contains(choice), "\(choice)")
            seen.insert(choice)
            var evaluator = Evaluator(program: program, profile: profile, now: DecisionPlanTests.now)
            XCTAssertEqual(try evaluator.resolve(placement: main, profileID: profile.id).get(),
                           program.flat.decision(placement: main, choice: choice, profileID: profile.id))
        }
        // Every choice is made by some profile but no match, which `everyone` rules out.
        XCTAssertEqual(seen, Set(plan.choices).subtracting([Choice(), Choice(heldOut: true)]))
    }
}
