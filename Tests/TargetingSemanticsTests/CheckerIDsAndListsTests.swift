import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase

/// Destination ids, values listed twice, fragments of `one of` attributes and input sources
/// (the edge cases "More edges").
final class CheckerIDsAndListsTests: XCTestCase {
    private let audiences = """
    segment pros = experience == "pro"
    segment amateurs = experience == "amateur"
    audience a = pros
    audience b = amateurs

    """

    /// The errors of loading `text`.
    private func errors(_ text: String) -> [Diagnostic] { diagnostics(text).filter(\.isError) }

    /// Asserts the error at the marker and that it is the only error of the file.
    private func assertOnlyError(_ marked: String, code: String, messageContains: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        assertDiagnostic(marked, severity: .error, code: code, messageContains: messageContains, file: file, line: line)
        let found = errors(MarkedSource(marked).text)
        XCTAssertEqual(found.count, 1, "expected exactly one error:\n\(describe(found))", file: file, line: line)
    }

    /// Asserts the warning at the marker and that the file has no error.
    @discardableResult
    private func assertWarningOnly(_ marked: String, code: String, messageContains: String,
                                   file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        let found = assertDiagnostic(marked, severity: .warning, code: code, messageContains: messageContains, file: file, line: line)
        let errors = errors(MarkedSource(marked).text)
        XCTAssertEqual(errors, [], describe(errors), file: file, line: line)
        return found
    }

    /// Asserts that `text` loads with no diagnostic of `code`.
    private func assertNo(_ code: String, in text: String, file: StaticString = #filePath, line: UInt = #line) {
        let all = diagnostics(text)
        XCTAssertFalse(all.contains { $0.code == code }, describe(all), file: file, line: line)
        XCTAssertEqual(all.filter(\.isError), [], describe(all), file: file, line: line)
    }

    // MARK: - Destination ids

    func testAnEmptyFlowIDInAPlacementRowIsAnErrorAtTheString() {
        assertOnlyError(audiences + """
        placement p {
          a -> flow 1️⃣""
          everyone -> flow "x"
        }
        """, code: "empty-destination-id", messageContains: "a flow id cannot be empty")
    }

    func testAnEmptyPaywallIDIsAnErrorAtTheStringWhereverItIsWritten() {
        assertOnlyError(audiences + """
        placement p { a -> paywall "x" everyone -> paywall
          1️⃣"" }
        """, code: "empty-destination-id", messageContains: "a paywall id cannot be empty")
    }

    func testAnEmptyIDInASplitVariantIsAnErrorWhateverItsNeighbours() {
        assertOnlyError(audiences + """
        placement p { a -> split "s" { 50% -> flow "x" 50% -> flow 1️⃣"" } }
        """, code: "empty-destination-id", messageContains: "a flow id cannot be empty")
        // Next to `nothing` (which sorts as the empty id) it is still this error, not a duplicate.
        assertOnlyError(audiences + """
        placement p { a -> split "s" { 50% -> nothing 50% -> paywall 1️⃣"" } }
        """, code: "empty-destination-id", messageContains: "a paywall id cannot be empty")
    }

    func testAnEmptySplitIDStaysAnError() {
        assertOnlyError(audiences + """
        placement p { a -> split 1️⃣"" { 50% -> flow "x" 50% -> flow "y" } }
        """, code: "empty-split-id", messageContains: "a split id cannot be empty")
    }

    func testAOneCharacterIDIsFine() {
        assertNo("empty-destination-id", in: audiences + """
        placement p { a -> flow " " b -> split "s" { 50% -> flow "x" 50% -> nothing } everyone -> flow "y" }
        """)
    }

    func testAnEmptyIDKeepsTheRuleSetFromLoading() {
        let text = audiences + #"placement p { everyone -> flow "" }"#
        XCTAssertThrowsError(try RuleSet(source: text, fileName: "main.rules")) { error in
            let codes = (error as? RuleSetError)?.diagnostics.map(\.code) ?? []
            XCTAssertTrue(codes.contains("empty-destination-id"), "\(codes)")
        }
    }

    // MARK: - Values listed twice

    func testAValueListedTwiceInOneOfIsAWarningAtTheSecond() {
        let warning = assertWarningOnly("""
        attribute level: string one of ["a", "b", 1️⃣"a"]
        segment s = level == "a"
        """, code: "duplicate-value", messageContains: "`a` is listed twice")
        XCTAssertEqual(warning?.help, "first listed at main.rules:1:33")
    }

