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
        XCTAssertEqual(one.outLines.count, 3 * (9_000 - 9 - 1))
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

    /// Line ends of every kind, a BOM, a line over 1 MiB, a bad line and a last line without
    /// a line end: the same decisions as the clean file, the rejected lines numbered as
    /// `LineReader` numbers them, for every number of jobs.
    func testLineEndsBOMAndRejectedLinesAcrossJobs() {
        let profiles = [
            #"{"id":"a1","country":"DE","platform":"ios","app_version":"4.1.0","custom_attributes":{"experience":"pro","interests":"music","weekly_hours":20}}"#,
            #"{"id":"b2","country":"US","platform":"android","app_version":"5.0.0","custom_attributes":{"experience":"beginner","interests":"sports"}}"#,
            #"{"id":"c3","birthday":"1990-01-01","custom_attributes":{"reminders":1}}"#,
        ]
        let tooLong = #"{"id":"big","custom_attributes":{"note":""# + String(repeating: "x", count: 1_100_000) + #""}}"#
        let messy = "\u{FEFF}" + profiles[0] + "\r\n{not json\r  \n" + tooLong + "\r\n"
            + #"{"custom_attributes":{"experience":"beginner","interests":"sports"}}"# + "\r" + profiles[1] + "\n" + profiles[2]
        let messyPath = directory.write("messy.jsonl", messy)
        let cleanPath = directory.write("clean.jsonl", profiles.joined(separator: "\n") + "\n")
        func run(_ path: String, _ jobs: String, _ extra: [String] = []) -> CLIResult {
            CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--now", "2026-11-29T12:00:00Z", "--jobs", jobs] + extra
                           + (extra.contains("--id") ? ["--store", path] : ["--profiles", path]))
        }
        for extra in [["--format", "json"], ["--format", "text"], ["--summary"], ["--explain"], ["--id", "b2"]] {
            let clean = run(cleanPath, "1", extra)
            XCTAssertEqual(clean.status, 0, clean.err)
            for jobs in ["1", "2", "3"] {
                let result = run(messyPath, jobs, extra)
                XCTAssertEqual(result.status, 2)
                XCTAssertEqual(result.out, clean.out, "\(extra) --jobs \(jobs)")
                var expected = [
                    messyPath + ":2: error: invalid JSON at column 2: expected a string key or `}` but found `n`",
                    messyPath + ":4: error: line is longer than 1 MiB",
                ]
                // With --id, a profile that is not the one asked for is not resolved.
                if !extra.contains("--id") {
                    expected.append(messyPath + ":5: error: profile has no `id`, so split `sporty_beginners_v1` cannot choose a variant")
                }
                XCTAssertEqual(result.errLines, expected, "\(extra) --jobs \(jobs)")
            }
        }
    }

    func testJobsMustBeAWholeNumberFromOne() {
        for bad in ["0", "-2", "many"] {
            let result = CLIHarness.run(["resolve", "--all", "--profiles", "x.jsonl", "--jobs", bad])
            XCTAssertEqual(result.status, 64)
            XCTAssertTrue(result.err.hasPrefix("error: invalid --jobs `\(bad)`"), result.err)
        }
    }
}
