import TargetingBase
import XCTest

@testable import TargetingProfiles

/// profiles, the edge cases "More edges": how custom attribute keys and values are trimmed and stored.
final class ProfileReaderTests: XCTestCase {
    private func read(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> Profile? {
        readProfile(line, file: file, line: number)
    }

    private func rejection(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> String {
        profileRejection(line, file: file, line: number)
    }

    func testAnArrayIsTrimmedAfterJoining() {
        let profile = read(#"{"custom_attributes":{"interests":[" music","sports"]}}"#)
        XCTAssertEqual(profile?.customAttributes["interests"], .string("music,sports"))
        let edges = read(#"{"custom_attributes":{"tags":["\u00A0a "," b\u3000"]}}"#)
        XCTAssertEqual(edges?.customAttributes["tags"], .string("a , b"))
        // Only the ends of the joined text are trimmed, never the members inside it.
        XCTAssertEqual(read(#"{"custom_attributes":{"tags":["a ", " b"]}}"#)?.customAttributes["tags"], .string("a , b"))
    }

    func testAnArrayThatTrimsToNothingRemovesTheAttribute() {
        let profile = read(#"{"custom_attributes":{"tags":["  "],"kept":["x"]}}"#)
        XCTAssertNil(profile?.customAttributes["tags"])
        XCTAssertEqual(profile?.customKeys, ["kept"])
    }

    func testTheLengthOfAJoinedArrayIsCheckedAfterTrimming() {
        // 51 characters joined, 49 once the spaces at both ends are trimmed.
        let members = [" " + String(repeating: "a", count: 24), String(repeating: "b", count: 24) + " "]
        XCTAssertEqual(members.joined(separator: ",").unicodeScalars.count, 51)
        let json = #"{"custom_attributes":{"tags":[""# + members.joined(separator: #"",""#) + #""]}}"#
        XCTAssertEqual(read(json)?.customAttributes["tags"], .string(String(repeating: "a", count: 24) + "," + String(repeating: "b", count: 24)))
        // 51 characters after trimming are still too many.
        let long = #"{"custom_attributes":{"tags":[" "# + String(repeating: "a", count: 25) + #"",""# + String(repeating: "b", count: 25) + #" "]}}"#
        XCTAssertTrue(rejection(long).contains("51 characters"), rejection(long))
    }

    func testApplyingAnArrayStoresWhatReadingStores() {
        var profile = Profile()
        let answer = Answer(screen: nil, element: "interests", target: .custom("interests"), value: .array([.string(" music"), .string("sports")]))
        XCTAssertNil(profile.apply(answer))
        XCTAssertEqual(profile.customAttributes["interests"], .string("music,sports"))
        XCTAssertEqual(ProfileReader.storedValue(.array([.string(" music"), .string("sports ")])), .success(.string("music,sports")))
    }

    func testTrimmingRemovesExactlyUnicodeWhiteSpace() {
        let removed: [Unicode.Scalar] = ["\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", " ", "\u{85}", "\u{A0}", "\u{1680}",
                                         "\u{2000}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}"]
        for scalar in removed {
            let text = String(scalar) + "pro" + String(scalar)
            XCTAssertEqual(AdaptyLimits.trimmed(text), "pro", "U+\(String(scalar.value, radix: 16))")
        }
        let kept: [Unicode.Scalar] = ["\u{1C}", "\u{1D}", "\u{1E}", "\u{1F}", "\u{200B}", "\u{FEFF}", "\u{180E}", "\u{0}"]
        for scalar in kept {
            let text = String(scalar) + "pro" + String(scalar)
            XCTAssertEqual(AdaptyLimits.trimmed(text), text, "U+\(String(scalar.value, radix: 16))")
        }
    }

    func testTheWhiteSpaceListIsExactlyTheUnicodeProperty() {
        // SQL trims by this list; the reader by the property. They must be the same scalars.
        let property = (0...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }.filter(\.properties.isWhitespace).map(\.value)
        XCTAssertEqual(AdaptyLimits.whiteSpace, property)
    }

    func testKeysAndValuesKeepTheSeparatorControlsZeroWidthSpaceAndBOM() {
        let profile = read(#"{"custom_attributes":{" a\u3000":"\u001Fpro\u001C","b":"\u200Bx\uFEFF","c":["\u001E","\u001D"]}}"#)
        XCTAssertEqual(profile?.customAttributes["a"], .string("\u{1F}pro\u{1C}"))
        XCTAssertEqual(profile?.customAttributes["b"], .string("\u{200B}x\u{FEFF}"))
        XCTAssertEqual(profile?.customAttributes["c"], .string("\u{1E},\u{1D}"))
        // A key is trimmed of white space only: U+001F stays, so the key is invalid.
        XCTAssertTrue(rejection(#"{"custom_attributes":{"a\u001F":1}}"#).contains("is invalid"))
    }
}
