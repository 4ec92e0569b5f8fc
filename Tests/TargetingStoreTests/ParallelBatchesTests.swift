import XCTest
@testable import TargetingStore

/// The batch runner merges parts in input order whatever the number of jobs, keeps each
/// thread's worker from batch to batch, and reads every batch once.
final class ParallelBatchesTests: XCTestCase {
    func testPartsAreMergedInInputOrderForAnyNumberOfJobs() {
        let records = Array(0..<10_007)
        for jobs in [1, 2, 3, 8] {
            var position = 0
            var batches = 0
            var merged: [Int] = []
            var runs = 0
            ParallelBatches.run(jobs: jobs, worker: { 0 }, next: {
                let batch = Array(records[position..<min(position + 1_000, records.count)])
                position += batch.count
                if !batch.isEmpty { batches += 1 }
                return batch
            }, work: { run, worked in
                worked += run.count
                return (run.map { $0 * 2 }, worked)
            }, merge: { part in
                merged += part.0
                runs += 1
                XCTAssertGreaterThanOrEqual(part.1, part.0.count, "a worker counts what it worked on before")
            })
            XCTAssertEqual(merged, records.map { $0 * 2 }, "jobs \(jobs)")
            XCTAssertEqual(batches, 11)
            XCTAssertEqual(runs, jobs == 1 ? 11 : 10 * jobs + min(jobs, 7), "jobs \(jobs): one run per thread, a thread per record at most")
        }
    }

    func testMapKeepsOrderAndHandlesNoRecords() {
        XCTAssertEqual(ParallelBatches.map(Array(0..<100), jobs: 4) { "\($0)" }, (0..<100).map { "\($0)" })
        XCTAssertEqual(ParallelBatches.map([Int](), jobs: 4) { $0 }, [])
        XCTAssertEqual(ParallelBatches.map([7], jobs: 4) { $0 + 1 }, [8])
    }
}
