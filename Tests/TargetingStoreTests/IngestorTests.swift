import Foundation
import TargetingBase
import TargetingProfiles
import TargetingTestSupport
import XCTest
@testable import TargetingStore
import TargetingBatch

/// The ingest path as a library: event lines in, a store changed under its lock and a typed
/// summary out, every rejection and warning reported where it is.
final class IngestorTests: TemporaryDirectoryTestCase {
    private func ingest(_ lines: [String], store: String) throws -> (IngestSummary, [Diagnostic]) {
        let events = directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        var ingestor = Ingestor(interpreter: FlowEventInterpreter(mapping: InputMapping(), timeZone: TimeZone(identifier: "UTC")!), zoneName: "UTC")
        var reported: [Diagnostic] = []
        let changed = try ProfileStore.change(at: store, onWait: { XCTFail("nobody else holds the lock") }) { store in
            guard var reader = JSONLinesReader(path: events) else { return false }
            while let record = reader.next() { ingestor.ingest(record, into: &store, report: { reported.append($0) }) }
            return true
        }
        let saved = try XCTUnwrap(changed)
        return (ingestor.finish(saved, report: { reported.append($0) }), reported)
    }

    func testSummaryCountsEachOutcomeByTypeAndTheStoreIsSaved() throws {
        let store = directory.write("profiles.jsonl", #"{"id":"a","custom_attributes":{"goal":"run"}}"# + "\n")
        let (summary, reported) = try ingest([
            #"{"profile_id":"a","name":"flow_user_input","element_id":"goal","element_type":"text_input","value":"run"}"#,
            #"{"profile_id":"b","name":"flow_user_input","element_id":"goal","element_type":"text_input","value":"swim"}"#,
            #"{"profile_id":"b","name":"flow_user_input","element_id":"secret","element_type":"password_input","value":"x"}"#,
            #"{"profile_id":"b","name":"flow_screen_showed"}"#,
            #"{"profile_id":"b","name":"flow_user_input","element_id":"minutes","element_type":"number_input","value":"twenty"}"#,
            #"not json"#,
            #"{"profile_id":"b","name":"flow_did_disappear"}"#,
        ], store: store)
        XCTAssertEqual(summary.events, 7)
        XCTAssertEqual(summary.applied, 2)
        XCTAssertEqual(summary.ignored, [.elementType("password_input"): 1, .otherEvent("flow_screen_showed"): 1])
        XCTAssertEqual(summary.rejected, 2)
        XCTAssertEqual(summary.created, 1)
        XCTAssertEqual(summary.updated, 0)
        XCTAssertEqual(summary.unchanged, 1)
        XCTAssertEqual(summary.sessionsClosed, 1)
        XCTAssertEqual(summary.openSessions, ["a"])
        XCTAssertEqual(reported.map(\.line), [5, 6])
        XCTAssertTrue(reported[0].message.contains("profile `b`"), reported[0].message)
        let lines = String(decoding: FileManager.default.contents(atPath: store) ?? Data(), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first.map(String.init), #"{"id":"a","custom_attributes":{"goal":"run"}}"#)
    }

    func testAGivenUpChangeSavesNothing() throws {
        let store = directory.file("profiles.jsonl")
        let changed = try ProfileStore.change(at: store, onWait: {}) { store in
            store.update(id: "x") { _ in true }
            return false
        }
        XCTAssertNil(changed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + ".lock"))
    }

    func testAStoreThatIsADirectoryIsRefusedSayingItWasNotChanged() {
        let store = directory.write("profiles.jsonl/inside.txt", "keep")
        XCTAssertThrowsError(try ProfileStore.change(at: (store as NSString).deletingLastPathComponent, onWait: {}) { _ in true }) { error in
            let message = (error as? StoreError)?.diagnostic.message ?? ""
            XCTAssertTrue(message.hasSuffix("is a directory, not a file; the store was not changed"), message)
        }
    }
}

/// `profile_updated` lines set built-in fields, so a store can be built from events alone.
final class ProfileUpdateIngestTests: TemporaryDirectoryTestCase {
    func testFieldsAreSetCheckedAndRemovedAndABadLineIsRejectedAlone() throws {
        let store = directory.write("profiles.jsonl", #"{"id":"a","country":"DE","custom_attributes":{"goal":"run"}}"# + "\n")
        let events = directory.write("events.jsonl", [
            #"{"profile_id":"a","name":"profile_updated","fields":{"customer_user_id":"c1","access_levels":["premium"],"country":null}}"#,
            #"{"profile_id":"n","name":"profile_updated","fields":{"installed_at":"2026-11-20T08:00:00Z","birthday":"1990-02-03","app_version":"4.2.0"}}"#,
            #"{"profile_id":"a","name":"profile_updated","fields":{"platform":"windows"}}"#,
            #"{"profile_id":"a","name":"profile_updated","fields":{"age":30}}"#,
            #"{"profile_id":"a","name":"profile_updated","fields":{"custmer_user_id":"x"}}"#,
            #"{"profile_id":"a","name":"profile_updated","fields":{"birthday":"1990-02-03T00:00:00Z"}}"#,
            #"{"profile_id":"a","name":"profile_updated","fields":[]}"#,
        ].joined(separator: "\n") + "\n")
        var ingestor = Ingestor(interpreter: FlowEventInterpreter(mapping: InputMapping(), timeZone: TimeZone(identifier: "UTC")!), zoneName: "UTC")
        var reported: [Diagnostic] = []
        let saved = try XCTUnwrap(try ProfileStore.change(at: store, onWait: {}) { store in
            guard var reader = JSONLinesReader(path: events) else { return false }
            while let record = reader.next() { ingestor.ingest(record, into: &store, report: { reported.append($0) }) }
            return true
        })
        let summary = ingestor.finish(saved, report: { reported.append($0) })
        XCTAssertEqual(summary.profileUpdates, 2)
        XCTAssertEqual(summary.created, 1)
        XCTAssertEqual(summary.updated, 1)
        XCTAssertEqual(summary.rejected, 5)
        XCTAssertEqual(summary.openSessions, [], "a profile update is not a flow session")
        XCTAssertEqual(reported.map(\.line), [3, 4, 5, 6, 7])
        XCTAssertEqual(reported.map(\.message), [
            "profile `a`: `platform` must be one of `ios`, `ipados`, `macos`, `visionos`, `android`, found `windows`",
            "profile `a`: `age` is derived, never stored",
            "profile `a`: unknown built-in field `custmer_user_id`; did you mean `customer_user_id`?",
            "profile `a`: `birthday` must be a calendar date `YYYY-MM-DD`, found `1990-02-03T00:00:00Z`",
            "profile `a`: `fields` must be an object, found array",
        ])
        let lines = String(decoding: FileManager.default.contents(atPath: store) ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            #"{"id":"a","customer_user_id":"c1","access_levels":["premium"],"custom_attributes":{"goal":"run"}}"#,
            #"{"id":"n","installed_at":"2026-11-20T08:00:00Z","birthday":"1990-02-03","app_version":"4.2.0"}"#,
        ])
    }
}
