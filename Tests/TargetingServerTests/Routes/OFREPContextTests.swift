import XCTest
import TargetingBase
import TargetingProfiles
@testable import TargetingServer

final class OFREPContextTests: XCTestCase {
    func read(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Result<Profile, ProfileError> {
        guard case .success(let value) = JSONParser.parse(text) else {
            XCTFail("not JSON: \(text)", file: file, line: line)
            return .failure(ProfileError(message: "not JSON"))
        }
        return OFREPContext.profile(value)
    }

    func testMapsTheContextToAProfile() throws {
        let context = """
        {"targetingKey": "u1", "country": "DE", "app_version": "4.3.0", "access_levels": ["premium"],
         "history": {"shown": {"home": ["2026-11-30T09:00:00Z", "2026-11-29T09:00:00Z"]}},
         "plan": "pro", "beta": true, "legacy": false, "visits": 12, "tags": ["music", "sports"], "note": "  hi  "}
        """
        let profile = try read(context).get()
        XCTAssertEqual(profile.id, "u1")
        XCTAssertEqual(profile["country"], .string("DE"))
        XCTAssertEqual(profile["app_version"], .string("4.3.0"))
        XCTAssertEqual(profile["access_levels"], .array([.string("premium")]), "a built-in field keeps its JSON")
        XCTAssertEqual(profile.history?.instants(of: "home"), [Timestamp.parse("2026-11-29T09:00:00Z")!, Timestamp.parse("2026-11-30T09:00:00Z")!])
        XCTAssertEqual(profile.customAttributes, [
            "plan": .string("pro"),
            "beta": .number(1),
            "legacy": .number(0),
            "visits": .number(12),
            "tags": .string("music,sports"),
            "note": .string("hi"),
        ])
        XCTAssertNil(profile["plan"], "a custom attribute is not a field")
        XCTAssertNil(profile["targetingKey"])
        // The same as the profile written with `id` and `custom_attributes`.
        let written = """
        {"id": "u1", "country": "DE", "app_version": "4.3.0", "access_levels": ["premium"],
         "history": {"shown": {"home": ["2026-11-30T09:00:00Z", "2026-11-29T09:00:00Z"]}},
         "custom_attributes": {"plan": "pro", "beta": true, "legacy": false, "visits": 12, "tags": ["music", "sports"], "note": "  hi  "}}
        """
        XCTAssertEqual(profile, try ProfileReader.read(Array(written.utf8)).get())
    }

    func testTheTargetingKeyIsTheId() throws {
        XCTAssertEqual(try read(#"{"targetingKey": "k"}"#).get().id, "k")
        XCTAssertEqual(try read(#"{"id": "k"}"#).get().id, "k", "an `id` alone is the id")
        XCTAssertEqual(try read(#"{"id": "k", "targetingKey": "k"}"#).get().id, "k")
        XCTAssertEqual(try read(#"{"id": "k", "targetingKey": "k"}"#).get().fields.filter { $0.key == "id" }.count, 1)
        XCTAssertNil(try read("{}").get().id)
        XCTAssertEqual(try read("{}").get(), Profile())
    }

    func testRefusals() {
        let cases: [(String, String)] = [
            ("5", "`context` must be an object, found number"),
            (#""u1""#, "`context` must be an object, found string"),
            (#"{"targetingKey": 5}"#, "`targetingKey` must be a string, found number"),
            (#"{"targetingKey": null}"#, "`targetingKey` must be a string, found null"),
            (#"{"targetingKey": "a", "id": "b"}"#, "`targetingKey` and `id` name different profiles"),
            (#"{"targetingKey": "a", "id": 5}"#, "`targetingKey` and `id` name different profiles"),
        ]
        for (context, message) in cases {
            guard case .failure(let error) = read(context) else {
                XCTFail("accepted: \(context)")
                continue
            }
            XCTAssertEqual(error.message, message, context)
        }
    }

    func testABadCustomAttributeIsRejectedAsTheReaderRejectsIt() {
        for (key, value) in [("bio", "\"\(String(repeating: "x", count: 51))\""), ("bad key", "1"), ("list", "[1, 2]"), ("nested", #"{"a": 1}"#)] {
            let fromContext = read(#"{"targetingKey": "u1", "\#(key)": \#(value)}"#)
            guard case .failure(let error) = fromContext else {
                XCTFail("accepted: \(key)")
                continue
            }
            guard case .failure(let expected) = ProfileReader.read(Array(#"{"id": "u1", "custom_attributes": {"\#(key)": \#(value)}}"#.utf8)) else {
                XCTFail("the reader accepts \(key)")
                continue
            }
            XCTAssertEqual(error, expected, key)
            XCTAssertTrue(error.message.contains("`\(key)`"), error.message)
        }
        let many = (0..<31).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        guard case .failure = read("{\(many)}") else { return XCTFail("31 custom attributes are accepted") }
    }
}
