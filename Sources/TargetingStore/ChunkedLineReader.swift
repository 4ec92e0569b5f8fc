#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TargetingProfiles

/// Reads a file's lines in large chunks and hands each line over as a slice of the chunk, with
/// no array per line: the reader `ingest` uses for event files.
///
/// Lines are split exactly as `LineReader` splits them: LF, CRLF and lone CR end a line, a
/// UTF-8 BOM at the start is skipped, and a line longer than `maxLineBytes` is reported as too
/// long (its bytes are dropped as they are read, so memory stays bounded).
package final class ChunkedLineReader {
    /// One line: its 1-based number and bytes (nil when too long), valid until the next call of `next()`.
    package struct Line {
        package let number: Int
        package let bytes: UnsafeBufferPointer<UInt8>?
    }

    private let descriptor: Int32
    private let maxLineBytes: Int
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes read into `buffer` end here.
    private var filled = 0
    /// Where the line being read starts in `buffer`.
    private var lineStart = 0
    /// How far the line being read was searched for its end.
    private var cursor = 0
    private var atEnd = false
    private var first = true
    private var pendingCR = false
    private var tooLong = false
    private var lineNumber = 0

    /// Opens `path` for reading, or returns nil when it cannot be opened (or is a directory).
    package init?(path: String, maxLineBytes: Int = EventFile.maxLineBytes, chunkBytes: Int = 1 << 20) {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & 0o170000 != 0o040000 else {
            close(descriptor)
            return nil
        }
        self.maxLineBytes = maxLineBytes
        // Room for a whole line of the longest length allowed, and a chunk after it.
        buffer = .allocate(capacity: max(chunkBytes, 4) + maxLineBytes + 1)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// Moves the line being read to the front of the buffer and reads the next chunk after it;
    /// false at the end of the file (or when reading fails, which ends the file as `LineReader` does).
    private func fill() -> Bool {
        if tooLong { lineStart = cursor }
        let kept = filled - lineStart
        if lineStart > 0, kept > 0 {
            memmove(buffer.baseAddress!, buffer.baseAddress! + lineStart, kept)
        }
        cursor -= lineStart
        filled = kept
        lineStart = 0
        var count: Int
        repeat {
            count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        } while count < 0 && errno == EINTR
        guard count > 0 else { return false }
        filled += count
        if first {
            first = false
            if filled >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                lineStart = 3
                cursor = 3
            }
        }
        return true
    }

    /// The next line, or nil at the end of the file.
    package func next() -> Line? {
        while true {
            if cursor == filled {
                if !atEnd, fill() { continue }
                atEnd = true
                guard tooLong || cursor > lineStart else { return nil }
                return line(end: cursor, next: cursor)
            }
            if pendingCR {
                pendingCR = false
                if buffer[cursor] == 0x0A {
                    cursor += 1
                    lineStart = cursor
                    continue
                }
            }
            var end = cursor
            while end < filled, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
            if end < filled {
                if buffer[end] == 0x0D { pendingCR = true }
                return line(end: end, next: end + 1)
            }
            cursor = end
            if cursor - lineStart > maxLineBytes { tooLong = true }
        }
    }

    /// The line from `lineStart` to `end`; the next one starts at `next`.
    private func line(end: Int, next: Int) -> Line {
        lineNumber += 1
        let isTooLong = tooLong || end - lineStart > maxLineBytes
        let bytes = isTooLong ? nil : UnsafeBufferPointer(rebasing: buffer[lineStart..<end])
        tooLong = false
        cursor = next
        lineStart = next
        return Line(number: lineNumber, bytes: bytes)
    }
}
