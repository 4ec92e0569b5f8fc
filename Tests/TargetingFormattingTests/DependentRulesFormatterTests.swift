import XCTest
@testable import TargetingBase
@testable import TargetingFormatting
@testable import TargetingSyntax

/// Golden tests of the formatter and the parser on prerequisites, layers and counts over
/// several placements: each input formats to exactly the expected text, which parses to the
/// same tree with the same comments and formats to itself.
final class DependentRulesFormatterTests: XCTestCase {
    private func format(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch TargetingFormatting.Formatter.format(SourceFile(path: "t.rules", text: text)) {
        case .success(let output): return output
        case .failure(let error):
            XCTFail("not formatted: \(error.message) \(error.diagnostics.map(\.message))", file: file, line: line)
            return nil
        }
    }

    private func dump(_ text: String) -> String { SyntaxTreeDump.rules(Parser.parseRules(SourceFile(path: "t.rules", text: text)).0) }

    private func assertFormats(_ input: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let output = format(input, file: file, line: line) else { return }
        XCTAssertEqual(output, expected, "formatted text", file: file, line: line)
        XCTAssertEqual(dump(input), dump(output), "syntax tree", file: file, line: line)
        XCTAssertEqual(format(output, file: file, line: line), output, "formatting twice", file: file, line: line)
    }

    func testPrerequisitesKeepTheirOutcomesAsWritten() {
        assertFormats("""
        segment a   =   placement  onboarding->flow   "flow_pro_v2"
        segment b = not placement main_paywall -> [ pricing.discount ,no   match,nothing ]
        segment c = placement p -> paywall "x\\u{41}" and level == "x"
        """, """
        segment a = placement onboarding -> flow "flow_pro_v2"
        segment b = not placement main_paywall -> [pricing.discount, no match, nothing]
        segment c = placement p -> paywall "x\\u{41}" and level == "x"

        """)
    }

    func testLayersAlignTheirShares() {
        assertFormats("""
        layer paywall_tests   by profile.customer_user_id {
        5% price_2025
           30%   trial_length   # the rest take part in neither
        }
        """, """
        layer paywall_tests by profile.customer_user_id {
           5% price_2025
          30% trial_length  # the rest take part in neither
        }

        """)
    }

    func testCountsOverSeveralPlacements() {
        assertFormats("""
        segment tired = shown [ main_paywall,workout_paywall ]  in 24h >= 2 or last shown [a,b] >= now - 1h
        """, """
        segment tired = shown [main_paywall, workout_paywall] in 24h >= 2 or last shown [a, b] >= now - 1h

        """)
    }

    func testTheTreeOfEachForm() {
        let (file, diagnostics) = Parser.parseRules(SourceFile(path: "t.rules", text: """
        segment a = placement onboarding -> [flow "x", pricing.discount, no match]
        segment b = shown [p, q] in 7d < 5
        layer l by account { 40% e1 30% e2 }
        """))
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(SyntaxTreeDump.rules(file), """
        segment a = prerequisite(onboarding, list -> flow "x", variant(pricing, discount), no_match)
        segment b = [shown("p", "q", in: "7d" = 604800000ms) < number(5.0)@"5"]
        layer l by custom("account", bare) { number(40.0)@"40"% e1; number(30.0)@"30"% e2 }
        """)
        guard case .segment(let segment) = file.declarations[0], case .prerequisite(let prerequisite) = segment.expression,
              case .variant(let experiment, let variant) = prerequisite.outcomes[1] else { return XCTFail("not a prerequisite") }
        // `pricing.discount` is one word: each half has its own place.
        XCTAssertEqual(experiment.range.start.column, 48)
        XCTAssertEqual(experiment.range.end.column, 55)
        XCTAssertEqual(variant.range.start.column, 56)
    }

    func testBrokenPrerequisitesAreSyntaxErrorsAtTheirToken() {
        for (text, column, message) in [
            ("segment a = placement p flow \"x\"", 25, "expected `->` after the placement name"),
            ("segment a = placement p -> split \"x\"", 28, "expected `flow`, `paywall`, `nothing`, `no match` or `EXPERIMENT.VARIANT`"),
            ("segment a = placement p -> [flow \"x\"", 37, "expected `]` to close the list of decisions"),
            ("segment a = placement p -> e.", 28, "expected `flow`, `paywall`, `nothing`, `no match` or `EXPERIMENT.VARIANT`"),
        ] {
            let diagnostics = Parser.parseRules(SourceFile(path: "t.rules", text: text)).1
            XCTAssertEqual(diagnostics.first?.range.start.column, column, text)
            XCTAssertTrue(diagnostics.first?.message.contains(message) ?? false, "\(text): \(diagnostics.map(\.message))")
        }
    }
}
