import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles
@testable import TargetingSyntax

/// Prints parsed declarations in a fully parenthesised form, so a test compares one string.
///
/// `(a or b)`, `(a and b)`, `(not a)`, `group(a)` for source parentheses, `[subject op operands]`
/// for a comparison. Numbers print as written values, dates as Unix ms, `now ± d` as an offset.
enum ASTDump {
    static func file(_ file: RuleFile) -> [String] { file.declarations.map(declaration) }

    static func declaration(_ declaration: Declaration) -> String {
        switch declaration {
        case .attribute(let attribute):
            var text = "attribute \(reference(attribute.name)): \(attribute.type.rawValue)"
            if let allowed = attribute.allowed { text += (attribute.type == .set ? " of " : " one of ") + list(allowed) }
            return text
        case .input(let input):
            let screen = input.screen.map { element($0) + "/" } ?? ""
            return "input \(screen)\(element(input.element)) -> \(reference(input.target))"
        case .segment(let segment):
            return "segment \(segment.name.text) = \(expression(segment.expression))"
        case .audience(let audience):
            return "audience \(audience.name.text) = \(expression(audience.expression))"
        case .placement(let placement):
            let rows = placement.rows.map { ($0.always == nil ? "" : "always ") + "\($0.audience.name) -> \(destination($0.destination))" }
            return "placement \(placement.name.text) { \(rows.joined(separator: "; ")) }"
        case .experiment(let experiment):
            let variants = experiment.variants.map { "\($0.weight.text)% \($0.name.text)" }
            return "experiment \(experiment.name.text)" + (experiment.key.map { " by " + reference($0) } ?? "")
                + (experiment.sticky.map { " sticky \($0.text)=\($0.milliseconds)ms" } ?? "") + " { \(variants.joined(separator: "; ")) }"
        case .holdout(let holdout):
            return "holdout \(holdout.name.text) \(holdout.weight.text)%" + (holdout.key.map { " by " + reference($0) } ?? "")
                + (holdout.excepted.isEmpty ? "" : " except " + holdout.excepted.map(\.text).joined(separator: ", "))
        case .layer(let layer):
            return "layer \(layer.name.text)" + (layer.key.map { " by " + reference($0) } ?? "")
                + " { " + layer.members.map { "\($0.weight.text)% \($0.experiment.text)" }.joined(separator: "; ") + " }"
        }
    }

    static func destination(_ destination: Destination) -> String {
        switch destination {
        case .flow(let id, _): return "flow \(quoted(id))"
        case .paywall(let id, _): return "paywall \(quoted(id))"
        case .nothing: return "nothing"
        case .split(let split):
            let variants = split.variants.map { "\($0.weight.text)% -> \(ASTDump.destination($0.destination))" }
            return "split \(quoted(split.id))" + (split.key.map { " by " + reference($0) } ?? "") + " { \(variants.joined(separator: "; ")) }"
        case .experiment(let row):
            let arms = row.arms.map { "\($0.variant.text) -> \(ASTDump.destination($0.destination))" }
            return "\(row.experiment.text) { \(arms.joined(separator: "; ")) }"
        }
    }

    static func expression(_ expression: TargetingSyntax.Expression) -> String {
        switch expression {
        case .or(let items, _): return "(" + items.map(self.expression).joined(separator: " or ") + ")"
        case .and(let items, _): return "(" + items.map(self.expression).joined(separator: " and ") + ")"
        case .not(let inner, _): return "(not \(self.expression(inner)))"
        case .group(let inner, _): return "group(\(self.expression(inner)))"
        case .reference(let name): return name.text
        case .comparison(let comparison): return self.comparison(comparison)
        case .prerequisite(let prerequisite): return "[\(prerequisite.text)]"
        }
    }

