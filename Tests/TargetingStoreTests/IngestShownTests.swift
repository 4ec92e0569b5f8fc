import Foundation
import TargetingBase
import TargetingProfiles
import TargetingTestSupport
import XCTest
@testable import TargetingStore

/// `placement_shown` lines through `ingest`: each adds to its profile's history (the instant,
/// and an experiment's first assignment); a line that changes nothing keeps the stored bytes,
/// and profiles no line touches keep theirs, history included.
final class IngestShownTests: TemporaryDirectoryTestCase {
    private func ingest(_ lines: [String], store: String) throws -> (IngestSummary, [Diagnostic]) {
        try ingest(lines.joined(separator: "\n") + "\n", store: store)
    }

    private func shown(_ id: String, _ placement: String, at: String, experiment: String? = nil, variant: String? = nil) -> String {
        let drawn = experiment.map { #","experiment":"\#($0)","variant":"\#(variant ?? "")""# } ?? ""
        return #"{"profile_id":"\#(id)","name":"placement_shown","placement":"\#(placement)","kind":"paywall","id":"pw"\#(drawn),"held_out":false,"at":"\#(at)"}"#
    }

    private func contents(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    func testShownLinesBuildHistoriesAndLeaveOtherLinesAsTheyWere() throws {
        let store = directory.write("profiles.jsonl", """
            {"id":"a", "country":"DE","custom_attributes":{"goal":"run"}}
            {"id":"b","history":{"shown":{"main_paywall":["2026-11-30T09:00:00Z"]},"assigned":{"annual_first":{"variant":"annual_first","at":"2026-11-30T09:00:00Z"}}}}
            {"id":"c",  "history": {"shown": {"main_paywall": ["2026-11-01T00:00:00Z"]}}, "email":"c@x.com"}
            {"id":"d", "history":{"shown":{"onboarding":["2026-11-02T00:00:00+01:00"]}}}

            """)
        let (summary, reported) = try ingest([
            shown("a", "main_paywall", at: "2026-12-01T10:00:00Z", experiment: "annual_first", variant: "monthly_first"),
            shown("b", "main_paywall", at: "2026-12-01T10:00:00Z", experiment: "annual_first", variant: "monthly_first"),
            shown("b", "main_paywall", at: "2026-11-30T09:00:00Z"),
            shown("c", "main_paywall", at: "2026-11-01T01:00:00+01:00"),
            // Not the common shape (a nested member): read whole, to the same effect.
            #"{"profile_id":"e","name":"placement_shown","placement":"onboarding","kind":"flow","id":"flow_a","sdk":{"v":"3.2"},"at":"2026-12-01T08:00:00.250Z"}"#,
            #"{"profile_id":"e","name":"placement_shown","placement":"onboarding","kind":"flow","id":"flow_a","at":"2026-12-01T08:00:00.25Z"}"#,
            #"{"profile_id":"d","name":"placement_shown","placement":"onboarding","kind":"popup","id":"x","at":"2026-12-01T08:00:00Z"}"#,
            #"{"profile_id":"a","name":"flow_user_input","element_id":"goal","element_type":"text_input","value":"swim"}"#,
        ], store: store)
        XCTAssertEqual(reported.map(\.message), ["profile `d`: `kind` must be `flow` or `paywall`, found `popup`"])
        XCTAssertEqual(reported.map(\.line), [7])
        XCTAssertEqual(contents(store), """
            {"id":"a","country":"DE","custom_attributes":{"goal":"swim"},"history":{"shown":{"main_paywall":["2026-12-01T10:00:00Z"]},"assigned":{"annual_first":{"variant":"monthly_first","at":"2026-12-01T10:00:00Z"}}}}
            {"id":"b","history":{"shown":{"main_paywall":["2026-11-30T09:00:00Z","2026-12-01T10:00:00Z"]},"assigned":{"annual_first":{"variant":"annual_first","at":"2026-11-30T09:00:00Z"}}}}
            {"id":"c",  "history": {"shown": {"main_paywall": ["2026-11-01T00:00:00Z"]}}, "email":"c@x.com"}
            {"id":"d", "history":{"shown":{"onboarding":["2026-11-02T00:00:00+01:00"]}}}
            {"id":"e","history":{"shown":{"onboarding":["2026-12-01T08:00:00.250Z"]}}}

            """)
        XCTAssertEqual(summary.events, 8)
        XCTAssertEqual(summary.shown, 6)
        XCTAssertEqual(summary.applied, 1)
        XCTAssertEqual(summary.rejected, 1)
        XCTAssertEqual(summary.created, 1)
        XCTAssertEqual(summary.updated, 2)
        XCTAssertEqual(summary.unchanged, 1, "c took only an instant it held")
        XCTAssertEqual(summary.openSessions, ["a"], "a shown line opens no session")
    }

    func testTheFirstAssignmentStaysWhateverLaterLinesSay() throws {
        let store = directory.write("profiles.jsonl", "")
        _ = try ingest([
            shown("u1", "onboarding", at: "2026-12-02T00:00:00Z", experiment: "pricing", variant: "discount"),
            shown("u1", "main_paywall", at: "2026-12-01T00:00:00Z", experiment: "pricing", variant: "control"),
            shown("u1", "main_paywall", at: "2026-12-03T00:00:00Z", experiment: "other", variant: "b"),
        ], store: store)
        _ = try ingest([shown("u1", "main_paywall", at: "2026-12-04T00:00:00Z", experiment: "other", variant: "a")], store: store)
        XCTAssertEqual(contents(store), """
            {"id":"u1","history":{"shown":{"onboarding":["2026-12-02T00:00:00Z"],"main_paywall":["2026-12-01T00:00:00Z","2026-12-03T00:00:00Z","2026-12-04T00:00:00Z"]},\
            "assigned":{"pricing":{"variant":"discount","at":"2026-12-02T00:00:00Z"},"other":{"variant":"b","at":"2026-12-03T00:00:00Z"}}}}

            """)
    }

    func testAPlacementKeepsItsLatestHundredInstantsOnce() throws {
        let store = directory.write("profiles.jsonl", #"{"id":"u1"}"# + "\n")
        let start = Timestamp.parse("2026-01-01T00:00:00Z")!
        let instants = (0..<130).map { Timestamp.format(start + Int64($0) * 3_600_000) }
        // Newest first, each twice: the oldest thirty drop off, repeats are kept once.
        let (summary, reported) = try ingest(instants.reversed().flatMap { [shown("u1", "p", at: $0), shown("u1", "p", at: $0)] }, store: store)
        XCTAssertEqual(reported.map(\.message), [])
        XCTAssertEqual(summary.shown, 260)
        let profile = try ProfileReader.read(Array(contents(store).utf8.dropLast())).get()
        XCTAssertEqual(profile.history?.instants(of: "p").map(Timestamp.format), Array(instants.suffix(100)))
        // Older than every kept instant: nothing changes, and the line keeps its bytes.
        let before = contents(store)
        let (again, _) = try ingest([shown("u1", "p", at: instants[0]), shown("u1", "p", at: instants[129])], store: store)
        XCTAssertEqual(contents(store), before)
        XCTAssertEqual(again.unchanged, 1)
        XCTAssertEqual(again.updated, 0)
    }

    func testADuplicateInstantKeepsTheLineByteForByte() throws {
        let line = #"{ "id": "u1", "history": {"assigned": {"x": {"at": "2026-12-01T11:00:00+01:00", "variant": "a"}}, "shown": {"p": ["2026-12-01T10:00:00Z"]}} }"#
        let store = directory.write("profiles.jsonl", line + "\n" + #"{"id":"u2"}"# + "\n")
        let (summary, _) = try ingest([shown("u1", "p", at: "2026-12-01T11:00:00+01:00", experiment: "x", variant: "b")], store: store)
        XCTAssertEqual(contents(store), line + "\n" + #"{"id":"u2"}"# + "\n")
        XCTAssertEqual(summary.unchanged, 1)
        XCTAssertEqual(summary.updated, 0)
        XCTAssertEqual(summary.shown, 1)
    }

    func testAnEditKeepsEachShownInstantAndAssignmentOnce() {
        var edit = ProfileEdit()
        edit.note(.shown("p", at: 5))
        edit.note(.custom("goal", .string("run")))
        edit.note(.shown("p", at: 5))
        edit.note(.assigned("x", variant: "a", at: 5))
        edit.note(.assigned("x", variant: "b", at: 1))
        edit.note(.shown("p", at: -7))
        edit.note(.custom("goal", nil))
        XCTAssertEqual(edit.changes, [.shown("p", at: 5), .assigned("x", variant: "a", at: 5), .shown("p", at: -7), .custom("goal", nil)])
        let profile = edit.applied(to: Profile())
        XCTAssertEqual(profile.history?.instants(of: "p"), [-7, 5])
        XCTAssertEqual(profile.history?.assignment(of: "x")?.variant, "a")
    }

    func testNamesLongerThanAFieldNameAreKept() throws {
        let placement = String(repeating: "p", count: 70_000), experiment = String(repeating: "é", count: 40_000)
        var edit = ProfileEdit()
        edit.note(.shown(placement, at: 1))
        edit.note(.assigned(experiment, variant: "v", at: 1))
        edit.note(.assigned(experiment, variant: "w", at: 2))
        edit.note(.field("country", .string("DE")))
        XCTAssertEqual(edit.changes, [.shown(placement, at: 1), .assigned(experiment, variant: "v", at: 1), .field("country", .string("DE"))])
        let store = directory.write("profiles.jsonl", "")
        _ = try ingest([shown("u1", placement, at: "2026-12-01T10:00:00Z", experiment: experiment, variant: "v")], store: store)
        let stored = try ProfileReader.read(Array(contents(store).utf8.dropLast())).get()
        XCTAssertEqual(stored.history?.instants(of: placement), [Timestamp.parse("2026-12-01T10:00:00Z")!])
        XCTAssertEqual(stored.history?.assignment(of: experiment)?.variant, "v")
    }
}
