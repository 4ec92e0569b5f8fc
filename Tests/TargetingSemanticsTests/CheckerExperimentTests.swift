import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase

/// The checker's rules for experiments and the holdout: experiments, experiment rows, `by KEY` and the holdout,
/// each diagnostic at the token it is about, with did-you-mean help where a name is close.
final class CheckerExperimentTests: XCTestCase {
    /// Declarations the cases build on.
    private let base = """
    attribute account: string
    attribute score: number
    attribute premium: bool
    attribute tags: set
    segment recent = profile.installed_at >= now - 30d
    segment paying = profile.total_revenue_usd > 0
    audience new_users = recent
    audience payers = paying

    """

    /// A well-formed experiment the placement cases use.
    private let pricing = """
    experiment pricing_q4 {
      50% control
      50% discount
    }

    """

    private func errors(_ text: String) -> [Diagnostic] { diagnostics(text).filter(\.isError) }

    /// Asserts the error at `marker` and that the file has exactly `count` errors.
    @discardableResult
    private func assertError(_ marked: String, code: String, messageContains: String, marker: String = "1️⃣", count: Int = 1,
                             file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        let found = assertDiagnostic(marked, severity: .error, code: code, messageContains: messageContains, marker: marker,
                                     file: file, line: line)
        let all = errors(MarkedSource(marked).text)
        XCTAssertEqual(all.count, count, "expected \(count) error(s):\n\(describe(all))", file: file, line: line)
        return found
    }

    /// `main.rules:LINE:COLUMN` of a marker, as helps name places.
    private func place(_ source: MarkedSource, _ marker: String) -> String {
        let position = source.position(marker)
        return "main.rules:\(position.line):\(position.column)"
    }

    private func assertNoErrors(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = errors(text)
        XCTAssertEqual(found, [], describe(found), file: file, line: line)
    }

    // MARK: - A well-formed rule set

    func testSection11RuleSetChecksWithoutErrorsOrWarnings() {
        let text = base + """
        experiment pricing_q4 by profile.customer_user_id {
          50% control
          50% discount
        }
        placement onboarding_followup {
          new_users -> pricing_q4 {
            control  -> flow "flow_onb_a"
            discount -> flow "flow_onb_discount"
          }
          payers -> split "s" by account { 50% -> flow "a" 50% -> flow "b" }
          everyone -> flow "flow_default"
        }
        placement main_paywall {
          new_users -> pricing_q4 {
            control  -> paywall "pw_standard"
            discount -> paywall "pw_standard"
          }
          everyone -> paywall "pw_standard"
        }
        holdout q4_holdout 5% by profile.customer_user_id except main_paywall
        """
        XCTAssertEqual(diagnostics(text), [], describe(diagnostics(text)))
    }

    // MARK: - Experiment rows

    func testMissingVariant() {
        let diagnostic = assertError(base + pricing + """
        placement p {
          new_users -> 1️⃣pricing_q4 {
            control -> flow "a"
          }
          everyone -> flow "f"
        }
        """, code: "missing-variant", messageContains: "the row does not show variant `discount` of experiment `pricing_q4`")
        XCTAssertEqual(diagnostic?.help, "a row names every variant of the experiment once")
    }

    func testSeveralMissingVariantsAreNamedTogether() {
        assertError(base + """
        experiment three { 30% a 30% b 40% c }
        placement p {
          new_users -> 1️⃣three { b -> flow "x" }
          everyone -> flow "f"
        }
        """, code: "missing-variant", messageContains: "variants `a`, `c` of experiment `three`")
        assertError(base + pricing + """
        placement p {
          new_users -> 1️⃣pricing_q4 {}
          everyone -> flow "f"
        }
        """, code: "missing-variant", messageContains: "variants `control`, `discount`")
    }

    func testUnknownVariantSuggestsTheVariantLeftOut() {
        let marked = base + pricing + """
        placement p {
          new_users -> 2️⃣pricing_q4 {
            control -> flow "a"
            1️⃣discont -> flow "b"
          }
          everyone -> flow "f"
        }
        """
        let unknown = assertError(marked, code: "unknown-variant", messageContains: "experiment `pricing_q4` has no variant `discont`", count: 2)
        XCTAssertEqual(unknown?.help, "did you mean `discount`?")
        // The variant it stands for is still missing.
        assertError(marked, code: "missing-variant", messageContains: "variant `discount`", marker: "2️⃣", count: 2)
    }

