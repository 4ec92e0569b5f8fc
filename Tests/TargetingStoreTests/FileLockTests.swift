import Foundation
import XCTest
@testable import TargetingStore
import TargetingTestSupport

/// The store's lock file: taken by one ingest at a time, removed by the holder when it is done,
/// and never held by two even when a waiter opened a file that was removed meanwhile.
final class FileLockTests: TemporaryDirectoryTestCase {
    /// Waits for `semaphore`; fails instead of hanging if the lock never comes.
    private func wait(_ semaphore: DispatchSemaphore, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(semaphore.wait(timeout: .now() + 60), .success, "never happened: \(what)", file: file, line: line)
    }

    func testReleaseRemovesTheLockFile() throws {
        let store = directory.file("store.jsonl")
        let lock = try FileLock(protecting: store, onWait: { XCTFail("nobody else holds it") })
        XCTAssertTrue(FileManager.default.fileExists(atPath: store + ".lock"))
        lock.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + ".lock"))
    }

    /// A waiter blocked on the old file gets it once the holder removed it; it must then lock the
    /// file now at the path, so that a third locker waits for it instead of taking a new file.
    func testAWaiterOnARemovedFileLocksTheOneAtThePath() throws {
        let store = directory.file("store.jsonl")
        let first = try FileLock(protecting: store, onWait: {})
        let secondWaits = DispatchSemaphore(value: 0), secondHolds = DispatchSemaphore(value: 0)
        let secondMayRelease = DispatchSemaphore(value: 0), secondReleased = DispatchSemaphore(value: 0)
        let thirdWaits = DispatchSemaphore(value: 0), thirdHolds = DispatchSemaphore(value: 0)
        let thirdReleased = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guard let second = try? FileLock(protecting: store, onWait: { secondWaits.signal() }) else { return }
            secondHolds.signal()
            secondMayRelease.wait()
            second.release()
            secondReleased.signal()
        }
        wait(secondWaits, "the second locker waits")
        first.release()
        wait(secondHolds, "the second locker takes the lock")
        XCTAssertTrue(FileManager.default.fileExists(atPath: store + ".lock"), "the holder's file is at the path")

        Thread.detachNewThread {
            guard let third = try? FileLock(protecting: store, onWait: { thirdWaits.signal() }) else { return }
            thirdHolds.signal()
            third.release()
            thirdReleased.signal()
        }
        wait(thirdWaits, "the third locker waits for the second")
        XCTAssertEqual(thirdHolds.wait(timeout: .now()), .timedOut, "two hold the lock at once")
        secondMayRelease.signal()
        wait(secondReleased, "the second locker releases")
        wait(thirdHolds, "the third locker takes the lock")
        wait(thirdReleased, "the third locker releases")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + ".lock"))
    }
}
