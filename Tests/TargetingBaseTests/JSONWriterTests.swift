import Foundation
import XCTest
@testable import TargetingBase

final class JSONWriterTests: XCTestCase {
    private func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.0, value: $0.1) })
    }

    // MARK: Scalars

    func testLiterals() {
        XCTAssertEqual(JSONWriter.write(.null), "null")
        XCTAssertEqual(JSONWriter.write(.bool(true)), "true")
        XCTAssertEqual(JSONWriter.write(.bool(false)), "false")
    }

    func testIntegralNumbers() {
        XCTAssertEqual(JSONWriter.write(.number(3)), "3")
        XCTAssertEqual(JSONWriter.write(.number(0)), "0")
        XCTAssertEqual(JSONWriter.write(.number(-0.0)), "0")
        XCTAssertEqual(JSONWriter.write(.number(-42)), "-42")
        XCTAssertEqual(JSONWriter.write(.number(1e15)), "1000000000000000")
        XCTAssertEqual(JSONWriter.write(.number(9_007_199_254_740_991)), "9007199254740991")
        XCTAssertEqual(JSONWriter.write(.number(-9_007_199_254_740_991)), "-9007199254740991")
    }

    func testOtherNumbers() {
        XCTAssertEqual(JSONWriter.write(.number(0.1)), "0.1")
        XCTAssertEqual(JSONWriter.write(.number(-1.5)), "-1.5")
        XCTAssertEqual(JSONWriter.write(.number(1e20)), "1e+20")
        XCTAssertEqual(JSONWriter.write(.number(1e-7)), "1e-07")
        XCTAssertEqual(JSONWriter.write(.number(.leastNonzeroMagnitude)), "5e-324")
        XCTAssertEqual(JSONWriter.write(.number(.greatestFiniteMagnitude)), "1.7976931348623157e+308")
        XCTAssertEqual(JSONWriter.write(.number(9_007_199_254_740_992)), "9007199254740992.0")
        XCTAssertEqual(JSONWriter.write(.number(0.1 + 0.2)), "0.30000000000000004")
    }

    func testNonFiniteNumbersBecomeNull() {
        XCTAssertEqual(JSONWriter.write(.number(.nan)), "null")
        XCTAssertEqual(JSONWriter.write(.number(.infinity)), "null")
        XCTAssertEqual(JSONWriter.write(.array([.number(-.infinity), .number(1)])), "[null,1]")
    }

    func testNumbersAreValidJSONAndRoundTrip() {
        var generator = SplitMix64(seed: 0x5EED)
        var samples: [Double] = [0.1, 1.0 / 3, 123.456, 1e300, -2.5e-300, .leastNonzeroMagnitude, 2.2250738585072014e-308,
                                 9_007_199_254_740_994, 1e16, 1e21, 1e22, 1e23, 65536.5]
        for _ in 0..<2000 {
            let candidate = Double(bitPattern: generator.next())
            if candidate.isFinite { samples.append(candidate) }
        }
        for sample in samples {
            let text = JSONWriter.write(.number(sample))
            XCTAssertEqual(try JSONParser.parse(text).get(), .number(sample), text)
        }
    }

    // MARK: Strings

    func testStringEscaping() {
        XCTAssertEqual(JSONWriter.write(.string("plain")), #""plain""#)
        XCTAssertEqual(JSONWriter.write(.string("")), #""""#)
        XCTAssertEqual(JSONWriter.write(.string("say \"hi\"")), #""say \"hi\"""#)
        XCTAssertEqual(JSONWriter.write(.string("back\\slash")), #""back\\slash""#)
        XCTAssertEqual(JSONWriter.write(.string("a/b")), #""a/b""#)
        XCTAssertEqual(JSONWriter.write(.string("\n\t\r\u{08}\u{0C}")), #""\n\t\r\b\f""#)
        XCTAssertEqual(JSONWriter.write(.string("\u{0}\u{1}\u{1F}")), #""\u0000\u0001\u001f""#)
        XCTAssertEqual(JSONWriter.write(.string("\u{0B}x\u{1B}")), #""\u000bx\u001b""#)
        XCTAssertEqual(JSONWriter.write(.string("\u{7F}")), "\"\u{7F}\"")
    }

    func testNonASCIIIsWrittenAsUTF8() {
        XCTAssertEqual(JSONWriter.write(.string("héllo 😀 ключ")), "\"héllo 😀 ключ\"")
        XCTAssertEqual(JSONWriter.write(.string("\u{2028}\u{FEFF}")), "\"\u{2028}\u{FEFF}\"")
        XCTAssertEqual(Array(JSONWriter.write(.string("é")).utf8), [0x22, 0xC3, 0xA9, 0x22])
    }

    func testBridgedStringIsEscaped() {
        let bridged = NSString(string: "line\nbreak") as String
        XCTAssertEqual(JSONWriter.write(.string(bridged)), #""line\nbreak""#)
    }

    // MARK: Containers

    func testCompactContainers() {
        XCTAssertEqual(JSONWriter.write(.array([])), "[]")
        XCTAssertEqual(JSONWriter.write(.object([])), "{}")
        XCTAssertEqual(JSONWriter.write(.array([.number(1), .bool(true), .null, .string("x")])), #"[1,true,null,"x"]"#)
        XCTAssertEqual(
            JSONWriter.write(object([("a", .array([.array([]), .object([])])), ("b", object([("c", .number(2))]))])),
            #"{"a":[[],{}],"b":{"c":2}}"#)
        XCTAssertEqual(JSONWriter.write(object([("k\"1", .string("v\n"))])), #"{"k\"1":"v\n"}"#)
    }

    func testStoredMemberOrderIsKept() {
        let value = object([("z", .number(1)), ("a", .number(2)), ("m", object([("y", .null), ("b", .null)]))])
        XCTAssertEqual(JSONWriter.write(value), #"{"z":1,"a":2,"m":{"y":null,"b":null}}"#)
    }

    func testSortedWritingSortsEveryLevel() {
        let value = object([
            ("z", .array([object([("b", .number(1)), ("a", .number(2))])])),
            ("a", object([("y", .null), ("x", object([("2", .bool(true)), ("10", .bool(false))]))])),
        ])
        XCTAssertEqual(JSONWriter.writeSorted(value), #"{"a":{"x":{"10":false,"2":true},"y":null},"z":[{"a":2,"b":1}]}"#)
        // The stored order is untouched by sorted writing.
        XCTAssertEqual(value.objectMembers?.map(\.key), ["z", "a"])
    }

    func testSortedWritingUsesUTF8ByteOrder() {
        let keys = ["😀", "é", "a", "Z", "", "aa", "\u{FFFF}", "e\u{301}", "B"]
        let value = JSONValue.object(keys.map { JSONMember(key: $0, value: .null) })
        let written = JSONWriter.writeSorted(value)
        let parsed = try? JSONParser.parse(written).get()
        // UTF-16 order would put "😀" before U+FFFF; UTF-8 byte order puts it last.
        XCTAssertEqual(parsed?.objectMembers?.map(\.key), ["", "B", "Z", "a", "aa", "e\u{301}", "é", "\u{FFFF}", "😀"])
    }

    func testSortedWritingKeepsEqualKeysInOrder() {
        let value = object([("b", .number(1)), ("a", .number(2)), ("b", .number(3))])
        XCTAssertEqual(JSONWriter.writeSorted(value), #"{"a":2,"b":1,"b":3}"#)
    }

    func testVeryDeepValueIsWrittenWithoutRecursion() {
        var value = JSONValue.number(7)
        for _ in 0..<10_000 {
            value = .array([value])
        }
        let text = JSONWriter.write(value)
        XCTAssertEqual(text, String(repeating: "[", count: 10_000) + "7" + String(repeating: "]", count: 10_000))
    }

    // MARK: Round trips

    func testParseOfWriteReturnsTheSameValue() throws {
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .number(0), .number(-0.5), .number(1e100), .number(123_456_789),
            .string(""), .string("quote \" backslash \\ slash / tab \t nul \u{0} bell \u{7} emoji 😀 combining e\u{301}"),
            .array([]), .object([]),
            .array([.bool(true), .number(1), .string("1"), .null]),
            object([("b", .number(1)), ("a", .array([.object([]), object([("", .string("empty key"))])])),
                    ("c", object([("d", object([("e", .bool(false))]))]))]),
            .array((0..<100).map { .number(Double($0) / 7) }),
        ]
        for value in values {
            XCTAssertEqual(try JSONParser.parse(JSONWriter.write(value)).get(), value)
        }
    }

    func testWriteOfParseReturnsCanonicalText() throws {
        let texts = [
            #"{"z":[1,2.5,-3,1e+20,0.001],"a":{"b":null,"c":[true,false]},"s":"\"\\\n\u0001é"}"#,
            "[]", "{}", "[[],[[]],{}]", #""\u001f""#, "-1.5", "123",
        ]
        for text in texts {
            XCTAssertEqual(JSONWriter.write(try JSONParser.parse(text).get()), text)
        }
    }

    func testRoundTripOfStringsWithAllControlCharacters() throws {
        let text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
        let written = JSONWriter.write(.string(text))
        XCTAssertEqual(try JSONParser.parse(written).get(), .string(text))
        XCTAssertFalse(written.unicodeScalars.dropFirst().dropLast().contains { $0.value < 0x20 })
    }
}

/// A small deterministic generator so number samples are reproducible.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
