#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingCLI

/// `targeting ingest` when the file system refuses: every failure names the store and the
/// system's reason, and the store is left byte for byte (Tests/Faults/run.sh runs the same
/// faults over the real binary: kills, concurrent runs, a full tmpfs, read-only mounts).
final class IngestFaultTests: TemporaryDirectoryTestCase {

    private let original = Array((#"{"id":"a","custom_attributes":{"note":"old"}}"# + "\n" + #"{ "id" : "b" }"# + "\n").utf8)

    private func events(_ count: Int = 1) -> String {
        let lines = (0..<count).map { index in
            #"{"profile_id":"p\#(index)","name":"flow_user_input","instanceId":"scr","element_id":"note","element_type":"text_input","value":"\#(String(repeating: "x", count: 50))"}"#
        }
        return directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
    }

    private func ingest(_ events: String, store: String) -> CLIResult {
        CLIHarness.run(["ingest", events, "--store", store, "--rules", directory.write("empty.rules", "")])
    }

    /// The lock file cannot be created: the message gives the system's reason rather than
    /// guessing at permissions (on a full disk it used to ask "is its directory writable?").
    func testLockFailureGivesTheSystemsReason() {
        let store = directory.file("missing/profiles.jsonl")
        let result = ingest(events(), store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("cannot lock `\(store)`"), result.err)
        XCTAssertTrue(result.err.contains("No such file or directory"), result.err)
        XCTAssertTrue(result.err.contains("the store was not changed"), result.err)
        XCTAssertFalse(result.err.contains("is its directory writable"), result.err)
    }

    /// A directory given as the store is named as such, and no lock file is created beside it.
    func testStoreThatIsADirectoryIsRefusedBeforeLocking() {
        let store = directory.file("profiles.jsonl")
        directory.write("profiles.jsonl/inside.txt", "keep")
        let before = directory.entries()
        let result = ingest(events(), store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("store `\(store)` is a directory"), result.err)
        XCTAssertEqual(directory.entries().filter { $0.hasPrefix("profiles") }, before.filter { $0.hasPrefix("profiles") })
        XCTAssertEqual(CLIHarness.text(directory.file("profiles.jsonl/inside.txt")), "keep")
    }

    /// The new store cannot be written in full (here the file size limit, as a full disk would
    /// stop it): the message names the store and the reason and says the store was not changed;
    /// the old store is intact and no temporary file remains.
    func testWriteFailureLeavesTheStoreAndSaysSo() {
        let store = directory.write("profiles.jsonl", bytes: original)
        let stream = events(2000)  // about 150 KB of new profiles
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved), 0)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var limited = saved
        limited.rlim_cur = 64 * 1024
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited), 0)
        let result = ingest(stream, store: store)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        signal(SIGXFSZ, previousHandler)

        XCTAssertEqual(result.status, 2, result.err)
        XCTAssertTrue(result.err.contains("cannot write `\(store)`: File too large"), result.err)
        XCTAssertTrue(result.err.contains("the store was not changed"), result.err)
        XCTAssertEqual(CLIHarness.bytes(store), original)
        XCTAssertEqual(directory.entries().filter { $0.contains(".tmp") }, [], "no temporary file left behind")

        // With room again, the same stream goes in.
        XCTAssertEqual(ingest(stream, store: store).status, 0)
        XCTAssertEqual(CLIResult.lines(CLIHarness.text(store)).count, 2002)
    }

    /// Temporary files a killed run left beside the store are removed by the next run, which
    /// then works as usual.
    func testLeftoverTemporaryFilesAreRemovedByTheNextRun() {
        let store = directory.write("profiles.jsonl", bytes: original)
        directory.write(".profiles.jsonl.tmp-999999", #"{"id":"half"#)
        directory.write(".profiles.jsonl.tmp-1", "")
        let result = ingest(events(), store: store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(directory.entries().filter { $0.contains(".tmp") }, [])
        XCTAssertEqual(CLIResult.lines(CLIHarness.text(store)).count, 3)
    }

    /// Rewriting the store keeps its permissions: a private store is not made world-readable.
    func testRewriteKeepsTheStoresPermissions() {
        let store = directory.write("profiles.jsonl", bytes: original)
        XCTAssertEqual(chmod(store, 0o600), 0)
        XCTAssertEqual(ingest(events(), store: store).status, 0)
        var info = stat()
        XCTAssertEqual(stat(store, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertNotEqual(CLIHarness.bytes(store), original)
    }
}
