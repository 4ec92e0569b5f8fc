import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// Hover, references and rename on the names of experiments and the holdout: experiments, their variants and the
/// holdout, across rows, declarations and tests files.
final class ExperimentNavigationTests: XCTestCase {
    static let rules = """
    attribute plan: string
    attribute tier: number
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent

    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }

    experiment copy_test {
      30% control
      70% bold
    }

    placement onboarding_followup {
      new_users -> pricing_q4 {
        control  -> flow "flow_onb_a"
        discount -> flow "flow_onb_discount"
      }
      everyone -> copy_test {
        control -> flow "flow_default"
        bold    -> flow "flow_bold"
      }
    }

    placement main_paywall {
      new_users -> pricing_q4 {
        control  -> paywall "pw_standard"
        discount -> paywall "pw_discount"
      }
      everyone -> paywall "pw_standard"
    }

    holdout q4_holdout 5% except main_paywall

    """

    static let tests = """
    test "new users" {
      now 2026-11-29T12:00:00Z
      given {
        profile.id = "u1"
        plan = "pro"
      }
      expect main_paywall -> paywall "pw_standard"
    }

    """

    private func harness(_ rules: String = ExperimentNavigationTests.rules) -> ServerHarness {
        var harness = ServerHarness(["/w/main.rules": rules, "/w/main.tests": ExperimentNavigationTests.tests])
        harness.open("main.rules", rules)
        return harness
    }

    private func hoverText(_ harness: inout ServerHarness, _ line: Int, _ character: Int) -> String {
        harness.result("textDocument/hover", ServerHarness.at("main.rules", line, character))?["contents", "value"]?.stringValue ?? ""
    }

    /// The edits of a rename, as `file:[l, c, l, c] newText`, files in order.
    private func renamed(_ harness: inout ServerHarness, _ line: Int, _ character: Int, to name: String) -> [String] {
        let edit = harness.result("textDocument/rename", ServerHarness.at("main.rules", line, character, ["newName": .string(name)]))
        var out: [String] = []
        for file in ["main.rules", "main.tests"] {
            for change in edit?["changes", ServerHarness.uri(file)]?.arrayValue ?? [] {
                out.append("\(file):\(ServerHarness.span(change["range"])) \(change["newText"]?.stringValue ?? "")")
            }
        }
        return out
    }

    private func refusal(_ harness: inout ServerHarness, _ line: Int, _ character: Int, to name: String) -> String? {
        harness.request("textDocument/rename", ServerHarness.at("main.rules", line, character, ["newName": .string(name)])).response?["error", "message"]?.stringValue
    }

    // MARK: - Hover

    func testHoverOnAnExperimentShowsItsVariantsKeyAndRows() {
        var harness = harness()
        let expected = """
        ```targeting
        experiment pricing_q4 by profile.customer_user_id {
          50% control
          50% discount
        }
        ```

        key `profile.customer_user_id`: a profile without a string value for it does not enter the experiment

        declared at main.rules:6

        used by:
        - placement `onboarding_followup`, row `new_users`
        - placement `main_paywall`, row `new_users`
        """
        XCTAssertEqual(hoverText(&harness, 5, 13), expected, "the declaration")
        XCTAssertEqual(hoverText(&harness, 27, 20), expected, "a row's use")
        let range = harness.result("textDocument/hover", ServerHarness.at("main.rules", 16, 15))?["range"]
        XCTAssertEqual(ServerHarness.span(range), [16, 15, 16, 25])
    }

    func testHoverOnAnExperimentWithoutKeySaysProfileID() {
        var harness = harness()
        let text = hoverText(&harness, 20, 14)
        XCTAssertTrue(text.hasPrefix("```targeting\nexperiment copy_test {\n  30% control\n  70% bold\n}\n```"), text)
        XCTAssertTrue(text.contains("key `profile.id` (the default): a profile without `id` cannot be drawn: an error for that profile"), text)
        XCTAssertTrue(text.hasSuffix("used by:\n- placement `onboarding_followup`, row `everyone`"), text)
    }

