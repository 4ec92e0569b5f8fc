import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSyntax

/// experiments and the holdout in `.tests` files: `expect P -> DESTINATION from EXPERIMENT.VARIANT` and
/// `expect [not] held out`.
final class ExperimentExpectationParserTests: XCTestCase {
    private func parse(_ text: String) -> (TestFile, [Diagnostic]) {
        Parser.parseTests(SourceFile(path: "p.tests", text: text))
    }

    /// The expectations of a one-test file that must parse without diagnostics.
    private func expectations(_ lines: String, file: StaticString = #filePath, line: UInt = #line) -> [Expectation] {
        let (parsed, diagnostics) = parse("test \"t\" {\n" + lines + "\n}\n")
        XCTAssertEqual(diagnostics, [], describe(diagnostics), file: file, line: line)
        XCTAssertEqual(parsed.tests.count, 1, file: file, line: line)
        return parsed.tests.first?.expectations ?? []
    }

    private func position(_ range: SourceRange) -> MarkedSource.Position {
        MarkedSource.Position(line: range.start.line, column: range.start.column)
    }

    func testFromExperimentVariant() {
        let found = expectations("""
          expect onboarding_followup -> flow "flow_onb_discount" from pricing_q4.discount
          expect main_paywall -> paywall "pw_standard" from pricing_q4.control
          expect main_paywall -> nothing from e.v
          expect main_paywall -> paywall "pw" from everyone
          expect main_paywall -> paywall "pw" from new_users
        """)
        XCTAssertEqual(found.map(\.description), [
            #"onboarding_followup -> flow "flow_onb_discount" from pricing_q4.discount"#,
            #"main_paywall -> paywall "pw_standard" from pricing_q4.control"#,
            "main_paywall -> nothing from e.v",
            #"main_paywall -> paywall "pw" from everyone"#,
            #"main_paywall -> paywall "pw" from new_users"#,
        ])
        guard case .placement(let name, let expected, _) = found[0] else { return XCTFail("not a placement expectation") }
        XCTAssertEqual(name.text, "onboarding_followup")
        XCTAssertNil(expected.audience)
        XCTAssertEqual(expected.variant?.experiment.text, "pricing_q4")
        XCTAssertEqual(expected.variant?.variant.text, "discount")
        // A plain audience after `from` is not a variant, and the other way round.
        guard case .placement(_, let byAudience, _) = found[4] else { return XCTFail("not a placement expectation") }
        XCTAssertEqual(byAudience.audience?.text, "new_users")
        XCTAssertNil(byAudience.variant)
    }

    func testExperimentAndVariantRangesSplitAtTheDot() {
        let source = MarkedSource("""
        test "t" {
          expect p -> flow "x" from 1️⃣pricing_q4.2️⃣discount3️⃣
        }
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        guard case .placement(_, let expected, _)? = file.tests.first?.expectations.first,
              let variant = expected.variant else { return XCTFail("no variant expectation") }
        XCTAssertEqual(position(variant.range), source.position("1️⃣"))
        XCTAssertEqual(position(variant.experiment.range), source.position("1️⃣"))
        XCTAssertEqual(variant.experiment.range.end.column, source.position("2️⃣").column - 1)
        XCTAssertEqual(position(variant.variant.range), source.position("2️⃣"))
        XCTAssertEqual(variant.variant.range.end.column, source.position("3️⃣").column)
        XCTAssertEqual(variant.range.end.column, source.position("3️⃣").column)
        // Byte offsets agree with the columns on an ASCII line.
        XCTAssertEqual(variant.variant.range.start.offset - variant.experiment.range.start.offset, "pricing_q4.".utf8.count)
    }

    func testHeldOutExpectations() {
        let source = MarkedSource("""
        test "t" {
          expect 1️⃣held out
          expect not 2️⃣held out
          expect held
          expect not out
        }
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        let found = file.tests.first?.expectations ?? []
        XCTAssertEqual(found.map(\.description), ["held out", "not held out", "held", "not out"])
        guard found.count == 4 else { return XCTFail("expected four expectations") }
        guard case .heldOut(let negated, let words, _) = found[0], case .heldOut(let negatedToo, let wordsToo, _) = found[1] else {
            return XCTFail("not held-out expectations: \(found)")
        }
        XCTAssertFalse(negated)
        XCTAssertTrue(negatedToo)
        XCTAssertEqual(position(words), source.position("1️⃣"))
        XCTAssertEqual(words.end.column, source.position("1️⃣").column + "held out".count)
        XCTAssertEqual(position(wordsToo), source.position("2️⃣"))
        XCTAssertEqual(found[0].name.text, "held out")
        // `held` alone, or `out` alone, is membership of a segment or audience of that name.
        guard case .membership(let held, false, _) = found[2], case .membership(let out, true, _) = found[3] else {
            return XCTFail("not membership expectations: \(found)")
        }
        XCTAssertEqual(held.text, "held")
        XCTAssertEqual(out.text, "out")
    }

    func testExpectationSyntaxErrors() {
        let cases: [(String, String, String)] = [
            ("expect p -> flow \"x\" from 1️⃣a.b.c", "invalid-name", "`a.b.c`"),
            ("expect p -> no match 1️⃣from e.v", "syntax", "`no match` has no deciding audience"),
            ("expect 1️⃣not p -> flow \"x\" from e.v", "syntax", "`expect not` applies to audiences and segments"),
            ("expect p -> flow \"x\" from 1️⃣\"e.v\"", "syntax", "an audience name or `everyone` after `from`"),
        ]
        for (marked, code, message) in cases {
            let source = MarkedSource("test \"t\" {\n  " + marked + "\n}\n")
            let (_, diagnostics) = parse(source.text)
            XCTAssertEqual(diagnostics.filter(\.isError).count, 1, "\(marked)\n\(describe(diagnostics))")
            assertDiagnostic(in: diagnostics, severity: .error, code: code, messageContains: message,
                             at: source.position(), path: "p.tests")
        }
    }
}
