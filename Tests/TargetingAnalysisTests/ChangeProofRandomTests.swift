import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `diff --prove` over generated rule pairs: every witness moves as reported, and no
/// `equivalent` verdict is contradicted by random profiles (100,000 in all).
final class ChangeProofRandomTests: XCTestCase {
    /// A small seeded generator (SplitMix64), so a failure names a reproducible seed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let header = """
    attribute level: string one of ["a", "b", "c"]
    attribute hours: number
    attribute tags: set of ["x", "y", "z"]
    attribute opted: bool

    """

    /// One comparison, from a pool whose constants overlap so that rows interact.
    static func comparison(_ random: inout Generator) -> String {
        let number = random.pick([0, 3, 5, 8])
        switch random.below(9) {
        case 0: return "level == \"\(random.pick(["a", "b", "c"]))\""
        case 1: return "level in [\"a\", \"\(random.pick(["b", "c"]))\"]"
        case 2: return "hours \(random.pick(["<", "<=", ">", ">=", "==", "!="])) \(number)"
        case 3: return "hours between \(number) and \(number + random.pick([0, 2, 5]))"
        case 4: return "tags has \"\(random.pick(["x", "y", "z"]))\""
        case 5: return "tags has \(random.pick(["any", "all", "none"])) [\"x\", \"\(random.pick(["y", "z"]))\"]"
        case 6: return "opted == \(random.pick(["true", "false"]))"
        case 7: return "\(random.pick(["hours", "level", "tags", "opted"])) is \(random.pick(["set", "not set"]))"
        default: return "profile.age >= \(random.pick([13, 18, 21]))"
        }
    }

    static func expression(_ random: inout Generator, depth: Int = 0) -> String {
        guard depth < 2, random.below(3) > 0 else { return comparison(&random) }
        let left = expression(&random, depth: depth + 1), right = expression(&random, depth: depth + 1)
        switch random.below(3) {
        case 0: return "(\(left) and \(right))"
        case 1: return "(\(left) or \(right))"
        default: return "not \(left)"
        }
    }

    /// A rule set: four segments, an audience each, a placement over them with a split.
    static func rules(_ segments: [String], rows: [Int], splitWeights: (Int, Int)) -> String {
        var text = header
        for (index, expression) in segments.enumerated() { text += "segment s\(index) = \(expression)\naudience a\(index) = s\(index)\n" }
        text += "placement p {\n"
        for row in rows {
            if row == 0 {
                text += "  a0 -> split \"t\" {\n    \(splitWeights.0)% -> flow \"f_x\"\n    \(splitWeights.1)% -> flow \"f_y\"\n  }\n"
            } else {
                text += "  a\(row) -> flow \"f\(row % 3)\"\n"
            }
        }
        return text + "  everyone -> flow \"f_default\"\n}\n"
    }

    static func randomProfile(_ random: inout Generator, index: Int) -> Profile {
        var custom: [String] = []
        if random.below(4) > 0 { custom.append("\"level\":\"\(random.pick(["a", "b", "c", "d"]))\"") }
        if random.below(4) > 0 { custom.append("\"hours\":\(random.pick([-1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13]))") }
        if random.below(4) > 0 { custom.append("\"tags\":\"\(random.pick(["x", "y", "z", "x,y", "y,z", "x,z", "x,y,z", "w"]))\"") }
        if random.below(4) > 0 { custom.append("\"opted\":\(random.pick(["1", "0", "2", "\"yes\""]))") }
        let birthday = random.below(4) > 0 ? ",\"birthday\":\"\(random.pick(["2014", "2008", "2005", "2004", "1990"]))-\(random.pick(["06-15", "11-30", "12-01"]))\"" : ""
        let json = "{\"id\":\"r\(index)\"\(birthday),\"custom_attributes\":{\(custom.joined(separator: ","))}}"
        return try! Profile(jsonData: Data(json.utf8))
    }

    func testWitnessesAreRealAndEquivalenceIsNotContradicted() throws {
        let now: Int64 = 1_796_040_000_000
        var random = Generator(state: 20_261_201)
        var verdicts: [ChangeProof.Status: Int] = [:]
        var profilesTried = 0
        for pair in 0..<60 {
            let segments = (0..<4).map { _ in Self.expression(&random) }
            var rows = [0, 1, 2, 3].shuffled(using: &random)
            let weights = (50, 50)
            let old = Self.rules(segments, rows: rows, splitWeights: weights)
            // One change: a new comparison, swapped rows, a dropped row, other weights, or a
            // rewrite that keeps the meaning (double negation).
            var newSegments = segments
            var newWeights = weights
            switch random.below(5) {
            case 0: newSegments[random.below(4)] = Self.expression(&random)
            case 1: rows.swapAt(0, random.below(4))
            case 2: rows.remove(at: random.below(rows.count))
            case 3: newWeights = (30, 70)
            default: let index = random.below(4); newSegments[index] = "not not (\(segments[index]))"
            }
            let new = Self.rules(newSegments, rows: rows, splitWeights: newWeights)
            let before = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "old.rules", text: old)]).program, "pair \(pair): \(old)")
            let after = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "new.rules", text: new)]).program, "pair \(pair): \(new)")
            let proof = ChangeProof.prove(old: before, new: after, now: now)
            let placement = proof.placements[0]
            verdicts[placement.status, default: 0] += 1
            for move in placement.transitions {
                let profile = try Profile(jsonData: Data(JSONWriter.write(move.witness).utf8))
                XCTAssertEqual(try before.decide(placement: 0, for: profile, now: now).get().outcome, move.from, "pair \(pair)")
                XCTAssertEqual(try after.decide(placement: 0, for: profile, now: now).get().outcome, move.to, "pair \(pair)")
            }
            // Random profiles: none takes a move the proof did not list.
            let listed = Set(placement.transitions.map { "\(String(describing: $0.from)) -> \(String(describing: $0.to))" })
            for index in 0..<(100_000 / 60 + 1) {
                let profile = Self.randomProfile(&random, index: index)
                profilesTried += 1
                let from = try before.decide(placement: 0, for: profile, now: now).get().outcome
                let to = try after.decide(placement: 0, for: profile, now: now).get().outcome
                guard from != to, placement.status != .undecided else { continue }
                let move = "\(String(describing: from)) -> \(String(describing: to))"
                XCTAssertTrue(listed.contains(move), "pair \(pair) (\(placement.status)): random profile \(JSONWriter.write(profile.json)) takes \(move), not in \(listed)\nOLD:\n\(old)\nNEW:\n\(new)")
                if !listed.contains(move) { return }
            }
        }
        XCTAssertGreaterThanOrEqual(profilesTried, 100_000)
        print("generated rule pairs: \(verdicts.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")); random profiles: \(profilesTried)")
        // The generator gives both verdicts, so both halves of the check ran.
        XCTAssertGreaterThan(verdicts[.equivalent, default: 0], 5, "\(verdicts)")
        XCTAssertGreaterThan(verdicts[.changed, default: 0], 5, "\(verdicts)")
        XCTAssertEqual(verdicts[.undecided, default: 0], 0, "small rule sets are settled within the budget: \(verdicts)")
    }
}

extension ChangeProofRandomTests.Generator: RandomNumberGenerator {}
