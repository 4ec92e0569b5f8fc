import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingStore

/// Replacing a file atomically: a failure names the file and the system's reason.
final class AtomicFileTests: TemporaryDirectoryTestCase {
    /// A failure to create the temporary file names the file being replaced and the reason.
    func testAtomicReplaceNamesTheTargetAndTheReason() {
        let target = directory.file("absent-directory/file.rules")
        XCTAssertThrowsError(try AtomicFile.replace(target, with: Array("x".utf8))) { error in
            let message = (error as? StoreError)?.diagnostic.message ?? ""
            XCTAssertTrue(message.hasPrefix("cannot write `\(target)`: No such file or directory"), message)
        }
    }
}
