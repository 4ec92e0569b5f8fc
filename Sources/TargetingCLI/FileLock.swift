#if canImport(Glibc)
import Glibc

private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import Foundation

/// An exclusive advisory lock on `<path>.lock`, held until `release()`; a second process
/// waits for it. The holder removes the lock file when it releases it, so none is left beside
/// the store (a killed run leaves one, which the next run takes and removes).
///
/// Removing a lock file is safe only because every locker checks, once it holds the lock, that
/// the file it locked is still the one at the path: a waiter may have opened the file before
/// the holder removed it, and would otherwise hold a lock on a file nobody else can find while
/// a third process creates and locks a new one. Such a waiter starts again on the file now at
/// the path. The holder removes the file while it still holds the lock, and only if the file at
/// the path is the one it locked.
final class FileLock {
    /// Why the lock could not be taken (the system's reason, e.g. "Permission denied").
    struct Failure: Error {
        let reason: String
    }

    private let descriptor: Int32
    let path: String

    /// Takes the lock, waiting while another process holds it; `onWait` is called once if it must wait.
    init(protecting path: String, onWait: () -> Void) throws(Failure) {
        self.path = path + ".lock"
        descriptor = try FileLock.lock(self.path, onWait: onWait)
    }

    /// Opens and locks the file at `path` until the file locked is the one at the path.
    private static func lock(_ path: String, onWait: () -> Void) throws(Failure) -> Int32 {
        var waited = false
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Failure(reason: "cannot open `\(path)`: \(AtomicFile.lastError)") }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                if !waited {
                    onWait()
                    waited = true
                }
                guard flock(descriptor, LOCK_EX) == 0 else {
                    let reason = AtomicFile.lastError
                    close(descriptor)
                    throw Failure(reason: "cannot lock `\(path)`: \(reason)")
                }
            }
            if isAtPath(descriptor, path) { return descriptor }
            close(descriptor)  // removed by the holder this one waited for: lock the new file
        }
    }

    /// Whether the open file `descriptor` is the file `path` names now. A path that cannot be
    /// examined for another reason than being absent counts as the same file (the lock was
    /// taken through it, and retrying would not help).
    private static func isAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0 else { return true }
        guard stat(path, &named) == 0 else { return errno != ENOENT }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    /// Removes the lock file (when it is still the one locked, and the directory allows it)
    /// and releases the lock.
    func release() {
        if FileLock.isAtPath(descriptor, path) { unlink(path) }
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

    /// The system's message for `errno`.
    static var lastError: String { String(cString: strerror(errno)) }

    /// Replaces `path` with `bytes`: written to a temporary file in the same directory (with
    /// `path`'s permissions), flushed, renamed over `path`, and the directory flushed. On failure `path` is left as it was, no
    /// temporary file remains, and the error names `path` and the system's reason.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        try replace(path) { write in try write(bytes) }
    }

    /// Replaces `path` with what `produce` writes, in as many pieces as it likes, as
    /// `replace(_:with:)` does (a failure to write leaves `path` as it was and no temporary file).
    static func replace(_ path: String, producing produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())"
        func failure(_ doing: String, _ reason: String) -> StoreError {
            StoreError(message: "cannot write `\(path)`: \(reason) (\(doing) `\(temporary)`)")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure("creating", lastError) }
        func abandon(_ doing: String) -> StoreError {
            let reason = lastError
            close(descriptor)
            unlink(temporary)
            return failure(doing, reason)
        }
        // The replacement keeps the file's permissions (a private store stays private).
        var existing = stat()
        if stat(path, &existing) == 0, fchmod(descriptor, existing.st_mode & 0o7777) != 0 { throw abandon("setting the mode of") }
        var abandoned = false
        func write(_ bytes: [UInt8]) throws {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    abandoned = true
                    throw abandon("writing")
                }
                offset += written
            }
        }
        do {
            try produce(write)
        } catch {
            // A failure of the producer's own leaves no temporary file either.
            if !abandoned {
                close(descriptor)
                unlink(temporary)
            }
            throw error
        }
        guard fsync(descriptor) == 0 else { throw abandon("flushing") }
        guard close(descriptor) == 0 else {
            let reason = lastError
            unlink(temporary)
            throw failure("closing", reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = lastError
            unlink(temporary)
            throw failure("renaming", reason)
        }
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
