import XCTest
@testable import TargetingBase
@testable import TargetingFormatting
@testable import TargetingSyntax

/// Golden tests of the formatter on experiments, the holdout, experiment rows,
/// `split … by KEY` and the new expectations. Each input formats to exactly the expected text,
/// which parses to the same tree with the same comments and formats to itself.
final class ExperimentFormatterTests: XCTestCase {
    private func format(_ text: String, path: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch TargetingFormatting.Formatter.format(SourceFile(path: path, text: text)) {
        case .success(let output): return output
        case .failure(let error):
            XCTFail("not formatted: \(error.message) \(error.diagnostics.map(\.message))", file: file, line: line)
            return nil
        }
    }

    private func dump(_ source: SourceFile) -> String {
        if source.path.hasSuffix(".tests") { return SyntaxTreeDump.tests(Parser.parseTests(source).0) }
        return SyntaxTreeDump.rules(Parser.parseRules(source).0)
    }

    private func comments(_ source: SourceFile) -> [String] {
        let comments = source.path.hasSuffix(".tests") ? Parser.parseTests(source).0.comments : Parser.parseRules(source).0.comments
        return comments.map { TargetingFormatting.Formatter.commentText($0) }
    }

    /// The golden output, the same tree and comments as the input, and formatting twice = once.
    private func assertFormats(_ input: String, _ expected: String, path: String = "t.rules",
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let output = format(input, path: path, file: file, line: line) else { return }
        XCTAssertEqual(output, expected, "formatted text", file: file, line: line)
        let before = SourceFile(path: path, text: input)
        let after = SourceFile(path: path, text: output)
        XCTAssertEqual(dump(before), dump(after), "syntax tree", file: file, line: line)
        XCTAssertEqual(comments(before), comments(after), "comments", file: file, line: line)
        XCTAssertEqual(format(output, path: path, file: file, line: line), output, "formatting twice", file: file, line: line)
    }

    func testAlwaysIsTheRowsFirstWordAndTheArrowsAlignAfterIt() {
        assertFormats("""
        placement p {
          always   premium->nothing  # subscribers
          new_users -> flow "n"
        always always -> flow "a"
          everyone -> flow "e"
        }
        """, """
        placement p {
          always premium -> nothing  # subscribers
          new_users      -> flow "n"
          always always  -> flow "a"
          everyone       -> flow "e"
        }

        """)
    }

    func testExperimentDeclarationAlignsWeightsAndKeepsComments() {
        assertFormats("""
        # the pricing test
        experiment   pricing_q4   by profile.customer_user_id{  # by user
        50% control
          5%   tiny # small
        # the rest
        45% discount
        } # end
        experiment plain { 50% a 50% b }
        """, """
        # the pricing test
        experiment pricing_q4 by profile.customer_user_id {  # by user
          50% control
           5% tiny  # small
          # the rest
          45% discount
        }  # end
        experiment plain {
          50% a
          50% b
        }

        """)
    }

    func testHoldoutIsOneLine() {
        assertFormats("""
        holdout  q4_holdout   5%   by  account except main_paywall ,onboarding_followup  # keep 5% out
        holdout
          other
          20%
        holdout by_key 1% by profile.customer_user_id
        holdout quoted 10% by `team-id`
        """, """
        holdout q4_holdout 5% by account except main_paywall, onboarding_followup  # keep 5% out
        holdout other 20%
        holdout by_key 1% by profile.customer_user_id
        holdout quoted 10% by `team-id`

        """)
    }

    func testExperimentRowsAlignVariantArrowsAndKeepComments() {
        assertFormats("""
        placement onboarding_followup { # the follow-up
          new_users -> pricing_q4 { control -> flow "flow_onb_a"   # a
          # the discount
          discount->flow "flow_onb_discount" tiny -> nothing } # end of the row
          everyone -> flow "flow_default"
        }
        """, """
        placement onboarding_followup {  # the follow-up
          new_users -> pricing_q4 {
            control  -> flow "flow_onb_a"  # a
            # the discount
            discount -> flow "flow_onb_discount"
            tiny     -> nothing
          }  # end of the row
          everyone  -> flow "flow_default"
        }

        """)
    }

    func testSplitByKeyKeepsTheKey() {
        assertFormats("""
        placement main_paywall{
         new_users->split "s" by profile.customer_user_id {50% -> paywall "a" 50% -> paywall "b"}
         everyone -> split "t"   by   `team-id` { # keyed
           5% -> paywall "c"
           95% -> paywall "d" }
        }
        """, """
        placement main_paywall {
          new_users -> split "s" by profile.customer_user_id {
            50% -> paywall "a"
            50% -> paywall "b"
          }
          everyone  -> split "t" by `team-id` {  # keyed
             5% -> paywall "c"
            95% -> paywall "d"
          }
        }

        """)
    }

    func testWholeSection11RuleSetFormatsStably() {
        // Already canonical: formatting leaves it byte for byte as it is.
        let canonical = """
        attribute account: string

        # Cross-placement test, drawn on the customer user id.
        experiment pricing_q4 by profile.customer_user_id {
          50% control
          50% discount  # the new price
        }

        placement onboarding_followup {
          new_users -> pricing_q4 {
            control  -> flow "flow_onb_a"
            discount -> flow "flow_onb_discount"
          }
          everyone  -> flow "flow_default"
        }

        placement main_paywall {
          new_users -> pricing_q4 {
            control  -> paywall "pw_standard"
            discount -> paywall "pw_discount"
          }
          everyone  -> paywall "pw_standard"
        }

        holdout q4_holdout 5% by account except main_paywall  # defaults only

        """
        assertFormats(canonical, canonical)
    }

    func testNewExpectationsInTestsFiles() {
        assertFormats("""
        test "variants" {
          now 2026-11-29T12:00:00Z
          given { profile.id = "u1"  profile.customer_user_id="c1" }
          expect   onboarding_followup->flow "flow_onb_discount"   from  pricing_q4.discount   # the variant
          expect not   held   out
          # and a held-out one
          expect held out
          expect main_paywall -> nothing from pricing_q4.control
        }
        """, """
        test "variants" {
          now 2026-11-29T12:00:00Z
          given {
            profile.id = "u1"
            profile.customer_user_id = "c1"
          }
          expect onboarding_followup -> flow "flow_onb_discount" from pricing_q4.discount  # the variant
          expect not held out
          # and a held-out one
          expect held out
          expect main_paywall -> nothing from pricing_q4.control
        }

        """, path: "t.tests")
    }
}
