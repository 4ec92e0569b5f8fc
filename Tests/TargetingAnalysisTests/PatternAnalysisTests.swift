import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `matches` in the analysis: patterns decided exactly by automata, so "never", "unreachable",
/// "equivalent" and "no overlap" are proved, and every witness is a string the patterns agree with.
final class PatternAnalysisTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    private func program(_ rules: String, file: StaticString = #filePath, line: UInt = #line) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: rules)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics), file: file, line: line)
    }

    /// The analysis warnings of `rules`, after checking there are no errors.
    private func warnings(_ rules: String, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        let found = diagnostics(rules)
        XCTAssertFalse(found.contains { $0.isError }, "unexpected errors:\n\(describe(found))", file: file, line: line)
        return found.filter { $0.code == "unreachable-row" || $0.code == "placement-falls-through" }
    }

    /// The overlap report of placement `p`, after checking every witness with the evaluator.
    private func overlap(_ rules: String, file: StaticString = #filePath, line: UInt = #line) throws -> OverlapReport {
        let program = try self.program(rules, file: file, line: line)
        let index = try XCTUnwrap(program.placementIndex(named: "p"), file: file, line: line)
        let report = OverlapReport.analyze(program, placement: index, now: Self.now)
        for row in report.rows {
            guard let witness = row.witness else { continue }
            let profile = try Profile(jsonData: Data(JSONWriter.write(witness).utf8))
            let decision = try program.decide(placement: index, for: profile, now: Self.now).get()
            XCTAssertEqual(decision.row, row.row - 1, "row \(row.row): \(JSONWriter.write(witness))", file: file, line: line)
        }
        for pair in report.pairs {
            guard let witness = pair.witness else { continue }
            let profile = try Profile(jsonData: Data(JSONWriter.write(witness).utf8))
            var evaluator = Evaluator(program: program, profile: profile, now: Self.now)
            for name in [pair.a, pair.b] {
                let audience = try XCTUnwrap(program.ruleSet.audiences.firstIndex { $0.name.text == name }, file: file, line: line)
                XCTAssertTrue(evaluator.audienceMatches(audience), "\(name): \(JSONWriter.write(witness))", file: file, line: line)
            }
        }
        return report
    }

    private func pair(_ report: OverlapReport, _ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) throws -> OverlapReport.Pair {
        try XCTUnwrap(report.pairs.first { $0.a == a && $0.b == b }, file: file, line: line)
    }

    /// The string custom attribute `key` holds in a witness profile.
    private func custom(_ witness: JSONValue?, _ key: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard case .string(let text)? = witness?["custom_attributes"]?[key] else {
            XCTFail("no string `\(key)` in \(witness.map(JSONWriter.write) ?? "nil")", file: file, line: line)
            return ""
        }
        return text
    }

    private func pattern(_ source: String, ignoringCase: Bool = false) throws -> MatchPattern {
        try MatchPattern.compile(source, ignoringCase: ignoringCase).get()
    }

    /// Rules with one placement `p` whose rows are the audiences of the given segments, in order.
    private func rules(_ segments: [String], header: String = "attribute x: string\n", everyone: Bool = false) -> String {
        var text = header
        for (number, segment) in segments.enumerated() { text += "segment s\(number + 1) = \(segment)\naudience a\(number + 1) = s\(number + 1)\n" }
        text += "placement p {\n"
        for number in segments.indices { text += "  a\(number + 1) -> flow \"f\(number + 1)\"\n" }
        if everyone { text += "  everyone -> flow \"rest\"\n" }
        return text + "}\n"
    }

    // MARK: - Never true, unreachable

    func testPatternAndAnotherLiteralIsNeverTrue() {
        let found = warnings(rules([#"x matches /a+/ and x == "b""#, #"x matches /a+/ and x == "aaa""#], everyone: true))
        XCTAssertEqual(found.map(\.message), ["row `a1` can never decide: no profile matches audience `a1`"])
    }

    func testRowCoveredByAnEarlierPatternIsUnreachable() {
        let found = warnings(rules([#"x matches /pro_.*/"#, #"x starts with "pro_x""#, #"x starts with "pro""#], everyone: true))
        XCTAssertEqual(found.map(\.message), ["row `a2` can never decide: every profile it matches is taken by the rows above"])
        XCTAssertEqual(found.first?.help, "every profile it matches is matched first by `a1`")
    }

    func testReachableRowHasAWitnessThePatternAccepts() throws {
        let report = try overlap(rules([#"x matches /pro_.*/"#, #"x matches /(pro|plus)_(monthly|annual)(_v[0-9]+)?/"#]))
        XCTAssertEqual(report.rows.map(\.reachable), [true, true])
        let second = try custom(report.rows[1].witness, "x")
        XCTAssertTrue(try pattern("(pro|plus)_(monthly|annual)(_v[0-9]+)?").matches(second), second)
        XCTAssertFalse(try pattern("pro_.*").matches(second), second)
        XCTAssertEqual(try pair(report, "a1", "a2").overlap, true)
    }

    func testCustomValuesAreTrimmedAndAtMostFiftyScalars() {
        // A stored custom string is trimmed and at most 50 scalars long: these never hold.
        let found = warnings(rules(["x matches /a{51}/", "x matches / a/", "x matches /a\\u{A0}/", "x matches /a{50}/", "x matches /a b/"],
                                   everyone: true))
        XCTAssertEqual(found.map(\.message), ["row `a1` can never decide: no profile matches audience `a1`",
                                              "row `a2` can never decide: no profile matches audience `a2`",
                                              "row `a3` can never decide: no profile matches audience `a3`"])
    }

    func testBuiltinStringFieldsHoldAnyString() throws {
        let report = try overlap(rules(["profile.email matches /a{60}/", "profile.email matches / .*/"], header: ""))
        XCTAssertEqual(report.rows.map(\.reachable), [true, true])
        guard case .string(let long)? = report.rows[0].witness?["email"] else { return XCTFail("no email in the witness") }
        XCTAssertEqual(long.unicodeScalars.count, 60)
    }

    func testFallThroughIsReportedWithAStringNoPatternAccepts() throws {
        let found = warnings(rules(["x matches /[a-z]+/", "x matches /[0-9]+/"]))
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.message.hasPrefix("some profiles match no row of `p`") ?? false)
        let report = try overlap(rules(["x matches /.+/"]))
        XCTAssertEqual(report.rows.map(\.reachable), [true])
        // Without a value (or with a number) the pattern is false and its negation true.
        XCTAssertEqual(warnings(rules(["x matches /.+/", "not x matches /.+/"])).map(\.message), [])
        XCTAssertEqual(warnings(rules(["x matches /.+/", "not x matches /.+/", "x is set"])).map(\.message), [
            "row `a3` can never decide: every profile it matches is taken by the rows above",
        ])
    }

    func testManyContainsAreDecidedByTheAutomataWhenTheLiteralsCannotSay() {
        // Ten `contains` give more combinations than the literals' options enumerate; the
        // automata still cover every string, so the covered last row is reported.
        let segments = (0..<10).map { #"x contains "q\#($0)""# } + [#"x contains "q3q4" and not x contains "q0""#]
        let found = warnings(rules(segments, everyone: true))
        XCTAssertEqual(found.map(\.message), ["row `a11` can never decide: every profile it matches is taken by the rows above"])
        XCTAssertEqual(found.first?.help, "every profile it matches is matched first by `a4`")
    }

    func testAProductOverItsLimitIsUndecidedNotWrong() throws {
        // Sixteen independent patterns give 65,536 combinations, more than the product explores.
        let segments = (0..<16).map { "x matches /.*y\($0)z.*/" } + ["x matches /.*y1z.*y2z.*/"]
        XCTAssertEqual(warnings(rules(segments, everyone: true)).map(\.message), [])
        let report = try overlap(rules(segments, everyone: true))
        XCTAssertNil(report.rows[16].reachable)
    }

    func testMinimisingMergesEquivalentStatesAndDropsThoseThatAcceptNothing() {
        // Over letters a, b: 0 -a-> 1, 0 -b-> 2, 1 and 2 accept and loop on both, 3 (reached by
        // nothing) rejects forever; 1 and 2 are one state, 3 is dead.
        let steps: [Int32] = [1, 2, 1, 1, 2, 2, 3, 3]
        let minimal = TextProduct.minimised(steps: steps, accepting: [false, true, true, false], letterCount: 2)
        XCTAssertEqual(minimal.steps, [1, 1, 1, 1])
        XCTAssertEqual(minimal.accepting, [false, true])
        let empty = TextProduct.minimised(steps: [0, -1], accepting: [false], letterCount: 2)
        XCTAssertEqual(empty.steps, [-1, -1])
        XCTAssertEqual(empty.accepting, [false])
    }

    // MARK: - diff --prove

    private func prove(_ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws -> (ChangeProof, Program, Program) {
        let before = try program(rules([old], everyone: true), file: file, line: line)
        let after = try program(rules([new], everyone: true), file: file, line: line)
        let proof = ChangeProof.prove(old: before, new: after, now: Self.now)
        for placement in proof.placements {
            for move in placement.transitions {
                let profile = try Profile(jsonData: Data(JSONWriter.write(move.witness).utf8))
                let from = try before.decide(placement: 0, for: profile, now: Self.now).get()
                let to = try after.decide(placement: 0, for: profile, now: Self.now).get()
                XCTAssertEqual(from.outcome, move.from, "OLD of \(JSONWriter.write(move.witness))", file: file, line: line)
                XCTAssertEqual(to.outcome, move.to, "NEW of \(JSONWriter.write(move.witness))", file: file, line: line)
            }
        }
        return (proof, before, after)
    }

    func testTwoSpellingsOfOneLanguageAreEquivalent() throws {
        for (old, new) in [("x matches /[ab]*c/", "x matches /(a|b)*c/"),
                           ("x matches /a{2,3}/", "x matches /aa|aaa/"),
                           (#"x matches /\d+/"#, "x matches /[0-9][0-9]*/"),
                           ("x matches /abc.*/", #"x starts with "abc""#),
                           ("x matches /[a-c]/ ignoring case", #"x in ["a", "b", "c"] ignoring case"#),
                           ("x matches /.*(x|y).*/", #"x contains "x" or x contains "y""#),
                           ("x matches /^ab$/", #"x == "ab""#)] {
            let (proof, _, _) = try prove(old, new)
            XCTAssertEqual(proof.placements.map(\.status), [.equivalent], "\(old) vs \(new)")
        }
    }

    func testDifferentPatternsGiveAStringOneAcceptsAndTheOtherDoesNot() throws {
        for (old, new) in [("(a|b)*c", "(a|b)+c"), ("[a-z]+", "[a-y]+"), (#"BF-\d{4}"#, #"BF-\d{3,4}"#)] {
            let (proof, _, _) = try prove("x matches /\(old)/", "x matches /\(new)/")
            let placement = try XCTUnwrap(proof.placements.first)
            XCTAssertEqual(placement.status, .changed, "\(old) vs \(new)")
            let witness = try custom(placement.transitions.first?.witness, "x")
            XCTAssertNotEqual(try pattern(old).matches(witness), try pattern(new).matches(witness), "\(witness) for \(old) vs \(new)")
        }
        let (proof, _, _) = try prove("x matches /(a|b)*c/", "x matches /(a|b)+c/")
        XCTAssertEqual(try custom(proof.placements.first?.transitions.first?.witness, "x"), "c")
    }

    // MARK: - ignoring case

    func testIgnoringCaseOverlapsTheUppercaseLiteral() throws {
        let report = try overlap(rules(["x matches /abc/ ignoring case", #"x == "ABC""#, "x matches /abc/"]))
        XCTAssertEqual(try pair(report, "a1", "a2").overlap, true)
        XCTAssertEqual(try custom(try pair(report, "a1", "a2").witness, "x"), "ABC")
        XCTAssertEqual(try pair(report, "a2", "a3").overlap, false)
        XCTAssertEqual(try pair(report, "a1", "a3").overlap, true)
        XCTAssertEqual(report.rows.map(\.reachable), [true, false, false])
    }

    func testIgnoringCaseFindsEveryScalarThatLowercasesIntoTheClass() throws {
        // U+212A KELVIN SIGN lowercases to `k`, as does `K`.
        let report = try overlap(rules([#"x in ["k", "K"]"#, "x matches /k/ ignoring case", "x matches /[a-z]+/ ignoring case and not x matches /[a-z]+/"]))
        XCTAssertEqual(report.rows.map(\.reachable), [true, true, true])
        XCTAssertEqual(try custom(report.rows[1].witness, "x"), "\u{212A}")
        let third = try custom(report.rows[2].witness, "x")
        XCTAssertTrue(try pattern("[a-z]+", ignoringCase: true).matches(third) && !pattern("[a-z]+").matches(third), third)
    }

    func testFinalSigmaIsUndecidedNotWrong() throws {
        // `Σ` lowercases to `ς` at the end of a word and to `σ` elsewhere: a case-insensitive
        // literal that tells the two apart needs the neighbours, which the automata do not read.
        let report = try overlap(rules([#"x ends with "σ" ignoring case"#, #"x == "ΑΣ""#, "x matches /.*σ/ ignoring case"]))
        XCTAssertNil(try pair(report, "a1", "a2").overlap, "`ΑΣ` lowercases to `ας`: no overlap, but undecided")
        XCTAssertNotEqual(try pair(report, "a2", "a3").overlap, false)
        // A pattern's sigma stands for both small forms, so nothing needs telling apart.
        let decided = try overlap(rules(["x matches /.*σ/ ignoring case", #"x == "ΑΣ""#, "x matches /.*ς/ ignoring case"]))
        XCTAssertEqual(decided.rows.map(\.reachable), [true, false, false])
    }

    // MARK: - table

    func testTableWithAPatternIsSettled() throws {
        let program = try self.program("""
            attribute plan: string one of ["pro_monthly", "plus_annual", "free"]
            attribute promo: string
            segment paid = plan matches /(pro|plus)_(monthly|annual)/
            segment bf = promo matches /BF-\\d{4}/ ignoring case
            segment bf_2024 = promo == "bf-2024"
            audience paid_bf = paid and bf
            audience paid_users = paid
            audience bf_only = bf_2024 and not bf
            placement p {
              paid_bf -> flow "paid_bf"
              paid_users -> flow "paid"
              bf_only -> flow "bf"
              everyone -> flow "other"
            }
            """)
        let table = try DecisionTable.build(program, placement: 0, by: nil, now: Self.now).get()
        XCTAssertFalse(table.hasUndecided)
        XCTAssertEqual(table.rows.map { $0.when[0].map { $0.map(JSONWriter.write) ?? "not set" } },
                       [[#""pro_monthly""#, #""plus_annual""#], [#""free""#, "not set"]])
        XCTAssertEqual(table.rows.map { $0.destinations.map { $0.map(\.description) ?? "no match" } },
                       [[#"flow "paid_bf""#, #"flow "paid""#], [#"flow "other""#]])
    }
}
