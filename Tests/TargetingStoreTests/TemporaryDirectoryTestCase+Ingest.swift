import Foundation
import TargetingBase
import TargetingProfiles
import TargetingTestSupport
import XCTest
@testable import TargetingStore
import TargetingBatch

extension TemporaryDirectoryTestCase {
    /// Ingests `events` (written to `events.jsonl` in the test's directory) into the store at
    /// `store`, as `targeting ingest` does with the time zone UTC: the summary, and every
    /// diagnostic reported.
    func ingest(_ events: String, store: String, mapping: InputMapping = InputMapping()) throws -> (IngestSummary, [Diagnostic]) {
        let path = directory.write("events.jsonl", events)
        var ingestor = Ingestor(interpreter: FlowEventInterpreter(mapping: mapping, timeZone: TimeZone(identifier: "UTC")!), zoneName: "UTC")
        var reported: [Diagnostic] = []
        let saved = try XCTUnwrap(try ProfileStore.change(at: store, onWait: { XCTFail("nobody else holds the lock") }) { store in
            guard var reader = LineChunkReader(path: path) else { return false }
            ingestor.ingest(&reader, into: &store, report: { reported.append($0) })
            return true
        })
        return (ingestor.finish(saved, report: { reported.append($0) }), reported)
    }
}
