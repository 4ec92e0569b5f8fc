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

/// A misspelled keyword gets the keyword it most likely is, and the declaration it breaks is
/// abandoned, so nothing it misread (a segment named like the attribute) is reported too.
final class MisspelledKeywordTests: XCTestCase {
    private func check(_ text: String) -> [Diagnostic] { diagnostics(text, file: "main.rules") }

    func testAMisspelledOperatorNamesTheOperatorAndNothingElse() {
        let source = MarkedSource("segment s = daily_minutes 1️⃣betwen 10 and 20\naudience a = s\nplacement p {\n  a -> flow \"f\"\n  everyone -> nothing\n}\n")
        let found = check(source.text)
        XCTAssertEqual(found.filter(\.isError).count, 1, describe(found))
        let error = assertDiagnostic(in: found, severity: .error, code: "syntax", messageContains: "unexpected `betwen` after the expression", at: source.position())
        XCTAssertEqual(error?.help, "did you mean `between`?")
        XCTAssertFalse(found.contains { $0.message.contains("daily_minutes") || $0.message.contains("unknown segment") }, describe(found))
    }

    func testAMisspelledConnectiveAndDeclarationKeyword() {
        let connective = MarkedSource("segment s = goal == \"x\" 1️⃣adn level == 2\n")
        XCTAssertEqual(assertDiagnostic(in: check(connective.text), severity: .error, code: "syntax", messageContains: "unexpected `adn`",
                                        at: connective.position())?.help, "did you mean `and`?")
        let declaration = MarkedSource("segment s = goal == \"x\"\n1️⃣placment p {\n  everyone -> nothing\n}\n")
        XCTAssertEqual(assertDiagnostic(in: check(declaration.text), severity: .error, code: "syntax", messageContains: "expected a declaration",
                                        at: declaration.position())?.help, "did you mean `placement`?")
    }
}
