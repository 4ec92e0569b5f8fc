import TargetingBase
import Foundation
import TargetingProfiles

/// Reads a file line by line in fixed-size chunks, so memory does not grow with the file.
///
/// The streaming form of `SourceFile`'s line table (a test keeps the two in agreement): LF,
/// CRLF and lone CR end a line; a UTF-8 BOM at the start is skipped. A line longer than
/// `maxLineBytes` is reported as too long (its bytes are not kept).
package struct LineReader {
    /// One line: its 1-based number and bytes, or nil bytes when it was too long.
    package struct Line {
        package let number: Int
        package let bytes: [UInt8]?
        /// Where the line's bytes start in the file.
        package var offset = 0
    }

    package static let defaultMaxLineBytes = EventFile.maxLineBytes

    private let handle: FileHandle
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    /// Where `buffer` starts in the file.
    private var bufferOffset = 0
    private var atEOF = false
    private var lineNumber = 0
    private var first = true
    private var pendingCR = false

    /// Opens `path` for reading, or returns nil.
    package init?(path: String, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        self.maxLineBytes = maxLineBytes
    }

    /// Reads standard input (or any handle).
    package init(handle: FileHandle, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        self.handle = handle
        self.maxLineBytes = maxLineBytes
    }

    private mutating func fill() -> Bool {
        guard !atEOF else { return false }
        let chunk = handle.readData(ofLength: 1 << 20)
        if chunk.isEmpty {
            atEOF = true
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            bufferOffset += position
            position = 0
        }
        buffer.append(contentsOf: chunk)
        if first {
            first = false
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
        }
        return true
    }

    /// The next line, or nil at the end of the file.
    package mutating func next() -> Line? {
        var tooLong = false
        var collected: [UInt8] = []
        var start: Int?
        while true {
            if position >= buffer.count {
                bufferOffset += buffer.count
                buffer.removeAll(keepingCapacity: true)
                position = 0
                if !fill() {
                    if collected.isEmpty && !tooLong { return nil }
                    lineNumber += 1
                    return Line(number: lineNumber, bytes: tooLong ? nil : collected, offset: start ?? bufferOffset)
                }
            }
            if pendingCR {
                pendingCR = false
                if buffer[position] == 0x0A { position += 1; continue }
            }
            if start == nil { start = bufferOffset + position }
            var end = position
            let count = buffer.count
            while end < count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
            if !tooLong {
                if collected.count + (end - position) > maxLineBytes {
                    tooLong = true
                    collected = []
                } else {
                    collected.append(contentsOf: buffer[position..<end])
                }
            }
            if end < count {
                if buffer[end] == 0x0D { pendingCR = true }
                position = end + 1
                lineNumber += 1
                return Line(number: lineNumber, bytes: tooLong ? nil : collected, offset: start ?? bufferOffset + position)
            }
            position = end
        }
    }
}
