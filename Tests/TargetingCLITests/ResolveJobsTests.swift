import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingCLI

/// `resolve --jobs N`: the same bytes on both streams for every N, in input order, across batches.
final class ResolveJobsTests: TemporaryDirectoryTestCase {
    func testEveryJobCountGivesTheSameOutput() throws {
        let corpus = try String(contentsOfFile: CLIHarness.example("profiles/corpus.jsonl"), encoding: .utf8)
        var lines = corpus.split(separator: "\n").prefix(9_000).map(String.init)
        for index in stride(from: 500, to: lines.count, by: 997) { lines[index] = "{not json" }
        lines[4_100] = #"{"custom_attributes":{"experience":"beginner","interests":"sports"}}"#   // a split without an id
        let path = directory.write("batch.jsonl", lines.joined(separator: "\n") + "\n")
        func run(_ jobs: String, _ extra: [String] = []) -> CLIResult {
            CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--profiles", path,
                            "--now", "2026-11-29T12:00:00Z", "--format", "json", "--jobs", jobs] + extra)
        }
        let one = run("1")
        XCTAssertEqual(one.status, 2)
        XCTAssertEqual(one.outLines.count, 2 * (9_000 - 9 - 1))
        XCTAssertEqual(one.errLines.count, 10, one.err)
        XCTAssertTrue(one.errLines[0].hasPrefix(path + ":501: error: invalid JSON"), one.errLines[0])
        for jobs in ["2", "3", "8"] {
            let many = run(jobs)
            XCTAssertEqual(many.status, one.status)
            XCTAssertEqual(many.out, one.out, "--jobs \(jobs)")
            XCTAssertEqual(many.err, one.err, "--jobs \(jobs)")
        }
        XCTAssertEqual(run("4", ["--explain"]).out, run("1", ["--explain"]).out)
    }

    func testJobsMustBeAWholeNumberFromOne() {
        for bad in ["0", "-2", "many"] {
            let result = CLIHarness.run(["resolve", "--all", "--profiles", "x.jsonl", "--jobs", bad])
            XCTAssertEqual(result.status, 64)
            XCTAssertTrue(result.err.hasPrefix("error: invalid --jobs `\(bad)`"), result.err)
        }
    }
}
