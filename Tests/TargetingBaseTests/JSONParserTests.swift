import Foundation
import XCTest
@testable import TargetingBase

final class JSONParserTests: XCTestCase {
    // MARK: Helpers

    private func value(_ text: String, maxDepth: Int = 64, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        switch JSONParser.parse(text, maxDepth: maxDepth) {
        case .success(let value):
            return value
        case .failure(let error):
            XCTFail("unexpected error \(error) for \(text.debugDescription)", file: file, line: line)
            return nil
        }
    }

    private func failure(_ bytes: [UInt8], maxDepth: Int = 64, file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        switch JSONParser.parse(bytes, maxDepth: maxDepth) {
        case .success(let value):
            XCTFail("expected an error, got \(value)", file: file, line: line)
            return nil
        case .failure(let error):
            return error
        }
    }

    private func failure(_ text: String, maxDepth: Int = 64, file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        failure(Array(text.utf8), maxDepth: maxDepth, file: file, line: line)
    }

    private func assertError(
        _ text: String, _ message: String, line: Int, column: Int, offset: Int? = nil,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        assertError(Array(text.utf8), message, line: line, column: column, offset: offset, file: file, sourceLine: sourceLine)
    }

    private func assertError(
        _ bytes: [UInt8], _ message: String, line: Int, column: Int, offset: Int? = nil,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        guard let error = failure(bytes, file: file, line: sourceLine) else { return }
        XCTAssertEqual(error.message, message, file: file, line: sourceLine)
        XCTAssertEqual(error.line, line, "line", file: file, line: sourceLine)
        XCTAssertEqual(error.column, column, "column", file: file, line: sourceLine)
        if let offset {
            XCTAssertEqual(error.byteOffset, offset, "byte offset", file: file, line: sourceLine)
        }
    }

    private func nested(_ depth: Int, open: String = "[", close: String = "]", inner: String = "") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    // MARK: Literals

    func testLiterals() {
        XCTAssertEqual(value("true"), .bool(true))
        XCTAssertEqual(value("false"), .bool(false))
        XCTAssertEqual(value("null"), .null)
        XCTAssertEqual(value(" \t\r\n true \n"), .bool(true))
    }

    func testTrueIsNotOne() {
        XCTAssertEqual(value("[true, 1, false, 0]"), .array([.bool(true), .number(1), .bool(false), .number(0)]))
        XCTAssertNotEqual(value("true"), value("1"))
        XCTAssertNotEqual(value("false"), value("0"))
        XCTAssertEqual(value("true")?.boolValue, true)
        XCTAssertNil(value("true")?.numberValue)
        XCTAssertNil(value("1")?.boolValue)
        XCTAssertEqual(value("1")?.numberValue, 1)
    }

    func testInvalidLiterals() {
        assertError("tru", "invalid literal `tru`", line: 1, column: 1)
        assertError("True", "invalid literal `True`", line: 1, column: 1)
        assertError("nul", "invalid literal `nul`", line: 1, column: 1)
        assertError("[falsey]", "invalid literal `falsey`", line: 1, column: 2)
        assertError("NaN", "invalid literal `NaN`", line: 1, column: 1)
        assertError("Infinity", "invalid literal `Infinity`", line: 1, column: 1)
        assertError("-Infinity", "expected a digit after `-`", line: 1, column: 2)
        assertError("undefined", "invalid literal `undefined`", line: 1, column: 1)
        assertError("'a'", "expected a value but found `'`", line: 1, column: 1)
        assertError("true false", "expected end of input but found `f`", line: 1, column: 6)
    }

    // MARK: Numbers