    func testAValueListedTwiceInSetOfIsAWarningAtTheSecond() {
        assertWarningOnly("""
        attribute tags: set of ["x", "y",
          "y", 1️⃣"x"]
        segment s = tags has "y"
        """, code: "duplicate-value", messageContains: "`x` is listed twice")
    }

    func testARuleSetWithAValueListedTwiceLoadsAndKeepsTheValueOnce() throws {
        let rules = try RuleSet(source: """
        attribute level: string one of ["a", "a", "b"]
        segment s = level == "a"
        audience x = s
        placement p { x -> flow "f" everyone -> nothing }
        """, fileName: "main.rules")
        XCTAssertTrue(rules.warnings.contains { $0.code == "duplicate-value" }, describe(rules.warnings))
        let profile = try Profile(jsonData: Data(#"{"id":"u","custom_attributes":{"level":"a"}}"#.utf8))
        XCTAssertEqual(try rules.resolve("p", for: profile).flowID, "f")
    }

    func testValuesThatDifferOnlyInCaseAreNotListedTwice() {
        assertNo("duplicate-value", in: """
        attribute level: string one of ["a", "A"]
        segment s = level == "a"
        """)
    }

    // MARK: - Fragments of `one of` attributes

    func testFragmentsOfAOneOfAttributeAreNotCheckedAsValues() {
        assertNo("fragment-never-matches", in: """
        attribute level: string one of ["beginner", "amateur", "pro"]
        segment a = level contains "ate"
        segment b = level starts with "be"
        segment c = level ends with "ro"
        segment d = profile.platform starts with "i"
        segment e = profile.gender contains ""
        segment f = profile.attribution_status ends with "organic"
        segment g = profile.platform starts with "IOS" ignoring case
        segment h = level contains "PRO" ignoring case
        """)
    }

    func testAFragmentNoBuiltinValueSatisfiesIsAWarningAtTheLiteral() {
        let warning = assertWarningOnly(#"segment s = profile.platform starts with 1️⃣"x""#,
                                        code: "fragment-never-matches", messageContains: "no value of `profile.platform` starts with `x`")
        XCTAssertEqual(warning?.help, "the values are `ios`, `ipados`, `macos`, `visionos`, `android`")
        assertWarningOnly(#"segment s = profile.gender contains 1️⃣"fm""#,
                          code: "fragment-never-matches", messageContains: "no value of `profile.gender` contains `fm`")
        assertWarningOnly(#"segment s = profile.attribution_status ends with 1️⃣"Organic""#,
                          code: "fragment-never-matches", messageContains: "ends with `Organic`")
    }

    func testAFragmentNoDeclaredValueSatisfiesIsAWarning() {
        assertWarningOnly("""
        attribute level: string one of ["beginner", "amateur", "pro"]
        segment s = level starts with 1️⃣"PRO"
        """, code: "fragment-never-matches", messageContains: "no value of `level` starts with `PRO`")
        assertWarningOnly("""
        attribute level: string one of ["beginner", "amateur", "pro"]
        segment s = not (level contains 1️⃣"expert" ignoring case)
        """, code: "fragment-never-matches", messageContains: "no value of `level` contains `expert`")
    }

    func testAFragmentIsComparedByItsBytes() {
        // "é" written precomposed in the value and decomposed in the fragment: different bytes.
        assertWarningOnly("""
        attribute word: string one of ["caf\u{E9}"]
        segment s = word ends with 1️⃣"e\u{301}"
        """, code: "fragment-never-matches", messageContains: "ends with")
    }

    func testAFragmentOfAnUnlistedAttributeIsNotWarned() {
        assertNo("fragment-never-matches", in: """
        attribute nickname: string
        segment a = nickname starts with "zz"
        segment b = profile.country contains "qq"
        segment c = undeclared_key ends with "zz"
        """)
    }

    // MARK: - Input sources

    func testTwoInputsWithOneSourceAreAnErrorWhateverTheirTargets() {
        let found = diagnostics(files: [
            (path: "a.rules", text: "input quiz/level -> level\n"),
            (path: "b.rules", text: "input `quiz`/\"level\" -> other_level\n"),
        ])
        let error = assertDiagnostic(in: found, severity: .error, code: "duplicate-input", messageContains: "input `level` is already declared",
                                     at: MarkedSource.Position(line: 1, column: 7), path: "b.rules")
        XCTAssertEqual(error?.help, "first declared at a.rules:1:7")
    }

    func testTwoSourcesWritingOneTargetStayAllowed() {
        let found = diagnostics("""
        input email -> profile.email
        input quiz/email -> profile.email
        input other/mail -> profile.email
        """)
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
        XCTAssertEqual(found.filter { $0.code == "shared-input-target" }.count, 2, describe(found))
    }
}
