import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a file into chunks of whole lines (`LineChunk`), reading it with `pread` a block at a
/// time, so memory holds only the chunks in flight whatever the file's size; or a stream such
/// as standard input, a piece at a time as it arrives.
///
/// The line rules are `LineReader`'s: LF, CRLF and lone CR end a line, a UTF-8 BOM at the start
/// is skipped, and a line longer than `maxLineBytes` is reported as too long. A chunk ends at
/// the last line end of what was read; the partial line after it starts the next chunk, and a
/// CR ending one read followed by an LF starting the next is one line end.
package struct LineChunkReader {
    /// The file's path, as given (`<stdin>` for standard input).
    package let path: String
    /// Where the bytes come from.
    private enum Source {
        /// A file, read with `pread` at `offset`.
        case file(FileHandle)
        /// A stream: each call gives the next bytes that arrived, empty at its end.
        case stream(() -> [UInt8])
    }
    private let source: Source
    /// Bytes read per block.
    private let blockBytes: Int
    private let maxLineBytes: Int
    /// Where the next block starts in the file.
    private var offset: Int64 = 0
    /// The start of a line whose end has not been read yet.
    private var carry: [UInt8] = []
    /// The last block ended with a CR, so an LF starting the next block belongs to it.
    private var pendingCR = false
    private var atEOF = false

    /// Bytes per block unless told otherwise.
    package static let defaultBlockBytes = 1 << 20

    /// Opens `path` for reading, or returns nil when it is missing, a directory or unreadable.
    package init?(path: String, blockBytes: Int = LineChunkReader.defaultBlockBytes, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.path = path
        self.source = .file(handle)
        self.blockBytes = max(1, blockBytes)
        self.maxLineBytes = maxLineBytes
    }

    /// Reads a stream, such as standard input, named `name` in messages: `next` gives the bytes
    /// that arrived since its last call, and empty bytes at the end of the stream.
    package init(stream next: @escaping () -> [UInt8], name: String = "<stdin>", maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        self.path = name
        self.source = .stream(next)
        self.blockBytes = 1
        self.maxLineBytes = maxLineBytes
    }

    /// Reads the next chunk into `chunk` (reusing its buffer); false at the end of the file.
    package mutating func next(into chunk: inout LineChunk) -> Bool {
        chunk.maxLineBytes = maxLineBytes
        chunk.leadingTooLong = false
        chunk.bytes.removeAll(keepingCapacity: true)
        chunk.bytes.append(contentsOf: carry)
        carry.removeAll(keepingCapacity: true)
        // Within a line too long to keep: its bytes are dropped until its end is read.
        var skipping = false
        while !atEOF {
            let start = chunk.bytes.count
            let read = readBlock(into: &chunk.bytes)
            if read == 0 {
                atEOF = true
                break
            }
            if offset == Int64(read), read >= 3, chunk.bytes[0] == 0xEF, chunk.bytes[1] == 0xBB, chunk.bytes[2] == 0xBF {
                chunk.bytes.removeFirst(3)
            }
            var searchFrom = start
            if pendingCR {
                pendingCR = false
                if chunk.bytes[start] == 0x0A { chunk.bytes.remove(at: start) }
            }
            if skipping {
                guard let end = firstLineEnd(in: chunk.bytes, from: start) else {
                    chunk.bytes.removeAll(keepingCapacity: true)
                    continue
                }
                var following = end + 1
                if chunk.bytes[end] == 0x0D {
                    if following < chunk.bytes.count {
                        if chunk.bytes[following] == 0x0A { following += 1 }
                    } else {
                        pendingCR = true
                    }
                }
                chunk.bytes.removeFirst(following)
                chunk.leadingTooLong = true
                skipping = false
                searchFrom = 0
            }
            if let end = lastLineEnd(in: chunk.bytes, from: searchFrom) {
                carry.append(contentsOf: chunk.bytes[(end + 1)...])
                chunk.bytes.removeSubrange((end + 1)...)
                if chunk.bytes[end] == 0x0D, carry.isEmpty { pendingCR = true }
                return true
            }
            // No line end: all the bytes are the start of one line.
            if chunk.leadingTooLong {
                carry.append(contentsOf: chunk.bytes)
                chunk.bytes.removeAll(keepingCapacity: true)
                return true
            }
            if chunk.bytes.count > maxLineBytes {
                chunk.bytes.removeAll(keepingCapacity: true)
                skipping = true
            }
        }
        if skipping { chunk.leadingTooLong = true }
        return chunk.leadingTooLong || !chunk.bytes.isEmpty
    }

    /// Appends up to `blockBytes` bytes of the file to `bytes` (of a stream, what arrived next);
    /// the number read (0 at the end).
    private mutating func readBlock(into bytes: inout [UInt8]) -> Int {
        let handle: FileHandle
        switch source {
        case .file(let file):
            handle = file
        case .stream(let next):
            // The first block holds the whole BOM if the stream starts with one.
            var read = 0
            repeat {
                let arrived = next()
                if arrived.isEmpty { break }
                bytes.append(contentsOf: arrived)
                read += arrived.count
            } while offset == 0 && read < 3
            offset += Int64(read)
            return read
        }
        let start = bytes.count
        // The first block holds the whole BOM if the file starts with one.
        let blockBytes = offset == 0 ? max(3, self.blockBytes) : self.blockBytes
        bytes.append(contentsOf: repeatElement(0, count: blockBytes))
        var read = 0
        bytes.withUnsafeMutableBytes { buffer in
            let descriptor = handle.fileDescriptor
            while read < blockBytes {
                let count = pread(descriptor, buffer.baseAddress! + start + read, blockBytes - read, off_t(offset) + off_t(read))
                if count > 0 {
                    read += count
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
        }
        bytes.removeLast(blockBytes - read)
        offset += Int64(read)
        return read
    }

    private func firstLineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D }
    }

    private func lastLineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        bytes[start...].lastIndex { $0 == 0x0A || $0 == 0x0D }
    }
}
