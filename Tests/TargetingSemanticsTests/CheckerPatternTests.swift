import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSemantics

/// `matches`: pattern errors at the offending character, the operator's types, the lexer's
/// reading of `/…/` only after the word, and `one of` values no pattern accepts.
final class CheckerPatternTests: XCTestCase {
    func testAPatternErrorPointsAtTheCharacterInsideTheSlashes() {
        let found = assertDiagnostic(#"segment s = promo matches /é1️⃣\s+/"#, severity: .error, code: "invalid-pattern",
                                     messageContains: "unknown escape `\\s`")
        XCTAssertEqual(found?.help, "write `[ \\t]` or the characters themselves, or compare the trimmed value")
        XCTAssertEqual(found?.range.end.column, (found?.range.start.column ?? 0) + 2, "the escape's two characters")
        assertDiagnostic(#"segment s = promo matches /(a+)1️⃣*/"#, severity: .error, code: "invalid-pattern", messageContains: "nested repetition")
        assertDiagnostic(#"segment s = promo matches /1️⃣(?i)abc/"#, severity: .error, code: "invalid-pattern", messageContains: "`(?`")
        assertDiagnostic(#"segment s = promo matches /ab1️⃣^c/"#, severity: .error, code: "invalid-pattern", messageContains: "`^` is allowed only at the start")
        assertDiagnostic(#"segment s = promo matches /[1️⃣A-z]/ ignoring case"#, severity: .error, code: "invalid-pattern",
                         messageContains: "range mixes upper- and lowercase letters")
    }

    func testThePatternMustBeWrittenBetweenSlashesOnOneLine() {
        let quoted = assertDiagnostic(#"segment s = promo matches 1️⃣"abc""#, severity: .error, code: "syntax",
                                      messageContains: "expected a pattern `/…/` after `matches`, found string literal")
        XCTAssertEqual(quoted?.help, "a pattern is written between slashes, not quotes: `/abc/`")
        assertDiagnostic("segment s = promo matches 1️⃣/abc\nsegment t = promo == \"x\"", severity: .error, code: "unterminated-pattern",
                         messageContains: "unterminated pattern")
    }

    func testMatchesAppliesToStringsOnly() {
        assertDiagnostic("attribute n: number\nsegment s = n 1️⃣matches /1/", severity: .error, code: "operator-mismatch",
                         messageContains: "operator `matches` does not apply to `n` of type `number`")
        assertDiagnostic("attribute tags: set\nsegment s = tags 1️⃣matches /a/", severity: .error, code: "operator-mismatch",
                         messageContains: "operator `matches` does not apply to `tags` of type `set`")
        let undeclared = diagnostics("segment s = code matches /a+/")
        XCTAssertTrue(undeclared.contains { $0.code == "undeclared-attribute" && ($0.help ?? "").contains("attribute code: string") },
                      undeclared.map(describe).joined(separator: "\n"))
        XCTAssertFalse(undeclared.contains { $0.isError })
    }

    func testMatchesStaysUsableAsANameAndBesideAnInputsSlash() {
        let found = diagnostics("""
        attribute matches: string
        input scr/matches -> matches
        segment a = matches == "x"
        segment b = matches matches /x|y/
        audience both = a and b
        placement p {
          both -> flow "f"
          everyone -> nothing
        }
        """)
        XCTAssertFalse(found.contains { $0.isError }, found.map(describe).joined(separator: "\n"))
    }

    func testAPatternNoListedValueMatchesIsWarned() {
        let found = assertDiagnostic("""
        attribute level: string one of ["beginner", "pro"]
        segment s = level matches 1️⃣/expert|master/
        """, severity: .warning, code: "fragment-never-matches", messageContains: "no value of `level` matches `/expert|master/`")
        XCTAssertEqual(found?.help, "the values are `beginner`, `pro`")
        let quiet = diagnostics("""
        attribute level: string one of ["beginner", "pro"]
        segment s = level matches /PRO/ ignoring case
        """)
        XCTAssertFalse(quiet.contains { $0.code == "fragment-never-matches" }, quiet.map(describe).joined(separator: "\n"))
    }
}
