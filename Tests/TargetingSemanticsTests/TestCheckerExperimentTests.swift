import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingSemantics
@testable import TargetingSyntax

/// `.tests` files against experiments and the holdout rules: `from EXPERIMENT.VARIANT` names an experiment that a
/// row of the placement uses and one of its variants; `expect held out` needs a holdout.
final class TestCheckerExperimentTests: XCTestCase {
    private let rules = """
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing_q4 {
      50% control
      50% discount
    }
    experiment other_test {
      50% a
      50% b
    }
    placement onboarding_followup {
      new_users -> pricing_q4 {
        control  -> flow "flow_onb_a"
        discount -> flow "flow_onb_discount"
      }
      everyone -> flow "flow_default"
    }
    placement settings {
      new_users -> other_test { a -> flow "s_a" b -> flow "s_b" }
      everyone -> flow "s_default"
    }

    """

    /// The diagnostics of checking a tests file holding one test with `lines`, against `rules`.
    private func check(_ marked: String, rules: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> (MarkedSource, [Diagnostic]) {
        let source = MarkedSource("test \"t\" {\n  now 2026-11-29T12:00:00Z\n  given { profile.id = \"u1\" }\n" + marked + "\n}\n")
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: rules ?? self.rules)])
        guard let checked = loaded.checked else {
            XCTFail("rules have errors: \(describe(loaded.diagnostics))", file: file, line: line)
            return (source, [])
        }
        let (tests, syntax) = Parser.parseTests(SourceFile(path: "main.tests", text: source.text))
        XCTAssertEqual(syntax, [], describe(syntax), file: file, line: line)
        return (source, TestChecker.check([tests], ruleSet: checked))
    }

    @discardableResult
    private func assertOnlyError(_ marked: String, code: String, messageContains: String, rules: String? = nil,
                                 file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        let (source, found) = check(marked, rules: rules, file: file, line: line)
        XCTAssertEqual(found.filter(\.isError).count, 1, describe(found), file: file, line: line)
        return assertDiagnostic(in: found, severity: .error, code: code, messageContains: messageContains,
                                at: source.position(file: file, line: line), path: "main.tests", file: file, line: line)
    }

    func testWellFormedExpectationsCheck() {
        let (_, found) = check("""
          expect onboarding_followup -> flow "flow_onb_discount" from pricing_q4.discount
          expect onboarding_followup -> flow "flow_onb_a" from pricing_q4.control
          expect settings -> flow "s_b" from other_test.b
          expect onboarding_followup -> flow "flow_default" from everyone
        """, rules: rules + "holdout h 5%\n")
        XCTAssertEqual(found, [], describe(found))
        let (_, heldOut) = check("  expect held out\n  expect not held out", rules: rules + "holdout h 5%\n")
        XCTAssertEqual(heldOut, [], describe(heldOut))
    }

    func testUnknownExperiment() {
        let near = assertOnlyError("  expect onboarding_followup -> flow \"flow_onb_a\" from 1️⃣pricing_q5.control",
                                   code: "unknown-experiment", messageContains: "unknown experiment `pricing_q5`")
        XCTAssertEqual(near?.help, "did you mean `pricing_q4`?")
        let far = assertOnlyError("  expect onboarding_followup -> flow \"flow_onb_a\" from 1️⃣unknown.x",
                                  code: "unknown-experiment", messageContains: "unknown experiment `unknown`")
        XCTAssertNil(far?.help)
    }

    func testUnknownVariant() {
        let near = assertOnlyError("  expect onboarding_followup -> flow \"flow_onb_a\" from pricing_q4.1️⃣discont",
                                   code: "unknown-variant", messageContains: "experiment `pricing_q4` has no variant `discont`")
        XCTAssertEqual(near?.help, "did you mean `discount`?")
        let far = assertOnlyError("  expect onboarding_followup -> flow \"flow_onb_a\" from pricing_q4.1️⃣typo",
                                  code: "unknown-variant", messageContains: "has no variant `typo`")
        XCTAssertNil(far?.help)
    }

    func testExperimentNotUsedByThatPlacement() {
        assertOnlyError("  expect settings -> flow \"s_a\" from 1️⃣pricing_q4.control",
                        code: "experiment-not-in-placement", messageContains: "no row of placement `settings` uses experiment `pricing_q4`")
    }

    func testHeldOutWithoutAHoldout() {
        let diagnostic = assertOnlyError("  expect 1️⃣held out", code: "no-holdout", messageContains: "the rules declare no holdout")
        XCTAssertEqual(diagnostic?.help, "declare one with `holdout NAME 5%`")
        assertOnlyError("  expect not 1️⃣held out", code: "no-holdout", messageContains: "the rules declare no holdout")
    }
}
