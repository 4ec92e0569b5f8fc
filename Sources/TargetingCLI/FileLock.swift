#if canImport(Glibc)
import Glibc

private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import Foundation

/// An exclusive advisory lock on `<path>.lock`, held until `release()`; a second process
/// waits for it.
final class FileLock {
    private let descriptor: Int32
    let path: String

    /// Takes the lock, waiting while another process holds it; `onWait` is called once if it must wait.
    init?(protecting path: String, onWait: () -> Void) {
        self.path = path + ".lock"
        descriptor = open(self.path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { return nil }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            onWait()
            guard flock(descriptor, LOCK_EX) == 0 else {
                close(descriptor)
                return nil
            }
        }
    }

    /// Releases the lock.
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// Writes a file atomically: a temporary file beside it, flushed to disk, renamed over it.
enum AtomicFile {
    /// Removes temporary files left beside `path` by writers that were killed; call it only
    /// while holding the lock that serialises writers.
    static func removeLeftovers(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        let prefix = "." + (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    static func replace(_ path: String, with bytes: [UInt8]) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw StoreError(message: "cannot write `\(temporary)`: \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw StoreError(message: "cannot write `\(temporary)`: \(reason)")
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            close(descriptor)
            unlink(temporary)
            throw StoreError(message: "cannot flush `\(temporary)` to disk")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw StoreError(message: "cannot replace `\(path)`: \(reason)")
        }
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