    func testUnknownVariantWithoutANearName() {
        let unknown = assertError(base + pricing + """
        placement p {
          new_users -> 2️⃣pricing_q4 {
            control -> flow "a"
            discount -> flow "b"
            1️⃣zzzzzzzz -> flow "c"
          }
          everyone -> flow "f"
        }
        """, code: "unknown-variant", messageContains: "has no variant `zzzzzzzz`")
        XCTAssertNil(unknown?.help)
    }

    func testVariantGivenTwice() {
        let marked = base + pricing + """
        placement p {
          new_users -> pricing_q4 {
            2️⃣control -> flow "a"
            discount -> flow "b"
            1️⃣control -> flow "c"
          }
          everyone -> flow "f"
        }
        """
        let diagnostic = assertError(marked, code: "duplicate-variant", messageContains: "variant `control` is given twice")
        XCTAssertEqual(diagnostic?.help, "first given at \(place(MarkedSource(marked), "2️⃣"))")
    }

    func testTwoVariantsMayShareADestination() {
        assertNoErrors(base + pricing + """
        placement p {
          new_users -> pricing_q4 { control -> flow "same" discount -> flow "same" }
          payers -> pricing_q4 { control -> nothing discount -> nothing }
          everyone -> flow "f"
        }
        """)
    }

    func testUnknownExperimentInARow() {
        let near = assertError(base + pricing + """
        placement p {
          new_users -> 1️⃣pricing_q5 { control -> flow "a" discount -> flow "b" }
          payers -> pricing_q4 { control -> flow "a" discount -> flow "b" }
          everyone -> flow "f"
        }
        """, code: "unknown-experiment", messageContains: "unknown experiment `pricing_q5`")
        XCTAssertEqual(near?.help, "did you mean `pricing_q4`?")
        let far = assertError(base + """
        placement p {
          new_users -> 1️⃣nothing_like_it { a -> flow "a" }
          everyone -> flow "f"
        }
        """, code: "unknown-experiment", messageContains: "unknown experiment `nothing_like_it`")
        XCTAssertNil(far?.help)
    }

    func testAnotherKindOfNameWhereAnExperimentBelongs() {
        assertError(base + pricing + """
        placement p {
          new_users -> 1️⃣payers { control -> flow "a" discount -> flow "b" }
          everyone -> pricing_q4 { control -> flow "a" discount -> flow "b" }
        }
        """, code: "wrong-kind", messageContains: "`payers` is an audience, not an experiment")
        assertError(base + pricing + """
        placement p {
          new_users -> 1️⃣recent { control -> flow "a" discount -> flow "b" }
          everyone -> pricing_q4 { control -> flow "a" discount -> flow "b" }
        }
        """, code: "wrong-kind", messageContains: "`recent` is a segment, not an experiment")
        assertError(base + pricing + """
        placement p {
          new_users -> 1️⃣p { control -> flow "a" discount -> flow "b" }
          everyone -> pricing_q4 { control -> flow "a" discount -> flow "b" }
        }
        """, code: "wrong-kind", messageContains: "`p` is a placement, not an experiment")
    }

    func testAnExperimentWhereAnAudienceOrSegmentBelongs() {
        assertError(base + pricing + """
        placement p {
          1️⃣pricing_q4 -> flow "a"
          everyone -> pricing_q4 { control -> flow "a" discount -> flow "b" }
        }
        """, code: "wrong-kind", messageContains: "`pricing_q4` is an experiment, not an audience")
        assertError(base + pricing + """
        segment s = recent and 1️⃣pricing_q4
        audience a = s
        placement p {
          a -> flow "a"
          everyone -> pricing_q4 { control -> flow "a" discount -> flow "b" }
        }
        """, code: "wrong-kind", messageContains: "`pricing_q4` is an experiment, not a segment")
    }

