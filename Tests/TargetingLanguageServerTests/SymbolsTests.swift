import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// `textDocument/documentSymbol` and `workspace/symbol`.
final class SymbolsTests: XCTestCase {
    private let rules = """
        attribute experience: string one of ["pro"]
        input scr/exp -> experience
        segment pros = experience == "pro"
        audience top = pros
        placement home {
          top -> split "exp1" {
            50% -> flow "a"
            50% -> nothing
          }
          everyone -> flow "b"
        }

        """

    private let tests = """
        test "pros see a" {
          now 2026-01-01
          expect home -> flow "a"
        }

        test "everyone else sees b" {
          now 2026-01-01
          expect home -> flow "b"
        }

        """

    /// Document symbols as indented `name kind [detail] range selectionRange` lines.
    private func outline(_ symbols: JSONValue?, depth: Int = 0) -> [String] {
        var out: [String] = []
        for symbol in symbols?.arrayValue ?? [] {
            var line = String(repeating: "  ", count: depth) + (symbol["name"]?.stringValue ?? "?") + " \(symbol["kind"]?.intValue ?? -1)"
            if let detail = symbol["detail"]?.stringValue { line += " [\(detail)]" }
            line += " " + (symbol["range"]?.rangeText ?? "?") + " " + (symbol["selectionRange"]?.rangeText ?? "?")
            out.append(line)
            out += outline(symbol["children"], depth: depth + 1)
        }
        return out
    }

    /// Workspace symbols as `name kind file range [container]` lines.
    private func found(_ symbols: JSONValue?) -> [String] {
        (symbols?.arrayValue ?? []).map { symbol in
            let uri = symbol["location", "uri"]?.stringValue ?? "?"
            var line = (symbol["name"]?.stringValue ?? "?") + " \(symbol["kind"]?.intValue ?? -1) " + uri.replacingOccurrences(of: "file:///w/", with: "")
            line += " " + (symbol["location", "range"]?.rangeText ?? "?")
            if let container = symbol["containerName"]?.stringValue { line += " in " + container }
            return line
        }
    }

    func testARulesFileOutlinesItsDeclarationsWithPlacementRowsAsChildren() {
        var server = FeatureTestServer()
        server.open("/w/a.rules", rules)
        XCTAssertEqual(outline(server.result("textDocument/documentSymbol", path: "/w/a.rules")), [
            #"experience 7 [string one of ["pro"]] 0:0-0:43 0:10-0:20"#,
            "scr/exp 24 [-> experience] 1:0-1:27 1:6-1:13",
            "pros 13 2:0-2:34 2:8-2:12",
            "top 5 3:0-3:19 3:9-3:12",
            "home 3 4:0-10:1 4:10-4:14",
            #"  top 5 [split "exp1"] 5:2-8:3 5:2-5:5"#,
            "    exp1 22 [split] 5:9-8:3 5:15-5:21",
            #"      50% 16 [flow "a"] 6:4-6:19 6:4-6:6"#,
            "      50% 16 [nothing] 7:4-7:18 7:4-7:6",
            #"  everyone 5 [flow "b"] 9:2-9:22 9:2-9:10"#,
        ])
    }

    func testExperimentsHoldTheirVariantsAndExperimentRowsTheirArms() {
        var server = FeatureTestServer()
        server.open("/w/a.rules", """
            experiment px by profile.customer_user_id {
              60% a
              40% b
            }
            placement home {
              everyone -> px {
                a -> flow "x"
                b -> nothing
              }
            }
            holdout h 5% by profile.id except home

            """)
        XCTAssertEqual(outline(server.result("textDocument/documentSymbol", path: "/w/a.rules")), [
            "px 10 [experiment by profile.customer_user_id] 0:0-3:1 0:11-0:13",
            "  a 22 [60%] 1:2-1:7 1:6-1:7",
            "  b 22 [40%] 2:2-2:7 2:6-2:7",
            "home 3 4:0-9:1 4:10-4:14",
            "  everyone 5 [px] 5:2-8:3 5:2-5:10",
            #"    a 22 [flow "x"] 6:4-6:17 6:4-6:5"#,
            "    b 22 [nothing] 7:4-7:16 7:4-7:5",
            "h 10 [holdout 5% by profile.id except home] 10:0-10:38 10:8-10:9",
        ])
        // The experiment and the holdout are declarations of the workspace; variants are not.
        let response = server.request("workspace/symbol", .object(["query": .string("")]))
        XCTAssertEqual(found(response["result"]), ["px 10 a.rules 0:0-3:1", "home 3 a.rules 4:0-9:1", "h 10 a.rules 10:0-10:38"])
    }

