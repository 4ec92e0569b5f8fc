import XCTest
@testable import TargetingBase

final class DiagnosticRendererTests: XCTestCase {
    private func render(_ text: String, line: Int, column: Int, length: Int) -> String {
        let file = SourceFile(path: "r.rules", text: text)
        // Byte offsets as the lexer records them: the line's start plus the bytes of the scalars before the column.
        func offset(_ column: Int) -> Int {
            let scalars = Array(file.lineText(line).unicodeScalars)
            return file.lineStarts[line - 1] + scalars.prefix(column - 1).reduce(0) { $0 + String($1).utf8.count }
        }
        let start = SourcePosition(offset: offset(column), line: line, column: column)
        let end = SourcePosition(offset: offset(column + length), line: line, column: column + length)
        let diagnostic = Diagnostic(.error, .syntax, "message", at: SourceRange(file: "r.rules", start: start, end: end), help: "a hint")
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

    /// A long line is cut from its bytes around the column exactly as a short excerpt would be.
    func testLongLineWindowMatchesTheWholeLineCut() {
        for (prefix, column) in [(String(repeating: "é", count: 1500), 1501), (String(repeating: "\t", count: 30) + String(repeating: "x", count: 2000), 31), ("ab", 3)] {
            let line = prefix + "TARGET" + String(repeating: "z", count: 1200)
            let windowed = render(line, line: 1, column: column, length: 6)
            let range = SourceRange(file: "r.rules", start: SourcePosition(offset: 0, line: 1, column: column),
                                    end: SourcePosition(offset: 0, line: 1, column: column + 6))
            let whole = DiagnosticRenderer.excerpt(of: Array(line.unicodeScalars), range: range)
            XCTAssertTrue(windowed.contains("1 | \(whole.line)\n  | \(whole.caret)\n"), windowed)
        }
    }
}
