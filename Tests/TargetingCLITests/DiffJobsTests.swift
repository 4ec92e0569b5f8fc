import Foundation
import TargetingTestSupport
import XCTest

/// `diff --profiles --jobs N`: the same report, example ids and rejections for every N.
final class DiffJobsTests: TemporaryDirectoryTestCase {
    func testEveryJobCountGivesTheSameReport() throws {
        let corpus = try String(contentsOfFile: CLIHarness.example("profiles/corpus.jsonl"), encoding: .utf8)
        var lines = corpus.split(separator: "\n").prefix(9_000).map(String.init)
        for index in stride(from: 700, to: lines.count, by: 1_499) { lines[index] = "{not json" }
        // Signed-in committed amateurs, so the experiment's weights move some of them.
        for index in stride(from: 3, to: lines.count, by: 7) {
            lines[index] = #"{"id":"x\#(index)","customer_user_id":"c\#(index)","app_version":"4.3.0","custom_attributes":{"experience":"amateur","weekly_hours":12}}"#
        }
        lines[4_100] = #"{"custom_attributes":{"experience":"beginner","interests":"sports"}}"#   // a split without an id
        let path = directory.write("corpus.jsonl", lines.joined(separator: "\n") + "\n")
        let changed = directory.file("changed")
        try FileManager.default.createDirectory(atPath: changed, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: CLIHarness.rulesPath) where name.hasSuffix(".rules") {
            var text = try String(contentsOfFile: CLIHarness.rulesPath + "/" + name, encoding: .utf8)
            text = text.replacingOccurrences(of: "50% control\n  50% discount", with: "20% control\n  80% discount")
            try text.write(toFile: changed + "/" + name, atomically: true, encoding: .utf8)
        }
        func run(_ jobs: String, format: String) -> CLIResult {
            CLIHarness.run(["diff", CLIHarness.rulesPath, changed, "--profiles", path, "--now", "2026-11-29T12:00:00Z",
                            "--format", format, "--examples", "5", "--jobs", jobs])
        }
        for format in ["text", "json"] {
            let one = run("1", format: format)
            XCTAssertEqual(one.status, 2, "rejected lines exit 2\n\(one.err)")
            XCTAssertEqual(one.errLines.count, lines.filter { $0 == "{not json" }.count + 1, one.err)
            XCTAssertTrue(one.out.contains("pricing_q4"), one.out)
            for jobs in ["2", "3", "8"] {
                let many = run(jobs, format: format)
                XCTAssertEqual(many.status, one.status)
                XCTAssertEqual(many.out, one.out, "--jobs \(jobs), \(format)")
                XCTAssertEqual(many.err, one.err, "--jobs \(jobs), \(format)")
            }
        }
    }
}

/// `test --jobs N`: the tests run on N threads; results, coverage and exit status are the same.
final class TestJobsTests: TemporaryDirectoryTestCase {
    func testEveryJobCountGivesTheSameRun() {
        // The shipped tests, plus one that fails, so a failure's report is compared too.
        let extra = directory.write("extra.tests", """
        test "a failing expectation" {
          now 2026-11-29T12:00:00Z
          given {
            profile.id = "u_fail"
            experience = "pro"
          }
          expect onboarding_followup -> flow "flow_pro_v2"
        }

        """)
        func run(_ jobs: String, format: String) -> CLIResult {
            CLIHarness.run(["test", CLIHarness.rulesPath, extra, "--rules", CLIHarness.rulesPath, "--coverage", "--format", format, "--jobs", jobs])
        }
        for format in ["text", "json"] {
            let one = run("1", format: format)
            XCTAssertEqual(one.status, 1, one.out)
            XCTAssertTrue(one.out.contains("u_fail") || one.out.contains("a failing expectation"), one.out)
            for jobs in ["2", "5"] {
                let many = run(jobs, format: format)
                XCTAssertEqual(many.status, one.status)
                XCTAssertEqual(many.out, one.out, "--jobs \(jobs), \(format)")
                XCTAssertEqual(many.err, one.err, "--jobs \(jobs), \(format)")
            }
        }
    }
}
