import TargetingBase
import XCTest

@testable import TargetingProfiles

/// `placement_shown` lines: what `ShownEvent.read` accepts, every rejection with the member it
/// names, the params written back, and an event file's reading of them.
final class ShownEventTests: XCTestCase {
    private let full = #"{"profile_id":"u1","name":"placement_shown","placement":"main_paywall","kind":"paywall","id":"pw_annual","experiment":"annual_first","variant":"annual_first","held_out":false,"at":"2026-12-01T10:00:00Z"}"#

    private func params(_ line: String) -> JSONValue { try! JSONParser.parse(Array(line.utf8)).get() }

    private func line(replacing key: String, with value: String?) -> String {
        guard case .object(var members) = params(full) else { return "" }
        if let value {
            let parsed = params(value)
            if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = parsed } else { members.append(JSONMember(key: key, value: parsed)) }
        } else {
            members.removeAll { $0.key == key }
        }
        return JSONWriter.write(.object(members))
    }

    private func rejection(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> String {
        switch ShownEvent.read(params(line)) {
        case .success(let event):
            XCTFail("accepted: \(event)", file: file, line: number)
            return ""
        case .failure(let error): return error.message
        }
    }

    func testAFullLineReadsEveryMember() throws {
        let event = try ShownEvent.read(params(full)).get()
        XCTAssertEqual(event, ShownEvent(placement: "main_paywall", kind: .paywall, id: "pw_annual", experiment: "annual_first",
                                         variant: "annual_first", heldOut: false, at: Timestamp.parse("2026-12-01T10:00:00Z")!))
    }

    func testOptionalMembersMayBeAbsentOrNullAndOtherMembersAreLeftAlone() throws {
        var line = self.line(replacing: "experiment", with: nil)
        line = params(line).removingKey("variant")
        line = params(line).removingKey("held_out")
        var event = try ShownEvent.read(params(line)).get()
        XCTAssertNil(event.experiment)
        XCTAssertNil(event.variant)
        XCTAssertFalse(event.heldOut)
        line = self.line(replacing: "experiment", with: "null")
        line = JSONWriter.write(params(line).replacing("variant", with: .null).replacing("held_out", with: .null).replacing("time_zone", with: .string("Europe/Berlin")))
        event = try ShownEvent.read(params(line)).get()
        XCTAssertNil(event.experiment)
        XCTAssertFalse(event.heldOut)
        event = try ShownEvent.read(params(self.line(replacing: "held_out", with: "true"))).get()
        XCTAssertTrue(event.heldOut)
        event = try ShownEvent.read(params(self.line(replacing: "kind", with: #""flow""#))).get()
        XCTAssertEqual(event.kind, .flow)
    }

    func testInstantsNeedTimeAndZoneAndKeepMilliseconds() throws {
        let event = try ShownEvent.read(params(line(replacing: "at", with: #""2026-12-01t10:00:00.1234+01:00""#))).get()
        XCTAssertEqual(Timestamp.format(event.at), "2026-12-01T09:00:00.123Z")
        XCTAssertEqual(rejection(line(replacing: "at", with: #""2026-12-01""#)),
                       "`at` must be an RFC 3339 instant with time and zone such as `2026-12-01T10:00:00Z`, found `2026-12-01`")
        XCTAssertEqual(rejection(line(replacing: "at", with: #""2026-12-01T10:00:00""#)),
                       "`at` must be an RFC 3339 instant with time and zone such as `2026-12-01T10:00:00Z`, found `2026-12-01T10:00:00`")
        XCTAssertEqual(rejection(line(replacing: "at", with: "1764583200000")),
                       "`at` must be an RFC 3339 instant with time and zone such as `2026-12-01T10:00:00Z`, found number")
        XCTAssertEqual(rejection(line(replacing: "at", with: nil)), "missing `at`, the RFC 3339 instant it was shown at")
    }

    func testEveryRejectionNamesItsMember() {
        XCTAssertEqual(rejection(line(replacing: "placement", with: nil)), "missing `placement`, the placement shown")
        XCTAssertEqual(rejection(line(replacing: "placement", with: #""""#)), "`placement` must be a non-empty string, found an empty string")
        XCTAssertEqual(rejection(line(replacing: "placement", with: "3")), "`placement` must be a non-empty string, found number")
        XCTAssertEqual(rejection(line(replacing: "placement", with: "null")), "`placement` must be a non-empty string, found null")
        XCTAssertEqual(rejection(line(replacing: "kind", with: nil)), "missing `kind`, `flow` or `paywall`")
        XCTAssertEqual(rejection(line(replacing: "kind", with: #""screen""#)), "`kind` must be `flow` or `paywall`, found `screen`")
        XCTAssertEqual(rejection(line(replacing: "kind", with: #""Paywall""#)), "`kind` must be `flow` or `paywall`, found `Paywall`")
        XCTAssertEqual(rejection(line(replacing: "kind", with: "true")), "`kind` must be `flow` or `paywall`, found boolean")
        XCTAssertEqual(rejection(line(replacing: "id", with: nil)), "missing `id`, the paywall id shown")
        XCTAssertEqual(rejection(line(replacing: "id", with: #""""#)), "`id` must be a non-empty string, found an empty string")
        XCTAssertEqual(rejection(line(replacing: "experiment", with: "[]")), "`experiment` must be a non-empty string, found array")
        XCTAssertEqual(rejection(line(replacing: "variant", with: #""""#)), "`variant` must be a non-empty string, found an empty string")
        XCTAssertEqual(rejection(line(replacing: "variant", with: nil)),
                       "`experiment` `annual_first` is given without `variant`; give both or neither")
        XCTAssertEqual(rejection(line(replacing: "experiment", with: "null")),
                       "`variant` `annual_first` is given without `experiment`; give both or neither")
        XCTAssertEqual(rejection(line(replacing: "held_out", with: "0")), "`held_out` must be a boolean, found number")
        XCTAssertEqual(rejection(line(replacing: "held_out", with: #""false""#)), "`held_out` must be a boolean, found `false`")
    }

    func testParamsReadBackAsTheSameEvent() throws {
        let event = try ShownEvent.read(params(full)).get()
        let written = event.params(profileID: "u1")
        XCTAssertEqual(Set(written.keys), ["profile_id", "name", "placement", "kind", "id", "experiment", "variant", "held_out", "at"])
        XCTAssertEqual(written["at"] as? String, "2026-12-01T10:00:00Z")
        XCTAssertEqual(written["held_out"] as? Bool, false)
        XCTAssertEqual(try ShownEvent.read(JSONValue(sdkParams: written)!).get(), event)
        let plain = ShownEvent(placement: "onboarding", kind: .flow, id: "flow_a", heldOut: true, at: Timestamp.parse("2026-12-01T10:00:00.123Z")!)
        XCTAssertEqual(Set(plain.params(profileID: "u2").keys), ["profile_id", "name", "placement", "kind", "id", "held_out", "at"])
        XCTAssertEqual(plain.params(profileID: "u2")["at"] as? String, "2026-12-01T10:00:00.123Z")
        XCTAssertEqual(try ShownEvent.read(JSONValue(sdkParams: plain.params(profileID: "u2"))!).get(), plain)
    }

    func testAnEventFileKeepsShownEventsAndRejectsBadOnesAsLinesOfTheirProfile() {
        let bad = line(replacing: "kind", with: #""banner""#)
        let file = EventFile(bytes: Array([full, bad, #"{"profile_id":"u1","name":"flow_did_disappear"}"#].joined(separator: "\n").utf8))
        XCTAssertEqual(file.events.map(\.line), [1, 3])
        XCTAssertEqual(file.events[0].shown?.id, "pw_annual")
        XCTAssertNil(file.events[1].shown)
        XCTAssertEqual(file.broken, [EventFile.BrokenLine(line: 2, message: "`kind` must be `flow` or `paywall`, found `banner`", profileID: "u1")])
    }

    func testRecordingOnAProfileKeepsTheFirstAssignment() throws {
        var profile = Profile()
        profile.record(ShownEvent(placement: "p", kind: .paywall, id: "a", experiment: "x", variant: "one", at: 2_000))
        profile.record(ShownEvent(placement: "p", kind: .paywall, id: "b", experiment: "x", variant: "two", at: 1_000))
        profile.record(ShownEvent(placement: "p", kind: .paywall, id: "b", at: 2_000))
        XCTAssertEqual(profile.history?.instants(of: "p"), [1_000, 2_000])
        XCTAssertEqual(profile.history?.assignment(of: "x")?.variant, "one")
        XCTAssertEqual(profile.history?.assignment(of: "x")?.at, 2_000)
    }
}

private extension JSONValue {
    func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value } else { members.append(JSONMember(key: key, value: value)) }
        return .object(members)
    }

    func removingKey(_ key: String) -> String {
        guard case .object(let members) = self else { return "" }
        return JSONWriter.write(.object(members.filter { $0.key != key }))
    }
}
