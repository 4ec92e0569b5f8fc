import XCTest
@testable import TargetingBase

final class DiagnosticRendererTests: XCTestCase {
    private func render(_ text: String, line: Int, column: Int, length: Int) -> String {
        let file = SourceFile(path: "r.rules", text: text)
        let start = SourcePosition(offset: 0, line: line, column: column)
        let end = SourcePosition(offset: 0, line: line, column: column + length)
        let diagnostic = Diagnostic(.error, "test", "message", at: SourceRange(file: "r.rules", start: start, end: end), help: "a hint")
        return DiagnosticRenderer(files: [file]).text(diagnostic)
    }

    func testShortLineIsQuotedWholeWithCaretAndHelp() {
        XCTAssertEqual(render("audience a = prso and b\n", line: 1, column: 14, length: 4), """
        r.rules:1:14: error: message
          |
        1 | audience a = prso and b
          |              ^~~~
          = help: a hint

        """)
    }

    func testTabsAreKeptInTheCaretLineAndGutterWidensForLongLineNumbers() {
        let text = String(repeating: "\n", count: 11) + "\tx == 1\n"
        XCTAssertEqual(render(text, line: 12, column: 2, length: 1), """
        r.rules:12:2: error: message
           |
        12 | \tx == 1
           | \t^
           = help: a hint

        """)
    }

    func testVeryLongLinesAreCutAroundTheColumn() {
        let line = String(repeating: "a", count: 1000) + "TARGET" + String(repeating: "b", count: 1000)
        let output = render(line, line: 1, column: 1001, length: 6)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[2].hasPrefix("1 | …"), lines[2])
        XCTAssertTrue(lines[2].hasSuffix("…"), lines[2])
        XCTAssertLessThanOrEqual(lines[2].unicodeScalars.count, DiagnosticRenderer.maxExcerptWidth + 10)
        // The caret sits under TARGET.
        let quoted = Array(lines[2].unicodeScalars)
        let caretColumn = Array(lines[3].unicodeScalars).firstIndex(of: "^")!
        XCTAssertEqual(String(String.UnicodeScalarView(quoted[caretColumn..<(caretColumn + 6)])), "TARGET")
        XCTAssertTrue(lines[3].hasSuffix("^~~~~~"), lines[3])
    }
}
