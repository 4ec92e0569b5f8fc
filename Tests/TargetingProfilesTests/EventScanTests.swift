import Foundation
import TargetingBase
import XCTest

@testable import TargetingProfiles

/// `EventScan` must agree with `EventLine.read(_:)`: a line it accepts is an event the general
/// path reads the same (id, name, zone, every member, and what the interpreter makes of it);
/// everything else is left to the general path.
final class EventScanTests: XCTestCase {
    let interpreters = [
        FlowEventInterpreter(mapping: InputMapping(), timeZone: TimeZone(identifier: "UTC")!),
        FlowEventInterpreter(
            mapping: InputMapping(inputs: [(screen: nil, element: "email", target: .builtin("email")),
                                           (screen: nil, element: "birthday", target: .builtin("birthday")),
                                           (screen: "scr_quiz", element: "experience", target: .custom("experience")),
                                           (screen: "scr_quiz", element: "interests", target: .custom("interests"))],
                                  declaredAttributes: ["experience": (type: .string, allowed: ["beginner", "pro"]),
                                                       "interests": (type: .set, allowed: nil)]),
            timeZone: TimeZone(identifier: "Europe/Berlin")!),
    ]

    /// Scans `bytes`; when the scan accepts the line, checks that the general path reads the
    /// same event. Returns whether the scan accepted it.
    @discardableResult
    func agree(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        var scan = EventScan()
        let shown = String(decoding: bytes, as: UTF8.self)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let head = scan.scan(buffer) else { return false }
            guard case .success(let event) = EventLine.read(bytes) else {
                XCTFail("the scan accepts a line the general path rejects: \(shown)", file: file, line: line)
                return true
            }
            XCTAssertEqual(head.profileID, event.profileID, shown, file: file, line: line)
            XCTAssertEqual(head.name, event.name, shown, file: file, line: line)
            XCTAssertEqual(head.timeZone, event.timeZone, shown, file: file, line: line)
            let params = scan.params(in: buffer)
            XCTAssertEqual(params.isObject, event.params.isObject, shown, file: file, line: line)
            let keys = (event.params.objectMembers ?? []).map(\.key) + ["absent", "value", "item_ids", "instanceId", "element_id", "element_type"]
            for key in keys {
                XCTAssertEqual(params[key], event.params[key], "`\(key)` in \(shown)", file: file, line: line)
            }
            for interpreter in interpreters {
                for stored: JSONValue? in [nil, .string("America/New_York"), .string("Mars/Base"), .number(3)] {
                    XCTAssertEqual(interpreter.read(name: head.name, params: params, lineTimeZone: head.timeZone, storedTimeZone: stored),
                                   interpreter.read(event, storedTimeZone: stored), shown, file: file, line: line)
                }
            }
            return true
        }
    }

    @discardableResult
    func agree(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        agree(Array(text.utf8), file: file, line: line)
    }

    func testCommonLinesAreScanned() {
        let lines = [
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["pro"]}"#,
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr_quiz","element_id":"interests","element_type":"multi_choice","item_ids":["a","b","a"]}"#,
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr_quiz","element_id":"interests","element_type":"multi_choice","item_ids":[]}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"email","element_type":"email_input","value":"  a@b.c  "}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"email","element_type":"email_input","value":""}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"reminders","element_type":"toggle","value":false,"isBackendEvent":false}"#,
            #"{"profile_id":"u1","name":"flow_screen_showed","instanceId":"scr_quiz"}"#,
            #"{"profile_id":"u1","name":"flow_did_disappear"}"#,
            #"{"profile_id":"u1","name":""}"#,
            // Unicode in ids, names and values; white space between tokens.
            #" { "profile_id" : "ü-ñ" , "name" : "flow_user_input" , "element_id" : "city" , "element_type" : "text_input" , "value" : "İstanbul 🇹🇷" } "#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"größe","element_type":"text_input","value":"x"}"#,
            "{\"profile_id\":\"u1\",\t\"name\":\"flow_user_input\",\"element_id\":\"note\",\"element_type\":\"text_input\",\"value\":\"\u{2003}wide\u{2003}\"}",
            // Nulls.
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":null,"element_id":"email","element_type":"email_input","value":null}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"n","element_type":"number_input","value":null,"time_zone":null}"#,
            // Numbers in odd forms.
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"n","element_type":"number_input","value":-0}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"n","element_type":"number_input","value":1E+2}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"n","element_type":"number_input","value":-12.50e-1}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"n","element_type":"number_input","value":" 4.5 "}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"birthday","element_type":"date_picker","value":645408000000}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"birthday","element_type":"date_picker","value":645408000000.5}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"birthday","element_type":"date_picker","value":6.45408e11,"time_zone":"Asia/Tokyo"}"#,
            // Wrong types the interpreter rejects (the scan still reads them).
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"reminders","element_type":"toggle","value":1}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"","element_type":"toggle","value":true}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"x","element_type":false}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"bad key!","element_type":"text_input","value":"x"}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"experience","element_type":"text_input","instanceId":"scr_quiz","value":"x"}"#,
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr_quiz","element_id":"interests","element_type":"multi_choice","item_ids":["a,b"]}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"x","element_type":"text_input","value":"\#(String(repeating: "é", count: 51))"}"#,
            #"{"profile_id":"u1","name":"flow_user_input"}"#,
            #"{"profile_id":"u1","name":"flow_user_input","instanceId":7,"element_id":"x","element_type":"text_input","value":"x"}"#,
        ]
        for line in lines { XCTAssertTrue(agree(line), line) }
    }

    func testOtherLinesAreLeftToTheGeneralPath() {
        let texts: [String] = [
            #"{"profile_id":"u\"1","name":"flow_user_input"}"#,                       // escape in a value
            #"{"profile_id":"u1","name":"flow_user_input","value":"\u00e9"}"#,        // unicode escape
            #"{"profile_\u0069d":"u1","name":"flow_user_input"}"#,                    // escape in a key
            #"{"profile_id":"u1","name":"a","name":"b"}"#,                            // duplicate key
            #"{"profile_id":"u1","profile_id":"u1","name":"a"}"#,                     // duplicate, same value
            #"{"profile_id":"u1","name":"flow_user_input","value":01}"#,              // leading zero
            #"{"profile_id":"u1","name":"flow_user_input","value":1.}"#,              // no digits after `.`
            #"{"profile_id":"u1","name":"flow_user_input","value":+1}"#,              // plus sign
            #"{"profile_id":"u1","name":"flow_user_input","value":{"a":1}}"#,         // nested object
            #"{"profile_id":"u1","name":"flow_user_input","item_ids":[1]}"#,          // array of numbers
            #"{"profile_id":"u1","name":"flow_user_input","item_ids":[["a"]]}"#,      // nested array
            #"{"profile_id":"u1","name":"flow_user_input"} x"#,                       // trailing text
            #"{"profile_id":"u1","name":"flow_user_input",}"#,                        // trailing comma
            #"{"profile_id":"u1","name":"flow_user_input""#,                          // unterminated
            #"{"profile_id":"","name":"flow_user_input"}"#,                           // empty profile_id
            #"{"profile_id":7,"name":"flow_user_input"}"#,                            // profile_id not a string
            #"{"name":"flow_user_input"}"#,                                           // no profile_id
            #"{"profile_id":"u1"}"#,                                                  // no name
            #"{"profile_id":"u1","name":null}"#,                                      // name null
            #"{"profile_id":"u1","name":"flow_user_input","time_zone":"Mars/Base"}"#, // unknown zone
            #"{"profile_id":"u1","name":"flow_user_input","time_zone":1}"#,           // zone not a string
            #"["profile_id","u1"]"#,                                                  // not an object
            #"{"profile_id":"u1","name":"flow_user_input","value":tru}"#,             // broken literal
            "{\"profile_id\":\"u1\",\"name\":\"flow_user_input\",\"value\":\"a\tb\"}",    // raw tab in a string
            "{\"profile_id\":\"u1\",\"name\":\"flow_user_input\",\"é\":1}",            // non-ASCII key
        ]
        let broken: [[UInt8]] = [
            Array(#"{"profile_id":"u"#.utf8) + [0xFF] + Array(#"","name":"x"}"#.utf8),        // invalid UTF-8
            Array(#"{"profile_id":"u"#.utf8) + [0xC3] + Array(#"","name":"x"}"#.utf8),        // truncated sequence
            Array(#"{"profile_id":"u"#.utf8) + [0xED, 0xA0, 0x80] + Array(#"","name":"x"}"#.utf8), // surrogate
            [0xEF, 0xBB, 0xBF] + Array(#"{"profile_id":"u1","name":"x"}"#.utf8),                // a BOM starting the line
        ]
        for line in texts.map({ Array($0.utf8) }) + broken {
            XCTAssertFalse(agree(line), String(decoding: line, as: UTF8.self))
        }
    }

    /// Numbers at the edges of what a double holds: whichever path reads them, both read them alike.
    func testNumbersAtTheEdgesAgree() {
        // The scan reads each line itself (so the comparison is tried), except a number too large
        // for a double, which it leaves to the general path.
        for number in ["1e400", "-1e400", "1e-400", "9007199254740993", "123456789012345678901234567890", "0.1e1", "-0.0"] {
            let scanned = !["1e400", "-1e400"].contains(number)
            XCTAssertEqual(agree(#"{"profile_id":"u1","name":"flow_user_input","element_id":"n","element_type":"number_input","value":\#(number)}"#), scanned, number)
            XCTAssertEqual(agree(#"{"profile_id":"u1","name":"flow_user_input","element_id":"birthday","element_type":"date_picker","value":\#(number)}"#), scanned, number)
        }
    }

    /// Scanning one line after another reuses the scan (and its remembered zone) without mixing lines.
    func testReusedScanKeepsLinesApart() {
        var scan = EventScan()
        let lines = [
            #"{"profile_id":"a","name":"flow_user_input","time_zone":"Asia/Tokyo","element_id":"x","element_type":"toggle","value":true}"#,
            #"{"profile_id":"b","name":"flow_user_input","time_zone":"Asia/Tokyo"}"#,
            #"{"profile_id":"c","name":"flow_user_input","time_zone":"Europe/Paris"}"#,
            #"{"profile_id":"d","name":"flow_user_input"}"#,
        ]
        let read = lines.map { line in
            Array(line.utf8).withUnsafeBufferPointer { buffer in
                scan.scan(buffer).map { ($0.profileID, $0.timeZone?.identifier, scan.params(in: buffer)["value"]) }
            }
        }
        XCTAssertEqual(read.map { $0?.0 }, ["a", "b", "c", "d"])
        XCTAssertEqual(read.map { $0?.1 }, ["Asia/Tokyo", "Asia/Tokyo", "Europe/Paris", nil])
        XCTAssertEqual(read.map { $0?.2 }, [.bool(true), nil, nil, nil])
    }
}