    func testValidNumbers() {
        let cases: [(String, Double)] = [
            ("0", 0), ("1", 1), ("-1", -1), ("10", 10), ("1.5", 1.5), ("-0.25", -0.25),
            ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001), ("0.5", 0.5),
            ("2.5E-2", 0.025), ("0e0", 0), ("123456789012345", 123_456_789_012_345),
            ("1.7976931348623157e308", Double.greatestFiniteMagnitude),
            ("5e-324", Double.leastNonzeroMagnitude),
            ("99999999999999999999999", 1e23),
            ("9007199254740993", 9_007_199_254_740_992),
            ("12345678901234567890", 12_345_678_901_234_567_168),
            ("-1234567890123456789", -1_234_567_890_123_456_768),
            ("1e-400", 0),
            ("0.1", 0.1),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(value(text), .number(expected), text)
        }
        XCTAssertEqual(value("-0")?.numberValue?.sign, .minus)
        XCTAssertEqual(value("-0.0")?.numberValue?.sign, .minus)
        XCTAssertEqual(value("0")?.numberValue?.sign, .plus)
    }

    func testNumbersMatchDoubleFromString() {
        let texts = ["3.14159", "-2.718281828459045", "1e22", "123456789012345678901234567890e-10",
                     "0.30000000000000004", "4.9406564584124654e-324", "2.2250738585072014e-308", "100000000000000000"]
        for text in texts {
            XCTAssertEqual(value(text)?.numberValue, Double(text), text)
        }
    }

    func testInvalidNumbers() {
        assertError("01", "leading zeros are not allowed in numbers", line: 1, column: 1)
        assertError("-01", "leading zeros are not allowed in numbers", line: 1, column: 2)
        assertError("00", "leading zeros are not allowed in numbers", line: 1, column: 1)
        assertError("+1", "a number must not start with `+`", line: 1, column: 1)
        assertError(".5", "a number must not start with `.`", line: 1, column: 1)
        assertError("[1.]", "expected a digit after the decimal point", line: 1, column: 4)
        assertError("1.e3", "expected a digit after the decimal point", line: 1, column: 3)
        assertError("1.", "unexpected end of input", line: 1, column: 3)
        assertError("1e", "unexpected end of input", line: 1, column: 3)
        assertError("[1e]", "expected a digit in the exponent", line: 1, column: 4)
        assertError("[1e+]", "expected a digit in the exponent", line: 1, column: 5)
        assertError("-", "unexpected end of input", line: 1, column: 2)
        assertError("--1", "expected a digit after `-`", line: 1, column: 2)
        assertError("- 1", "expected a digit after `-`", line: 1, column: 2)
        assertError("0x10", "expected end of input but found `x`", line: 1, column: 2)
        assertError("1 2", "expected end of input but found `2`", line: 1, column: 3)
        assertError("1.5.2", "expected end of input but found `.`", line: 1, column: 4)
    }

    func testNonFiniteNumbers() {
        assertError("1e400", "number is not finite", line: 1, column: 1)
        assertError("[0, -1e400]", "number is not finite", line: 1, column: 5)
        assertError("1" + String(repeating: "0", count: 400), "number is not finite", line: 1, column: 1)
    }

    // MARK: Strings

    func testSimpleStrings() {
        XCTAssertEqual(value(#""""#), .string(""))
        XCTAssertEqual(value(#""hello""#), .string("hello"))
        XCTAssertEqual(value(#""héllo wörld 😀 ключ""#), .string("héllo wörld 😀 ключ"))
    }

    func testEscapes() {
        XCTAssertEqual(value(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{08}\u{0C}\n\r\t"))
        XCTAssertEqual(value(#""a\u0041b""#), .string("aAb"))
        XCTAssertEqual(value(#""\u00e9\u00E9""#), .string("éé"))
        XCTAssertEqual(value(#""\u0000""#), .string("\u{0}"))
        XCTAssertEqual(value(#""\u20AC""#), .string("€"))
        XCTAssertEqual(value(#""x\ny""#)?.stringValue?.count, 3)
    }

    func testSurrogatePairs() {
        XCTAssertEqual(value(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(value(#""\ud834\udd1e!""#), .string("𝄞!"))
        XCTAssertEqual(value(#""\uDBFF\uDFFF""#), .string("\u{10FFFF}"))
        XCTAssertEqual(value(#""\uD800\uDC00""#), .string("\u{10000}"))
    }

    func testLoneSurrogates() {
        assertError(#""\uD800""#, #"unpaired surrogate `\uD800`"#, line: 1, column: 2)
        assertError(#""ab\uDC00""#, #"unpaired surrogate `\uDC00`"#, line: 1, column: 4)
        assertError(#""\ud83d\u0041""#, #"unpaired surrogate `\ud83d`"#, line: 1, column: 2)
        assertError(#""\ud83dx""#, #"unpaired surrogate `\ud83d`"#, line: 1, column: 2)
        assertError(#""\ud83d\ud83d""#, #"unpaired surrogate `\ud83d`"#, line: 1, column: 2)
    }

    func testInvalidEscapes() {
        assertError(#""\x""#, #"invalid escape sequence `\x`"#, line: 1, column: 2)
        assertError(#""ok\'""#, #"invalid escape sequence `\'`"#, line: 1, column: 4)
        assertError(#""\u12""#, #"invalid `\u` escape: expected 4 hex digits"#, line: 1, column: 2)
        assertError(#""\u00G0""#, #"invalid `\u` escape: expected 4 hex digits"#, line: 1, column: 2)
        assertError("\"\\", "unexpected end of input", line: 1, column: 3)
    }

    func testRawControlCharactersInStrings() {
        assertError("\"a\u{01}b\"", "unescaped control character U+0001 in string", line: 1, column: 3)
        assertError("\"a\tb\"", "unescaped control character U+0009 in string", line: 1, column: 3)
        assertError("[\"line\nbreak\"]", "unescaped control character U+000A in string", line: 1, column: 7)
        assertError([0x22, 0x00, 0x22], "unescaped control character U+0000 in string", line: 1, column: 2, offset: 1)
        // DEL is not a control character in the JSON sense.
        XCTAssertEqual(value("\"\u{7F}\""), .string("\u{7F}"))
    }

    func testUnterminatedString() {
        assertError(#"["abc"#, "unterminated string", line: 1, column: 2)
        assertError(#"{"key": "value}"#, "unterminated string", line: 1, column: 9)
    }

    // MARK: UTF-8

    func testValidUTF8Bytes() {
        let bytes: [UInt8] = [0x22, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
        XCTAssertEqual(try JSONParser.parse(bytes).get(), .string("é€😀\u{10FFFF}"))
    }

    func testInvalidUTF8Bytes() {
        // Bytes that can never appear.
        assertError([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xff", line: 1, column: 2, offset: 1)
        assertError([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xf5", line: 1, column: 2, offset: 1)
        // A continuation byte without a lead byte.
        assertError([0x22, 0x61, 0x80, 0x22], "invalid UTF-8 byte 0x80", line: 1, column: 3, offset: 2)
        // Overlong encodings of "/" and of U+0000.
        assertError([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 byte 0xc0", line: 1, column: 2, offset: 1)
        assertError([0x22, 0xC1, 0xBF, 0x22], "invalid UTF-8 byte 0xc1", line: 1, column: 2, offset: 1)
        assertError([0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8 byte 0xe0", line: 1, column: 2, offset: 1)
        assertError([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], "invalid UTF-8 byte 0xf0", line: 1, column: 2, offset: 1)
        // A surrogate (U+D800) encoded in UTF-8.
        assertError([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 byte 0xed", line: 1, column: 2, offset: 1)
        // Above U+10FFFF.
        assertError([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xf4", line: 1, column: 2, offset: 1)
        // Truncated sequences.
        assertError([0x22, 0xC3, 0x22], "invalid UTF-8 byte 0xc3", line: 1, column: 2, offset: 1)
        assertError([0x22, 0xE2, 0x82, 0x22], "invalid UTF-8 byte 0xe2", line: 1, column: 2, offset: 1)
        assertError([0x22, 0xF0, 0x9F, 0x98], "invalid UTF-8 byte 0xf0", line: 1, column: 2, offset: 1)
        // The column counts the scalars before the bad byte.
        assertError([0x22, 0xC3, 0xA9, 0xC3, 0xA9, 0xFE, 0x22], "invalid UTF-8 byte 0xfe", line: 1, column: 4, offset: 5)
    }

    func testInvalidUTF8OutsideStrings() {
        assertError([0xFF], "invalid UTF-8 byte 0xff", line: 1, column: 1, offset: 0)
        assertError([0x5B, 0x31, 0x2C, 0x80, 0x5D], "invalid UTF-8 byte 0x80", line: 1, column: 4, offset: 3)
        assertError("[1, é]", "expected a value but found U+00E9", line: 1, column: 5)
    }

    // MARK: Byte order mark, white space and empty input

    func testByteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
        XCTAssertEqual(try JSONParser.parse(bytes).get(), .array([.number(1)]))
        XCTAssertEqual(value("\u{FEFF}{\"a\": true}"), .object([JSONMember(key: "a", value: .bool(true))]))
        // The mark is counted in the byte offset but not as a column.
        assertError([0xEF, 0xBB, 0xBF] + Array("  x".utf8), "invalid literal `x`", line: 1, column: 3, offset: 5)
        assertError([0xEF, 0xBB, 0xBF] + Array("[\n x]".utf8), "invalid literal `x`", line: 2, column: 2, offset: 6)
        // Only a leading mark is skipped.
        assertError("[\u{FEFF}1]", "expected a value but found U+FEFF", line: 1, column: 2)
        assertError("\u{FEFF}\u{FEFF}1", "expected a value but found U+FEFF", line: 1, column: 1, offset: 3)
        assertError([0xEF, 0xBB, 0xBF], "unexpected end of input", line: 1, column: 1, offset: 3)
    }

    func testEmptyInputAndWhiteSpace() {
        assertError("", "unexpected end of input", line: 1, column: 1, offset: 0)
        assertError("  \n  ", "unexpected end of input", line: 2, column: 3, offset: 5)
        assertError("\u{0C}1", "expected a value but found U+000C", line: 1, column: 1)
        assertError("\u{A0}1", "expected a value but found U+00A0", line: 1, column: 1)
        XCTAssertEqual(value("\r\n\t 42 \r\n"), .number(42))
    }

    // MARK: Structure

    func testArraysAndObjects() {
        XCTAssertEqual(value("[]"), .array([]))
        XCTAssertEqual(value("[ ]"), .array([]))
        XCTAssertEqual(value("{}"), .object([]))
        XCTAssertEqual(value("{ \n }"), .object([]))
        XCTAssertEqual(value("[[], {}, [[]]]"), .array([.array([]), .object([]), .array([.array([])])]))
        XCTAssertEqual(
            value(#"{"a": [1, {"b": null}], "c": "d"}"#),
            .object([
                JSONMember(key: "a", value: .array([.number(1), .object([JSONMember(key: "b", value: .null)])])),
                JSONMember(key: "c", value: .string("d")),
            ]))
    }

    func testMemberOrderIsPreserved() {
        let parsed = value(#"{"z": 1, "a": 2, "m": 3, "b": {"y": 1, "x": 2}}"#)
        XCTAssertEqual(parsed?.objectMembers?.map(\.key), ["z", "a", "m", "b"])
        XCTAssertEqual(parsed?["b"]?.objectMembers?.map(\.key), ["y", "x"])
        XCTAssertEqual(parsed?["m"], .number(3))
    }

    func testStructuralErrors() {
        assertError("[1 2]", "expected `,` or `]` after array element", line: 1, column: 4)
        assertError("[1,]", "expected a value but found `]`", line: 1, column: 4)
        assertError("[,1]", "expected a value but found `,`", line: 1, column: 2)
        assertError(#"{"a" 1}"#, "expected `:` after object key", line: 1, column: 6)
        assertError(#"{"a": 1,}"#, "expected a string key but found `}`", line: 1, column: 9)
        assertError(#"{"a": 1 "b": 2}"#, "expected `,` or `}` after object member", line: 1, column: 9)
        assertError("{a: 1}", "expected a string key or `}` but found `a`", line: 1, column: 2)
        assertError(#"{"a": }"#, "expected a value but found `}`", line: 1, column: 7)
        assertError("[1}", "expected `,` or `]` after array element", line: 1, column: 3)
        assertError(#"{"a": 1]"#, "expected `,` or `}` after object member", line: 1, column: 8)
        assertError("]", "expected a value but found `]`", line: 1, column: 1)
        assertError("[1]]", "expected end of input but found `]`", line: 1, column: 4)
        assertError("[1, 2", "unexpected end of input", line: 1, column: 6, offset: 5)
        assertError(#"{"a""#, "unexpected end of input", line: 1, column: 5)
        assertError(#"{"a":"#, "unexpected end of input", line: 1, column: 6)
        assertError("{", "unexpected end of input", line: 1, column: 2)
        assertError("[", "unexpected end of input", line: 1, column: 2)
        assertError("[`]", "expected a value but found U+0060", line: 1, column: 2)
    }

    func testMultiLineErrorPositions() {
        let doubleComma = """
            {
              "a": 1,
              "b": [1, 2,, 3]
            }
            """
        assertError(doubleComma, "expected a value but found `,`", line: 3, column: 14)

        let missingComma = "{\n  \"a\": 1\n  \"b\": 2\n}"
        assertError(missingComma, "expected `,` or `}` after object member", line: 3, column: 3, offset: 13)

        let crlf = "[\r\n1,\r\n  x]"
        assertError(crlf, "invalid literal `x`", line: 3, column: 3, offset: 9)

        let loneCarriageReturn = "[\r1,\rx]"
        assertError(loneCarriageReturn, "invalid literal `x`", line: 3, column: 1, offset: 5)

        let nonASCII = "{\"naïve\": 1,\n \"ключ\": tru}"
        assertError(nonASCII, "invalid literal `tru`", line: 2, column: 10)

        let truncated = "{\n  \"a\": [1, 2"
        assertError(truncated, "unexpected end of input", line: 2, column: 13, offset: 14)

        let badUTF8: [UInt8] = Array("[\n  \"é".utf8) + [0xFF] + Array("\"\n]".utf8)
        assertError(badUTF8, "invalid UTF-8 byte 0xff", line: 2, column: 5, offset: 7)
    }

    // MARK: Duplicate keys

    func testDuplicateKeys() {
        let text = "{\n  \"id\": 1,\n  \"name\": \"x\",\n  \"id\": 2\n}"
        assertError(text, "duplicate key `id`", line: 4, column: 3, offset: 30)
        assertError(#"{"a": {"x": 1, "x": 2}}"#, "duplicate key `x`", line: 1, column: 16)
        assertError(#"[{"ok": 1}, {"k": 1, "k": 1}]"#, "duplicate key `k`", line: 1, column: 22)
        assertError(#"{"": 1, "": 2}"#, "duplicate key ``", line: 1, column: 9)
        // Escaped and raw spellings of the same key are the same key.
        assertError(#"{"a": 1, "\u0061": 2}"#, "duplicate key `a`", line: 1, column: 10)
        assertError(#"{"a\nb": 1, "a\nb": 2}"#, #"duplicate key `a\u000ab`"#, line: 1, column: 13)
    }

    func testSameKeyInDifferentObjectsIsFine() {
        XCTAssertNotNil(value(#"{"a": {"x": 1}, "b": {"x": 2}, "x": 3}"#))
        XCTAssertNotNil(value(#"[{"x": 1}, {"x": 1}]"#))
        XCTAssertNotNil(value(#"{"x": {"x": {"x": null}}}"#))
    }

    func testCanonicallyEquivalentKeysAreDistinct() {
        // "é" precomposed and "e" + combining acute are different JSON keys.
        let parsed = value("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        XCTAssertEqual(parsed?.objectMembers?.count, 2)
    }

    func testDuplicateKeysInLargeObjects() {
        let keys = (0..<40).map { "key\($0)" }
        let members = keys.map { "\"\($0)\": 0" }.joined(separator: ",")
        XCTAssertEqual(value("{\(members)}")?.objectMembers?.count, 40)
        let early = "{\(members), \"key3\": 1}"
        XCTAssertEqual(failure(early)?.message, "duplicate key `key3`")
        let late = "{\(members), \"key39\": 1}"
        XCTAssertEqual(failure(late)?.message, "duplicate key `key39`")
        let many = (0..<2000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        XCTAssertEqual(value("{\(many)}")?["k1999"], .number(1999))
        XCTAssertEqual(failure("{\(many),\"k1000\":1}")?.message, "duplicate key `k1000`")
    }

    // MARK: Depth

    func testDepthLimit() {
        XCTAssertNotNil(value(nested(64)))
        XCTAssertNotNil(value("[" + nested(63) + "," + nested(63, inner: "0") + "]"))
        assertError(nested(65), "nesting deeper than 64 levels", line: 1, column: 65, offset: 64)

        var objects = ""
        for _ in 0..<63 { objects += "{\"a\":" }
        objects += "[1]" + String(repeating: "}", count: 63)
        XCTAssertNotNil(value(objects))
        XCTAssertEqual(failure("{\"b\":" + objects + "}")?.message, "nesting deeper than 64 levels")
    }

    func testCustomDepthLimit() {
        XCTAssertNotNil(value("[[1]]", maxDepth: 2))
        XCTAssertEqual(failure("[[[1]]]", maxDepth: 2)?.message, "nesting deeper than 2 levels")
        XCTAssertEqual(value("1", maxDepth: 0), .number(1))
        XCTAssertEqual(failure("[]", maxDepth: 0)?.message, "nesting deeper than 0 levels")
        XCTAssertNotNil(value(nested(500), maxDepth: 500))
    }

    func testVeryDeepInputFailsQuickly() {
        let deep = String(repeating: "[", count: 100_000)
        let error = failure(deep)
        XCTAssertEqual(error?.message, "nesting deeper than 64 levels")
        XCTAssertEqual(error?.byteOffset, 64)
        let mixed = String(repeating: "{\"a\":[", count: 50_000)
        XCTAssertEqual(failure(mixed)?.message, "nesting deeper than 64 levels")
    }

    func testDeepInputWithinLargeLimitDoesNotRecurse() {
        let deep = nested(20_000, inner: "1")
        guard case .success(var parsed) = JSONParser.parse(deep, maxDepth: 20_000) else {
            return XCTFail("expected success")
        }
        var depth = 0
        while case .array(let elements) = parsed, let first = elements.first {
            depth += 1
            parsed = first
        }
        XCTAssertEqual(depth, 20_000)
        XCTAssertEqual(parsed, .number(1))
    }

    // MARK: Input types

    func testInputCollections() {
        let text = #"{"a": [1, true]}"#
        let expected = JSONValue.object([JSONMember(key: "a", value: .array([.number(1), .bool(true)]))])
        XCTAssertEqual(try JSONParser.parse(Array(text.utf8)).get(), expected)
        XCTAssertEqual(try JSONParser.parse(Data(text.utf8)).get(), expected)
        XCTAssertEqual(try JSONParser.parse(text.utf8).get(), expected)
        XCTAssertEqual(try JSONParser.parse(Array(("xx" + text).utf8).dropFirst(2)).get(), expected)
        XCTAssertEqual(try JSONParser.parse(AnyCollection(Array(text.utf8))).get(), expected)
        let error = JSONParser.parse(AnyCollection(Array("[1,".utf8)))
        XCTAssertEqual(error, .failure(JSONParseError(message: "unexpected end of input", line: 1, column: 4, byteOffset: 3)))
    }

    // MARK: Accessors

    func testAccessors() throws {
        let parsed = try XCTUnwrap(value(#"{"s": "x", "n": 2, "b": false, "a": [1], "o": {}, "z": null}"#))
        XCTAssertEqual(parsed["s"]?.stringValue, "x")
        XCTAssertEqual(parsed["n"]?.numberValue, 2)
        XCTAssertEqual(parsed["b"]?.boolValue, false)
        XCTAssertEqual(parsed["a"]?.arrayValue, [.number(1)])
        XCTAssertEqual(parsed["o"]?.objectMembers, [])
        XCTAssertEqual(parsed["z"], .null)
        XCTAssertNil(parsed["n"]?.stringValue)
        XCTAssertNil(parsed["s"]?.numberValue)
        XCTAssertNil(parsed["n"]?.boolValue)
        XCTAssertNil(parsed["o"]?.arrayValue)
        XCTAssertNil(parsed["a"]?.objectMembers)
        XCTAssertEqual(parsed.objectMembers?.map(\.value.typeName), ["string", "number", "boolean", "array", "object", "null"])
    }

    func testSubscriptAndTypeNames() {
        let object = JSONValue.object([
            JSONMember(key: "a", value: .number(1)),
            JSONMember(key: "b", value: .string("x")),
            JSONMember(key: "a", value: .number(2)),
        ])
        XCTAssertEqual(object["a"], .number(1))
        XCTAssertEqual(object["b"]?.stringValue, "x")
        XCTAssertNil(object["c"])
        XCTAssertNil(JSONValue.array([.number(1)])["a"])
        XCTAssertNil(JSONValue.string("a")["a"])
        XCTAssertEqual(object.objectMembers?.count, 3)
        XCTAssertNil(object.arrayValue)
        XCTAssertEqual(JSONValue.array([.null]).arrayValue, [.null])
        XCTAssertNil(JSONValue.null.stringValue)

        XCTAssertEqual(JSONValue.null.typeName, "null")
        XCTAssertEqual(JSONValue.bool(true).typeName, "boolean")
        XCTAssertEqual(JSONValue.number(1).typeName, "number")
        XCTAssertEqual(JSONValue.string("").typeName, "string")
        XCTAssertEqual(JSONValue.array([]).typeName, "array")
        XCTAssertEqual(JSONValue.object([]).typeName, "object")
    }

    // MARK: Performance

    func testLargeInputParses() {
        var text = "["
        var index = 0
        while text.utf8.count < 1 << 20 {
            if index > 0 { text += "," }
            text += #"{"id":\#(index),"name":"item \#(index) é","score":\#(Double(index) * 0.25),"ok":true,"tags":["a","b\n"]}"#
            index += 1
        }
        text += "]"
        let parsed = JSONParser.parse(text)
        guard case .success(.array(let items)) = parsed else { return XCTFail("expected an array") }
        XCTAssertEqual(items.count, index)
        XCTAssertEqual(items.last?["id"], .number(Double(index - 1)))
        XCTAssertEqual(items.first?["tags"], .array([.string("a"), .string("b\n")]))
    }
}
