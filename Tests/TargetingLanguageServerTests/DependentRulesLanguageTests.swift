import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// The language server on rules that depend on rules: go to definition and rename of the
/// placement in `placement P -> …`, of the experiments and variants it names, and of a layer and
/// its experiments; the placements in `shown [P1, P2]`.
final class DependentRulesLanguageTests: XCTestCase {
    private let rules = """
        segment onboarded = placement onboarding -> [flow "f", pricing.low]
        segment tired = shown [onboarding, main_paywall] in 24h >= 2
        audience a = onboarded and not tired
        experiment pricing { 50% low 50% high }
        layer tests {
          60% pricing
        }
        placement onboarding {
          everyone -> pricing { low -> flow "f" high -> flow "g" }
        }
        placement main_paywall {
          a -> paywall "x"
          everyone -> paywall "y"
        }
        """ + "\n"

    private func definition(_ line: Int, _ character: Int) -> [Int] {
        var harness = ServerHarness(["/w/d.rules": rules])
        _ = harness.open("d.rules", rules)
        let found = harness.result("textDocument/definition", ServerHarness.at("d.rules", line, character))
        return ServerHarness.span(found?.arrayValue?.first?["range"] ?? found?["range"])
    }

    private func renamed(_ line: Int, _ character: Int, to name: String) -> [[Int]] {
        var harness = ServerHarness(["/w/d.rules": rules])
        _ = harness.open("d.rules", rules)
        let result = harness.result("textDocument/rename", ServerHarness.at("d.rules", line, character, ["newName": .string(name)]))
        let edits = result?["changes", ServerHarness.uri("d.rules")]?.arrayValue ?? []
        return edits.map { ServerHarness.span($0["range"]) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func testTheDefinitionOfThePlacementAPrerequisiteAsksAbout() {
        // `onboarding` in `placement onboarding -> …` (line 0, from character 30) is declared on line 7.
        XCTAssertEqual(definition(0, 34), [7, 10, 7, 20])
        // The experiment of `pricing.low`, and of a layer's member.
        XCTAssertEqual(definition(0, 58), [3, 11, 3, 18])
        XCTAssertEqual(definition(5, 7), [3, 11, 3, 18])
        // A placement of a count over several.
        XCTAssertEqual(definition(1, 40), [10, 10, 10, 22])
    }

    func testRenamingAPlacementRenamesItInPrerequisitesAndCaps() {
        XCTAssertEqual(renamed(7, 12, to: "intro"), [[0, 30, 0, 40], [1, 23, 1, 33], [7, 10, 7, 20]])
    }

    func testRenamingAnExperimentRenamesItInItsLayerAndPrerequisites() {
        XCTAssertEqual(renamed(3, 13, to: "price"), [[0, 55, 0, 62], [3, 11, 3, 18], [5, 6, 5, 13], [8, 14, 8, 21]])
    }
}
