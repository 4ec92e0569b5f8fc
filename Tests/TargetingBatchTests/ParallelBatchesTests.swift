import XCTest
@testable import TargetingBatch

/// The batch runner merges parts in input order whatever the number of jobs, keeps each
/// thread's worker from chunk to chunk, and reads every chunk once.
final class ParallelBatchesTests: XCTestCase {
    func testPartsAreMergedInInputOrderForAnyNumberOfJobs() {
        let records = Array(0..<10_007)
        for jobs in [1, 2, 3, 8] {
            var position = 0
            var chunks = 0
            var merged: [Int] = []
            ParallelBatches.run(jobs: jobs, chunk: { [Int]() }, part: { (values: [Int](), worked: 0) }, worker: { 0 }, next: { chunk in
                chunk = Array(records[position..<min(position + 1_000, records.count)])
                position += chunk.count
                if !chunk.isEmpty { chunks += 1 }
                return !chunk.isEmpty
            }, work: { chunk, worked, part in
                worked += chunk.count
                part = (chunk.map { $0 * 2 }, worked)
            }, merge: { part in
                merged += part.values
                XCTAssertGreaterThanOrEqual(part.worked, part.values.count, "a worker counts what it worked on before")
            })
            XCTAssertEqual(merged, records.map { $0 * 2 }, "jobs \(jobs)")
            XCTAssertEqual(chunks, 11)
        }
    }

    func testMapKeepsOrderAndHandlesNoRecords() {
        XCTAssertEqual(ParallelBatches.map(Array(0..<100), jobs: 4) { "\($0)" }, (0..<100).map { "\($0)" })
        XCTAssertEqual(ParallelBatches.map([Int](), jobs: 4) { $0 }, [])
        XCTAssertEqual(ParallelBatches.map([7], jobs: 4) { $0 + 1 }, [8])
    }
}
