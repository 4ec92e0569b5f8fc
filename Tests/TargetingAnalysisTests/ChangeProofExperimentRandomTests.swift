import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `diff --prove` over generated rule pairs with the experiments, keys and holdout:
/// every witness shows exactly the decisions its move names, and no random profile makes a
/// move (destination, experiment variant or holdout) that a settled proof did not list
/// (100,000 in all).
final class ChangeProofExperimentRandomTests: XCTestCase {
    typealias Generator = ChangeProofRandomTests.Generator

    static let header = """
    attribute level: string one of ["a", "b", "c"]
    attribute hours: number
    attribute plan: string

    """

    static let keys = ["", " by profile.customer_user_id", " by plan"]

    static func comparison(_ random: inout Generator) -> String {
        switch random.below(8) {
        case 0: return "level == \"\(random.pick(["a", "b", "c"]))\""
        case 1: return "hours \(random.pick(["<", ">="])) \(random.pick([3, 5]))"
        case 2: return "profile.customer_user_id is \(random.pick(["set", "not set"]))"
        case 3: return "profile.customer_user_id in [\"u1\", \"u2\"]"
        case 4: return "plan \(random.pick(["==", "!="])) \"p1\""
        case 5: return "plan is \(random.pick(["set", "not set"]))"
        case 6: return "profile.customer_user_id starts with \"u\""
        default: return "level is set"
        }
    }

    static func expression(_ random: inout Generator, depth: Int = 0) -> String {
        guard depth < 1, random.below(3) > 0 else { return comparison(&random) }
        let left = expression(&random, depth: depth + 1), right = expression(&random, depth: depth + 1)
        return random.below(2) == 0 ? "(\(left) and \(right))" : "(\(left) or \(right))"
    }

    /// What one side of a pair is made of.
    struct World {
        var segments: [String]
        /// Row kinds in order: 0 the experiment, 1 a keyed split, else a flow row.
        var rows: [Int]
        var experimentKey: Int
        var experimentWeights: (Int, Int)
        var discountDestination = "f_discount"
        var splitKey: Int
        /// Whether the last row is `everyone` (a plain flow, or a keyed split when `keyedEveryone`).
        var everyone: Bool
        var keyedEveryone: Bool
        /// The holdout: weight (0: none) and key.
        var holdoutWeight: Int
        var holdoutKey: Int

        var text: String {
            var text = ChangeProofExperimentRandomTests.header
            for (index, expression) in segments.enumerated() { text += "segment s\(index) = \(expression)\naudience a\(index) = s\(index)\n" }
            let keys = ChangeProofExperimentRandomTests.keys
            text += "experiment e\(keys[experimentKey]) {\n  \(experimentWeights.0)% control\n  \(experimentWeights.1)% discount\n}\n"
            text += "placement p {\n"
            for (position, row) in rows.enumerated() {
                switch row {
                case 0: text += "  a\(position) -> e {\n    control -> flow \"f_control\"\n    discount -> flow \"\(discountDestination)\"\n  }\n"
                case 1: text += "  a\(position) -> split \"t\(position)\"\(keys[splitKey]) {\n    50% -> flow \"f_x\"\n    50% -> flow \"f_y\"\n  }\n"
                default: text += "  a\(position) -> flow \"f\(row % 3)\"\n"
                }
            }
            if everyone {
                text += keyedEveryone ? "  everyone -> split \"u\" by plan {\n    50% -> flow \"f_x\"\n    50% -> flow \"f_default\"\n  }\n"
                    : "  everyone -> flow \"f_default\"\n"
            }
            text += "}\n"
            if holdoutWeight > 0 { text += "holdout h \(holdoutWeight)%\(keys[holdoutKey])\n" }
            return text
        }
    }

    static func randomProfile(_ random: inout Generator, index: Int) -> Profile {
        var fields = ["\"id\":\"r\(index)\""]
        switch random.below(5) {
        case 0: break
        case 1: fields.append("\"customer_user_id\":\"\(random.pick(["u1", "u2", "v1"]))\"")
        case 2: fields.append("\"customer_user_id\":5")
        default: fields.append("\"customer_user_id\":\"c\(index)\"")
        }
        var custom: [String] = []
        if random.below(3) > 0 { custom.append("\"level\":\"\(random.pick(["a", "b", "c"]))\"") }
        if random.below(3) > 0 { custom.append("\"hours\":\(random.pick([1, 3, 4, 5, 9]))") }
        switch random.below(4) {
        case 0: break
        case 1: custom.append("\"plan\":\"p1\"")
        case 2: custom.append("\"plan\":7")
        default: custom.append("\"plan\":\"x\(index)\"")
        }
        let json = "{" + fields.joined(separator: ",") + ",\"custom_attributes\":{\(custom.joined(separator: ","))}}"
        return try! Profile(jsonData: Data(json.utf8))
    }

