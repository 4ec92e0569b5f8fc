import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSyntax

/// `always` begins a row only when an audience follows it, so an audience may still be named
/// `always`.
final class AlwaysRowParserTests: XCTestCase {
    private func parse(_ text: String) -> (RuleFile, [Diagnostic]) {
        Parser.parseRules(SourceFile(path: "p.rules", text: text))
    }

    func testAlwaysBeforeAnAudienceOrEveryoneMarksTheRow() throws {
        let (file, diagnostics) = parse("""
        placement p {
          always premium -> nothing
          always always -> paywall "x"
          always -> paywall "y"
          always everyone -> paywall "z"
        }
        """)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        XCTAssertEqual(ASTDump.file(file), [#"placement p { always premium -> nothing; always always -> paywall "x"; always -> paywall "y"; always everyone -> paywall "z" }"#])
        guard case .placement(let placement) = try XCTUnwrap(file.declarations.first) else { return XCTFail("a placement") }
        let always = try XCTUnwrap(placement.rows[0].always)
        XCTAssertEqual([always.start.line, always.start.column, always.end.column], [2, 3, 9])
        XCTAssertEqual(placement.rows[0].range.start.column, 3, "the row starts at its `always`")
        XCTAssertTrue(placement.rows[0].appliesWhenHeldOut)
        XCTAssertFalse(placement.rows[2].appliesWhenHeldOut, "`always -> …` is a row of the audience `always`")
        XCTAssertEqual(placement.rows[2].audience.name, "always")
        XCTAssertTrue(placement.rows[3].appliesWhenHeldOut)
    }

    func testAlwaysElsewhereIsAName() {
        let (file, diagnostics) = parse("segment always = x == 1\naudience always = always\nplacement p { always -> nothing }")
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        XCTAssertEqual(ASTDump.file(file).last, "placement p { always -> nothing }")
    }

    func testAlwaysWithoutAnArrowIsASyntaxErrorAtWhatFollows() {
        let source = MarkedSource("placement p {\n  always premium 1️⃣nothing\n}")
        let (_, diagnostics) = parse(source.text)
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "`->`", at: source.position(), path: "p.rules")
    }
}
