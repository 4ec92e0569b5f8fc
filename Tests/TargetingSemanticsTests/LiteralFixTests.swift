import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingSemantics
@testable import TargetingSyntax

/// A literal of the wrong type gets the rewrite into its attribute's type: in the help line and
/// as a fix over the literal's span, and applying that fix makes the rules check clean.
final class LiteralFixTests: XCTestCase {
    private let declarations = """
    attribute hours: number
    attribute reminders: bool
    attribute goal_date: date
    attribute sdk_version: version
    attribute nickname: string
    attribute plan: string one of ["5", "10"]
    attribute tags: set
    attribute interests: set of ["5", "music"]

    """

    /// The text with `fixes` applied, later spans first so earlier offsets stay valid.
    private func applying(_ fixes: [Fix], to text: String) -> String {
        var bytes = Array(text.utf8)
        for fix in fixes.sorted(by: { $0.range.start.offset > $1.range.start.offset }) {
            bytes.replaceSubrange(fix.range.start.offset..<fix.range.end.offset, with: Array(fix.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Asserts that the segment `marked` (literal between 1️⃣ and 2️⃣) is a type mismatch with
    /// `help` and a fix writing `replacement` over exactly that literal, and that the rules
    /// with the fix applied have no error. Returns the fix.
    @discardableResult
    private func assertFix(_ marked: String, help: String, replacement: String, certain: Bool = true,
                           file: StaticString = #filePath, line: UInt = #line) -> Fix? {
        let source = MarkedSource(declarations + marked)
        let start = source.position("1️⃣", file: file, line: line), end = source.position("2️⃣", file: file, line: line)
        let found = diagnostics(source.text)
        guard let diagnostic = assertDiagnostic(in: found, severity: .error, code: "type-mismatch", messageContains: "but",
                                                at: start, file: file, line: line) else { return nil }
        XCTAssertEqual(diagnostic.help, help, file: file, line: line)
        guard let fix = diagnostic.fix else {
            XCTFail("no fix: \(describe(diagnostic))", file: file, line: line)
            return nil
        }
        XCTAssertEqual(fix.replacement, replacement, file: file, line: line)
        XCTAssertEqual(fix.isCertain, certain, file: file, line: line)
        XCTAssertEqual(fix.range.file, "main.rules", file: file, line: line)
        XCTAssertEqual(MarkedSource.Position(line: fix.range.start.line, column: fix.range.start.column), start, file: file, line: line)
        XCTAssertEqual(MarkedSource.Position(line: fix.range.end.line, column: fix.range.end.column), end, file: file, line: line)
        let fixed = applying([fix], to: source.text)
        let errors = diagnostics(fixed).filter(\.isError)
        XCTAssertEqual(errors, [], "after the fix:\n\(fixed)\n\(describe(errors))", file: file, line: line)
        return fix
    }

    /// Asserts that the literal at 1️⃣ is a type mismatch without a help line or a fix.
    private func assertNoFix(_ marked: String, file: StaticString = #filePath, line: UInt = #line) {
        let source = MarkedSource(declarations + marked)
        let found = diagnostics(source.text)
        guard let diagnostic = assertDiagnostic(in: found, severity: .error, code: "type-mismatch", messageContains: "but",
                                                at: source.position(file: file, line: line), file: file, line: line) else { return }
        XCTAssertNil(diagnostic.fix, describe(diagnostic), file: file, line: line)
        XCTAssertNil(diagnostic.help, describe(diagnostic), file: file, line: line)
    }

    func testQuotedNumberIsUnquoted() {
        assertFix(#"segment s = hours == 1️⃣"5"2️⃣"#, help: "write `5` without quotes", replacement: "5")
        assertFix(#"segment s = hours between 1️⃣" -2.5 "2️⃣ and 10"#, help: "write `-2.5` without quotes", replacement: "-2.5")
    }

    func testQuotedNumberTheGrammarDoesNotReadGetsNoFix() {
        assertNoFix(#"segment s = hours == 1️⃣"five""#)
        assertNoFix(#"segment s = hours == 1️⃣"1e3""#)
        assertNoFix(#"segment s = hours == 1️⃣".5""#)
        assertNoFix(#"segment s = hours == 1️⃣"inf""#)
        assertNoFix(#"segment s = hours == 1️⃣"5 # five""#)
    }

    func testQuotedBoolIsUnquoted() {
        assertFix(#"segment s = reminders == 1️⃣"true"2️⃣"#, help: "write `true` without quotes", replacement: "true")
        assertFix(#"segment s = reminders != 1️⃣"FALSE"2️⃣"#, help: "write `false` without quotes", replacement: "false")
    }

    func testBoolAsTheNumberItIsStoredAsIsWrittenAsBool() {
        assertFix("segment s = reminders == 1️⃣12️⃣", help: "write `true`", replacement: "true")
        assertFix("segment s = reminders == 1️⃣02️⃣", help: "write `false`", replacement: "false")
        assertNoFix("segment s = reminders == 1️⃣2")
    }

    func testBoolInWordsIsOnlyAGuess() {
        assertFix(#"segment s = reminders == 1️⃣"yes"2️⃣"#, help: #"if `"yes"` means true, write `true`"#, replacement: "true", certain: false)
        assertFix(#"segment s = reminders == 1️⃣"Off"2️⃣"#, help: #"if `"Off"` means false, write `false`"#, replacement: "false", certain: false)
        assertNoFix(#"segment s = reminders == 1️⃣"maybe""#)
    }

    func testQuotedDateAndInstantAreUnquoted() {
        assertFix(#"segment s = goal_date < 1️⃣"2008-12-01"2️⃣"#, help: "write `2008-12-01` without quotes", replacement: "2008-12-01")
        assertFix(#"segment s = profile.created_at >= 1️⃣"2026-11-29T12:00:00Z"2️⃣"#,
                  help: "write `2026-11-29T12:00:00Z` without quotes", replacement: "2026-11-29T12:00:00Z")
        assertFix(#"segment s = goal_date == 1️⃣"2026-11-29T12:00:00+01:00"2️⃣"#,
                  help: "write `2026-11-29T12:00:00+01:00` without quotes", replacement: "2026-11-29T12:00:00+01:00")
        // Not a day of the calendar: unquoting it would only trade one error for another.
        assertNoFix(#"segment s = goal_date < 1️⃣"2008-13-01""#)
        assertNoFix(#"segment s = goal_date < 1️⃣"yesterday""#)
    }

    func testNumberWhereAVersionIsDeclaredIsQuoted() {
        assertFix("segment s = sdk_version >= 1️⃣4.22️⃣", help: #"write `"4.2"` in quotes"#, replacement: #""4.2""#)
        assertFix("segment s = profile.app_version < 1️⃣52️⃣", help: #"write `"5"` in quotes"#, replacement: #""5""#)
        assertNoFix("segment s = sdk_version >= 1️⃣-1")
        assertNoFix("segment s = sdk_version >= 1️⃣2008-12-01")
    }

    func testUnquotedLiteralWhereAStringIsDeclaredIsQuoted() {
        assertFix("segment s = nickname == 1️⃣52️⃣", help: #"write `"5"` in quotes"#, replacement: #""5""#)
        assertFix("segment s = nickname != 1️⃣true2️⃣", help: #"write `"true"` in quotes"#, replacement: #""true""#)
        assertFix("segment s = nickname in [1️⃣2008-12-012️⃣]", help: #"write `"2008-12-01"` in quotes"#, replacement: #""2008-12-01""#)
        assertFix("segment s = plan == 1️⃣102️⃣", help: #"write `"10"` in quotes"#, replacement: #""10""#)
        // `"7"` is not one of the values of `plan`, so quoting it is no fix.
        assertNoFix("segment s = plan == 1️⃣7")
        assertNoFix("segment s = nickname == 1️⃣now")
    }

    func testSetMemberIsQuoted() {
        assertFix("segment s = tags has 1️⃣52️⃣", help: #"write `"5"` in quotes"#, replacement: #""5""#)
        assertFix("segment s = interests has any [\"music\", 1️⃣52️⃣]", help: #"write `"5"` in quotes"#, replacement: #""5""#)
        assertNoFix("segment s = interests has all [1️⃣6]")
    }

    func testEveryItemOfAListGetsItsOwnFixAndTogetherTheyClearTheErrors() {
        let source = MarkedSource(declarations + #"segment s = hours in [1️⃣"1", 2️⃣"2", 3, 3️⃣"4"]"#)
        let mismatches = diagnostics(source.text).filter { $0.code == "type-mismatch" }
        XCTAssertEqual(mismatches.map { MarkedSource.Position(line: $0.line, column: $0.column) },
                       ["1️⃣", "2️⃣", "3️⃣"].map { source.position($0) })
        XCTAssertEqual(mismatches.compactMap(\.fix?.replacement), ["1", "2", "4"])
        let fixed = applying(mismatches.compactMap(\.fix), to: source.text)
        XCTAssertTrue(fixed.hasSuffix("segment s = hours in [1, 2, 3, 4]"), fixed)
        XCTAssertEqual(diagnostics(fixed).filter(\.isError), [])
    }

    func testDeclaredListOfAStringAttributeGetsQuotes() {
        let source = MarkedSource("attribute size: string one of [\"s\", 1️⃣422️⃣]\nsegment s = size == \"s\"\n")
        let mismatch = diagnostics(source.text).first { $0.code == "type-mismatch" }
        XCTAssertEqual(mismatch?.fix?.replacement, #""42""#)
        XCTAssertEqual(mismatch.map { MarkedSource.Position(line: $0.fix!.range.end.line, column: $0.fix!.range.end.column) }, source.position("2️⃣"))
        XCTAssertEqual(diagnostics(applying(mismatch?.fix.map { [$0] } ?? [], to: source.text)).filter(\.isError), [])
    }

    func testTestGivenValuesGetTheSameFix() {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: declarations + "segment s = reminders == true\n")])
        guard let checked = loaded.checked else { return XCTFail("rules have errors: \(describe(loaded.diagnostics))") }
        let tests = MarkedSource("""
        test "t" {
          given {
            profile.id = "u1"
            reminders = 1️⃣"true"2️⃣
            tags = ["a", 3️⃣74️⃣]
          }
          expect s
        }

        """)
        func check(_ text: String) -> [Diagnostic] {
            let (file, syntax) = Parser.parseTests(SourceFile(path: "main.tests", text: text))
            XCTAssertEqual(syntax, [], describe(syntax))
            return TestChecker.check([file], ruleSet: checked)
        }
        let found = check(tests.text)
        let bool = assertDiagnostic(in: found, severity: .error, code: "type-mismatch", messageContains: "but",
                                    at: tests.position("1️⃣"), path: "main.tests")
        XCTAssertEqual(bool?.help, "write `true` without quotes")
        XCTAssertEqual(bool?.fix?.replacement, "true")
        XCTAssertEqual(bool?.fix?.range.end.column, tests.position("2️⃣").column)
        let member = assertDiagnostic(in: found, severity: .error, code: "type-mismatch", messageContains: "but",
                                      at: tests.position("3️⃣"), path: "main.tests")
        XCTAssertEqual(member?.fix?.replacement, #""7""#)
        XCTAssertEqual(member?.fix?.range.end.column, tests.position("4️⃣").column)
        XCTAssertEqual(check(applying(found.compactMap(\.fix), to: tests.text)).filter(\.isError), [])
    }
}
