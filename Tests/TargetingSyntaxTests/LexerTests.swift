import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingSyntax

final class LexerTests: XCTestCase {
    // MARK: - Helpers

    private func lex(_ text: String) -> Lexer {
        Lexer.lex(SourceFile(path: "lex.rules", text: text))
    }

    private func lex(bytes: [UInt8]) -> Lexer {
        Lexer.lex(SourceFile(path: "lex.rules", bytes: bytes))
    }

    /// A compact description of a token: `kind(value)`.
    private func render(_ token: Token) -> String {
        switch token.kind {
        case .identifier: "name(\(token.value))"
        case .quotedName: "quoted(\(token.value))"
        case .keyword(let keyword): "keyword(\(keyword.rawValue))"
        case .string: "string(\(token.value))"
        case .number: "number(\(token.text))"
        case .date: "date(\(token.text))"
        case .duration: "duration(\(token.text))"
        case .punctuation(let punctuation): "punct(\(punctuation.rawValue))"
        case .pattern: "pattern(\(token.value))"
        case .endOfFile: "eof"
        }
    }

    /// The tokens of `text` without the final end-of-file token; asserts there are no diagnostics.
    private func tokens(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let lexed = lex(text)
        XCTAssertEqual(lexed.diagnostics, [], describe(lexed.diagnostics), file: file, line: line)
        XCTAssertEqual(lexed.tokens.last?.kind, .endOfFile, file: file, line: line)
        return lexed.tokens.dropLast().map(render)
    }

    private func position(_ token: Token) -> String { "\(token.range.start.line):\(token.range.start.column)" }

    // MARK: - Literals