    func testExperimentNamesShareTheNamespace() {
        let marked = base + """
        experiment 1️⃣new_users { 50% a 50% b }
        placement p { everyone -> flow "f" }
        """
        let source = MarkedSource(marked)
        let diagnostic = assertError(marked, code: "duplicate-name", messageContains: "`new_users` is already declared")
        let audienceLine = source.text.components(separatedBy: "\n").firstIndex { $0.hasPrefix("audience new_users") }! + 1
        XCTAssertEqual(diagnostic?.help, "first declared at main.rules:\(audienceLine):10")
        assertError(base + pricing + """
        placement 1️⃣pricing_q4 { everyone -> flow "f" }
        """, code: "duplicate-name", messageContains: "`pricing_q4` is already declared")
        assertError(base + pricing + """
        placement p { everyone -> pricing_q4 { control -> flow "a" discount -> flow "b" } }
        holdout 1️⃣recent 5%
        """, code: "duplicate-name", messageContains: "`recent` is already declared")
    }

    func testArmsFollowThePlacementsKind() {
        let marked = base + pricing + """
        placement p {
          new_users -> pricing_q4 {
            control  -> 2️⃣flow "a"
            discount -> 1️⃣paywall "b"
          }
          everyone -> flow "f"
        }
        """
        let diagnostic = assertError(marked, code: "mixed-destinations", messageContains: "placement `p` shows flows, but this row shows a paywall")
        XCTAssertEqual(diagnostic?.help, "one placement holds one kind of destination; the first flow is at \(place(MarkedSource(marked), "2️⃣"))")
        // Between rows, too: an experiment's arms against a plain row.
        assertError(base + pricing + """
        placement p {
          new_users -> paywall "pw"
          payers -> pricing_q4 { control -> 1️⃣flow "a" discount -> paywall "b" }
        }
        """, code: "mixed-destinations", messageContains: "shows paywalls, but this row shows a flow")
    }

    func testUnusedExperimentIsAWarning() {
        let marked = base + pricing + """
        experiment 1️⃣spare { 50% a 50% b }
        placement p {
          new_users -> pricing_q4 { control -> flow "a" discount -> flow "b" }
          everyone -> flow "f"
        }
        """
        assertDiagnostic(marked, severity: .warning, code: "unused", messageContains: "experiment `spare` is never used")
        XCTAssertEqual(errors(MarkedSource(marked).text), [])
        XCTAssertEqual(diagnostics(MarkedSource(marked).text).filter { $0.code == "unused" && $0.message.hasPrefix("experiment") }.count, 1)
    }

    // MARK: - Experiment declarations

    func testWeightsThatDoNotAddUpTo100() {
        let marked = base + """
        experiment 1️⃣e {
          2️⃣50% a
          3️⃣40% b
        }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
        """
        let source = MarkedSource(marked)
        let diagnostic = assertError(marked, code: "experiment-weights-sum", messageContains: "experiment weights add up to 90%, not 100%")
        let a = source.position("2️⃣").line, b = source.position("3️⃣").line
        XCTAssertEqual(diagnostic?.help, "the weights are 50% (line \(a)) + 40% (line \(b)) = 90%; add 10% to reach 100%")
        let over = assertError(base + """
        experiment 1️⃣e { 60% a 30% b 20% c }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" c -> flow "z" } }
        """, code: "experiment-weights-sum", messageContains: "add up to 110%")
        XCTAssertTrue(over?.help?.hasSuffix("remove 10% to reach 100%") ?? false, over?.help ?? "no help")
    }

    func testInvalidWeights() {
        for weight in ["0", "101", "2.5", "50.0", "1000"] {
            let diagnostic = assertError(base + """
            experiment e {
              1️⃣\(weight)% a
              50% b
            }
            placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
            """, code: "split-weight", messageContains: "invalid weight `\(weight)%`")
            XCTAssertEqual(diagnostic?.help, "a weight is an integer literal from 1 to 100, such as `50%`", weight)
        }
        // A leading zero is still a whole number.
        assertNoErrors(base + """
        experiment e { 050% a 50% b }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
        """)
    }

