#if canImport(Glibc)
import Glibc

private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import Foundation

/// Writes a file atomically: a temporary file beside it, flushed to disk, renamed over it.
package enum AtomicFile {
    /// Removes temporary files left beside `path` by writers that were killed; call it only
    /// while holding the lock that serialises writers.
    package static func removeLeftovers(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        let prefix = "." + (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// The system's message for `errno`.
    package static var lastError: String { String(cString: strerror(errno)) }

    /// Replaces `path` with `bytes`: written to a temporary file in the same directory (with
    /// `path`'s permissions), flushed, renamed over `path`, and the directory flushed. On failure `path` is left as it was, no
    /// temporary file remains, and the error names `path` and the system's reason.
    package static func replace(_ path: String, with bytes: [UInt8]) throws {
        try replace(path) { write in try write(bytes) }
    }

    /// Replaces `path` with what `produce` writes, in as many pieces as it likes, as
    /// `replace(_:with:)` does (a failure to write leaves `path` as it was and no temporary file).
    package static func replace(_ path: String, producing produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
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
