import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingEngine
@testable import TargetingProfiles

/// `always` rows: a held-out profile walks the placement's `always` rows and its `everyone`
/// row, in order, and the first that matches decides; for other profiles `always` changes
/// nothing. The fast path (`Program.decide`), the tree walk (`Evaluator.resolve`), the
/// explanation and the list of possible decisions agree.
final class AlwaysRowTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    private let rules = """
    segment premium = profile.access_levels has "premium"
    segment minor = profile.age < 18
    segment recent = profile.installed_at >= now - 30d
    audience subscribers = premium
    audience minors = minor
    audience new_users = recent
    experiment pricing {
      50% control
      50% discount
    }
    placement main_screen {
      always subscribers -> nothing
      new_users          -> pricing {
        control  -> paywall "pw_a"
        discount -> paywall "pw_b"
      }
      always minors      -> paywall "pw_family"
      everyone           -> paywall "pw_standard"
    }
    placement no_default {
      always subscribers -> nothing
      new_users          -> paywall "nd_new"
    }
    holdout hold 30%
    """

    private func decide(_ program: Program, _ json: String, placement: String) throws -> Decision {
        let profile = try ProfileReader.read(Array(json.utf8)).get()
        let index = try XCTUnwrap(program.placementIndex(named: placement))
        let fast = try program.decide(placement: index, for: profile, now: AlwaysRowTests.now).get()
        var evaluator = Evaluator(program: program, profile: profile, now: AlwaysRowTests.now)
        let walked = try evaluator.resolve(placement: index, profileID: profile.id).get()
        XCTAssertEqual(fast, walked, json)
        return fast
    }

    func testHeldOutProfilesTakeAlwaysRowsInOrderAndOthersAreDecidedAsBefore() throws {
        let program = checkedProgram(rules)
        var generator = ReferenceDraw.Generator(seed: 5)
        var seen = (held: 0, kept: 0)
        for index in 0..<600 {
            let id = generator.string(8) + "-\(index)"
            let held = ReferenceDraw.bucket("hold", id) < 30
            let premium = index % 3 == 0, minor = index % 2 == 0
            var json = #"{"id":"\#(id)","installed_at":"2026-11-20T00:00:00Z""#
            if premium { json += #","access_levels":["premium"]"# }
            json += minor ? #","birthday":"2012-01-01"}"# : #","birthday":"1990-01-01"}"#
            let decision = try decide(program, json, placement: "main_screen")
            XCTAssertEqual(decision.heldOut, held, json)
            if premium {
                XCTAssertEqual(decision.audience, "subscribers", json)
                XCTAssertEqual(decision.outcome, .nothing, json)
            } else if held {
                // The experiment row is skipped; `always minors` applies; the rest see `everyone`.
                XCTAssertNil(decision.experiment, json)
                XCTAssertEqual(decision.paywallID, minor ? "pw_family" : "pw_standard", json)
                XCTAssertEqual(decision.audience, minor ? "minors" : "everyone", json)
            } else {
                XCTAssertEqual(decision.experiment, "pricing", json)
            }
            let noDefault = try decide(program, json, placement: "no_default")
            if premium { XCTAssertEqual(noDefault.outcome, .nothing, json) }
            else if held { XCTAssertNil(noDefault.audience, json) }
            else { XCTAssertEqual(noDefault.paywallID, "nd_new", json) }
            if held { seen.held += 1 } else { seen.kept += 1 }
        }
        XCTAssertGreaterThan(seen.held, 100)
        XCTAssertGreaterThan(seen.kept, 100)
    }

    func testTheHeldOutDecisionsAreAmongThePossibleOnesAndTheExplanationSkipsTheRest() throws {
        let program = checkedProgram(rules)
        let index = try XCTUnwrap(program.placementIndex(named: "main_screen"))
        let possible = program.possibleDecisions(placement: index).filter(\.heldOut).map(\.outcomeText)
        XCTAssertEqual(possible, ["nothing (audience `subscribers`) (held out by hold)", "paywall \"pw_family\" (audience `minors`) (held out by hold)",
                                  "paywall \"pw_standard\" (audience `everyone`) (held out by hold)"])
        // A held-out minor: row 2 is skipped, row 3 decides.
        var id = ""
        var generator = ReferenceDraw.Generator(seed: 9)
        repeat { id = generator.string(8) } while ReferenceDraw.bucket("hold", id) >= 30
        let profile = try ProfileReader.read(Array(#"{"id":"\#(id)","birthday":"2012-01-01","installed_at":"2026-11-20T00:00:00Z"}"#.utf8)).get()
        let decision = try program.decide(placement: index, for: profile, now: AlwaysRowTests.now).get()
        var evaluator = Evaluator(program: program, profile: profile, now: AlwaysRowTests.now)
        let text = evaluator.explain(decision, profile: profile).description
        XCTAssertTrue(text.contains("  1. always subscribers -> nothing: not matched"), text)
        XCTAssertTrue(text.contains("  2. new_users -> pricing: matched (skipped: held out by hold)"), text)
        XCTAssertTrue(text.contains("  3. always minors -> paywall \"pw_family\": decided"), text)
    }
}
