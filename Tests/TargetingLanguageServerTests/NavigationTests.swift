import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// Hover, definition, references and rename across rules and tests files.
final class NavigationTests: XCTestCase {
    private let files = [
        "/w/segments.rules": """
        attribute experience: string one of ["pro", "amateur"]
        segment pros = experience == "pro" # 😀 中文
        segment fresh = profile.installed_at >= now - 7d
        """ + "\n",
        "/w/placements.rules": """
        audience pro_people = pros and fresh
        placement main {
          pro_people -> flow "f_pro"
          everyone -> split "exp" {
            50% -> flow "a"
            50% -> nothing
          }
        }
        """ + "\n",
        "/w/main.tests": """
        test "pros" {
          now 2026-11-29T12:00:00Z
          given {
            experience = "pro"
          }
          expect main -> flow "f_pro"
        }
        """ + "\n",
    ]

    private func harness() -> ServerHarness {
        var harness = ServerHarness(files)
        for (path, text) in files { harness.open(String(path.dropFirst(3)), text) }
        return harness
    }

    private func hoverText(_ harness: inout ServerHarness, _ name: String, _ line: Int, _ character: Int) -> String {
        harness.result("textDocument/hover", ServerHarness.at(name, line, character))?["contents", "value"]?.stringValue ?? ""
    }

    func testHoverShowsExpressionsTypesRowsAndNow() {
        var harness = harness()
        let segment = hoverText(&harness, "placements.rules", 0, 23)
        XCTAssertTrue(segment.contains("segment pros = experience == \"pro\""), segment)
        XCTAssertTrue(segment.contains("segments.rules:2"), segment)
        let attribute = hoverText(&harness, "segments.rules", 1, 16)
        XCTAssertTrue(attribute.contains("`experience`: string, a custom attribute"), attribute)
        XCTAssertTrue(attribute.contains("one of `\"pro\"`, `\"amateur\"`"), attribute)
        XCTAssertTrue(attribute.contains("segments.rules:1"), attribute)
        let builtin = hoverText(&harness, "segments.rules", 2, 26)
        XCTAssertTrue(builtin.contains("`profile.installed_at`: date, a built-in profile field"), builtin)
        let row = hoverText(&harness, "placements.rules", 2, 4)
        XCTAssertTrue(row.contains("audience pro_people = pros and fresh"), row)
        XCTAssertTrue(row.contains("in placement `main`: `pro_people` → `flow \"f_pro\"`"), row)
        let now = hoverText(&harness, "segments.rules", 2, 42)
        XCTAssertEqual(now, "`now - 7d`: 2026-11-22T12:00:00Z at the current time")
        let placement = hoverText(&harness, "main.tests", 5, 10)
        XCTAssertTrue(placement.contains("pro_people -> flow \"f_pro\""), placement)
        let split = hoverText(&harness, "placements.rules", 3, 22)
        XCTAssertTrue(split.contains("50% -> nothing"), split)
        XCTAssertEqual(harness.result("textDocument/hover", ServerHarness.at("segments.rules", 1, 40)), .null, "a comment")
    }

