import Foundation
import TargetingTestSupport
import XCTest

/// `-` for standard input, wherever a command reads an input file: profiles, stores read only,
/// event files. The same answer as the file, and messages that name `<stdin>`.
final class StandardInputTests: TemporaryDirectoryTestCase {
    private let now = "2026-11-29T12:00:00Z"
    private var profiles: String { CLIHarness.example("profiles/all.jsonl") }

    func testResolveReadsProfilesAndAStoreFromStandardInput() {
        let text = CLIHarness.text(profiles)
        for option in ["--profiles", "--store"] {
            for extra in [[], ["--summary"], ["--format", "json"]] {
                let fromFile = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, option, profiles, "--now", now] + extra)
                let fromInput = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, option, "-", "--now", now] + extra, stdin: text)
                XCTAssertEqual(fromInput.status, fromFile.status, "\(option) \(extra)")
                XCTAssertEqual(fromInput.out, fromFile.out, "\(option) \(extra)")
                XCTAssertFalse(fromInput.out.isEmpty)
            }
        }
        let one = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--store", "-", "--id", "u_pro_adult", "--now", now],
                                 stdin: text)
        XCTAssertEqual(one.status, 0, one.err)
        XCTAssertTrue(one.out.contains("u_pro_adult"), one.out)
    }

    func testABadLineOnStandardInputIsNamedByItsLine() {
        let result = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--profiles", "-", "--now", now, "--format", "json"],
                                    stdin: "{\"id\":\"a\"}\n{\"id\":\n{\"id\":\"c\"}\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.hasPrefix("<stdin>:2: error:"), result.err)
        XCTAssertEqual(Set(result.outLines.compactMap { CLIHarness.member($0, "profile_id")?.stringValue }), ["a", "c"])
    }

    func testDiffReadsTheCorpusFromStandardInput() {
        let arguments = ["diff", CLIHarness.rulesPath, CLIHarness.rulesPath, "--now", now, "--format", "json", "--profiles"]
        let fromFile = CLIHarness.run(arguments + [profiles])
        let fromInput = CLIHarness.run(arguments + ["-"], stdin: CLIHarness.text(profiles))
        XCTAssertEqual(fromInput.status, 0, fromInput.err)
        XCTAssertEqual(fromInput.out, fromFile.out)
    }

    func testIngestAndReconcileReadEventsFromStandardInput() {
        let events = CLIHarness.example("events/onboarding.jsonl")
        let fileStore = directory.file("from-file.jsonl"), inputStore = directory.file("from-input.jsonl")
        let fromFile = CLIHarness.run(["ingest", events, "--store", fileStore, "--rules", CLIHarness.rulesPath])
        let fromInput = CLIHarness.run(["ingest", "-", "--store", inputStore, "--rules", CLIHarness.rulesPath], stdin: CLIHarness.text(events))
        XCTAssertEqual(fromInput.status, fromFile.status)
        XCTAssertEqual(CLIHarness.text(inputStore), CLIHarness.text(fileStore))
        XCTAssertFalse(CLIHarness.text(inputStore).isEmpty)
        // Rejected lines are named by `<stdin>` and their line, as a file's are by its path.
        XCTAssertEqual(fromInput.err.replacingOccurrences(of: "<stdin>", with: events), fromFile.err)
        XCTAssertTrue(fromInput.err.contains("<stdin>:"), fromInput.err)

        let shown = CLIHarness.example("events/reconcile.jsonl")
        let reconciled = CLIHarness.run(["reconcile", "-", "--rules", CLIHarness.rulesPath, "--format", "json"], stdin: CLIHarness.text(shown))
        let reference = CLIHarness.run(["reconcile", shown, "--rules", CLIHarness.rulesPath, "--format", "json"])
        XCTAssertEqual(reconciled.status, reference.status)
        XCTAssertEqual(reconciled.out.replacingOccurrences(of: "<stdin>", with: shown), reference.out)
    }

    func testStandardInputIsReadOnceAndNeverWritten() {
        let twice = CLIHarness.run(["ingest", "-", "-", "--store", directory.file("s.jsonl"), "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(twice.status, 64)
        XCTAssertEqual(twice.errLines.first, "error: `-` (standard input) is given twice; it can be read once")
        let reconcile = CLIHarness.run(["reconcile", "-", "-", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(reconcile.status, 64)
        let store = CLIHarness.run(["ingest", CLIHarness.example("events/onboarding.jsonl"), "--store", "-", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(store.status, 64)
        XCTAssertEqual(store.errLines.first, "error: --store names the file ingest writes; it cannot be `-` (standard input)")
    }
}