    func testWitnessesAreRealAndNoUnlistedMoveIsFound() throws {
        let now: Int64 = 1_796_040_000_000
        var random = Generator(state: 20_261_202)
        var verdicts: [ChangeProof.Status: Int] = [:]
        var profilesTried = 0
        for pair in 0..<200 {
            var world = World(segments: (0..<4).map { _ in Self.expression(&random) }, rows: (0..<random.pick([2, 3, 4])).map { _ in random.below(4) },
                              experimentKey: random.below(3), experimentWeights: (50, 50), splitKey: random.below(3),
                              everyone: random.below(4) > 0, keyedEveryone: random.below(4) == 0,
                              holdoutWeight: random.pick([0, 0, 5, 50, 100]), holdoutKey: random.below(3))
            if !world.rows.contains(0) { world.rows[0] = 0 }
            var changed = world
            switch random.below(8) {
            case 0: changed.experimentWeights = (30, 70)
            case 1: changed.holdoutWeight = random.pick([0, 5, 10, 100])
            case 2: changed.holdoutKey = (world.holdoutKey + 1) % 3
            case 3: changed.experimentKey = (world.experimentKey + 1) % 3
            case 4: changed.discountDestination = "f_control"
            case 5: changed.rows.swapAt(0, changed.rows.count - 1)
            case 6: changed.segments[random.below(4)] = Self.expression(&random)
            default: break  // the same rules
            }
            let old = world.text, new = changed.text
            let before = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "old.rules", text: old)]).program, "pair \(pair): \(old)")
            let after = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "new.rules", text: new)]).program, "pair \(pair): \(new)")
            let proof = ChangeProof.prove(old: before, new: after, now: now)
            let placement = proof.placements[0]
            verdicts[placement.status, default: 0] += 1
            for move in placement.transitions {
                let text = JSONWriter.write(move.witness)
                let profile = try Profile(jsonData: Data(text.utf8))
                XCTAssertEqual(ChangeProof.Seen(try before.decide(placement: 0, for: profile, now: now).get()), move.before, "pair \(pair): \(text)\n\(old)\n\(new)")
                XCTAssertEqual(ChangeProof.Seen(try after.decide(placement: 0, for: profile, now: now).get()), move.after, "pair \(pair): \(text)\n\(old)\n\(new)")
            }
            if old == new { XCTAssertEqual(placement.status, .equivalent, "pair \(pair)\n\(old)") }
            guard placement.status != .undecided else { continue }
            let listed = placement.transitions.map { ($0.before, $0.after) }
            for index in 0..<500 {
                let profile = Self.randomProfile(&random, index: index)
                profilesTried += 1
                guard case .success(let from) = before.decide(placement: 0, for: profile, now: now),
                      case .success(let to) = after.decide(placement: 0, for: profile, now: now) else { continue }
                let move = (ChangeProof.Seen(from), ChangeProof.Seen(to))
                guard move.0 != move.1 else { continue }
                let found = listed.contains { $0.0 == move.0 && $0.1 == move.1 }
                XCTAssertTrue(found, "pair \(pair) (\(placement.status)): \(JSONWriter.write(profile.json)) moves \(move), not listed in \(listed)\nOLD:\n\(old)\nNEW:\n\(new)")
                if !found { return }
            }
        }
        print("generated experiment rule pairs: \(verdicts.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")); random profiles: \(profilesTried)")
        XCTAssertGreaterThanOrEqual(profilesTried, 100_000)
        XCTAssertGreaterThan(verdicts[.equivalent, default: 0], 5, "\(verdicts)")
        XCTAssertGreaterThan(verdicts[.changed, default: 0], 5, "\(verdicts)")
        XCTAssertLessThanOrEqual(verdicts[.undecided, default: 0], 2, "\(verdicts)")
    }
}
