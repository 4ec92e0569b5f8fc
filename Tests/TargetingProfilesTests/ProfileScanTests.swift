import TargetingBase
import XCTest

@testable import TargetingProfiles

/// `ProfileScan` must agree with `ProfileReader`: a line it accepts is one the reader accepts,
/// with the same fields and custom attributes; everything else is left to the reader.
final class ProfileScanTests: XCTestCase {
    /// Scans `line`; when the scan accepts it, checks that the reader reads the same profile.
    /// Returns whether the scan accepted it.
    @discardableResult
    func agree(_ line: String, file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        var scan = ProfileScan()
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            guard scan.scan(buffer) else { return false }
            guard case .success(let profile) = ProfileReader.read(bytes) else {
                XCTFail("the scan accepts a line the reader rejects: \(line)", file: file, line: lineNumber)
                return true
            }
            XCTAssertEqual(scan.id(in: buffer), profile.id, line, file: file, line: lineNumber)
            XCTAssertEqual(scan.profile(in: buffer), profile, line, file: file, line: lineNumber)
            XCTAssertEqual(scan.profile(in: buffer).customKeys, profile.customKeys, line, file: file, line: lineNumber)
            XCTAssertEqual(scan.fields.count, profile.fields.count, line, file: file, line: lineNumber)
            for member in profile.fields {
                XCTAssertEqual(scan.fieldValue(member.key, in: buffer), profile[member.key], "\(member.key) in \(line)", file: file, line: lineNumber)
            }
            XCTAssertEqual(scan.customAttributes.count, profile.customAttributes.count, line, file: file, line: lineNumber)
            for (key, value) in profile.customAttributes {
                XCTAssertEqual(scan.customValue(key, in: buffer), value, "\(key) in \(line)", file: file, line: lineNumber)
            }
            return true
        }
    }

    func testCommonLinesAreScanned() {
        let lines = [
            #"{"id":"u0","birthday":"1974-04-20","country":"DE","platform":"ios","app_version":"4.1.0","installed_at":"2026-11-07T19:00:00Z","custom_attributes":{"experience":"pro","interests":"music,travel,food","reminders":0,"weekly_hours":20}}"#,
            #" { "id" : "u1" , "access_levels" : [ "premium" , "gold" ] , "custom_attributes" : { "goal" : true , "x.y-z_1" : -2.5e1 , "gone" : null , "blank" : "" } } "#,
            #"{"id":"ü","first_name":"Çağrı","custom_attributes":{"city":"x İstanbul"}}"#,
            #"{}"#,
            #"{"custom_attributes":null,"access_levels":[]}"#,
            #"{"id":1,"flag":false,"nothing":null}"#,
        ]
        for line in lines { XCTAssertTrue(agree(line), line) }
    }

    func testLinesOutsideTheSubsetAreLeftToTheReader() {
        let lines = [
            #"{"id":"u\"1"}"#,                                        // escape in a value
            #"{"i\u0064":"u1"}"#,                                     // escape in a key
            #"{"id":"u1","id":"u2"}"#,                                // duplicate key
            #"{"custom_attributes":{"a":1},"custom_attributes":{}}"#, // duplicate custom_attributes
            #"{"custom_attributes":{"a":1,"a":2}}"#,                  // duplicate attribute
            #"{"custom_attributes":{"a":null,"a":2}}"#,               // duplicate, first one null
            #"{"custom_attributes":{" a":1}}"#,                       // key to trim
            #"{"custom_attributes":{"a!":1}}"#,                       // invalid key
            #"{"custom_attributes":{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa":1}}"#, // 31 characters
            #"{"custom_attributes":{"a":" pro"}}"#,                   // value to trim
            #"{"custom_attributes":{"a":"pro\t"}}"#,                  // control character
            #"{"custom_attributes":{"a":["x","y"]}}"#,                // array attribute
            #"{"custom_attributes":{"a":{"b":1}}}"#,                  // object attribute
            #"{"custom_attributes":{"a":1e400}}"#,                    // not finite
            #"{"custom_attributes":"none"}"#,                         // not an object
            #"{"extra":{"a":1}}"#,                                    // nested object
            #"{"extra":[1,2]}"#,                                      // array of numbers
            #"{"extra":[["a"]]}"#,                                    // nested array
            #"{"id":"u1""#,                                           // truncated
            #"{"id":"u1"}x"#,                                         // trailing bytes
            #"[{"id":"u1"}]"#,                                        // not an object
            #"{"id":01}"#,                                            // leading zero
            #"{"id":tru}"#,                                           // bad literal
            #"{"id":"u1",}"#,                                         // trailing comma
            "{\"id\":\"\u{FEFF}u\"}",                                 // fine (UTF-8 BOM inside a string)
        ]
        for line in lines.dropLast() { XCTAssertFalse(agree(line), line) }
        XCTAssertTrue(agree(lines.last!))
        XCTAssertFalse(agree("{\"custom_attributes\":{\"a\":\"x" + String(repeating: "é", count: 49) + "x\"}}"))
        XCTAssertTrue(agree("{\"custom_attributes\":{\"a\":\"x" + String(repeating: "é", count: 48) + "x\"}}"))
        let many = (0...30).map { "\"k\($0)\":1" }.joined(separator: ",")
        XCTAssertFalse(agree("{\"custom_attributes\":{\(many)}}"))
        var broken = Array(#"{"id":"u"}"#.utf8)
        broken[7] = 0xC3  // a lead byte without its continuation
        var scan = ProfileScan()
        XCTAssertFalse(broken.withUnsafeBufferPointer { scan.scan($0) })
    }

    /// Seeded random lines built from valid and broken pieces: wherever the scan accepts, the
    /// reader accepts the same profile.
    func testRandomLinesAgreeWithTheReader() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func pick(_ items: [String]) -> String { items[next(items.count)] }
        let keys = ["experience", "goal", "x.y", "a-b", "A_1", " goal", "goal!", "g o", "custom_attributes", "id"]
        let values = [#""pro""#, #""""#, #"" pro""#, #""é""#, #""a,b""#, "0", "1", "2.5", "-0", "1e2", "1E400", "true", "false",
                      "null", "[]", #"["a","b"]"#, #"["a",1]"#, "{}", #"{"a":1}"#, #""\u0070""#, "01", "1.", "-", "tru"]
        let fields = ["id", "birthday", "country", "app_version", "access_levels", "extra", "custom_attributes"]
        var accepted = 0
        for _ in 0..<4000 {
            var members: [String] = []
            for _ in 0..<next(5) { members.append("\"\(pick(fields))\":\(pick(values))") }
            var attributes: [String] = []
            for _ in 0..<next(6) { attributes.append("\"\(pick(keys))\":\(pick(values))") }
            if next(4) > 0 { members.append("\"custom_attributes\":{\(attributes.joined(separator: pick([",", " , "])))}") }
            var line = "{" + members.shuffled(using: &state).joined(separator: ",") + "}"
            if next(20) == 0 { line.removeLast() }
            if agree(line) { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 100, "the scan should accept a good share of valid lines")
    }
    func testHistoriesAreScannedAsTheReaderReadsThem() {
        let hundred = (0..<100).map { #""2026-10-01T00:00:\#(String(format: "%02d", $0 % 60))Z""# }.joined(separator: ",")
        let lines = [
            #"{"id":"u1","history":{"shown":{"main_paywall":["2026-12-01T10:00:00Z","2026-11-30T09:00:00Z","2026-12-01T10:00:00Z"]},"assigned":{"annual_first":{"variant":"annual_first","at":"2026-11-30T09:00:00Z"}}}}"#,
            #"{ "history" : { "assigned" : { "e" : { "at" : "2026-11-30T09:00:00.5+02:00" , "variant" : "v" } } , "shown" : { "a" : [ ] , "b" : [ "2026-11-30T09:00:00Z" ] } } , "id" : "u2" }"#,
            #"{"id":"u3","history":{}}"#,
            #"{"id":"u4","history":null,"custom_attributes":{"shown":3}}"#,
            #"{"id":"u5","history":{"shown":{},"assigned":{}}}"#,
            #"{"id":"u6","history":{"shown":{"p":[\#(hundred)]}}}"#,
        ]
        for line in lines { XCTAssertTrue(agree(line), line) }
        var scan = ProfileScan()
        let bytes = Array(lines[0].utf8)
        bytes.withUnsafeBufferPointer { XCTAssertTrue(scan.scan($0)) }
        XCTAssertEqual(scan.history?.instants(of: "main_paywall").count, 2)
        XCTAssertEqual(scan.history?.assignment(of: "annual_first")?.variant, "annual_first")
        let empty = Array(#"{"id":"u0"}"#.utf8)
        empty.withUnsafeBufferPointer { XCTAssertTrue(scan.scan($0)) }
        XCTAssertNil(scan.history, "a line without history must not keep the previous line's")
    }

    func testHistoriesOutsideTheSubsetAreLeftToTheReader() {
        let hundredAndOne = (0...100).map { #""2026-10-01T00:\#(String(format: "%02d", $0 / 60)):\#(String(format: "%02d", $0 % 60))Z""# }.joined(separator: ",")
        let lines = [
            #"{"history":{"shown":{"p":[\#(hundredAndOne)]}}}"#,           // over the limit
            #"{"history":{"shown":{"p":["2026-12-01"]}}}"#,                   // a date is not an instant
            #"{"history":{"shown":{"p":["yesterday"]}}}"#,                    // not an instant
            #"{"history":{"shown":{"p":[1]}}}"#,                              // not a string
            #"{"history":{"shown":{"":[]}}}"#,                                // empty placement name
            #"{"history":{"shown":{"p":[],"p":[]}}}"#,                        // duplicate placement
            #"{"history":{"shown":{"ü":[]}}}"#,                               // non-ASCII key: the reader's
            #"{"history":{"shown":{"p\u0031":[]}}}"#,                        // escape in a key
            #"{"history":{"shown":{},"shown":{}}}"#,                          // duplicate key
            #"{"history":{"seen":{}}}"#,                                      // unknown key
            #"{"history":{"assigned":{"e":{"variant":"v"}}}}"#,               // no `at`
            #"{"history":{"assigned":{"e":{"at":"2026-11-30T09:00:00Z"}}}}"#, // no `variant`
            #"{"history":{"assigned":{"e":{"variant":"","at":"2026-11-30T09:00:00Z"}}}}"#,
            #"{"history":{"assigned":{"e":{"variant":"v","at":"2026-11-30T09:00:00Z","by":"x"}}}}"#,
            #"{"history":{"assigned":{"e":{"variant":"v","variant":"w","at":"2026-11-30T09:00:00Z"}}}}"#,
            #"{"history":{"assigned":{"e":{"variant":"v","at":"2026-11-30T09:00:00Z"},"e":{"variant":"v","at":"2026-11-30T09:00:00Z"}}}}"#,
            #"{"history":[]}"#,
            #"{"history":"none"}"#,
            #"{"history":{},"history":{}}"#,
            #"{"history":null,"history":{}}"#,
        ]
        for line in lines { XCTAssertFalse(agree(line), line) }
    }

}

extension UInt64: @retroactive RandomNumberGenerator {
    public mutating func next() -> UInt64 {
        self = self &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return self
    }
}
