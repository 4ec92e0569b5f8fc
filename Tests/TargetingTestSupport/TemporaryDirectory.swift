import Foundation
import XCTest

/// A fresh directory under the system's temporary directory, removed on `remove()` or deinit.
package final class TemporaryDirectory {
    package let url: URL
    package var path: String { url.path }

    package init(_ label: String = "targeting-tests") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    package func remove() { try? FileManager.default.removeItem(at: url) }

    /// The absolute path of `name` inside the directory.
    package func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (creating subdirectories) and returns its absolute path.
    @discardableResult
    package func write(_ name: String, _ text: String) -> String {
        write(name, bytes: Array(text.utf8))
    }

    /// Writes bytes to `name` and returns its absolute path.
    @discardableResult
    package func write(_ name: String, bytes: [UInt8]) -> String {
        let target = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(bytes).write(to: target)
        return target.path
    }

    /// Names of the entries in the directory, sorted, hidden ones included.
    package func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// A test case with a fresh temporary `directory` per test, removed afterwards.
open class TemporaryDirectoryTestCase: XCTestCase {
    /// The test's scratch directory.
    package var directory: TemporaryDirectory!

    override open func setUp() {
        super.setUp()
        directory = TemporaryDirectory()
    }

    override open func tearDown() {
        directory.remove()
        directory = nil
        super.tearDown()
    }
}
