import TargetingBase
import XCTest

@testable import TargetingProfiles

/// A profile's `history`: what it keeps of shown instants and assignments, how it reads and
/// writes, and what it rejects.
final class ProfileHistoryTests: XCTestCase {
    private func instant(_ text: String) -> Int64 { Timestamp.parse(text)! }

    private func read(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> Profile? {
        readProfile(line, file: file, line: number)
    }

    /// Why a profile `u1` with `history` is rejected.
    private func rejection(_ history: String, file: StaticString = #filePath, line number: UInt = #line) -> String {
        profileRejection(#"{"id":"u1","history":\#(history)}"#, file: file, line: number)
    }

    func testShownInstantsAreKeptAscendingOnceAndOnlyTheLatestHundred() {
        var history = ProfileHistory()
        XCTAssertTrue(history.recordShown("p", at: 5_000))
        XCTAssertTrue(history.recordShown("p", at: 1_000))
        XCTAssertFalse(history.recordShown("p", at: 5_000), "a duplicate instant is kept once")
        XCTAssertTrue(history.recordShown("p", at: 3_000))
        XCTAssertEqual(history.instants(of: "p"), [1_000, 3_000, 5_000])
        for step in 0..<200 { history.recordShown("q", at: Int64(step) * 10) }
        XCTAssertEqual(history.instants(of: "q").count, ProfileHistory.maxShown)
        XCTAssertEqual(history.instants(of: "q").first, 1_000, "the oldest drop off")
        XCTAssertEqual(history.instants(of: "q").last, 1_990)
        XCTAssertFalse(history.recordShown("q", at: 5), "older than every kept instant of a full list")
        XCTAssertTrue(history.recordShown("q", at: 1_005))
        XCTAssertEqual(history.instants(of: "q").first, 1_005)
        XCTAssertEqual(history.lastShown("q"), 1_990)
        XCTAssertNil(history.lastShown("never"))
    }

    func testCountsFallInTheRollingWindowEndingAtNow() {
        var history = ProfileHistory()
        for at in [100, 200, 300, 400] { history.recordShown("p", at: Int64(at)) }
        XCTAssertEqual(history.count(of: "p", window: nil, now: 0), 4, "without a window every kept instant counts")
        XCTAssertEqual(history.count(of: "p", window: 100, now: 300), 1, "(200, 300]: 200 is out, 300 is in")
        XCTAssertEqual(history.count(of: "p", window: 101, now: 300), 2)
        XCTAssertEqual(history.count(of: "p", window: 1_000, now: 350), 3, "an instant after now is outside the window")
        XCTAssertEqual(history.count(of: "other", window: 1_000, now: 350), 0)
    }

    func testTheFirstAssignmentStays() {
        var history = ProfileHistory()
        XCTAssertTrue(history.recordAssignment("e", variant: "a", at: 10))
        XCTAssertFalse(history.recordAssignment("e", variant: "b", at: 5))
        XCTAssertEqual(history.assignment(of: "e"), ProfileHistory.Assignment(experiment: "e", variant: "a", at: 10))
        XCTAssertNil(history.assignment(of: "f"))
    }

    func testAProfileReadsAndWritesItsHistoryAfterItsCustomAttributes() throws {
        let line = #"{"history":{"shown":{"main_paywall":["2026-12-01T10:00:00Z","2026-11-30T09:00:00.250+01:00","2026-12-01T10:00:00Z"]},"assigned":{"annual_first":{"at":"2026-11-30T09:00:00Z","variant":"annual_first"}}},"id":"u1","custom_attributes":{"goal":"fit"}}"#
        let profile = try XCTUnwrap(read(line))
        XCTAssertEqual(profile.id, "u1")
        XCTAssertNil(profile["history"], "history is not a built-in field")
        XCTAssertEqual(profile.history?.instants(of: "main_paywall"), [instant("2026-11-30T08:00:00.250Z"), instant("2026-12-01T10:00:00Z")])
        XCTAssertEqual(profile.history?.assignment(of: "annual_first")?.variant, "annual_first")
        XCTAssertEqual(JSONWriter.write(profile.json),
                       #"{"id":"u1","custom_attributes":{"goal":"fit"},"history":{"shown":{"main_paywall":["2026-11-30T08:00:00.250Z","2026-12-01T10:00:00Z"]},"assigned":{"annual_first":{"variant":"annual_first","at":"2026-11-30T09:00:00Z"}}}}"#)
        XCTAssertNil(read(#"{"id":"u1","history":null}"#)?.history, "null is no history")
        XCTAssertFalse(try XCTUnwrap(read(line)).hasSameContent(as: try XCTUnwrap(read(#"{"id":"u1","custom_attributes":{"goal":"fit"}}"#))))
    }

    func testAnythingElseUnderHistoryIsRejectedNamingTheKey() {
        XCTAssertEqual(rejection("[]"), "profile `u1`: `history` must be an object, found array")
        XCTAssertEqual(rejection(#"{"seen":{}}"#), "profile `u1`: `history.seen` is not a key of `history`; expected `shown` and `assigned`")
        XCTAssertEqual(rejection(#"{"shown":{"p":"2026-12-01T10:00:00Z"}}"#), "profile `u1`: `history.shown.p` must be a list of RFC 3339 instants, found string")
        XCTAssertEqual(rejection(#"{"shown":{"p":["2026-12-01"]}}"#), "profile `u1`: `history.shown.p[0]`: `2026-12-01` is not an RFC 3339 instant")
        XCTAssertEqual(rejection(#"{"shown":{"p":["2026-12-01T10:00:00Z",7]}}"#), "profile `u1`: `history.shown.p[1]`: number is not an RFC 3339 instant")
        let many = (0...100).map { #""2026-01-01T00:00:\#(String(format: "%02d", $0 % 60))Z""# }.joined(separator: ",")
        XCTAssertEqual(rejection(#"{"shown":{"p":[\#(many)]}}"#), "profile `u1`: `history.shown.p` lists 101 instants; at most 100 are kept")
        XCTAssertEqual(rejection(#"{"assigned":{"e":{"variant":"a"}}}"#), "profile `u1`: `history.assigned.e` has no `at`")
        XCTAssertEqual(rejection(#"{"assigned":{"e":{"variant":"","at":"2026-12-01T10:00:00Z"}}}"#), "profile `u1`: `history.assigned.e.variant` must be a non-empty string, found an empty string")
        XCTAssertEqual(rejection(#"{"assigned":{"e":{"variant":"a","at":"2026-12-01T10:00:00Z","by":"x"}}}"#),
                       "profile `u1`: `history.assigned.e.by` is not a key of an assignment; expected `variant` and `at`")
        XCTAssertEqual(rejection(#"{"assigned":{"e":{"variant":"a","at":"yesterday"}}}"#), "profile `u1`: `history.assigned.e.at`: `yesterday` is not an RFC 3339 instant")
    }
}
