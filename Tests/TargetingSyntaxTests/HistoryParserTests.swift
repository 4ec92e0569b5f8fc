import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSyntax

/// The history forms of the language: `shown PLACEMENT [in DURATION]` and `last shown PLACEMENT`
/// as comparison subjects, `sticky DURATION` on experiments, and the `shown`/`assigned` lines of
/// a test's `given { … }`.
final class HistoryParserTests: XCTestCase {
    private func parse(_ text: String) -> (RuleFile, [Diagnostic]) {
        Parser.parseRules(SourceFile(path: "p.rules", text: text))
    }

    /// The one comparison of `segment s = EXPRESSION`.
    private func comparison(_ expression: String, file: StaticString = #filePath, line: UInt = #line) -> Comparison? {
        let (parsed, diagnostics) = parse("segment s = " + expression)
        XCTAssertEqual(diagnostics, [], describe(diagnostics), file: file, line: line)
        guard case .segment(let segment)? = parsed.declarations.first else { return nil }
        return segment.expression.comparisons.first
    }

    private func subject(_ expression: String, file: StaticString = #filePath, line: UInt = #line) -> AttributeReference? {
        guard case .attribute(let reference)? = comparison(expression, file: file, line: line)?.subject else { return nil }
        return reference
    }

    func testShownReadsACountWithAndWithoutAWindow() throws {
        let windowed = try XCTUnwrap(subject("shown main_paywall in 7d < 3"))
        XCTAssertEqual(windowed.target, .shownCount(placements: ["main_paywall"], window: 7 * 86_400_000))
        XCTAssertEqual(windowed.placementNames.first?.text, "main_paywall")
        XCTAssertEqual(windowed.placementNames.first?.range.start.column, 19)
        XCTAssertEqual(windowed.window?.text, "7d")
        XCTAssertEqual(windowed.window?.range.start.column, 35)
        XCTAssertEqual(windowed.sourceText, "shown main_paywall in 7d")
        XCTAssertEqual(comparison("shown main_paywall in 7d < 3")?.op, .less)
        XCTAssertEqual(comparison("shown main_paywall in 7d < 3")?.operatorRange.start.column, 38)

        let ever = try XCTUnwrap(subject("shown onboarding >= 1"))
        XCTAssertEqual(ever.target, .shownCount(placements: ["onboarding"], window: nil))
        XCTAssertNil(ever.window)
        XCTAssertEqual(subject("shown p in 12h == 0")?.target, .shownCount(placements: ["p"], window: 12 * 3_600_000))
        XCTAssertEqual(subject("shown p in 30m == 0")?.target, .shownCount(placements: ["p"], window: 30 * 60_000))
    }

    func testLastShownReadsADate() throws {
        let last = try XCTUnwrap(subject("last shown main_paywall <= now - 3d"))
        XCTAssertEqual(last.target, .lastShown(placements: ["main_paywall"]))
        XCTAssertEqual(last.placementNames.first?.range.start.column, 24)
        XCTAssertEqual(last.sourceText, "last shown main_paywall")
        XCTAssertEqual(comparison("last shown x is not set")?.op, .isNotSet)
    }

    func testShownAndLastAreAttributesWhereNoPlacementNameFollows() {
        XCTAssertEqual(subject("shown == \"x\"")?.target, .custom("shown"))
        XCTAssertEqual(subject("last is set")?.target, .custom("last"))
        XCTAssertEqual(subject("shown in [\"a\", \"b\"]")?.target, .custom("shown"))
        XCTAssertEqual(subject("shown matches /a+/")?.target, .custom("shown"))
        XCTAssertEqual(subject("last >= 3")?.target, .custom("last"))
        // `shown` as a segment name.
        let (parsed, diagnostics) = parse("segment shown = x == 1\nsegment s = shown and x == 2")
        XCTAssertEqual(diagnostics, [])
        guard case .segment(let segment) = parsed.declarations[1] else { return XCTFail("expected a segment") }
        XCTAssertEqual(segment.expression.references.map(\.text), ["shown"])
    }

    func testAWindowThatOverflowsIsADurationError() {
        let source = MarkedSource("segment s = shown p in 1️⃣99999999999999999d < 3")
        let (_, diagnostics) = parse(source.text)
        assertDiagnostic(in: diagnostics, severity: .error, code: "invalid-duration", messageContains: "invalid duration",
                         at: source.position(), path: "p.rules")
    }

    func testStickyExperiments() {
        XCTAssertEqual(ASTDump.file(parse("""
        experiment e sticky 90d { 50% a 50% b }
        experiment k by account sticky 36h { 50% a 50% b }
        experiment plain { 50% a 50% b }
        """).0), [
            "experiment e sticky 90d=7776000000ms { 50% a; 50% b }",
            "experiment k by account sticky 36h=129600000ms { 50% a; 50% b }",
            "experiment plain { 50% a; 50% b }",
        ])
        let source = MarkedSource("experiment e sticky 1️⃣{ 50% a 50% b }")
        let (_, diagnostics) = parse(source.text)
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "a duration like `90d` after `sticky`",
                         at: source.position(), path: "p.rules")
    }

    func testGivenTakesShownAndAssignedLines() throws {
        let (file, diagnostics) = Parser.parseTests(SourceFile(path: "t.tests", text: """
        test "t" {
          now 2026-12-01T00:00:00Z
          given {
            profile.id = "u1"
            shown main_paywall at 2026-11-30T09:00:00Z
            shown main_paywall at now - 1d
            assigned pricing discount at 2026-11-20
            shown = "attribute"
          }
        }
        """))
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        guard case .assignments(let lines, _) = try XCTUnwrap(file.tests.first).givens[0] else { return XCTFail("expected given {") }
        XCTAssertEqual(lines.count, 5)
        guard case .shown(let shown) = lines[1], case .shown(let relative) = lines[2], case .assigned(let assigned) = lines[3] else {
            return XCTFail("expected shown, shown, assigned")
        }
        XCTAssertEqual(shown.placement.text, "main_paywall")
        XCTAssertEqual(shown.at.value, .date(Timestamp.parse("2026-11-30T09:00:00Z")))
        XCTAssertEqual(relative.at.value, .now(offset: -86_400_000))
        XCTAssertEqual(assigned.experiment.text, "pricing")
        XCTAssertEqual(assigned.variant.text, "discount")
        XCTAssertEqual(lines[4].attribute?.target.target, .custom("shown"))
    }

    func testAGivenHistoryLineNeedsAnInstantAfterAt() {
        let source = MarkedSource("""
        test "t" {
          given {
            shown main_paywall 1️⃣2026-11-30
          }
        }
        """)
        let (_, diagnostics) = Parser.parseTests(SourceFile(path: "t.tests", text: source.text))
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "`at` after `shown main_paywall`",
                         at: source.position(), path: "t.tests")
    }
}