    static func comparison(_ comparison: Comparison) -> String {
        var parts: [String] = []
        switch comparison.subject {
        case .now: parts.append("now")
        case .attribute(let attribute): parts.append(reference(attribute))
        }
        parts.append(comparison.op.rawValue)
        switch comparison.op.arity {
        case .none: break
        case .one, .pattern: parts.append(literal(comparison.operands[0]))
        case .two: parts += [literal(comparison.operands[0]), "and", literal(comparison.operands[1])]
        case .list: parts.append(comparison.list.map(list) ?? "<no list>")
        }
        if comparison.ignoringCase { parts.append("ignoring case") }
        return "[" + parts.joined(separator: " ") + "]"
    }

    static func reference(_ reference: AttributeReference) -> String {
        switch (reference.target, reference.spelling) {
        case (.builtin(let field), _): "profile." + field
        case (.custom(let key), .backticks): "`\(key)`"
        case (.custom(let key), _): key
        case (.shownCount, _), (.lastShown, _): reference.sourceText
        }
    }

    static func element(_ name: ElementName) -> String {
        switch name.spelling {
        case .bare: name.text
        case .backticks: "`\(name.text)`"
        case .string: quoted(name.text)
        }
    }

    static func list(_ list: ListLiteral) -> String { "[" + list.items.map(literal).joined(separator: ", ") + "]" }

