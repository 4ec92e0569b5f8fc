import XCTest
import TargetingBase
import TargetingFormatting
@testable import TargetingLanguageServer

/// `textDocument/formatting`: one whole-document edit with the formatter's output, none when
/// formatted, a JSON-RPC error when the file does not parse.
final class FormattingTests: XCTestCase {
    private func format(_ path: String, _ text: String) -> JSONValue {
        var server = FeatureTestServer()
        server.open(path, text)
        return server.request("textDocument/formatting", .object([
            "textDocument": .object(["uri": .string("file://" + path)]),
            "options": .object(["tabSize": .int(2), "insertSpaces": .bool(true)]),
        ]))
    }

    func testAnUnformattedFileIsReplacedByTheFormattersOutput() throws {
        let text = "segment   pros=experience==\"pro\"  # 😀 note\naudience top =\n  pros\n"
        let expected = try TargetingFormatting.Formatter.format(SourceFile(path: "/w/a.rules", text: text)).get()
        XCTAssertEqual(expected, "segment pros = experience == \"pro\"  # 😀 note\naudience top = pros\n")
        let edits = format("/w/a.rules", text)["result"]?.arrayValue ?? []
        XCTAssertEqual(edits.count, 1)
        XCTAssertEqual(edits.first?["range"]?.rangeText, "0:0-3:0")
        XCTAssertEqual(edits.first?["newText"]?.stringValue, expected)
    }

    func testTheEditEndsAtTheLastCharacterOfAFileWithoutAFinalNewline() {
        let result = format("/w/a.rules", "segment pros = x == 1\nsegment  b = y == \"😀\"")["result"]?.arrayValue ?? []
        XCTAssertEqual(result.first?["range"]?.rangeText, "0:0-1:22")
        XCTAssertEqual(result.first?["newText"]?.stringValue, "segment pros = x == 1\nsegment b = y == \"😀\"\n")
    }

    func testAFormattedFileNeedsNoEdit() {
        let response = format("/w/a.rules", "segment pros = experience == \"pro\"\n")
        XCTAssertEqual(response["result"], .array([]))
        XCTAssertNil(response["error"])
    }

    func testATestsFileIsFormattedAsATestsFile() {
        let text = "test \"a\" {\nnow 2026-01-01\n  expect   home -> flow \"a\"\n}\n"
        let result = format("/w/a.tests", text)["result"]?.arrayValue ?? []
        XCTAssertEqual(result.first?["newText"]?.stringValue, "test \"a\" {\n  now 2026-01-01\n  expect home -> flow \"a\"\n}\n")
    }

    func testAFileWithSyntaxErrorsIsAnErrorResponse() {
        let response = format("/w/a.rules", "segment pros = experience ==\n")
        XCTAssertNil(response["result"])
        XCTAssertEqual(response["error", "code"]?.intValue, -32803)
        XCTAssertEqual(response["error", "message"]?.stringValue, "the file has a syntax error")
        let two = format("/w/a.rules", "segment = 1\naudience = 2\n")
        XCTAssertEqual(two["error", "message"]?.stringValue, "the file has 2 syntax errors")
    }

    func testAnUnknownDocumentGetsNoEdits() {
        var server = FeatureTestServer()
        let response = server.request("textDocument/formatting", .object(["textDocument": .object(["uri": .string("file:///w/none.rules")])]))
        XCTAssertEqual(response["result"], .null)
    }
}
