import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// The language server on `ATTR matches /PATTERN/ [ignoring case]`: hover shows an example
/// value the pattern accepts, completion offers a pattern after `matches` and what may follow
/// one, and semantic tokens mark `matches` as a keyword and the pattern as `regexp`.
final class PatternTests: XCTestCase {
    private let rules = """
        segment corp = profile.email matches /[a-z0-9._-]+@(corp|staff)\\.example\\.com/
        segment promos = promo matches /BF-\\d{4}/ ignoring case
        segment broken = sku matches /(pro|plus/
        segment tick = code matches /a`b/
        """ + "\n"

    private func hover(_ line: Int, _ character: Int) -> JSONValue? {
        var harness = ServerHarness(["/w/p.rules": rules])
        _ = harness.open("p.rules", rules)
        return harness.result("textDocument/hover", ServerHarness.at("p.rules", line, character))
    }

    private func hoverText(_ line: Int, _ character: Int) -> String { hover(line, character)?["contents", "value"]?.stringValue ?? "" }

    func testHoverOnAPatternShowsItsShortestValue() {
        XCTAssertEqual(hoverText(0, 45), """
            pattern `/[a-z0-9._-]+@(corp|staff)\\.example\\.com/`: matches the whole value

            e.g. `"a@corp.example.com"` (the shortest value it accepts)
            """)
        // The range is the pattern's, slashes included.
        let range = hover(0, 45)?["range"]
        XCTAssertEqual(range?["start", "character"]?.intValue, 37)
        XCTAssertEqual(range?["end", "character"]?.intValue, 78)
    }

    func testHoverOnMatchesDescribesItsPattern() {
        XCTAssertEqual(hoverText(1, 25), """
            pattern `/BF-\\d{4}/` ignoring case: matches the whole value, lowercased

            e.g. `"bf-0000"` (the shortest value it accepts)
            """)
        XCTAssertEqual(hoverText(1, 25), hoverText(1, 36))
    }

    func testHoverOnAnInvalidPatternSaysWhy() {
        let text = hoverText(2, 32)
        XCTAssertTrue(text.hasPrefix("pattern `/(pro|plus/`: not a pattern: unclosed `(`"), text)
        XCTAssertTrue(text.contains("help: "), text)
    }

    func testHoverFencesAPatternHoldingABacktick() {
        XCTAssertTrue(hoverText(3, 28).hasPrefix("pattern ``/a`b/``: matches the whole value\n\ne.g. ``\"a`b\"``"), hoverText(3, 28))
    }

    func testTheSubjectOfMatchesStillHoversAsAnAttribute() {
        XCTAssertTrue(hoverText(1, 18).contains("`promo`"), hoverText(1, 18))
    }

    func testTheDescriptionOfAPatternThatAcceptsNothing() {
        XCTAssertEqual(LanguageServer.inlineCode("/a/"), "`/a/`")
        XCTAssertEqual(LanguageServer.inlineCode("`x``"), "``` `x`` ```")
        let text = LanguageServer.describePattern("a", ignoringCase: false, written: "/a/")
        XCTAssertTrue(text.hasSuffix("e.g. `\"a\"` (the shortest value it accepts)"), text)
    }
}

/// Completion and semantic tokens around a pattern.
extension CompletionTests {

    func testAfterMatchesAPatternIsOffered() {
        let items = items("segment s = experience matches |")
        XCTAssertEqual(items.compactMap { $0["label"]?.stringValue }, ["/…/"])
        XCTAssertEqual(edit(items.first), "0:31-31 /.*/")
        XCTAssertNil(items.first?["insertTextFormat"])
    }

    func testAClientThatTakesSnippetsGetsThePatternBodySelected() {
        let capabilities: JSONValue = .object(["textDocument": .object(["completion": .object(["completionItem": .object(["snippetSupport": .bool(true)])])])])
        var harness = ServerHarness(["/w/a.rules": "segment s = x matches \n"], capabilities: capabilities)
        _ = harness.open("a.rules", "segment s = x matches \n")
        let items = harness.result("textDocument/completion", ServerHarness.at("a.rules", 0, 22))?.arrayValue ?? []
        XCTAssertEqual(items.first?["label"]?.stringValue, "/…/")
        XCTAssertEqual(items.first?["textEdit", "newText"]?.stringValue, "/${1:.*}/")
        XCTAssertEqual(items.first?["insertTextFormat"]?.intValue, 2)
    }

    func testAfterAPatternIgnoringCaseAndTheConnectivesAreOffered() {
        XCTAssertEqual(labels("segment s = experience matches /a+/ |"), ["and", "or", "ignoring case"])
        XCTAssertEqual(labels("segment s = experience matches /a+/|"), ["and", "or", "ignoring case"])
        XCTAssertEqual(labels("segment s = experience matches /a+/ ignoring |"), ["case"])
        XCTAssertEqual(labels("segment s = experience matches /a+/ ignoring case |"), ["and", "or"])
    }

    func testNothingIsOfferedInsideAPattern() {
        XCTAssertEqual(labels("segment s = experience matches /a|b/"), [])
        XCTAssertEqual(labels("segment s = experience matches /a |"), [])
    }

}

/// Semantic tokens of a comparison with a pattern.
extension SemanticTokensTests {
    func testMatchesIsAKeywordAndThePatternARegexp() {
        var server = FeatureTestServer()
        server.open("/w/a.rules", "segment s = matches matches /a b/ ignoring case\n")
        let data = server.result("textDocument/semanticTokens/full", path: "/w/a.rules")?["data"]?.arrayValue?.compactMap(\.intValue) ?? []
        var tokens: [String] = []
        var column = 0
        for index in stride(from: 0, to: data.count - 4, by: 5) {
            column = data[index] == 0 ? column + data[index + 1] : data[index + 1]
            tokens.append("\(column)+\(data[index + 2]) \(LanguageServer.tokenTypes[data[index + 3]])")
        }
        // An attribute named `matches` stays a property; the operator word is a keyword.
        XCTAssertEqual(tokens, ["0+7 keyword", "8+1 variable", "10+1 operator", "12+7 property", "20+7 keyword", "28+5 regexp",
                                "34+8 keyword", "43+4 keyword"])
    }
}