    func testTwoToTwentyVariants() {
        assertError(base + """
        experiment 1️⃣solo { 100% only }
        placement p { everyone -> solo { only -> flow "x" } }
        """, code: "experiment-variants", messageContains: "an experiment has 2 to 20 variants, this one has 1")
        let twentyOne = (1...20).map { "1% v\($0)" }.joined(separator: " ") + " 80% v21"
        let arms21 = (1...21).map { "v\($0) -> flow \"f\($0)\"" }.joined(separator: " ")
        assertError(base + """
        experiment 1️⃣wide { \(twentyOne) }
        placement p { everyone -> wide { \(arms21) } }
        """, code: "experiment-variants", messageContains: "this one has 21")
        let twenty = (1...20).map { "5% v\($0)" }.joined(separator: " ")
        let arms20 = (1...20).map { "v\($0) -> flow \"f\($0)\"" }.joined(separator: " ")
        assertNoErrors(base + """
        experiment wide { \(twenty) }
        placement p { everyone -> wide { \(arms20) } }
        """)
        assertError(base + """
        experiment 1️⃣empty { }
        placement p { everyone -> empty { } }
        """, code: "experiment-variants", messageContains: "this one has 0")
    }

    func testDuplicateVariantNamesInADeclaration() {
        let marked = base + """
        experiment e {
          50% 2️⃣a
          50% 1️⃣a
        }
        placement p { everyone -> e { a -> flow "x" } }
        """
        let diagnostic = assertError(marked, code: "duplicate-variant", messageContains: "experiment `e` already has a variant `a`")
        XCTAssertEqual(diagnostic?.help, "first declared at \(place(MarkedSource(marked), "2️⃣"))")
    }

    // MARK: - Keys

    func testKeysThatAreNotStrings() {
        let cases: [(key: String, message: String)] = [
            ("score", "`score` cannot be a key: it is a number, not a string"),
            ("premium", "`premium` cannot be a key: it is a bool, not a string"),
            ("tags", "`tags` cannot be a key: it is a set, not a string"),
            ("profile.age", "`profile.age` cannot be a key: it is a number, not a string"),
            ("profile.installed_at", "`profile.installed_at` cannot be a key: it is a date, not a string"),
        ]
        for (key, message) in cases {
            let diagnostic = assertError(base + """
            experiment e by 1️⃣\(key) { 50% a 50% b }
            placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
            """, code: "key-type", messageContains: message)
            XCTAssertEqual(diagnostic?.help, "a key is `profile.id`, `profile.customer_user_id` or a custom attribute of type string", key)
        }
        // `profile.country` is a string, but not a key.
        let country = assertError(base + """
        experiment e by 1️⃣profile.country { 50% a 50% b }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
        """, code: "key-type", messageContains: "cannot be a key")
        XCTAssertEqual(country?.message, "`profile.country` cannot be a key")
    }

    func testTheSameKeyRulesForSplitsAndTheHoldout() {
        assertError(base + """
        placement p {
          new_users -> split "s" by 1️⃣score { 50% -> flow "a" 50% -> flow "b" }
          everyone -> flow "f"
        }
        """, code: "key-type", messageContains: "`score` cannot be a key: it is a number")
        assertError(base + """
        placement p { everyone -> flow "f" }
        holdout h 5% by 1️⃣profile.age
        """, code: "key-type", messageContains: "`profile.age` cannot be a key: it is a number")
    }

    func testUnknownProfileFieldAsAKeySuggestsTheNearestField() {
        let diagnostic = assertError(base + """
        experiment e by 1️⃣profile.customer_userid { 50% a 50% b }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
        """, code: "unknown-field", messageContains: "unknown profile field `profile.customer_userid`")
        XCTAssertEqual(diagnostic?.help, "did you mean `profile.customer_user_id`?")
    }

    func testValidKeys() {
        for key in ["profile.id", "profile.customer_user_id", "account"] {
            let text = "attribute account: string\n" + """
            experiment e by \(key) { 50% a 50% b }
            placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
            holdout h 5% by \(key)
            """
            // Keyed on anything but `profile.id`, a profile without the key matches no row.
            let expected = key == "profile.id" ? [] : ["placement-falls-through"]
            XCTAssertEqual(diagnostics(text).map(\.code), expected, "\(key): \(describe(diagnostics(text)))")
        }
        // An undeclared custom key is read as a string, with the usual warning.
        let marked = base + """
        experiment e by 1️⃣team { 50% a 50% b }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
        """
        assertDiagnostic(marked, severity: .warning, code: "undeclared-attribute", messageContains: "`team`")
        XCTAssertEqual(errors(MarkedSource(marked).text), [])
        // One that some segment compares as a number is not a string.
        assertError(base + """
        segment big = team_size > 10
        audience big_teams = big
        experiment e by 1️⃣team_size { 50% a 50% b }
        placement p { big_teams -> e { a -> flow "x" b -> flow "y" } }
        """, code: "key-type", messageContains: "`team_size` cannot be a key: it is a number")
    }