    func testHoverOnAVariantShowsItsWeightAndWhatEachPlacementShows() {
        var harness = harness()
        let expected = """
        ```targeting
        50% discount
        ```

        variant of experiment `pricing_q4`: 50% of the profiles it draws

        shows:
        - in placement `onboarding_followup`, row `new_users`: `flow "flow_onb_discount"`
        - in placement `main_paywall`, row `new_users`: `paywall "pw_discount"`
        """
        XCTAssertEqual(hoverText(&harness, 7, 8), expected, "the declaration")
        XCTAssertEqual(hoverText(&harness, 18, 6), expected, "an arm")
        XCTAssertEqual(hoverText(&harness, 29, 4), expected, "an arm in another placement")
        // `control` of the other experiment shows its own arms.
        let other = hoverText(&harness, 21, 5)
        XCTAssertTrue(other.contains("30% control"), other)
        XCTAssertTrue(other.contains("- in placement `onboarding_followup`, row `everyone`: `flow \"flow_default\"`"), other)
        XCTAssertFalse(other.contains("main_paywall"), other)
    }

    func testHoverOnAnArmForAnUndeclaredVariant() {
        let rules = ExperimentNavigationTests.rules.replacingOccurrences(of: "    discount -> paywall \"pw_discount\"", with: "    discont -> paywall \"pw_discount\"")
        var harness = harness(rules)
        XCTAssertEqual(hoverText(&harness, 29, 6), "`discont` is not a variant of experiment `pricing_q4`; its variants are `control`, `discount`")
        // The declared variant says which row does not give it.
        XCTAssertTrue(hoverText(&harness, 7, 8).contains("- in placement `main_paywall`, row `new_users`: not given"))
    }

    func testHoverOnTheHoldoutShowsWeightKeyAndCoverage() {
        var harness = harness()
        let expected = """
        ```targeting
        holdout q4_holdout 5% except main_paywall
        ```

        holds out 5% of profiles; key `profile.id` (the default): a profile without `id` is not held out

        covers `onboarding_followup`

        except `main_paywall`

        a held-out profile skips every row but `everyone` in the placements it covers

        declared at main.rules:35
        """
        XCTAssertEqual(hoverText(&harness, 34, 10), expected)
        // The placements say whether it covers them.
        XCTAssertTrue(hoverText(&harness, 15, 12).hasSuffix("covered by the holdout `q4_holdout`: 5% of profiles see only its `everyone` row"))
        XCTAssertTrue(hoverText(&harness, 34, 30).hasSuffix("not covered by the holdout `q4_holdout` (`except`)"))
    }

    func testHoverOnAHoldoutWithAKey() {
        let rules = ExperimentNavigationTests.rules.replacingOccurrences(of: "holdout q4_holdout 5% except main_paywall", with: "holdout q4_holdout 5% by plan")
        var harness = harness(rules)
        let text = hoverText(&harness, 34, 10)
        XCTAssertTrue(text.hasPrefix("```targeting\nholdout q4_holdout 5% by plan\n```"), text)
        XCTAssertTrue(text.contains("key `plan`: a profile without a string value for it is not held out"), text)
        XCTAssertTrue(text.contains("covers `onboarding_followup`, `main_paywall`"), text)
        XCTAssertFalse(text.contains("except"), text)
        var written = self.harness(ExperimentNavigationTests.rules.replacingOccurrences(of: "5% except", with: "5% by profile.id except"))
        XCTAssertTrue(hoverText(&written, 34, 10).contains("key `profile.id`: a profile without `id` is not held out"))
    }

    // MARK: - References and definition

    func testReferencesOfAnExperimentAndOfAVariant() {
        var harness = harness()
        func references(_ line: Int, _ character: Int, declaration: Bool = true) -> [[Int]] {
            let found = harness.result("textDocument/references", ServerHarness.at("main.rules", line, character,
                                                                                    ["context": .object(["includeDeclaration": .bool(declaration)])]))
            return found?.arrayValue?.map { ServerHarness.span($0["range"]) } ?? []
        }
        XCTAssertEqual(references(27, 16), [[5, 11, 5, 21], [16, 15, 16, 25], [27, 15, 27, 25]])
        XCTAssertEqual(references(27, 16, declaration: false), [[16, 15, 16, 25], [27, 15, 27, 25]])
        // `control` of pricing_q4 only: not the `control` of copy_test.
        XCTAssertEqual(references(6, 7), [[6, 6, 6, 13], [17, 4, 17, 11], [28, 4, 28, 11]])
        XCTAssertEqual(references(21, 4), [[11, 6, 11, 13], [21, 4, 21, 11]])
        XCTAssertEqual(references(34, 10), [[34, 8, 34, 18]])
        let definition = harness.result("textDocument/definition", ServerHarness.at("main.rules", 28, 5))?.arrayValue ?? []
        XCTAssertEqual(definition.map { ServerHarness.span($0["range"]) }, [[6, 6, 6, 13]])
    }

