#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of whole lines of a file, as `LineChunkReader` cuts it: the unit of work of a batch.
///
/// Its bytes start at the beginning of a line and end with a line end (LF, CRLF or a lone CR),
/// except in the file's last chunk. A line too long to keep is left out of the bytes: when
/// `leadingTooLong`, the chunk's first line is such a line and the bytes start after it.
/// Lines are numbered from 1 within the chunk; whoever merges the chunks in order adds the
/// lines of the chunks before.
package struct LineChunk {
    /// The lines' bytes (the buffer is reused from chunk to chunk).
    package var bytes: [UInt8] = []
    /// Whether the chunk starts with a line longer than `maxLineBytes`, whose bytes were dropped.
    package var leadingTooLong = false
    /// Lines longer than this are reported as too long.
    package var maxLineBytes = LineReader.defaultMaxLineBytes

    package init() {}

    /// Calls `body` with each line's number within the chunk (from 1) and its bytes, or nil
    /// bytes for a line too long; returns the number of lines.
    ///
    /// The bytes are valid only during the call.
    @discardableResult
    package func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>?) -> Void) -> Int {
        var number = 0
        if leadingTooLong {
            number += 1
            body(number, nil)
        }
        let limit = maxLineBytes
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var start = 0
            // The next LF at or after `start`, or `count`; kept while ahead, so lines ended by
            // lone CRs do not search the rest of the chunk again each time.
            var nextLF = -1
            while start < count {
                if nextLF < start {
                    if let found = memchr(base + start, 0x0A, count - start) {
                        nextLF = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    } else {
                        nextLF = count
                    }
                }
                var end = nextLF
                var following = min(nextLF + 1, count)
                if let found = memchr(base + start, 0x0D, nextLF - start) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    following = end + 1 == nextLF ? nextLF + 1 : end + 1
                }
                number += 1
                body(number, end - start > limit ? nil : UnsafeBufferPointer(start: base + start, count: end - start))
                start = following
            }
        }
        return number
    }

    /// `forEachLine` without blank lines (empty, or only spaces and tabs): the records of a
    /// JSON Lines chunk. A line too long is a record (with nil bytes) whatever it holds.
    @discardableResult
    package func forEachRecord(_ body: (Int, UnsafeBufferPointer<UInt8>?) -> Void) -> Int {
        forEachLine { number, line in
            if let line, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            body(number, line)
        }
    }

    /// The message rejecting a line too long.
    package static let tooLongMessage = "line is longer than 1 MiB"
}