    func testATestsFileOutlinesOneSymbolPerTest() {
        var server = FeatureTestServer(files: ["/w/a.rules": rules])
        server.open("/w/a.tests", tests)
        XCTAssertEqual(outline(server.result("textDocument/documentSymbol", path: "/w/a.tests")), [
            "pros see a 12 0:0-3:1 0:5-0:17",
            "everyone else sees b 12 5:0-8:1 5:5-5:27",
        ])
    }

    func testADeclarationThatFailsToParseIsOutlinedByItsName() {
        var server = FeatureTestServer()
        server.open("/w/a.rules", "segment pros = experience ==\nsegment 😀 = 1\naudience top = pros\n")
        let names = outline(server.result("textDocument/documentSymbol", path: "/w/a.rules"))
        XCTAssertEqual(names.first, "pros 13 0:8-0:12 0:8-0:12")
        XCTAssertEqual(names.last, "top 5 2:0-2:19 2:9-2:12")
    }

    func testAnEmptyQueryFindsEveryDeclarationOfTheWorkspace() {
        var server = FeatureTestServer(files: ["/w/a.rules": rules, "/w/a.tests": tests])
        let response = server.request("workspace/symbol", .object(["query": .string("")]))
        XCTAssertEqual(found(response["result"]), [
            "experience 7 a.rules 0:0-0:43",
            "scr/exp 24 a.rules 1:0-1:27",
            "pros 13 a.rules 2:0-2:34",
            "top 5 a.rules 3:0-3:19",
            "home 3 a.rules 4:0-10:1",
            "exp1 22 a.rules 5:9-8:3 in home",
            "pros see a 12 a.tests 0:0-3:1",
            "everyone else sees b 12 a.tests 5:0-8:1",
        ])
    }

    func testAQueryMatchesItsCharactersInOrderIgnoringCasePrefixesFirst() {
        var server = FeatureTestServer(files: ["/w/a.rules": rules, "/w/a.tests": tests])
        let exp = server.request("workspace/symbol", .object(["query": .string("EXP")]))["result"]
        XCTAssertEqual(found(exp).map { $0.prefix { $0 != " " } }, ["experience", "exp1", "scr/exp"])
        let ranked = server.request("workspace/symbol", .object(["query": .string("E")]))["result"]
        XCTAssertEqual(ranked?.arrayValue?.compactMap { $0["name"]?.stringValue },
                       ["experience", "exp1", "everyone else sees b", "scr/exp", "home", "pros see a"])
        let subsequence = server.request("workspace/symbol", .object(["query": .string("hm")]))["result"]
        XCTAssertEqual(found(subsequence).map { $0.prefix { $0 != " " } }, ["home"])
        let none = server.request("workspace/symbol", .object(["query": .string("zz")]))["result"]
        XCTAssertEqual(none, .array([]))
    }

    func testAnOpenDocumentReplacesItsFileOnDisk() {
        var server = FeatureTestServer(files: ["/w/a.rules": rules])
        server.open("/w/a.rules", "segment renamed = x == 1\n")
        let response = server.request("workspace/symbol", .object(["query": .string("")]))
        XCTAssertEqual(found(response["result"]), ["renamed 13 a.rules 0:0-0:24"])
    }
}