    static func literal(_ literal: Literal) -> String {
        switch literal.value {
        case .string(let text): return quoted(text)
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return String(flag)
        case .date(let ms?): return "@\(ms)"
        case .date(nil): return "@invalid(\(literal.text))"
        case .now(let offset): return offset == 0 ? "now" : offset < 0 ? "now-\(-offset)ms" : "now+\(offset)ms"
        case .pattern(let source): return "/" + source + "/"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

final class ParserTests: XCTestCase {
    // MARK: - Helpers

    private func parse(_ text: String) -> (RuleFile, [Diagnostic]) {
        Parser.parseRules(SourceFile(path: "p.rules", text: text))
    }

    /// The dump of a file that must parse without diagnostics.
    private func dump(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let (parsed, diagnostics) = parse(text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics), file: file, line: line)
        return ASTDump.file(parsed)
    }

    /// The dump of the expression of a one-segment file `segment s = <expression>`.
    private func expression(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let lines = dump("segment s = " + text, file: file, line: line)
        XCTAssertEqual(lines.count, 1, file: file, line: line)
        return lines.first.map { String($0.dropFirst("segment s = ".count)) } ?? ""
    }

    private func errors(_ text: String) -> [Diagnostic] { parse(text).1.filter(\.isError) }

    // MARK: - Declarations

    func testAttributeDeclarationsOfEveryType() {
        XCTAssertEqual(dump("""
        attribute experience: string one of ["beginner", "amateur", "pro",]
        attribute nickname: string
        attribute weekly_hours: number
        attribute reminders: bool
        attribute interests: set of ["sports", "music", "travel"]
        attribute tags: set
        attribute goal_date: date
        attribute sdk_version: version
        attribute `fav-sport`: string
        attribute quiz.score: number
        """), [
            #"attribute experience: string one of ["beginner", "amateur", "pro"]"#,
            "attribute nickname: string",
            "attribute weekly_hours: number",
            "attribute reminders: bool",
            #"attribute interests: set of ["sports", "music", "travel"]"#,
            "attribute tags: set",
            "attribute goal_date: date",
            "attribute sdk_version: version",
            "attribute `fav-sport`: string",
            "attribute quiz.score: number",
        ])
    }

    func testAttributeTypeRangeAndUnknownType() {
        let (file, _) = parse("attribute weekly_hours: number")
        guard case .attribute(let attribute) = file.declarations.first else { return XCTFail("no attribute") }
        XCTAssertEqual(attribute.typeRange.start.column, 25)

        let source = MarkedSource("attribute hours: 1️⃣integer\nattribute x: number")
        let (parsed, diagnostics) = parse(source.text)
        assertDiagnostic(in: diagnostics, severity: .error, code: "unknown-type", messageContains: "`integer`",
                         at: source.position(), path: "p.rules")
        XCTAssertEqual(ASTDump.file(parsed), ["attribute x: number"])
    }

    func testInputDeclarations() {
        XCTAssertEqual(dump("""
        input email -> profile.email
        input name -> profile.first_name
        input scr_quiz/experience -> experience
        input `scr-2`/`fav-sport` -> `fav-sport`
        input "scr 1"/"fav sport" -> fav_sport
        input "plain id" -> profile.last_name
        input scr_quiz/hours -> weekly.hours
        """), [
            "input email -> profile.email",
            "input name -> profile.first_name",
            "input scr_quiz/experience -> experience",
            "input `scr-2`/`fav-sport` -> `fav-sport`",
            #"input "scr 1"/"fav sport" -> fav_sport"#,
            #"input "plain id" -> profile.last_name"#,
            "input scr_quiz/hours -> weekly.hours",
        ])
    }

    func testSegmentsAndAudiencesParse() {
        XCTAssertEqual(dump("""
        segment pros = experience == "pro"
        segment adults = profile.age >= 18
        audience pro_adults = pros and adults
        """), [
            #"segment pros = [experience == "pro"]"#,
            "segment adults = [profile.age >= 18]",
            "audience pro_adults = (pros and adults)",
        ])
    }

    // MARK: - Expressions

    func testPrecedenceNotThenAndThenOr() {
        XCTAssertEqual(expression("a or b and not c"), "(a or (b and (not c)))")
        XCTAssertEqual(expression("not a and b"), "((not a) and b)")
        XCTAssertEqual(expression("a and b or c and d"), "((a and b) or (c and d))")
        XCTAssertEqual(expression("a or b or c and d"), "(a or b or (c and d))")
        XCTAssertEqual(expression("a and b and c"), "(a and b and c)")
        XCTAssertEqual(expression("not not a"), "(not (not a))")
        XCTAssertEqual(expression("not x == 1 or y is set"), "((not [x == 1]) or [y is set])")
        XCTAssertEqual(expression("n between 1 and 5 and m is set"), "([n between 1 and 5] and [m is set])")
        XCTAssertEqual(expression("a or n between 1 and 5 or b"), "(a or [n between 1 and 5] or b)")
    }

    func testParenthesesOverridePrecedence() {
        XCTAssertEqual(expression("(a or b) and c"), "(group((a or b)) and c)")
        XCTAssertEqual(expression("not (a or b)"), "(not group((a or b)))")
        XCTAssertEqual(expression("a and (b or (c and not d))"), "(a and group((b or group((c and (not d))))))")
        XCTAssertEqual(expression("((a))"), "group(group(a))")
    }

    func testAnExpressionMaySpanLines() {
        XCTAssertEqual(dump("""
        audience casuals =
          (beginners
             or amateurs)
          and not pros
        segment x = y
        """), [
            "audience casuals = (group((beginners or amateurs)) and (not pros))",
            "segment x = y",
        ])
    }

    func testEveryComparisonOperator() {
        let cases: [(String, String)] = [
            (#"x == "a""#, #"[x == "a"]"#),
            (#"x != "a""#, #"[x != "a"]"#),
            ("n < 1", "[n < 1]"),
            ("n <= 1.5", "[n <= 1.5]"),
            ("n > 1", "[n > 1]"),
            ("n >= 1", "[n >= 1]"),
            ("n between 1 and 5", "[n between 1 and 5]"),
            (#"x in ["a", "b"]"#, #"[x in ["a", "b"]]"#),
            (#"x not in ["a"]"#, #"[x not in ["a"]]"#),
            (#"x contains "a""#, #"[x contains "a"]"#),
            (#"x starts with "a""#, #"[x starts with "a"]"#),
            (#"x ends with "a""#, #"[x ends with "a"]"#),
            (#"s has "a""#, #"[s has "a"]"#),
            (#"s has any ["a", "b"]"#, #"[s has any ["a", "b"]]"#),
            (#"s has all ["a", "b"]"#, #"[s has all ["a", "b"]]"#),
            (#"s has none ["a"]"#, #"[s has none ["a"]]"#),
            ("x is set", "[x is set]"),
            ("x is not set", "[x is not set]"),
            (#"x == "A" ignoring case"#, #"[x == "A" ignoring case]"#),
            (#"x starts with "A" ignoring case"#, #"[x starts with "A" ignoring case]"#),
            (#"s has any ["A"] ignoring case"#, #"[s has any ["A"] ignoring case]"#),
            (#"x not in ["A", "B"] ignoring case"#, #"[x not in ["A", "B"] ignoring case]"#),
            ("b == true", "[b == true]"),
            ("b != false", "[b != false]"),
            ("profile.installed_at >= now - 7d", "[profile.installed_at >= now-604800000ms]"),
            ("profile.installed_at < now+12h", "[profile.installed_at < now+43200000ms]"),
            ("profile.last_seen_at > now", "[profile.last_seen_at > now]"),
            ("now between 2026-11-27 and 2026-11-30T23:59:59Z", "[now between @1795737600000 and @1796083199000]"),
            ("n > -3.5", "[n > -3.5]"),
            ("n between -10 and -2", "[n between -10 and -2]"),
            ("n in [1, -2, 3,]", "[n in [1, -2, 3]]"),
            (#"`fav-sport` == "x""#, #"[`fav-sport` == "x"]"#),
            (#"profile.app_version >= "4.2.0""#, #"[profile.app_version >= "4.2.0"]"#),
            (#"x == "line\nbreak \"q\"""#, #"[x == "line\nbreak \"q\""]"#),
        ]
        for (source, expected) in cases {
            XCTAssertEqual(expression(source), expected, source)
        }
    }

    func testOperatorRangePointsAtTheFirstWord() {
        let (file, diagnostics) = parse(#"segment s = name starts with "a" ignoring case"#)
        XCTAssertEqual(diagnostics, [])
        guard case .segment(let segment) = file.declarations.first, case .comparison(let comparison) = segment.expression else {
            return XCTFail("no comparison")
        }
        XCTAssertEqual(comparison.subject.range.start.column, 13)
        XCTAssertEqual(comparison.operatorRange.start.column, 18)
        XCTAssertEqual(comparison.operands.first?.range.start.column, 30)
        XCTAssertEqual(comparison.ignoringCaseRange?.start.column, 34)
        XCTAssertEqual(comparison.range.start.column, 13)
        XCTAssertEqual(comparison.range.end.column, 47)
    }

    func testWhiteSpaceAroundNowArithmeticDoesNotMatter() {
        XCTAssertEqual(expression("profile.installed_at>=now-7d"), "[profile.installed_at >= now-604800000ms]")
        for spelling in ["now - 7d", "now-7d", "now -7d", "now- 7d", "now\n  -\n  7d"] {
            XCTAssertEqual(expression("profile.installed_at >= \(spelling)"), "[profile.installed_at >= now-604800000ms]", spelling)
        }
        for spelling in ["now + 12h", "now+12h", "now +12h"] {
            XCTAssertEqual(expression("profile.installed_at <= \(spelling)"), "[profile.installed_at <= now+43200000ms]", spelling)
        }
        XCTAssertEqual(expression("profile.installed_at <= now + 30m"), "[profile.installed_at <= now+1800000ms]")
        XCTAssertEqual(expression("profile.installed_at <= now - 10s"), "[profile.installed_at <= now-10000ms]")
    }

    func testNegativeNumberNeedsTheSignNextToTheDigits() {
        XCTAssertEqual(expression("n > -5"), "[n > -5]")
        XCTAssertEqual(errors("segment s = n > - 5").count, 1)
    }

    func testListsAllowOneTrailingComma() {
        XCTAssertEqual(expression(#"x in ["a", "b",]"#), #"[x in ["a", "b"]]"#)
        XCTAssertEqual(expression(#"x in ["a"]"#), #"[x in ["a"]]"#)
        XCTAssertFalse(errors(#"segment s = x in ["a",,]"#).isEmpty)
        XCTAssertFalse(errors(#"segment s = x in [,]"#).isEmpty)
        XCTAssertFalse(errors(#"segment s = x in ["a" "b"]"#).isEmpty)
    }

    func testEmptyListParses() {
        // `[]` is a check error (see CheckerTests), not a syntax error.
        XCTAssertEqual(expression("x in []"), "[x in []]")
    }

    // MARK: - Placements

    func testPlacementsWithSplits() {
        XCTAssertEqual(dump("""
        placement onboarding_followup {
          pro_adults -> flow "flow_pro_v2"
          sporty_new -> split "sporty_test_v1" {
            50% -> flow "flow_sport_a"
            40% -> flow "flow_sport_b"
            10% -> nothing                 # holdout
          }
          casuals    -> nothing
          everyone   -> flow "flow_default"
        }
        placement main_paywall { premium -> paywall "pw_a" everyone -> paywall "pw_b" }
        placement empty {}
        """), [
            #"placement onboarding_followup { pro_adults -> flow "flow_pro_v2"; sporty_new -> split "sporty_test_v1" { 50% -> flow "flow_sport_a"; 40% -> flow "flow_sport_b"; 10% -> nothing }; casuals -> nothing; everyone -> flow "flow_default" }"#,
            #"placement main_paywall { premium -> paywall "pw_a"; everyone -> paywall "pw_b" }"#,
            "placement empty {  }",
        ])
    }

    func testSplitVariantCannotBeASplit() {
        let source = MarkedSource("""
        placement p {
          a -> split "s" {
            50% -> 1️⃣split "t" { 50% -> flow "x" 50% -> flow "y" }
            50% -> flow "z"
          }
        }
        """)
        assertDiagnostic(in: parse(source.text).1, severity: .error, code: "syntax", messageContains: "split",
                         at: source.position(), path: "p.rules")
    }

    // MARK: - Syntax errors

    func testRelativeInstantOffsetsUpToTheSigned64BitLimit() {
        // 2^63 - 1 ms is 9223372036854775807: the largest count of each unit that fits is accepted.
        let fitting: [(String, Int64)] = [
            ("106751991167d", 106_751_991_167 * 86_400_000),
            ("2562047788015h", 2_562_047_788_015 * 3_600_000),
            ("153722867280912m", 153_722_867_280_912 * 60_000),
            ("9223372036854775s", 9_223_372_036_854_775_000),
            ("146001d", 146_001 * 86_400_000),
        ]
        for (duration, ms) in fitting {
            for (sign, offset) in [("-", -ms), ("+", ms)] {
                let (file, diagnostics) = parse("segment s = profile.installed_at > now \(sign) \(duration)")
                XCTAssertEqual(diagnostics, [], describe(diagnostics))
                guard case .segment(let segment)? = file.declarations.first, case .comparison(let comparison) = segment.expression else {
                    XCTFail("no comparison parsed for \(duration)")
                    continue
                }
                XCTAssertEqual(comparison.operands.first?.value, .now(offset: offset), duration)
            }
        }
        // One more of each unit, or a count past Int64 itself, does not fit: an error at the duration.
        for duration in ["106751991168d", "2562047788016h", "153722867280913m", "9223372036854776s", "99999999999999d",
                         "9223372036854775808d", "99999999999999999999999s"] {
            let source = MarkedSource("segment s = profile.installed_at > now - 1️⃣\(duration)")
            let (_, diagnostics) = parse(source.text)
            XCTAssertEqual(diagnostics.filter(\.isError).count, 1, "\(duration)\n\(describe(diagnostics))")
            assertDiagnostic(in: diagnostics, severity: .error, code: "invalid-duration", messageContains: "`\(duration)`",
                             at: source.position(), path: "p.rules")
        }
    }

    func testLowerCaseTAndZInInstantsMeanTheSame() {
        let (file, diagnostics) = parse("""
        segment a = profile.created_at == 2026-02-28t10:00:00z
        segment b = profile.created_at == 2026-02-28T10:00:00Z
        segment c = profile.created_at == 2026-02-28t15:30:00.5+05:30
        """)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        let values: [Literal.Value] = file.declarations.compactMap {
            guard case .segment(let segment) = $0, case .comparison(let comparison) = segment.expression else { return nil }
            return comparison.operands.first?.value
        }
        XCTAssertEqual(values, [.date(1_772_272_800_000), .date(1_772_272_800_000), .date(1_772_272_800_500)])
        XCTAssertFalse(LoadedRules(sources: [SourceFile(path: "t.rules", text: "segment a = profile.created_at >= 2026-02-28t10:00:00z\n")]).hasErrors)
    }

    func testAnUnfinishedOperatorAsksForItsNextWord() {
        let cases: [(String, String)] = [
            ("segment s = x is 1️⃣\"a\"", "expected `set` after `is`"),
            ("segment s = x is not 1️⃣\"a\"", "expected `set` after `is not`"),
            ("segment s = x ends 1️⃣\"a\"", "expected `with` after `ends`"),
            ("segment s = now not 1️⃣5", "expected `in` after `not`"),
        ]
        for (marked, message) in cases {
            let source = MarkedSource(marked)
            let (_, diagnostics) = parse(source.text)
            assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: message, at: source.position(), path: "p.rules")
        }
        // The longest operator the words spell: `has` alone, or `has any`.
        let (file, diagnostics) = parse("segment a = x has \"v\"\nsegment b = x has any [\"v\"]\n")
        XCTAssertEqual(diagnostics.filter(\.isError), [], describe(diagnostics))
        let ops = file.declarations.compactMap { declaration -> ComparisonOperator? in
            guard case .segment(let d) = declaration else { return nil }
            return d.expression.comparisons.first?.op
        }
        XCTAssertEqual(ops, [.has, .hasAny])
    }

    func testSyntaxErrorsPointAtTheOffendingToken() {
        let cases: [(String, String, String)] = [
            ("segment s = x 1️⃣= \"a\"", "syntax", "found `=`"),
            ("segment 1️⃣and = x == 1", "reserved-word", "`and`"),
            ("segment 1️⃣a.b = x == 1", "invalid-name", "`a.b`"),
            ("segment s = x > 1️⃣7d", "syntax", "duration"),
            ("segment s = profile.installed_at > now - 1️⃣7", "syntax", "duration"),
            ("segment s = x 1️⃣42", "syntax", "expected a declaration"),
            ("1️⃣test \"t\" { }", "syntax", "`test`"),
            ("1️⃣segmnt s = x == 1", "syntax", "expected a declaration"),
            ("segment s = (x == 1 or y == 2 1️⃣", "syntax", "`)`"),
            ("placement p { a -> flow 1️⃣}", "syntax", "flow id"),
            ("segment s = x is 1️⃣\"a\"", "syntax", "`set`"),
            ("segment s = x starts 1️⃣\"a\"", "syntax", "`with`"),
            ("segment s = x == 1️⃣" + String(repeating: "9", count: 400), "number-out-of-range", "too large"),
        ]
        for (marked, code, message) in cases {
            let source = MarkedSource(marked)
            let (_, diagnostics) = parse(source.text)
            XCTAssertEqual(diagnostics.filter(\.isError).count, 1, "\(marked)\n\(describe(diagnostics))")
            assertDiagnostic(in: diagnostics, severity: .error, code: code, messageContains: message,
                             at: source.position(), path: "p.rules")
        }
    }

    func testSingleEqualsSuggestsDoubleEquals() {
        let source = MarkedSource("segment s = experience 1️⃣= \"pro\"")
        let diagnostic = assertDiagnostic(in: parse(source.text).1, severity: .error, code: "syntax",
                                          messageContains: "comparison operator", at: source.position(), path: "p.rules")
        XCTAssertEqual(diagnostic?.help, "compare with `==`")
    }

    // MARK: - Recovery

    func testThreeBrokenDeclarationsGiveThreeErrorsAndTheGoodOnesParse() {
        let source = MarkedSource("""
        segment good1 = a == 1
        segment bad1 = a == 1️⃣== 2
        segment good2 = b is set
        audience bad2 = good1 and 2️⃣and good2
        placement bad3 { good3 -> flow 3️⃣}
        audience good3 = good1
        placement good4 { good3 -> flow "f" }
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics.count, 3, describe(diagnostics))
        for marker in ["1️⃣", "2️⃣", "3️⃣"] {
            XCTAssertTrue(diagnostics.contains { diagnostic($0, isAt: source.position(marker), in: "p.rules") },
                          "no error at \(marker): \(describe(diagnostics))")
        }
        XCTAssertEqual(ASTDump.file(file), [
            "segment good1 = [a == 1]",
            "segment good2 = [b is set]",
            "audience good3 = good1",
            #"placement good4 { good3 -> flow "f" }"#,
        ])
    }

    func testATruncatedDeclarationDoesNotSwallowTheNextOne() {
        // Each broken declaration ends where the next declaration keyword starts.
        let source = MarkedSource("""
        segment bad1 = a ==
        1️⃣segment good1 = a == 1
        audience bad2 = (good1 and good1
        2️⃣placement bad3 { good2 ->
        3️⃣audience good2 = good1
        """)
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics.count, 3, describe(diagnostics))
        for marker in ["1️⃣", "2️⃣", "3️⃣"] {
            XCTAssertTrue(diagnostics.contains { diagnostic($0, isAt: source.position(marker), in: "p.rules") },
                          "no error at \(marker): \(describe(diagnostics))")
        }
        XCTAssertEqual(ASTDump.file(file), ["segment good1 = [a == 1]", "audience good2 = good1"])
    }

    func testBrokenFileStillReportsEveryErrorThroughTheLoader() {
        let loaded = LoadedRules(sources: [SourceFile(path: "r.rules", text: """
        segment a = x == == 1
        segment b = y ==
        """)])
        XCTAssertTrue(loaded.hasErrors)
        XCTAssertGreaterThanOrEqual(loaded.diagnostics.filter { $0.code == "syntax" }.count, 2, describe(loaded.diagnostics))
    }

    // MARK: - Limits

    private func nested(_ depth: Int) -> String {
        "segment s = " + String(repeating: "(", count: depth) + "x == 1" + String(repeating: ")", count: depth)
    }

    func test256NestedParenthesesAreFine() {
        let (file, diagnostics) = parse(nested(256))
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        guard case .segment(let segment) = file.declarations.first else { return XCTFail("no segment") }
        var depth = 0
        var expression = segment.expression
        while case .group(let inner, _) = expression { depth += 1; expression = inner }
        XCTAssertEqual(depth, 256)
        XCTAssertEqual(ASTDump.expression(expression), "[x == 1]")
    }

    func test257NestedParenthesesAreAnError() {
        let source = MarkedSource("segment s = " + String(repeating: "(", count: 256) + "1️⃣(x == 1" + String(repeating: ")", count: 257))
        let (file, diagnostics) = parse(source.text)
        XCTAssertEqual(diagnostics.map(\.code), ["nesting-too-deep"], describe(diagnostics))
        assertDiagnostic(in: diagnostics, severity: .error, code: "nesting-too-deep", messageContains: "256",
                         at: source.position(), path: "p.rules")
        XCTAssertEqual(file.declarations, [])
    }

    func test256NotsAreFineAnd257AreAnError() {
        XCTAssertEqual(parse("segment s = " + String(repeating: "not ", count: 256) + "x == 1").1, [])
        let deep = parse("segment s = " + String(repeating: "not ", count: 257) + "x == 1").1
        XCTAssertEqual(deep.map(\.code), ["nesting-too-deep"])
        XCTAssertEqual(deep.first?.range.start.column, 13 + 256 * 4)
        // `not` and parentheses share one depth budget.
        XCTAssertEqual(parse("segment s = " + String(repeating: "not (", count: 128) + "x == 1" + String(repeating: ")", count: 128)).1, [])
        XCTAssertEqual(parse("segment s = " + String(repeating: "not (", count: 129) + "x == 1" + String(repeating: ")", count: 129)).1.map(\.code),
                       ["nesting-too-deep"])
    }

    func testDepthIsPerDeclaration() {
        let text = nested(256) + "\n" + nested(256).replacingOccurrences(of: "segment s", with: "segment t")
            + "\nsegment u = " + Array(repeating: "(x == 1)", count: 300).joined(separator: " and ")
        let (file, diagnostics) = parse(text)
        XCTAssertEqual(diagnostics, [], describe(diagnostics))
        XCTAssertEqual(file.declarations.count, 3)
    }

    func test100000NotsGiveAnErrorAndNoCrash() {
        let text = "segment s = " + String(repeating: "not ", count: 100_000) + "x == 1\nsegment t = y is set"
        let (file, diagnostics) = parse(text)
        XCTAssertEqual(diagnostics.map(\.code), ["nesting-too-deep"])
        XCTAssertEqual(ASTDump.file(file), ["segment t = [y is set]"])
        XCTAssertTrue(LoadedRules(sources: [SourceFile(path: "n.rules", text: text)]).hasErrors)
    }

    func test100000ParenthesesGiveAnErrorAndNoCrash() {
        let text = "segment s = " + String(repeating: "(", count: 100_000) + "x == 1" + String(repeating: ")", count: 100_000)
            + "\nsegment t = y is set"
        let (file, diagnostics) = parse(text)
        XCTAssertEqual(diagnostics.map(\.code), ["nesting-too-deep"])
        XCTAssertEqual(ASTDump.file(file), ["segment t = [y is set]"])
        let unclosed = parse("segment s = " + String(repeating: "(", count: 100_000)).1
        XCTAssertEqual(unclosed.map(\.code), ["nesting-too-deep"])
    }

    func testDeepButAllowedNestingChecksAndEvaluates() {
        let text = nested(256).replacingOccurrences(of: "x == 1", with: "profile.age >= 18") + "\naudience a = s\nplacement p { a -> flow \"f\" }"
        let loaded = LoadedRules(sources: [SourceFile(path: "deep.rules", text: text)])
        XCTAssertFalse(loaded.hasErrors, describe(loaded.diagnostics))
        var evaluator = Evaluator(program: loaded.program!,
                                  profile: try! ProfileReader.read(Array(#"{"birthday":"1990-01-01"}"#.utf8)).get(),
                                  now: 1_795_996_800_000)
        XCTAssertTrue(evaluator.segmentMatches(0))
    }

    func testEmptyFileIsValid() {
        for text in ["", "   \n\n", "# only a comment\n", "\r\n\r\n"] {
            let (file, diagnostics) = parse(text)
            XCTAssertEqual(diagnostics, [], text.debugDescription)
            XCTAssertEqual(file.declarations, [], text.debugDescription)
            XCTAssertEqual(LoadedRules(sources: [SourceFile(path: "e.rules", text: text)]).diagnostics, [], text.debugDescription)
        }
    }
}
