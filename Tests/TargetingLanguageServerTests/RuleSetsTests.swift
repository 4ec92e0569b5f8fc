import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// Two rule sets side by side under one workspace root, as `targeting diff old-rules/ Rules`
/// keeps them: each is analysed on its own.
final class RuleSetsTests: XCTestCase {
    private static let segments = """
    attribute experience: string one of ["pro", "amateur"]
    segment pros = experience == "pro"
    segment amateurs = experience == "amateur"
    """ + "\n"
    private static let placements = """
    audience pro_people = pros
    audience casuals = amateurs
    placement main {
      pro_people -> flow "f_pro"
      casuals -> flow "f_casual"
      everyone -> flow "f_default"
    }
    """ + "\n"
    private static let tests = """
    test "pros" {
      given {
        experience = "pro"
      }
      expect main -> flow "f_pro"
    }
    """ + "\n"
    private let files = [
        "/w/old-rules/segments.rules": segments,
        "/w/old-rules/placements.rules": placements,
        "/w/old-rules/main.tests": tests,
        "/w/Rules/segments.rules": segments,
        "/w/Rules/placements.rules": placements.replacingOccurrences(of: "f_pro", with: "f_pro_v2"),
        "/w/Rules/main.tests": tests.replacingOccurrences(of: "f_pro", with: "f_pro_v2"),
    ]

    private func harness(options: JSONValue? = nil) -> (ServerHarness, [String: [JSONValue]]) {
        var harness = ServerHarness(files)
        var published: [String: [JSONValue]] = [:]
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            published.merge(harness.open(String(path.dropFirst(3)), text)) { $1 }
        }
        return (harness, published)
    }

    func testEachRuleSetIsCheckedOnItsOwn() {
        let (_, published) = harness()
        XCTAssertEqual(published.count, 6)
        for (uri, diagnostics) in published {
            XCTAssertEqual(diagnostics.map { $0["message"]?.stringValue ?? "" }, [], uri)
        }
    }

    func testAnErrorInOneRuleSetStaysThere() {
        var (harness, _) = harness()
        let published = harness.change("Rules/segments.rules", ServerHarness.segmentsWithTypo)
        XCTAssertFalse((published[ServerHarness.uri("Rules/segments.rules")] ?? []).isEmpty, "`experiense` is reported")
        XCTAssertEqual(published[ServerHarness.uri("old-rules/segments.rules")] ?? [], [], "the other rule set has no error")
    }

    func testRenameReferencesAndDefinitionStayInOneRuleSet() throws {
        var (harness, _) = harness()
        let edit = try XCTUnwrap(harness.result("textDocument/rename", ServerHarness.at("Rules/segments.rules", 1, 9, ["newName": .string("experts")])))
        XCTAssertEqual(edit["changes"]?.objectKeys, [ServerHarness.uri("Rules/placements.rules"), ServerHarness.uri("Rules/segments.rules")])
        let references = harness.result("textDocument/references", ServerHarness.at("old-rules/placements.rules", 0, 23,
                                                                                  ["context": .object(["includeDeclaration": .bool(true)])]))?.arrayValue ?? []
        XCTAssertEqual(Set(references.compactMap { $0["uri"]?.stringValue }), [ServerHarness.uri("old-rules/placements.rules"), ServerHarness.uri("old-rules/segments.rules")])
        let definition = harness.result("textDocument/definition", ServerHarness.at("Rules/main.tests", 4, 10))?.arrayValue ?? []
        XCTAssertEqual(definition.compactMap { $0["uri"]?.stringValue }, [ServerHarness.uri("Rules/placements.rules")])
        let hover = harness.result("textDocument/hover", ServerHarness.at("old-rules/main.tests", 4, 10))?["contents", "value"]?.stringValue ?? ""
        XCTAssertTrue(hover.contains("flow \"f_pro\""), hover)
        XCTAssertFalse(hover.contains("f_pro_v2"), hover)
    }

    func testATestsFileIsCheckedAgainstItsOwnRuleSet() {
        var (harness, _) = harness()
        // `f_pro` is a flow of the old rules only: in the new rule set's tests it cannot be shown.
        let published = harness.change("Rules/main.tests", RuleSetsTests.tests)
        let codes = published[ServerHarness.uri("Rules/main.tests")]?.compactMap { $0["code"]?.stringValue } ?? []
        XCTAssertFalse(codes.isEmpty, "expecting `f_pro` of the new rules is reported")
        XCTAssertEqual(published[ServerHarness.uri("old-rules/main.tests")] ?? [], [])
    }

    func testTheSettingNamesTheRuleSets() {
        // Without the setting, `v1` and `v2` (neither named `Rules`, their parent holding rules
        // files of its own) would be one rule set with `targeting/`, full of duplicates.
        let files = [
            "/w/targeting/shared.rules": "attribute level: number\n",
            "/w/targeting/v1/a.rules": "segment high = level > 10\n",
            "/w/targeting/v2/a.rules": "segment high = level > 20\n",
        ]
        func duplicates(_ options: JSONValue?) -> Int {
            var harness = ServerHarness(files, initializationOptions: options)
            var count = 0
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                for (_, diagnostics) in harness.open(String(path.dropFirst(3)), text) {
                    count += diagnostics.filter { ($0["code"]?.stringValue ?? "").contains("duplicate") }.count
                }
            }
            return count
        }
        XCTAssertGreaterThan(duplicates(nil), 0)
        XCTAssertEqual(duplicates(.object(["rules": .array([.string("targeting/v1"), .string("targeting/v2")])])), 0)
        var harness = ServerHarness(files, initializationOptions: .object(["rules": .string("targeting/v2")]))
        harness.open("targeting/v2/a.rules", files["/w/targeting/v2/a.rules"]!)
        XCTAssertEqual(harness.server.analysis(of: "/w/targeting/v2/a.rules")?.directory, "/w/targeting/v2")
        XCTAssertEqual(harness.server.analysis(of: "/w/targeting/v1/a.rules")?.sources.keys.sorted(), ["/w/targeting/shared.rules", "/w/targeting/v1/a.rules"])
    }
}

extension ServerHarness {
    /// `RuleSetsTests.segments` with `experience` misspelled in one segment.
    static let segmentsWithTypo = """
    attribute experience: string one of ["pro", "amateur"]
    segment pros = experiense == "pro"
    segment amateurs = experience == "amateur"
    """ + "\n"
}

extension JSONValue {
    /// The keys of an object, sorted.
    var objectKeys: [String] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.key).sorted()
    }
}
