import Foundation
import XCTest
@testable import TargetingBase
@testable import TargetingProfiles

/// An event line's `time_zone` and the zone a picker feeding `profile.birthday` is read in:
/// the line's, else the profile's stored `time_zone`, else the interpreter's.
final class EventLineTimeZoneTests: XCTestCase {
    private let mapping = InputMapping(inputs: [(screen: nil, element: "birthday", target: .builtin("birthday"))], declaredAttributes: [:])

    private func line(_ zone: String?) -> EventLine? {
        let zonePart = zone.map { #","time_zone":\#($0)"# } ?? ""
        let text = #"{"profile_id":"u","name":"flow_user_input","element_id":"birthday","element_type":"date_picker","value":1228172400000\#(zonePart)}"#
        guard case .success(let event) = EventLine.parse(Array(text.utf8), file: "e.jsonl", line: 7) else { return nil }
        return event
    }

    private func birthday(_ reading: EventReading) -> JSONValue? {
        guard case .answer(let answer, _) = reading.outcome else { return nil }
        return answer.value
    }

    func testParsesTheZoneAndRejectsBadOnes() {
        XCTAssertEqual(line(#""Europe/Berlin""#)?.timeZone, TimeZone(identifier: "Europe/Berlin"))
        XCTAssertNil(line(nil)?.timeZone)
        XCTAssertNil(line("null")?.timeZone, "null is no zone")
        for bad in [#""Mars/Olympus_Mons""#, #""""#, "1", "true"] {
            let text = #"{"profile_id":"u","name":"flow_user_input","time_zone":\#(bad)}"#
            guard case .failure(let error) = EventLine.parse(Array(text.utf8), file: "e.jsonl", line: 7) else {
                XCTFail("\(bad) accepted")
                continue
            }
            XCTAssertEqual(error.line, 7)
            XCTAssertTrue(error.message.contains("time_zone"), error.message)
        }
    }

    func testTheLineWinsOverTheProfileWhichWinsOverTheDefault() throws {
        let interpreter = FlowEventInterpreter(mapping: mapping, timeZone: try XCTUnwrap(TimeZone(identifier: "America/New_York")))
        var berlin = Profile()
        berlin.setField("time_zone", .string("Europe/Berlin"))
        var newYork = Profile()
        newYork.setField("time_zone", .string("America/New_York"))

        let lineBerlin = try XCTUnwrap(line(#""Europe/Berlin""#))
        let noZone = try XCTUnwrap(line(nil))
        XCTAssertEqual(birthday(interpreter.read(lineBerlin, storedOn: newYork)), .string("2008-12-02"))
        XCTAssertEqual(birthday(interpreter.read(noZone, storedOn: berlin)), .string("2008-12-02"))
        XCTAssertEqual(birthday(interpreter.read(noZone, storedOn: Profile())), .string("2008-12-01"))
        XCTAssertEqual(birthday(interpreter.read(noZone, storedOn: nil)), .string("2008-12-01"))

        XCTAssertEqual(interpreter.read(lineBerlin, storedOn: nil).calendarDate?.isLocalMidnight, true)
        XCTAssertEqual(interpreter.read(noZone, storedOn: berlin).calendarDate?.isLocalMidnight, true)
        XCTAssertEqual(interpreter.read(noZone, storedOn: nil).calendarDate?.isLocalMidnight, false)
        XCTAssertEqual(interpreter.read(noZone, storedOn: nil).calendarDate?.zone, TimeZone(identifier: "America/New_York"))

        var bad = Profile()
        bad.setField("time_zone", .number(1))
        guard case .rejected(let reason) = interpreter.read(noZone, storedOn: bad).outcome else { return XCTFail("accepted") }
        XCTAssertTrue(reason.contains("time_zone"), reason)
    }
}
