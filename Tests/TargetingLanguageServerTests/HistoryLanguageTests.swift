import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// The language server on caps: completion of placement names after `shown` and `last shown`,
/// hover on the subjects, and the placement's name inside a cap as a placement occurrence.
final class HistoryLanguageTests: XCTestCase {
    private let rules = """
        segment capped = shown main_paywall in 7d < 3
        segment rested = last shown main_paywall <= now - 3d
        audience a = capped and rested
        placement main_paywall {
          a -> paywall "x"
          everyone -> paywall "y"
        }
        placement onboarding {
          everyone -> flow "f"
        }
        """ + "\n"

    private func hoverText(_ line: Int, _ character: Int) -> String {
        var harness = ServerHarness(["/w/h.rules": rules])
        _ = harness.open("h.rules", rules)
        return harness.result("textDocument/hover", ServerHarness.at("h.rules", line, character))?["contents", "value"]?.stringValue ?? ""
    }

    /// The completion labels at the `|` of `document`, beside `CompletionTests.base`.
    private func labels(_ document: String) -> [String] {
        let parts = document.components(separatedBy: "|")
        let lines = parts[0].components(separatedBy: "\n")
        var server = LanguageServer(files: CompletionTestFiles(files: ["/w/base.rules": CompletionTests.base]), clock: { 0 })
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"),
                                   "params": .object(["rootUri": .string("file:///w")])]))
        let uri = "file:///w/edit.rules"
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/didOpen"), "params": .object([
            "textDocument": .object(["uri": .string(uri), "languageId": .string("targeting"), "version": .int(1), "text": .string(parts.joined())]),
        ])]))
        let response = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(2), "method": .string("textDocument/completion"), "params": .object([
            "textDocument": .object(["uri": .string(uri)]),
            "position": .object(["line": .int(lines.count - 1), "character": .int(lines[lines.count - 1].utf16.count)]),
        ])]))
        return (response.first?["result"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
    }

    func testCompletionOffersPlacementsAfterShownAndLastShown() {
        XCTAssertEqual(Array(labels("segment s = shown |").prefix(1)), ["onboarding"])
        XCTAssertTrue(labels("segment s = shown |").contains("=="), "`shown` may still be an attribute")
        XCTAssertEqual(labels("segment s = last shown |"), ["onboarding"])
        XCTAssertEqual(labels("segment s = x == 1 and last shown on|"), ["onboarding"])
        XCTAssertEqual(Array(labels("segment s = last |").prefix(1)), ["shown"])
        XCTAssertEqual(Array(labels("segment s = shown onboarding |").prefix(1)), ["in"])
        XCTAssertNotEqual(labels("segment s = last shown onboarding |").first, "in")
        XCTAssertTrue(labels("segment s = last shown onboarding |").contains("<="))
    }

    func testHoverDescribesTheSubjects() {
        XCTAssertEqual(hoverText(0, 18), "`shown main_paywall in 7d`: number, how many times placement `main_paywall` was shown in the rolling window (now − 7d, now]; 0 without history, compared with `==`, `!=`, `<`, `<=`, `>` or `>=` and a whole number from 0 to 100")
        XCTAssertTrue(hoverText(1, 19).hasPrefix("`last shown main_paywall`: date, the latest instant placement `main_paywall` was shown"), hoverText(1, 19))
        // On the placement's name: the placement.
        XCTAssertTrue(hoverText(0, 25).contains("placement main_paywall {"), hoverText(0, 25))
    }
}
