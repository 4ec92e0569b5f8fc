import Foundation
import TargetingTestSupport
import XCTest

/// `ingest` reading pickers that feed `profile.birthday` as calendar dates: in the event line's
/// `time_zone`, else the profile's stored `time_zone`, else `--time-zone` (default UTC); and the
/// one warning, with a count, for picker values that are not midnight in the zone used.
final class IngestTimeZoneTests: TemporaryDirectoryTestCase {
    /// 2008-12-01T23:00:00Z: midnight of 2 December in Berlin (UTC+1 in winter).
    private let berlinMidnight = 1_228_172_400_000

    private var rules: String { directory.write("rules/main.rules", "input birthday -> profile.birthday\nattribute started: date\n") }

    private func birthdayEvent(_ profile: String, ms: Int, zone: String? = nil, element: String = "birthday") -> String {
        let zonePart = zone.map { #","time_zone":"\#($0)""# } ?? ""
        return #"{"profile_id":"\#(profile)","name":"flow_user_input","instanceId":"scr_registration","element_id":"\#(element)","element_type":"date_picker","value":\#(ms)\#(zonePart)}"#
    }

    private func ingest(_ lines: [String], store: String, _ extra: [String] = []) -> CLIResult {
        let events = directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        return CLIHarness.run(["ingest", events, "--store", store, "--rules", rules] + extra)
    }

    /// The stored birthday of each profile in the store.
    private func birthdays(_ store: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in CLIResult.lines(CLIHarness.text(store)) {
            if let id = CLIHarness.member(line, "id")?.stringValue {
                result[id] = CLIHarness.member(line, "birthday")?.stringValue ?? "none"
            }
        }
        return result
    }

    func testTheEventLinesZoneReadsABerlinBirthday() {
        let store = directory.file("store.jsonl")
        let result = ingest([birthdayEvent("berlin", ms: berlinMidnight, zone: "Europe/Berlin")], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(birthdays(store), ["berlin": "2008-12-02"])
        XCTAssertFalse(result.err.contains("warning"), "local midnight in the zone used: \(result.err)")
        XCTAssertEqual(CLIHarness.member(CLIHarness.text(store), "time_zone"), nil, "the line's zone is not stored")
    }

    func testTheProfilesStoredZoneReadsABerlinBirthday() {
        let store = directory.write("store.jsonl", #"{"id":"berlin","time_zone":"Europe/Berlin"}"# + "\n")
        let result = ingest([birthdayEvent("berlin", ms: berlinMidnight)], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(birthdays(store), ["berlin": "2008-12-02"])
        XCTAssertEqual(CLIHarness.member(CLIHarness.text(store), "time_zone"), .string("Europe/Berlin"))
        XCTAssertFalse(result.err.contains("warning"), result.err)
    }

    func testPrecedenceLineThenProfileThenOptionThenUTC() {
        let store = directory.write("store.jsonl", """
        {"id":"line_wins","time_zone":"America/New_York"}
        {"id":"line_wins_back","time_zone":"Europe/Berlin"}
        {"id":"profile_wins","time_zone":"Europe/Berlin"}
        {"id":"profile_wins_back","time_zone":"America/New_York"}
        {"id":"option"}
        {"id":"null_zone","time_zone":null}

        """)
        let result = ingest([
            birthdayEvent("line_wins", ms: berlinMidnight, zone: "Europe/Berlin"),
            birthdayEvent("line_wins_back", ms: berlinMidnight, zone: "America/New_York"),
            birthdayEvent("profile_wins", ms: berlinMidnight),
            birthdayEvent("profile_wins_back", ms: berlinMidnight),
            birthdayEvent("option", ms: berlinMidnight),
            birthdayEvent("null_zone", ms: berlinMidnight),
        ], store: store, ["--time-zone", "America/New_York"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(birthdays(store), ["line_wins": "2008-12-02", "line_wins_back": "2008-12-01", "profile_wins": "2008-12-02",
                                          "profile_wins_back": "2008-12-01", "option": "2008-12-01", "null_zone": "2008-12-01"])

        let fallback = directory.file("fallback.jsonl")
        XCTAssertEqual(ingest([birthdayEvent("u", ms: berlinMidnight)], store: fallback, ["--time-zone", "Europe/Berlin"]).status, 0)
        XCTAssertEqual(birthdays(fallback), ["u": "2008-12-02"])
        let utc = directory.file("utc.jsonl")
        XCTAssertEqual(ingest([birthdayEvent("u", ms: berlinMidnight)], store: utc).status, 0)
        XCTAssertEqual(birthdays(utc), ["u": "2008-12-01"], "UTC by default")
    }

    func testAnUnknownZoneInALineRejectsThatLine() {
        let store = directory.file("store.jsonl")
        let result = ingest([
            birthdayEvent("mars", ms: berlinMidnight, zone: "Mars/Olympus_Mons"),
            #"{"profile_id":"typed","name":"flow_user_input","element_id":"birthday","element_type":"date_picker","value":0,"time_zone":1}"#,
            birthdayEvent("berlin", ms: berlinMidnight, zone: "Europe/Berlin"),
        ], store: store)
        XCTAssertEqual(result.status, 2, result.err)
        let errors = result.errLines.filter { $0.contains(": error:") }
        XCTAssertEqual(errors.count, 2, result.err)
        guard errors.count == 2 else { return }
        XCTAssertTrue(errors[0].contains("events.jsonl:1: error:") && errors[0].contains("`Mars/Olympus_Mons`"), result.err)
        XCTAssertTrue(errors[1].contains("events.jsonl:2: error:") && errors[1].contains("`time_zone`"), result.err)
        XCTAssertEqual(birthdays(store), ["berlin": "2008-12-02"], "the other lines are applied")
    }

    func testAnUnknownStoredZoneRejectsTheBirthdayButNotOtherAnswers() {
        let store = directory.write("store.jsonl", #"{"id":"u","time_zone":"Atlantis/Capital"}"# + "\n")
        let result = ingest([
            birthdayEvent("u", ms: berlinMidnight),
            #"{"profile_id":"u","name":"flow_user_input","element_id":"goal","element_type":"text_input","value":"run"}"#,
        ], store: store)
        XCTAssertEqual(result.status, 2, result.err)
        XCTAssertTrue(result.err.contains("events.jsonl:1: error: profile `u`:"), result.err)
        XCTAssertTrue(result.err.contains("`Atlantis/Capital`"), result.err)
        XCTAssertFalse(result.err.contains("events.jsonl:2:"), result.err)
        XCTAssertEqual(birthdays(store), ["u": "none"])
        XCTAssertEqual(CLIHarness.member(CLIHarness.text(store), "custom_attributes"), .object([.init(key: "goal", value: .string("run"))]))
    }

    func testOneWarningCountsPickerValuesThatAreNotMidnightInTheZoneUsed() {
        let store = directory.file("store.jsonl")
        let lines = [
            birthdayEvent("a", ms: berlinMidnight, zone: "Europe/Berlin"),   // midnight in Berlin
            birthdayEvent("b", ms: 1_228_176_000_000),                        // midnight UTC
            birthdayEvent("c", ms: berlinMidnight),                           // 23:00 UTC
            birthdayEvent("d", ms: 1_228_132_800_000, zone: "Europe/Berlin"), // 13:00 in Berlin
            birthdayEvent("e", ms: berlinMidnight),                           // 23:00 UTC
            birthdayEvent("f", ms: berlinMidnight, element: "started"),       // a custom date: stored in ms, no zone applies
        ]
        let text = ingest(lines, store: store)
        XCTAssertEqual(text.status, 0, text.err)
        let warnings = text.errLines.filter { $0.contains("warning:") }
        XCTAssertEqual(warnings.count, 1, text.err)
        XCTAssertTrue(warnings.first?.contains("events.jsonl:3: warning: 3 picker values for `profile.birthday` were not midnight") ?? false, text.err)
        XCTAssertTrue(text.out.contains("warnings: 1\n"), text.out)

        let json = ingest(lines, store: directory.file("other.jsonl"), ["--format", "json"])
        XCTAssertEqual(CLIHarness.member(json.out, "dates_not_midnight"), .number(3), json.out)
        XCTAssertEqual(CLIHarness.member(json.out, "warnings"), .number(1), json.out)

        let none = ingest([birthdayEvent("b", ms: 1_228_176_000_000)], store: directory.file("third.jsonl"), ["--format", "json"])
        XCTAssertEqual(CLIHarness.member(none.out, "dates_not_midnight"), .number(0), none.out)
        XCTAssertEqual(none.err, "")
    }
}
