import Foundation
import TargetingBase
import TargetingProfiles
import TargetingTestSupport
import XCTest
@testable import TargetingStore

/// `ingest` through the event-file reader, the reading cache and the store's comparison of
/// edits with their lines: lines left alone or brought back to what they held keep their bytes,
/// changed ones are written anew, and the summary counts them (bytes as earlier releases wrote them).
final class IngestStoreBytesTests: TemporaryDirectoryTestCase {
    private func event(_ id: String, _ element: String, _ type: String, _ value: String) -> String {
        #"{"profile_id":"\#(id)","name":"flow_user_input","element_id":"\#(element)","element_type":"\#(type)","value":\#(value)}"#
    }

    func testTouchedAndUntouchedLinesComeOutAsBefore() throws {
        let store = directory.write("profiles.jsonl", """
            {"id":"a", "country":"DE","custom_attributes":{"goal":"run"}}
            {"id":"b","custom_attributes":{"goal":"run","reminders":true}}
            { "id":"c","custom_attributes":{"goal":"swim"} }
            {"id":"d","email":"d@x.com","custom_attributes":{"hours":1.50}}

            """)
        let (summary, reported) = try ingest([
            event("b", "reminders", "toggle", "true"),
            event("c", "goal", "text_input", #""run""#),
            event("c", "goal", "text_input", #""swim""#),
            event("d", "goal", "text_input", #""run""#),
            event("b", "goal", "text_input", #""walk""#),
            event("e", "goal", "text_input", #""run""#),
            event("d", "hours", "number_input", #""1.5""#),
        ].joined(separator: "\r\n"), store: store)
        XCTAssertEqual(reported.map(\.message), [])
        XCTAssertEqual(String(decoding: FileManager.default.contents(atPath: store) ?? Data(), as: UTF8.self), """
            {"id":"a", "country":"DE","custom_attributes":{"goal":"run"}}
            {"id":"b","custom_attributes":{"goal":"walk","reminders":1}}
            { "id":"c","custom_attributes":{"goal":"swim"} }
            {"id":"d","email":"d@x.com","custom_attributes":{"hours":1.5,"goal":"run"}}
            {"id":"e","custom_attributes":{"goal":"run"}}

            """)
        XCTAssertEqual(summary.events, 7)
        XCTAssertEqual(summary.applied, 7)
        XCTAssertEqual(summary.updated, 2)
        XCTAssertEqual(summary.created, 1)
        XCTAssertEqual(summary.unchanged, 1)
        XCTAssertEqual(summary.openSessions, ["b", "c", "d", "e"])
    }

    func testLinesOfOneShapeForManyProfilesEachReachTheirOwnProfile() throws {
        let store = directory.write("profiles.jsonl", """
            {"id":"u1","time_zone":"Asia/Tokyo"}
            {"id":"u2","time_zone":"America/New_York"}

            """)
        // The same bytes but for the id: the picker's date depends on each profile's stored zone.
        let lines = ["u1", "u2", "u3", "u1"].map { event($0, "birthday", "date_picker", "946684800000") }
            + ["u2", "u1"].map { event($0, "goal", "single_choice", "null").replacingOccurrences(of: #""value":null"#, with: #""item_ids":["run"]"#) }
            + [#"{"profile_id":"u2","name":"flow_did_disappear"}"#, #"{"profile_id":"u9","name":"flow_did_disappear"}"#, "  \t", "not json"]
        let mapping = InputMapping(inputs: [(screen: nil, element: "birthday", target: .builtin("birthday"))], declaredAttributes: [:])
        let (summary, reported) = try ingest(lines.joined(separator: "\n") + "\n", store: store, mapping: mapping)
        XCTAssertEqual(reported.map(\.line), [10, 1])
        XCTAssertEqual(summary.datesNotMidnight, 3)
        XCTAssertEqual(summary.events, 9)
        XCTAssertEqual(summary.applied, 6)
        XCTAssertEqual(summary.sessionsClosed, 1)
        XCTAssertEqual(summary.openSessions, ["u1", "u3"])
        XCTAssertEqual(String(decoding: FileManager.default.contents(atPath: store) ?? Data(), as: UTF8.self), """
            {"id":"u1","time_zone":"Asia/Tokyo","birthday":"2000-01-01","custom_attributes":{"goal":"run"}}
            {"id":"u2","time_zone":"America/New_York","birthday":"1999-12-31","custom_attributes":{"goal":"run"}}
            {"id":"u3","birthday":"2000-01-01"}

            """)
    }
}
