import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// Byte offsets (the diagnostics' 1-based scalar columns) against LSP's 0-based UTF-16 positions.
final class LineIndexTests: XCTestCase {
    private func index(_ text: String) -> LineIndex { LineIndex(SourceFile(path: "t.rules", text: text)) }

    func testEmojiTakeTwoUnitsAndCJKOne() {
        let text = "a = \"😀中\" # é😀\nb"
        let lines = index(text)
        let bytes = Array(text.utf8)
        func offset(of needle: String) -> Int {
            let n = Array(needle.utf8)
            return (0...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }!
        }
        XCTAssertEqual(lines.position(of: offset(of: "😀")), LSPPosition(line: 0, character: 5))
        XCTAssertEqual(lines.position(of: offset(of: "中")), LSPPosition(line: 0, character: 7))
        XCTAssertEqual(lines.position(of: offset(of: "\" #")), LSPPosition(line: 0, character: 8))
        XCTAssertEqual(lines.position(of: offset(of: "é")), LSPPosition(line: 0, character: 12))
        XCTAssertEqual(lines.position(of: bytes.count - 1), LSPPosition(line: 1, character: 0))
        // And back, for every scalar boundary.
        for (number, scalar) in text.unicodeScalars.enumerated() where scalar != "\n" {
            let before = String(String.UnicodeScalarView(text.unicodeScalars.prefix(number)))
            let position = lines.position(of: before.utf8.count)
            XCTAssertEqual(lines.offset(of: position), before.utf8.count, "scalar \(number)")
        }
    }

    func testPositionsPastTheEndAreClamped() {
        let lines = index("ab\r\ncd\n")
        XCTAssertEqual(lines.offset(of: LSPPosition(line: 0, character: 99)), 2, "end of line 0, before CRLF")
        XCTAssertEqual(lines.offset(of: LSPPosition(line: 1, character: 1)), 5)
        XCTAssertEqual(lines.offset(of: LSPPosition(line: 9, character: 0)), 7, "end of file")
        XCTAssertEqual(lines.position(of: 1_000), LSPPosition(line: 2, character: 0))
        XCTAssertEqual(lines.position(of: 3), LSPPosition(line: 0, character: 2), "inside CRLF: the end of the line")
    }

    func testAPositionInsideASurrogatePairMovesToItsScalar() {
        let lines = index("😀x")
        XCTAssertEqual(lines.offset(of: LSPPosition(line: 0, character: 1)), 0)
        XCTAssertEqual(lines.offset(of: LSPPosition(line: 0, character: 2)), 4)
    }

    func testDiagnosticColumnsConvert() {
        // `中` is column 9 in diagnostic terms (1-based scalars) and character 8 in LSP terms.
        let text = "segment 中 = x\n"
        let file = SourceFile(path: "t.rules", text: text)
        let position = LineIndex(file).position(of: Array("segment ".utf8).count)
        XCTAssertEqual(position, LSPPosition(line: 0, character: 8))
    }

    func testURIsRoundTrip() {
        for path in ["/w/a.rules", "/tmp/my rules/ü.rules", "/a%b/c#d.tests"] {
            XCTAssertEqual(DocumentURI.path(of: DocumentURI.uri(of: path)), path)
        }
        XCTAssertEqual(DocumentURI.uri(of: "/my rules/a.rules"), "file:///my%20rules/a.rules")
        XCTAssertEqual(DocumentURI.path(of: "file://localhost/x/y.rules"), "/x/y.rules")
        XCTAssertNil(DocumentURI.path(of: "untitled:1"))
    }
}
