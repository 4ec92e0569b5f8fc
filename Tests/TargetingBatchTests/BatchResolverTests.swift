import TargetingBase
import TargetingEngine
import TargetingProfiles
import XCTest

@testable import TargetingBatch
import Targeting
import TargetingTestSupport

/// The batch path prints each decision as a profile-id head and a prepared tail, reading most
/// lines in place; it must print exactly what `DecisionPrinter` prints for the `Decision` that
/// `Program.decide` makes from the `Profile` the reader reads.
final class BatchResolverTests: XCTestCase {
    func testBatchOutputIsTheDecisionPrintersOutput() throws {
        guard case .success(let loaded) = LoadedRules.load(path: RepositoryFiles.rules), let program = loaded.program else {
            return XCTFail("the shipped rules load")
        }
        let corpus = RepositoryFiles.text(RepositoryFiles.example("profiles/corpus.jsonl")).split(separator: "\n").prefix(3_000).map(String.init)
        // Lines the scan leaves to the reader, mixed in: escapes, trimming, arrays, nested objects.
        let extra = [
            #"{"id":"u\"q","custom_attributes":{"experience":"pro"},"birthday":"1990-01-01"}"#,
            #"{"id":"u2","custom_attributes":{"experience":" beginner ","interests":["sports","food"]}}"#,
            #"{"id":"u3","extra":{"nested":[1,2]},"custom_attributes":{"experience":"amateur","weekly_hours":12}}"#,
            #"{"id":"ü4","access_levels":["premium"],"app_version":"4.2.0"}"#,
        ]
        let lines = corpus + extra
        let now = try XCTUnwrap(Timestamp.parse("2026-11-29T12:00:00Z"))
        var scanned = 0
        for format in [OutputFormat.json, .text] {
            let printer = DecisionPrinter(format: format, explain: false)
            let batch = BatchResolver(program: program, placements: Array(program.placements.indices), now: now,
                                      onlyID: nil, printer: printer, jobs: 1)
            var scan = ProfileScan()
            for (index, line) in lines.enumerated() {
                var output = BatchResolver.Output()
                Array(line.utf8).withUnsafeBufferPointer { batch.resolve(line: index + 1, bytes: $0, scan: &scan, into: &output) }
                var expected = ""
                if case .success(let profile) = ProfileReader.read(Array(line.utf8)),
                   case .success(let decisions) = program.decide(placements: Array(program.placements.indices), for: profile, now: now) {
                    expected = decisions.map { printer.text($0) }.joined()
                }
                XCTAssertEqual(String(decoding: output.bytes, as: UTF8.self), expected, line)
                var check = ProfileScan()
                if Array(line.utf8).withUnsafeBufferPointer({ check.scan($0) }) { scanned += 1 }
            }
        }
        XCTAssertGreaterThan(scanned, 2 * corpus.count * 9 / 10, "most corpus lines take the in-place path")
    }
}
