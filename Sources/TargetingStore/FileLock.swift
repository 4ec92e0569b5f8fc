#if canImport(Glibc)
import Glibc

#elseif canImport(Darwin)
import Darwin
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
package final class FileLock {
    /// Why the lock could not be taken (the system's reason, e.g. "Permission denied").
    package struct Failure: Error {
        package let reason: String
    }

    private let descriptor: Int32
    package let path: String

    /// Takes the lock, waiting while another process holds it; `onWait` is called once if it must wait.
    package init(protecting path: String, onWait: () -> Void) throws(Failure) {
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
    package func release() {
        if FileLock.isAtPath(descriptor, path) { unlink(path) }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
