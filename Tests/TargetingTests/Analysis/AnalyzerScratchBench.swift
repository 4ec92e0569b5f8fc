import Foundation
import XCTest
@testable import Targeting

final class AnalyzerScratchBench: XCTestCase {
    struct Rng { var state: UInt64; mutating func next(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int((state >> 33) % UInt64(n)) } }

    func run(_ name: String, _ text: String) {
        let loaded = LoadedRules(sources: [SourceFile(path: "b.rules", text: text)])
        let errors = loaded.diagnostics.filter(\.isError)
        if !errors.isEmpty { print(name, "ERRORS", errors.prefix(3).map(describe)); return }
        ProfileSearch.debugTableNanos = 0; ProfileSearch.debugOptions = 0; ProfileSearch.debugDecisions = 0
        let start = Date()
        let found = Analyzer.analyze(loaded.ruleSet)
        let t = Date().timeIntervalSince(start)
        print("BENCH \(name): \(t)s warnings=\(found.count) unreachable=\(found.filter{$0.code=="unreachable-row"}.count) fall=\(found.filter{$0.code=="placement-falls-through"}.count) tables=\(Double(ProfileSearch.debugTableNanos)/1e9) options=\(ProfileSearch.debugOptions) decisions=\(ProfileSearch.debugDecisions)")
    }

    func placements(_ n: Int) -> String {
        let rows = (0..<n).map { "  a\($0) -> flow \"f\($0)\"\n" }.joined()
        return "placement with_default {\n\(rows)  everyone -> flow \"default\"\n}\nplacement without_default {\n\(rows)}\nplacement reversed {\n" + (0..<n).reversed().map { "  a\($0) -> flow \"f\($0)\"\n" }.joined() + "}\n"
    }

    func testShapes() {
        for seed in 1...3 {
            var rng = Rng(state: UInt64(seed))
            // numeric ranges over few attributes, OR audiences
            var text = (0..<10).map { "attribute n\($0): number\n" }.joined()
            for i in 0..<1000 { let lo = rng.next(100); text += "segment s\(i) = n\(rng.next(10)) between \(lo) and \(lo + rng.next(30))\n" }
            for a in 0..<10 { text += "audience a\(a) = " + (0..<100).map { _ in "s\(rng.next(1000))" }.joined(separator: " or ") + "\n" }
            run("ranges-or-\(seed)", text + placements(10))
            // and-of-or mixtures
            text = (0..<30).map { "attribute n\($0): number\n" }.joined()
            for i in 0..<1000 {
                if i < 300 { let lo = rng.next(100); text += "segment s\(i) = n\(rng.next(30)) \(["<", ">", "==", ">="][rng.next(4)]) \(lo)\n" }
                else { text += "segment s\(i) = " + (0..<3).map { _ in (rng.next(2) == 0 ? "not " : "") + "s\(rng.next(i))" }.joined(separator: rng.next(2) == 0 ? " and " : " or ") + "\n" }
            }
            for a in 0..<10 { text += "audience a\(a) = " + (0..<100).map { _ in (rng.next(3) == 0 ? "not " : "") + "s\(rng.next(1000))" }.joined(separator: rng.next(2) == 0 ? " or " : " and ") + "\n" }
            run("mixed-\(seed)", text + placements(10))
            // strings with patterns
            text = (0..<20).map { "attribute t\($0): string\n" }.joined()
            for i in 0..<1000 {
                let op = ["==", "contains", "starts with", "ends with", "!="][rng.next(5)]
                text += "segment s\(i) = t\(rng.next(20)) \(op) \"\(["a","b","ab","ba","abc","c"][rng.next(6)])\"\(rng.next(4)==0 ? " ignoring case" : "")\n"
            }
            for a in 0..<10 { text += "audience a\(a) = " + (0..<100).map { _ in (rng.next(3) == 0 ? "not " : "") + "s\(rng.next(1000))" }.joined(separator: rng.next(2) == 0 ? " or " : " and ") + "\n" }
            run("strings-\(seed)", text + placements(10))
            // ORs of ANDs of pairs - covering-style
            text = (0..<12).map { "attribute b\($0): bool\n" }.joined()
            for i in 0..<1000 { text += "segment s\(i) = b\(rng.next(12)) == \(rng.next(2)==0) and b\(rng.next(12)) == \(rng.next(2)==0)\n" }
            for a in 0..<10 { text += "audience a\(a) = " + (0..<100).map { _ in "s\(rng.next(1000))" }.joined(separator: " or ") + "\n" }
            run("bool-pairs-\(seed)", text + placements(10))
        }
    }
}
