import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// The options of a string field with patterns, against brute force: every short string over
/// a small alphabet (cases, a sign that lowercases to `k`, white space, an accent) gives a
/// vector of truth values that the complete table lists, and every concrete option gives its
/// own vector when evaluated.
final class PatternOptionsRandomTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000

    /// The scalars the brute force spells strings with.
    static let letters: [String] = ["a", "b", "A", "B", "k", "\u{212A}", " ", "é", "É", "-"]

    /// A random pattern over the letters: literals, classes, `.`, groups with alternation and
    /// quantifiers (never on a group that repeats without bound).
    private func pattern(_ generator: inout ReferenceDraw.Generator, depth: Int = 0) -> (text: String, unbounded: Bool) {
        var text = ""
        var unbounded = false
        for _ in 0..<(1 + Int(generator.next() % 3)) {
            var atom: String
            var atomUnbounded = false
            switch generator.next() % 7 {
            case 0: atom = "[ab]"
            case 1: atom = "[^a]"
            case 2: atom = "."
            case 3 where depth < 2:
                let left = pattern(&generator, depth: depth + 1), right = pattern(&generator, depth: depth + 1)
                atom = "(\(left.text)|\(right.text))"
                atomUnbounded = left.unbounded || right.unbounded
            default: atom = ["a", "b", "A", "k", "K", "é", " ", "\\-"][Int(generator.next() % 8)]
            }
            switch generator.next() % 6 {
            case 0: atom += "?"
            case 1 where !atomUnbounded: atom += "*"; atomUnbounded = true
            case 2 where !atomUnbounded: atom += "+"; atomUnbounded = true
            case 3 where !atomUnbounded: atom += "{1,2}"
            default: break
            }
            text += atom
            unbounded = unbounded || atomUnbounded
        }
        return (text, unbounded)
    }

    private func comparison(_ generator: inout ReferenceDraw.Generator) -> String {
        let fold = generator.next() % 3 == 0 ? " ignoring case" : ""
        let literal = ["a", "ab", "A", "K", "é", "bA"][Int(generator.next() % 6)]
        switch generator.next() % 6 {
        case 0: return #"x == "\#(literal)""# + fold
        case 1: return #"x contains "\#(literal)""# + fold
        case 2: return #"x starts with "\#(literal)""# + fold
        default: return "x matches /\(pattern(&generator).text)/" + fold
        }
    }

    /// Every string of up to `length` letters.
    private func strings(upTo length: Int) -> [String] {
        var all: [String] = [""]
        var layer: [String] = [""]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in Self.letters.map { prefix + $0 } }
            all += layer
        }
        return all
    }

    func testEveryShortStringsVectorIsAnOptionAndEveryOptionIsReal() throws {
        var generator = ReferenceDraw.Generator(seed: 0x5EED_0012)
        let samples = strings(upTo: 3)
        var complete = 0
        for round in 0..<40 {
            let comparisons = (0..<(2 + Int(generator.next() % 3))).map { _ in comparison(&generator) }
            for field in ["x", "profile.email"] {
                let written = comparisons.map { field == "x" ? $0 : "profile.email" + $0.dropFirst() }
                var rules = "attribute x: string\n"
                for (number, text) in written.enumerated() { rules += "segment s\(number) = \(text)\naudience a\(number) = s\(number)\n" }
                rules += "placement p {\n" + written.indices.map { "  a\($0) -> flow \"f\($0)\"\n" }.joined() + "}\n"
                let program = checkedProgram(rules)
                let graph = ConditionGraph(program)
                let key: FieldKey = field == "x" ? .custom("x") : .builtin("email")
                let variable = try XCTUnwrap(graph.variables.first { $0.field == key }, "round \(round)")
                let table = VariableOptions.table(variable, graph: graph, now: Self.now, budget: 1_000_000)
                let atoms = variable.atoms.map { graph.atoms[$0] }
                func vector(_ value: ExampleValue) -> [Bool]? {
                    guard let profile = OptionTableBuilder.profile(variable.field, value) else { return nil }
                    return atoms.map { $0.test.holds($0.slot!.read(from: profile, now: Self.now), now: Self.now) }
                }
                var listed: Set<[Bool]> = []
                for option in 0..<table.values.count {
                    let expected = (0..<table.atomCount).map { table.holds(option: option, atom: $0) }
                    listed.insert(expected)
                    guard option < table.concreteCount, let value = table.values[option] else { continue }
                    XCTAssertEqual(vector(value), expected, "round \(round), \(written): \(value)")
                }
                guard table.isComplete else { continue }
                complete += 1
                for text in samples {
                    guard let found = vector(.json(.string(text))) else { continue }
                    XCTAssertTrue(listed.contains(found), "round \(round), \(written): \"\(text)\" gives \(found), not an option")
                }
            }
        }
        XCTAssertGreaterThan(complete, 70, "most tables are decided")
    }
}