    // MARK: - Rename

    func testRenamingAnExperimentRenamesItsDeclarationAndEveryRow() {
        var harness = harness()
        XCTAssertEqual(renamed(&harness, 16, 18, to: "pricing_q1"), [
            "main.rules:[5, 11, 5, 21] pricing_q1",
            "main.rules:[16, 15, 16, 25] pricing_q1",
            "main.rules:[27, 15, 27, 25] pricing_q1",
        ])
        let prepared = harness.result("textDocument/prepareRename", ServerHarness.at("main.rules", 5, 12))
        XCTAssertEqual(ServerHarness.span(prepared?["range"]), [5, 11, 5, 21])
        XCTAssertEqual(prepared?["placeholder"]?.stringValue, "pricing_q4")
    }

    func testRenamingAVariantRenamesItInItsExperimentAndEveryArm() {
        var harness = harness()
        XCTAssertEqual(renamed(&harness, 17, 5, to: "baseline"), [
            "main.rules:[6, 6, 6, 13] baseline",
            "main.rules:[17, 4, 17, 11] baseline",
            "main.rules:[28, 4, 28, 11] baseline",
        ], "copy_test's `control` (lines 12 and 22) stays")
        XCTAssertEqual(renamed(&harness, 12, 7, to: "loud"), ["main.rules:[12, 6, 12, 10] loud", "main.rules:[22, 4, 22, 8] loud"])
        let prepared = harness.result("textDocument/prepareRename", ServerHarness.at("main.rules", 29, 6))
        XCTAssertEqual(ServerHarness.span(prepared?["range"]), [29, 4, 29, 12])
        XCTAssertEqual(prepared?["placeholder"]?.stringValue, "discount", "the variant's own name, not `pricing_q4.discount`")
        XCTAssertEqual(renamed(&harness, 29, 6, to: "discount"), [], "the same name: nothing to do")
    }

    func testRenamingTheHoldoutRenamesItsDeclaration() {
        var harness = harness()
        XCTAssertEqual(renamed(&harness, 34, 9, to: "q1_holdout"), ["main.rules:[34, 8, 34, 18] q1_holdout"])
        // A placement named in `except` is renamed there too.
        XCTAssertEqual(renamed(&harness, 34, 30, to: "paywall_main"), [
            "main.rules:[26, 10, 26, 22] paywall_main",
            "main.rules:[34, 29, 34, 41] paywall_main",
            "main.tests:[6, 9, 6, 21] paywall_main",
        ])
    }

    func testRenameRefusesClashesKeywordsAndInvalidNames() {
        var harness = harness()
        XCTAssertEqual(refusal(&harness, 5, 12, to: "copy_test"), "an experiment `copy_test` already exists")
        XCTAssertEqual(refusal(&harness, 5, 12, to: "recent"), "a segment `recent` already exists", "experiments share the namespace of segments")
        XCTAssertEqual(refusal(&harness, 5, 12, to: "main_paywall"), "a placement `main_paywall` already exists")
        XCTAssertEqual(refusal(&harness, 5, 12, to: "q4_holdout"), "a holdout `q4_holdout` already exists")
        XCTAssertEqual(refusal(&harness, 34, 10, to: "new_users"), "an audience `new_users` already exists")
        XCTAssertEqual(refusal(&harness, 2, 10, to: "pricing_q4"), "an experiment `pricing_q4` already exists", "and segments share theirs")
        XCTAssertEqual(refusal(&harness, 5, 12, to: "holdout"), "`holdout` is a keyword")
        XCTAssertEqual(refusal(&harness, 5, 12, to: "a.b"), "`a.b` is not a name: use letters, digits and `_`, starting with a letter or `_`")
        XCTAssertEqual(refusal(&harness, 6, 8, to: "discount"), "experiment `pricing_q4` already has a variant `discount`")
        XCTAssertEqual(refusal(&harness, 6, 8, to: "everyone"), "`everyone` is a keyword")
        XCTAssertEqual(refusal(&harness, 6, 8, to: "9lives"), "`9lives` is not a name: use letters, digits and `_`, starting with a letter or `_`")
        // A variant of another experiment may share the name.
        XCTAssertEqual(renamed(&harness, 6, 8, to: "bold").count, 3)
        // `by` and `except` are words only in their places: a variant may be called so.
        XCTAssertEqual(renamed(&harness, 6, 8, to: "by").count, 3)
    }
}
