import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSyntax

/// experiments and the holdout in `.rules` files: `experiment NAME [by KEY] { … }`, `holdout NAME W% [by KEY]
/// [except P, …]`, experiment rows `AUDIENCE -> EXPERIMENT { VARIANT -> DESTINATION … }` and
/// `split "ID" by KEY`; their syntax errors, each at the offending token.
final class ExperimentParserTests: XCTestCase {
    private func parse(_ text: String) -> (RuleFile, [Diagnostic]) {
        Parser.parseRules(SourceFile(path: "p.rules", text: text))
    }

    /// The dump of a file that must parse without diagnostics.
    private func dump(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let (parsed, diagnostics) = parse(text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics), file: file, line: line)
        return ASTDump.file(parsed)
    }

    /// Asserts that the marked text has exactly one error, of `code`, at the marker.
    private func assertSyntaxError(_ marked: String, code: String = "syntax", messageContains: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let source = MarkedSource(marked)
        let (_, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics.filter(\.isError).count, 1, "\(marked)\n\(describe(diagnostics))", file: file, line: line)
        assertDiagnostic(in: diagnostics, severity: .error, code: code, messageContains: messageContains,
                         at: source.position(file: file, line: line), path: "p.rules", file: file, line: line)
    }

    // MARK: - Experiments

    func testExperimentWithAndWithoutKey() {
        XCTAssertEqual(dump("""
        experiment pricing_q4 {
          50% control
          50% discount
        }
        experiment by_user by profile.customer_user_id { 30% a 30% b 40% c }
        experiment by_account by account { 10% x 90% y }
        experiment by_quoted by `team-id` { 50% x 50% y }
        experiment by_id by profile.id { 1% tiny 99% rest }
        """), [
            "experiment pricing_q4 { 50% control; 50% discount }",
            "experiment by_user by profile.customer_user_id { 30% a; 30% b; 40% c }",
            "experiment by_account by account { 10% x; 90% y }",
            "experiment by_quoted by `team-id` { 50% x; 50% y }",
            "experiment by_id by profile.id { 1% tiny; 99% rest }",
        ])
    }

    func testExperimentWeightsKeepTheirSpellingForTheChecker() {
        // Out-of-range and fractional weights parse; the checker rejects them (see the checker tests).
        XCTAssertEqual(dump("experiment e { 0% a 101% b 2.5% c 050% d }"),
                       ["experiment e { 0% a; 101% b; 2.5% c; 050% d }"])
        XCTAssertEqual(dump("experiment e { }"), ["experiment e {  }"])
    }

    func testExperimentRangesPointAtNamesAndWeights() {
        let source = MarkedSource("""
        experiment 1️⃣pricing_q4 by 2️⃣profile.customer_user_id {
          3️⃣50% 4️⃣control
          50% discount
        }
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        guard case .experiment(let experiment)? = file.declarations.first else { return XCTFail("no experiment") }
        func at(_ range: SourceRange) -> MarkedSource.Position { .init(line: range.start.line, column: range.start.column) }
        XCTAssertEqual(at(experiment.name.range), source.position("1️⃣"))
        XCTAssertEqual(experiment.key.map { at($0.range) }, source.position("2️⃣"))
        XCTAssertEqual(at(experiment.variants[0].weight.range), source.position("3️⃣"))
        XCTAssertEqual(at(experiment.variants[0].range), source.position("3️⃣"))
        XCTAssertEqual(at(experiment.variants[0].name.range), source.position("4️⃣"))
        XCTAssertEqual(experiment.variants.map(\.weightValue), [50, 50])
        XCTAssertEqual(experiment.range.start.line, 1)
        XCTAssertEqual(experiment.range.end.line, 4)
    }

    // MARK: - The holdout

    func testHoldoutForms() {
        XCTAssertEqual(dump("""
        holdout h1 5%
        holdout h2 20% by profile.customer_user_id
        holdout h3 5% except main_paywall
        holdout h4 5% except main_paywall, onboarding_followup,settings
        holdout h5 100% by account except p
        """), [
            "holdout h1 5%",
            "holdout h2 20% by profile.customer_user_id",
            "holdout h3 5% except main_paywall",
            "holdout h4 5% except main_paywall, onboarding_followup, settings",
            "holdout h5 100% by account except p",
        ])
    }

    func testHoldoutIsFollowedByTheNextDeclaration() {
        XCTAssertEqual(dump("""
        holdout h 5% except p
        placement p { everyone -> flow "f" }
        holdout g 5%
        segment s = x == 1
        """), [
            "holdout h 5% except p",
            #"placement p { everyone -> flow "f" }"#,
            "holdout g 5%",
            "segment s = [x == 1]",
        ])
    }

    func testByAndExceptAreOrdinaryNamesElsewhere() {
        XCTAssertEqual(dump("""
        attribute by: string
        segment except = by == "x"
        audience a = except
        placement by { a -> flow "f" }
        holdout h 5% except by
        experiment e by by { 50% by 50% except }
        """), [
            "attribute by: string",
            #"segment except = [by == "x"]"#,
            "audience a = except",
            #"placement by { a -> flow "f" }"#,
            "holdout h 5% except by",
            "experiment e by by { 50% by; 50% except }",
        ])
    }

    func testHoldoutRanges() {
        let source = MarkedSource("holdout 1️⃣q4 2️⃣5% by 3️⃣account except 4️⃣a, 5️⃣b")
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        guard case .holdout(let holdout)? = file.declarations.first else { return XCTFail("no holdout") }
        func at(_ range: SourceRange) -> MarkedSource.Position { .init(line: range.start.line, column: range.start.column) }
        XCTAssertEqual(at(holdout.name.range), source.position("1️⃣"))
        XCTAssertEqual(at(holdout.weight.range), source.position("2️⃣"))
        XCTAssertEqual(holdout.weight.text, "5")
        XCTAssertEqual(holdout.weightValue, 5)
        XCTAssertEqual(holdout.key.map { at($0.range) }, source.position("3️⃣"))
        XCTAssertEqual(holdout.excepted.map { at($0.range) }, [source.position("4️⃣"), source.position("5️⃣")])
        XCTAssertEqual(holdout.range.end.column, source.text.count + 1)
    }

    // MARK: - Experiment rows and keyed splits

    func testExperimentRows() {
        XCTAssertEqual(dump("""
        placement onboarding_followup {
          new_users -> pricing_q4 {
            control  -> flow "flow_onb_a"
            discount -> flow "flow_onb_discount"
          }
          others -> pricing_q4 { control -> nothing discount -> flow "x" }
          everyone -> flow "flow_default"
        }
        placement main_paywall {
          new_users -> pricing_q4 {
            control  -> paywall "pw_standard"
            discount -> paywall "pw_discount"
          }
          everyone -> pricing_q4 { control -> paywall "a" discount -> paywall "a" }
        }
        placement empty_row { a -> e {} }
        """), [
            #"placement onboarding_followup { new_users -> pricing_q4 { control -> flow "flow_onb_a"; discount -> flow "flow_onb_discount" }; others -> pricing_q4 { control -> nothing; discount -> flow "x" }; everyone -> flow "flow_default" }"#,
            #"placement main_paywall { new_users -> pricing_q4 { control -> paywall "pw_standard"; discount -> paywall "pw_discount" }; everyone -> pricing_q4 { control -> paywall "a"; discount -> paywall "a" } }"#,
            "placement empty_row { a -> e {  } }",
        ])
    }

    func testExperimentRowRanges() {
        let source = MarkedSource("""
        placement p {
          a -> 1️⃣pricing_q4 {
            2️⃣control -> 3️⃣flow "x"
            discount -> flow "y"
          }
        }
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        guard case .placement(let placement)? = file.declarations.first,
              case .experiment(let row)? = placement.rows.first?.destination else { return XCTFail("no experiment row") }
        func at(_ range: SourceRange) -> MarkedSource.Position { .init(line: range.start.line, column: range.start.column) }
        XCTAssertEqual(at(row.experiment.range), source.position("1️⃣"))
        XCTAssertEqual(at(row.range), source.position("1️⃣"))
        XCTAssertEqual(row.range.end.line, 5)
        XCTAssertEqual(at(row.arms[0].variant.range), source.position("2️⃣"))
        XCTAssertEqual(at(row.arms[0].range), source.position("2️⃣"))
        XCTAssertEqual(at(row.arms[0].destination.range), source.position("3️⃣"))
        XCTAssertEqual(row.arm(for: "discount")?.destination.description, #"flow "y""#)
        XCTAssertNil(row.arm(for: "typo"))
    }

    func testSplitByKey() {
        XCTAssertEqual(dump("""
        placement p {
          a -> split "sporty_test_v2" by profile.customer_user_id {
            50% -> flow "a"
            50% -> flow "b"
          }
          b -> split "s2" by account { 50% -> flow "c" 50% -> nothing }
          everyone -> split "s3" { 50% -> flow "d" 50% -> flow "e" }
        }
        """), [
            #"placement p { a -> split "sporty_test_v2" by profile.customer_user_id { 50% -> flow "a"; 50% -> flow "b" }; b -> split "s2" by account { 50% -> flow "c"; 50% -> nothing }; everyone -> split "s3" { 50% -> flow "d"; 50% -> flow "e" } }"#,
        ])
    }

    // MARK: - Syntax errors

    func testExperimentSyntaxErrors() {
        assertSyntaxError("experiment e { 50 1️⃣control 50% discount }", messageContains: "expected `%` after the weight, found")
        assertSyntaxError("experiment e { 1️⃣control 50% }", messageContains: "expected a variant weight like `50%` or `}`")
        assertSyntaxError("experiment e { 50% 1️⃣}", messageContains: "expected a variant name")
        assertSyntaxError("experiment e { 50% 1️⃣\"a\" 50% b }", messageContains: "expected a variant name")
        assertSyntaxError("experiment e by 1️⃣{ 50% a 50% b }", messageContains: "expected an attribute name after `by`")
        assertSyntaxError("experiment e 1️⃣50% a", messageContains: "to open the experiment")
        assertSyntaxError("experiment 1️⃣{ 50% a 50% b }", messageContains: "expected an experiment name")
        assertSyntaxError("experiment 1️⃣a.b { 50% a 50% b }", code: "invalid-name", messageContains: "`a.b`")
        assertSyntaxError("experiment 1️⃣and { 50% a 50% b }", code: "reserved-word", messageContains: "`and`")
        assertSyntaxError("experiment e { 50% 1️⃣x.y 50% b }", code: "invalid-name", messageContains: "`x.y`")
    }

    func testHoldoutSyntaxErrors() {
        assertSyntaxError("holdout h 5 1️⃣except p", messageContains: "expected `%` after the weight")
        assertSyntaxError("holdout h 1️⃣by account", messageContains: "expected a holdout weight like `5%`")
        assertSyntaxError("holdout 1️⃣5%", messageContains: "expected a holdout name")
        assertSyntaxError("holdout h 5% except 1️⃣\"p\"", messageContains: "a placement name after `except`")
        assertSyntaxError("holdout h 5% except a,\n1️⃣placement p { everyone -> flow \"f\" }", code: "reserved-word", messageContains: "`placement`")
        assertSyntaxError("holdout h 5% except a, 1️⃣\"b\"", messageContains: "a placement name after `,`")
    }

    func testExperimentRowSyntaxErrors() {
        assertSyntaxError("""
        placement p {
          a -> e {
            control 1️⃣flow "x"
          }
        }
        """, messageContains: "expected `->` after the variant name, found")
        assertSyntaxError("""
        placement p {
          a -> e {
            1️⃣50% -> flow "x"
          }
        }
        """, messageContains: "expected a variant name or `}`")
        assertSyntaxError("""
        placement p {
          a -> e {
            control -> 1️⃣split "s" { 50% -> flow "x" 50% -> flow "y" }
          }
        }
        """, messageContains: "a variant cannot be a split")
        assertSyntaxError("""
        placement p {
          a -> e {
            control -> 1️⃣other { x -> flow "y" }
          }
        }
        """, messageContains: "expected `flow`, `paywall` or `nothing`")
        assertSyntaxError("""
        placement p {
          a -> 1️⃣e
          everyone -> flow "f"
        }
        """, messageContains: "expected `flow`, `paywall`, `nothing`, `split` or an experiment")
        assertSyntaxError("""
        placement p {
          a -> split "s" {
            50% -> 1️⃣e { control -> flow "x" }
            50% -> flow "y"
          }
        }
        """, messageContains: "expected `flow`, `paywall` or `nothing`")
        assertSyntaxError("""
        placement p {
          a -> split "s" by 1️⃣{ 50% -> flow "x" 50% -> flow "y" }
        }
        """, messageContains: "expected an attribute name after `by`")
    }

    func testUnknownDeclarationWordNamesExperimentAndHoldout() {
        assertSyntaxError("1️⃣experimnt e { 50% a 50% b }", messageContains: "`placement`, `experiment` or `holdout`), found")
    }

    func testABrokenExperimentDoesNotSwallowTheNextDeclaration() {
        let source = MarkedSource("""
        experiment broken { 50 1️⃣a 50% b }
        experiment good { 50% a 50% b }
        holdout bad 2️⃣by x
        holdout good_holdout 5%
        placement p {
          x -> good { a 3️⃣flow "f" }
        }
        placement q { everyone -> flow "g" }
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics.count, 3, describe(diagnostics))
        for marker in ["1️⃣", "2️⃣", "3️⃣"] {
            XCTAssertTrue(diagnostics.contains { diagnostic($0, isAt: source.position(marker), in: "p.rules") },
                          "no error at \(marker): \(describe(diagnostics))")
        }
        XCTAssertEqual(ASTDump.file(file), [
            "experiment good { 50% a; 50% b }",
            "holdout good_holdout 5%",
            #"placement q { everyone -> flow "g" }"#,
        ])
    }
}