    func testStringLiteralsDecodeEveryEscape() {
        let lexed = lex(#""plain" "a\"b" "c\\d" "e\nf" "g\th" "\u{1F600}" "x\u{e9}y" "tab"# + "\t" + #"inside" """#)
        XCTAssertEqual(lexed.diagnostics, [], describe(lexed.diagnostics))
        let strings = lexed.tokens.filter { $0.kind == .string }
        XCTAssertEqual(strings.map(\.value), ["plain", "a\"b", "c\\d", "e\nf", "g\th", "😀", "xéy", "tab\tinside", ""])
        XCTAssertEqual(strings[1].text, #""a\"b""#, "the token text is the source spelling")
        XCTAssertEqual(strings[5].text, #""\u{1F600}""#)
    }

    func testInvalidEscapesAreErrors() {
        let lexed = lex(#"x == "a\qb" or y == "\u{110000}" or z == "\u{}""#)
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["invalid-escape", "invalid-escape", "invalid-escape"], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "1:8")
        XCTAssertEqual(lex(#""\u{D800}""#).diagnostics.map(\.code), ["invalid-escape"], "a surrogate is not a scalar")
        XCTAssertEqual(lex(#""\u{1234567}""#).diagnostics.map(\.code), ["invalid-escape"], "at most six hex digits")
    }

    func testNumbers() {
        XCTAssertEqual(tokens("0 12 3.5 1000000 007"), ["number(0)", "number(12)", "number(3.5)", "number(1000000)", "number(007)"])
        XCTAssertEqual(tokens("-3.5"), ["punct(-)", "number(3.5)"], "the sign is its own token")
    }

    func testMalformedNumberIsAnError() {
        let lexed = lex("weekly_hours > 7days")
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["malformed-number"], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "1:16")
        XCTAssertTrue(lexed.diagnostics.first?.message.contains("`7days`") ?? false)
    }

    func testDatesAndTimestamps() {
        XCTAssertEqual(
            tokens("2026-11-30 2026-11-30T23:59:59Z 2026-11-30T23:59:59.123+05:30 2026-01-01T00:00:00.123456789-08:00 2026-02-28t10:00:00z"),
            ["date(2026-11-30)", "date(2026-11-30T23:59:59Z)", "date(2026-11-30T23:59:59.123+05:30)",
             "date(2026-01-01T00:00:00.123456789-08:00)", "date(2026-02-28t10:00:00z)"])
        XCTAssertEqual(tokens("between 2026-11-27 and 2026-11-30T23:59:59Z"),
                       ["keyword(between)", "date(2026-11-27)", "keyword(and)", "date(2026-11-30T23:59:59Z)"])
        // An impossible calendar date is still one date token; the checker rejects its value.
        XCTAssertEqual(tokens("2026-13-01"), ["date(2026-13-01)"])
    }

    func testTimestampValuesThroughThePipeline() {
        // The literal values are what the parser stores; offsets and fractions are applied.
        let text = """
        segment a = profile.created_at == 2026-11-30T23:59:59.123+05:30
        segment b = profile.created_at == 2026-01-01T00:00:00.123456789Z
        segment c = profile.created_at == 2026-11-30
        """
        let (file, parseDiagnostics) = Parser.parseRules(SourceFile(path: "d.rules", text: text))
        XCTAssertEqual(parseDiagnostics, [])
        let values: [Literal.Value] = file.declarations.compactMap {
            guard case .segment(let segment) = $0, case .comparison(let comparison) = segment.expression else { return nil }
            return comparison.operands.first?.value
        }
        XCTAssertEqual(values, [
            .date(1_796_063_399_123),
            .date(1_767_225_600_123),
            .date(1_795_996_800_000),
        ])
    }

    func testDurations() {
        XCTAssertEqual(tokens("7d 12h 30m 10s"), ["duration(7d)", "duration(12h)", "duration(30m)", "duration(10s)"])
        XCTAssertEqual(tokens("now - 7d"), ["keyword(now)", "punct(-)", "duration(7d)"])
        XCTAssertEqual(tokens("now+12h"), ["keyword(now)", "punct(+)", "duration(12h)"])
        XCTAssertEqual(tokens("now-7d"), ["keyword(now)", "punct(-)", "duration(7d)"])
    }

    func testBacktickedNames() {
        let lexed = lex("`any-key` `1st_answer` `profile.age`")
        XCTAssertEqual(lexed.diagnostics, [])
        XCTAssertEqual(lexed.tokens.dropLast().map(render), ["quoted(any-key)", "quoted(1st_answer)", "quoted(profile.age)"])
        XCTAssertEqual(lexed.tokens[0].text, "`any-key`")
    }

    func testUnterminatedBacktickedName() {
        let lexed = lex("segment a = `open == 1\nsegment b = c")
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["unterminated-name"], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "1:13")
        XCTAssertEqual(lexed.tokens.first { $0.text == "segment" && $0.range.start.line == 2 }.map(position), "2:1",
                       "lexing carries on on the next line")
    }

    func testDottedAndBareNames() {
        XCTAssertEqual(tokens("profile.age a.b experience _x x_1.y2 profile"),
                       ["name(profile.age)", "name(a.b)", "name(experience)", "name(_x)", "name(x_1.y2)", "keyword(profile)"])
    }

    func testEveryKeywordIsReserved() {
        let words = Keyword.allCases.map(\.rawValue)
        XCTAssertEqual(tokens(words.joined(separator: " ")), words.map { "keyword(\($0))" })
        for word in ["attribute", "input", "segment", "audience", "placement", "test", "split", "everyone", "flow",
                     "paywall", "nothing", "and", "or", "not", "in", "has", "any", "all", "none", "contains", "starts",
                     "ends", "with", "between", "is", "set", "one", "of", "ignoring", "case", "true", "false", "now",
                     "profile", "given", "events", "expect"] {
            XCTAssertEqual(tokens(word), ["keyword(\(word))"], word)
        }
    }

    func testKeywordsAreLowerCaseOnly() {
        XCTAssertEqual(tokens("Segment AND True NOW"), ["name(Segment)", "name(AND)", "name(True)", "name(NOW)"])
    }

    func testPunctuation() {
        XCTAssertEqual(tokens("== != < <= > >= -> = ( ) [ ] { } , : / % + -"),
                       ["punct(==)", "punct(!=)", "punct(<)", "punct(<=)", "punct(>)", "punct(>=)", "punct(->)",
                        "punct(=)", "punct(()", "punct())", "punct([)", "punct(])", "punct({)", "punct(})",
                        "punct(,)", "punct(:)", "punct(/)", "punct(%)", "punct(+)", "punct(-)"])
        XCTAssertEqual(tokens("x>=-5"), ["name(x)", "punct(>=)", "punct(-)", "number(5)"])
    }

    func testUnexpectedCharacterIsAnErrorAtTheCharacter() {
        let lexed = lex("segment a = x == 1 @ 2")
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["unexpected-character"])
        XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "1:20")
    }

    func testCommentsAreKeptApart() {
        let lexed = lex("# first\nsegment a = b # trailing\n#last")
        XCTAssertEqual(lexed.comments.map(\.text), ["# first", "# trailing", "#last"])
        XCTAssertEqual(lexed.comments.map { "\($0.range.start.line):\($0.range.start.column)" }, ["1:1", "2:15", "3:1"])
        XCTAssertEqual(lexed.tokens.dropLast().map(render), ["keyword(segment)", "name(a)", "punct(=)", "name(b)"])
    }

    // MARK: - Positions

    func testLineFeedCRLFAndLoneCRAllEndLines() {
        let lexed = lex("a\r\nb\rc\nd\r\n\r\ne")
        XCTAssertEqual(lexed.diagnostics, [])
        XCTAssertEqual(lexed.tokens.dropLast().map { "\($0.text)@\(position($0))" }, ["a@1:1", "b@2:1", "c@3:1", "d@4:1", "e@6:1"])
        XCTAssertEqual(lexed.tokens.last.map(position), "6:2")
    }

    func testSourceFileLineTableAgreesWithTheLexer() {
        let file = SourceFile(path: "x.rules", text: "ab\r\ncd\ref\ngh")
        XCTAssertEqual(file.lineStarts, [0, 4, 7, 10])
        XCTAssertEqual(file.position(ofOffset: 8).line, 3)
        XCTAssertEqual(file.position(ofOffset: 8).column, 2)
        XCTAssertEqual(file.lineText(2), "cd")
        XCTAssertEqual(file.lineText(3), "ef")
    }

    func testByteOrderMarkIsSkipped() {
        let lexed = lex(bytes: [0xEF, 0xBB, 0xBF] + Array("segment a = b".utf8))
        XCTAssertEqual(lexed.diagnostics, [])
        XCTAssertEqual(lexed.tokens.dropLast().map(render), ["keyword(segment)", "name(a)", "punct(=)", "name(b)"])
        XCTAssertEqual(lexed.tokens.first.map(position), "1:1")
        XCTAssertEqual(lexed.tokens[1].range.start.column, 9)
    }

    func testByteOrderMarkIsIgnoredByTheWholePipeline() {
        let source = SourceFile(path: "bom.rules", bytes: [0xEF, 0xBB, 0xBF] + Array("segment a = profile.age >= 18\naudience b = a\n".utf8))
        let loaded = LoadedRules(sources: [source])
        XCTAssertFalse(loaded.hasErrors, describe(loaded.diagnostics))
    }

    func testTabCountsAsOneColumn() {
        let lexed = lex("\tsegment\t\ta = b")
        XCTAssertEqual(lexed.tokens.dropLast().map { "\($0.text)@\(position($0))" }, ["segment@1:2", "a@1:11", "=@1:13", "b@1:15"])
    }

    func testColumnsCountUnicodeScalars() {
        // `"é😀e\u{301}"` is 1 + 4 scalars + 1: the next token starts at column 8.
        let lexed = lex("\"é😀e\u{301}\" x\n  \"日本\" y")
        XCTAssertEqual(lexed.diagnostics, [])
        XCTAssertEqual(lexed.tokens.dropLast().map { "\(render($0))@\(position($0))" },
                       ["string(é😀e\u{301})@1:1", "name(x)@1:8", "string(日本)@2:3", "name(y)@2:8"])
        XCTAssertEqual(lexed.tokens[0].range.end.column, 7)
    }

    func testDiagnosticColumnAfterNonASCIIText() {
        let diagnostic = assertDiagnostic("""
        segment pros = experience == "pro"
        segment b = city == "Zürich 😀" or\t1️⃣prso
        """, severity: .error, code: "unknown-segment", messageContains: "`prso`")
        XCTAssertEqual(diagnostic?.range.start.column, 35)
    }

    // MARK: - Errors

    func testControlCharacterInAStringIsAnErrorAtTheCharacter() {
        let lexed = lex("x == \"ab\u{01}c\"")
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["control-character"], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "1:9")
        XCTAssertTrue(lexed.diagnostics.first?.message.contains("U+0001") ?? false)

        let nul = lex("\n  \"é\u{0}\"")
        XCTAssertEqual(nul.diagnostics.map(\.code), ["control-character"])
        XCTAssertEqual(nul.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "2:5")

        let delete = lex("\"a\u{7F}\"")
        XCTAssertEqual(delete.diagnostics.map(\.code), ["control-character"])
    }

    func testControlCharacterIsACheckError() {
        let loaded = LoadedRules(sources: [SourceFile(path: "c.rules", text: "segment a = city == \"x\u{1B}y\"\n")])
        XCTAssertTrue(loaded.hasErrors)
        XCTAssertTrue(loaded.diagnostics.contains { $0.code == "control-character" && $0.range.start.column == 23 }, describe(loaded.diagnostics))
    }

    func testC1ControlInAStringIsAnErrorAtTheCharacter() {
        // U+0085 (NEL) and U+009F are general category Cc; U+00A0 (no-break space) is not.
        let lexed = lex("x == \"é\u{85}b\u{9F}\"")
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["control-character", "control-character"], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.diagnostics.map { "\($0.range.start.line):\($0.range.start.column)" }, ["1:8", "1:10"])
        XCTAssertTrue(lexed.diagnostics.first?.message.contains("U+0085") ?? false, describe(lexed.diagnostics))
        XCTAssertEqual(lexed.tokens.first { $0.kind == .string }?.value, "éb", "the string token goes on without the controls")
        XCTAssertEqual(lex("\"a\u{A0}b\"").diagnostics, [])
        assertDiagnostic("segment a = city == \"x1️⃣\u{80}y\"\n", severity: .error, code: "control-character", messageContains: "U+0080 in a string literal")
    }

    func testNulEscapeIsValid() {
        let lexed = lex(#""a\u{0}b" "\u{000000}""#)
        XCTAssertEqual(lexed.diagnostics, [], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.tokens.filter { $0.kind == .string }.map(\.value), ["a\u{0}b", "\u{0}"])
        XCTAssertEqual(lexed.tokens.first?.text, #""a\u{0}b""#, "the source spelling keeps the escape")
    }

    func testFormFeedAndVerticalTabBetweenTokensAreErrorsAtTheCharacter() {
        assertDiagnostic("segment a =1️⃣\u{0C}city == \"x\"\n", severity: .error, code: "control-character", messageContains: "U+000C between tokens")
        assertDiagnostic("segment a = city == \"x\"\n  1️⃣\u{0B}\n", severity: .error, code: "control-character", messageContains: "U+000B between tokens")
        assertDiagnostic("segment a = x == 1 or 1️⃣\u{85}x == 1\n", severity: .error, code: "control-character", messageContains: "U+0085 between tokens")
        for control in ["\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{9F}"] {
            let lexed = lex("a" + control + "b")
            XCTAssertEqual(lexed.diagnostics.map(\.code), ["control-character"], describe(lexed.diagnostics))
            XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.column)-\($0.range.end.column)" }, "2-3")
            XCTAssertEqual(lexed.tokens.dropLast().map(render), ["name(a)", "name(b)"])
        }
        XCTAssertEqual(tokens("a \t\r\n b"), ["name(a)", "name(b)"], "space, tab, CR and LF are the white space")
        let comment = lex("a # form\u{0C}feed\u{0B} in a comment\nb")
        XCTAssertEqual(comment.diagnostics, [], "a comment holds any character")
        XCTAssertEqual(comment.comments.map(\.text), ["# form\u{0C}feed\u{0B} in a comment"])
    }

    func testTabInsideAStringIsAllowed() {
        XCTAssertEqual(lex("\"a\tb\"").diagnostics, [])
    }

    func testInvalidUTF8IsAnErrorAtTheFirstBadByte() {
        // Line 2: two spaces, `"`, `é` (2 bytes), then a stray continuation byte.
        let bytes = Array("segment a = b\n  \"é".utf8) + [0x80] + Array("\" \u{FF}".utf8)
        let lexed = lex(bytes: bytes)
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["invalid-utf8"])
        let diagnostic = try! XCTUnwrap(lexed.diagnostics.first)
        XCTAssertEqual(diagnostic.range.start.line, 2)
        XCTAssertEqual(diagnostic.range.start.column, 5)
        XCTAssertEqual(diagnostic.range.start.offset, 19)
        XCTAssertTrue(diagnostic.message.contains("0x80"), diagnostic.message)
    }

    func testInvalidUTF8Forms() {
        let cases: [(bytes: [UInt8], column: Int)] = [
            ([0x61, 0xC0, 0x80], 2),              // overlong
            ([0x61, 0x62, 0xED, 0xA0, 0x80], 3),  // surrogate
            ([0xF4, 0x90, 0x80, 0x80], 1),        // past U+10FFFF
            ([0x61, 0xE2, 0x82], 2),              // truncated at the end
            ([0x61, 0xE2, 0x82, 0x61], 2),        // truncated in the middle
            ([0xFF], 1),
        ]
        for (bytes, column) in cases {
            let lexed = lex(bytes: bytes)
            XCTAssertEqual(lexed.diagnostics.map(\.code), ["invalid-utf8"], "\(bytes)")
            XCTAssertEqual(lexed.diagnostics.first?.range.start.column, column, "\(bytes)")
            XCTAssertEqual(lexed.diagnostics.first?.range.start.line, 1, "\(bytes)")
        }
    }

    func testInvalidUTF8IsACheckError() {
        let source = SourceFile(path: "bad.rules", bytes: Array("segment a = b\r\nsegment c = ".utf8) + [0xC3, 0x28])
        let loaded = LoadedRules(sources: [source])
        XCTAssertTrue(loaded.hasErrors)
        let utf8 = loaded.diagnostics.filter { $0.code == "invalid-utf8" }
        XCTAssertEqual(utf8.count, 1, describe(loaded.diagnostics))
        XCTAssertEqual(utf8.first.map { "\($0.range.file):\($0.range.start.line):\($0.range.start.column)" }, "bad.rules:2:13")
    }

    func testRuleFileOver16MiBIsAnError() {
        let source = SourceFile(path: "big.rules", bytes: [UInt8](repeating: 0x20, count: 16 * 1024 * 1024 + 1))
        let loaded = LoadedRules(sources: [source])
        XCTAssertEqual(loaded.diagnostics.map(\.code), ["file-too-large"], describe(loaded.diagnostics))
        XCTAssertEqual(loaded.diagnostics.first?.range.file, "big.rules")
    }

    func testUnterminatedString() {
        let lexed = lex("segment a = x == \"abc\nsegment b = c")
        XCTAssertEqual(lexed.diagnostics.map(\.code), ["unterminated-string"], describe(lexed.diagnostics))
        XCTAssertEqual(lexed.diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" }, "1:18")
        XCTAssertEqual(lexed.tokens.first { $0.kind == .string }?.value, "abc")
        XCTAssertEqual(lexed.tokens.filter { $0.range.start.line == 2 && $0.kind != .endOfFile }.map(render),
                       ["keyword(segment)", "name(b)", "punct(=)", "name(c)"], "the next line lexes normally")

        let atEnd = lex("\"abc")
        XCTAssertEqual(atEnd.diagnostics.map(\.code), ["unterminated-string"])
        XCTAssertEqual(atEnd.tokens.last?.kind, .endOfFile)
    }
}