    func testInvalidCustomKey() {
        assertError(base + """
        experiment e by 1️⃣`has space` { 50% a 50% b }
        placement p { everyone -> e { a -> flow "x" b -> flow "y" } }
        """, code: "invalid-key", messageContains: "invalid custom attribute key `has space`")
    }

    // MARK: - The holdout

    func testSecondHoldout() {
        let marked = base + """
        placement p { everyone -> flow "f" }
        holdout 2️⃣first 5%
        holdout 1️⃣second 10%
        """
        let diagnostic = assertError(marked, code: "second-holdout", messageContains: "a rule set has at most one holdout")
        XCTAssertEqual(diagnostic?.help, "the holdout is declared at \(place(MarkedSource(marked), "2️⃣"))")
    }

    func testSecondHoldoutInAnotherFile() {
        let found = TargetingTestSupport.diagnostics(files: [
            (path: "a.rules", text: base + "placement p { everyone -> flow \"f\" }\nholdout first 5%\n"),
            (path: "b.rules", text: "holdout second 5%\n"),
        ]).filter(\.isError)
        XCTAssertEqual(found.map(\.code), ["second-holdout"], describe(found))
        XCTAssertEqual(found.first?.range.file, "b.rules")
        XCTAssertEqual(found.first?.range.start.column, 9)
    }

    func testHoldoutWeight() {
        for weight in ["0", "101", "2.5", "100.0"] {
            let diagnostic = assertError(base + """
            placement p { everyone -> flow "f" }
            holdout h 1️⃣\(weight)%
            """, code: "holdout-weight", messageContains: "invalid holdout weight `\(weight)%`")
            XCTAssertEqual(diagnostic?.help, "a weight is an integer literal from 1 to 100, such as `5%`", weight)
        }
        for weight in ["1", "5", "100"] {
            assertNoErrors(base + "placement p { everyone -> flow \"f\" }\nholdout h \(weight)%\n")
        }
    }

    func testExceptOfAnUnknownPlacement() {
        let near = assertError(base + """
        placement main_paywall { everyone -> paywall "pw" }
        placement onboarding { everyone -> flow "f" }
        holdout h 5% except onboarding, 1️⃣main_paywal
        """, code: "unknown-placement", messageContains: "unknown placement `main_paywal`")
        XCTAssertEqual(near?.help, "did you mean `main_paywall`?")
        let far = assertError(base + """
        placement main_paywall { everyone -> paywall "pw" }
        holdout h 5% except 1️⃣zzzzzzzz
        """, code: "unknown-placement", messageContains: "unknown placement `zzzzzzzz`")
        XCTAssertNil(far?.help)
        // Another kind of name is not a placement either.
        assertError(base + """
        placement main_paywall { everyone -> paywall "pw" }
        holdout h 5% except 1️⃣new_users
        """, code: "unknown-placement", messageContains: "unknown placement `new_users`")
    }

    func testExceptListsAPlacementOnce() {
        let marked = base + """
        placement main_paywall { everyone -> paywall "pw" }
        holdout h 5% except 2️⃣main_paywall, 1️⃣main_paywall
        """
        let diagnostic = assertError(marked, code: "duplicate-except", messageContains: "placement `main_paywall` is already excepted")
        XCTAssertEqual(diagnostic?.help, "first listed at \(place(MarkedSource(marked), "2️⃣"))")
    }

    func testExceptMayNameAPlacementDeclaredInAnotherFileOrLater() {
        let found = TargetingTestSupport.diagnostics(files: [
            (path: "a.rules", text: "holdout h 5% except later\n"),
            (path: "b.rules", text: "placement later { everyone -> flow \"f\" }\n"),
        ])
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
    }
}