    func testHoverOnARowSaysWhetherSomeProfileReachesIt() throws {
        let rules = """
        attribute plan: string one of ["a", "b"]
        segment on_a = plan == "a"
        segment on_b = plan == "b"
        segment either = plan in ["a", "b"]
        audience first = on_a
        audience second = on_b
        audience any_plan = either
        placement p {
          first -> flow "f1"
          second -> flow "f2"
          any_plan -> flow "f3"
          everyone -> flow "f0"
        }
        """ + "\n"
        var harness = ServerHarness(["/w/p.rules": rules])
        harness.open("p.rules", rules)
        let reachable = hoverText(&harness, "p.rules", 8, 3)
        XCTAssertTrue(reachable.contains(#"reachable at "#) && reachable.contains(#"e.g. `{"id":"witness","custom_attributes":{"plan":"a"}}`"#), reachable)
        let shadowed = hoverText(&harness, "p.rules", 10, 4)
        XCTAssertTrue(shadowed.contains("**never decides**"), shadowed)
        XCTAssertTrue(shadowed.contains("taken by the rows above"), shadowed)
    }

    func testDefinitionAndReferencesCrossFiles() {
        var harness = harness()
        let definition = harness.result("textDocument/definition", ServerHarness.at("placements.rules", 0, 23))?.arrayValue ?? []
        XCTAssertEqual(definition.map { $0["uri"]?.stringValue }, [ServerHarness.uri("segments.rules")])
        XCTAssertEqual(ServerHarness.span(definition.first?["range"]), [1, 8, 1, 12])
        let placement = harness.result("textDocument/definition", ServerHarness.at("main.tests", 5, 10))?.arrayValue ?? []
        XCTAssertEqual(ServerHarness.span(placement.first?["range"]), [1, 10, 1, 14])
        let references = harness.result("textDocument/references", ServerHarness.at("segments.rules", 1, 20,
                                                                                  ["context": .object(["includeDeclaration": .bool(true)])]))?.arrayValue ?? []
        let places = references.map { "\($0["uri"]?.stringValue ?? ""):\(ServerHarness.span($0["range"]))" }
        XCTAssertEqual(places, [
            "file:///w/main.tests:[3, 4, 3, 14]",
            "file:///w/segments.rules:[0, 10, 0, 20]",
            "file:///w/segments.rules:[1, 15, 1, 25]",
        ])
        let withoutDeclaration = harness.result("textDocument/references", ServerHarness.at("segments.rules", 1, 9,
                                                                                          ["context": .object(["includeDeclaration": .bool(false)])]))?.arrayValue ?? []
        XCTAssertEqual(withoutDeclaration.map { ServerHarness.span($0["range"]) }, [[0, 22, 0, 26]])
    }

    func testRenameEditsEveryFileAndKeepsTheRulesChecking() throws {
        var harness = harness()
        let edit = harness.result("textDocument/rename", ServerHarness.at("segments.rules", 0, 12, ["newName": .string("level")]))
        let changes = try XCTUnwrap(edit?["changes"])
        // The declaration, `input experience -> level` inserted after it, and the use.
        XCTAssertEqual(changes["file:///w/segments.rules"]?.arrayValue?.map { ServerHarness.span($0["range"]) }, [[0, 10, 0, 20], [1, 0, 1, 0], [1, 15, 1, 25]])
        XCTAssertEqual(changes["file:///w/main.tests"]?.arrayValue?.first?["newText"], .string("level"))
        let dashed = harness.result("textDocument/rename", ServerHarness.at("segments.rules", 0, 12, ["newName": .string("my-level")]))
        XCTAssertEqual(dashed?["changes", "file:///w/segments.rules"]?.arrayValue?.first?["newText"], .string("`my-level`"))
        let audience = harness.result("textDocument/rename", ServerHarness.at("placements.rules", 2, 4, ["newName": .string("experts")]))
        XCTAssertEqual(audience?["changes", "file:///w/placements.rules"]?.arrayValue?.count, 2)
        XCTAssertEqual(ServerHarness.span(harness.result("textDocument/prepareRename", ServerHarness.at("placements.rules", 1, 11))?["range"]), [1, 10, 1, 14])
    }

    func testRenameRefusesKeywordsTakenNamesAndBuiltins() {
        var harness = harness()
        func refusal(_ name: String, _ line: Int, _ character: Int, _ file: String = "segments.rules") -> String? {
            harness.request("textDocument/rename", ServerHarness.at(file, line, character, ["newName": .string(name)])).response?["error", "message"]?.stringValue
        }
        XCTAssertEqual(refusal("and", 1, 9), "`and` is a keyword")
        XCTAssertEqual(refusal("fresh", 1, 9), "a segment `fresh` already exists")
        XCTAssertEqual(refusal("pro_people", 1, 9), "an audience `pro_people` already exists")
        XCTAssertEqual(refusal("2x", 1, 9), "`2x` is not a name: use letters, digits and `_`, starting with a letter or `_`")
        XCTAssertEqual(refusal("x", 2, 26), "only segments, audiences, placements, experiments, variants, the holdout and custom attributes can be renamed")
        XCTAssertNil(harness.result("textDocument/prepareRename", ServerHarness.at("segments.rules", 2, 26)).flatMap { $0 == .null ? nil : $0 })
    }
}
