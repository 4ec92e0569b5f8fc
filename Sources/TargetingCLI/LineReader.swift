import TargetingBase
import Foundation
import TargetingProfiles

/// Reads a file line by line in fixed-size chunks, so memory does not grow with the file.
///
/// The streaming form of `SourceFile`'s line table (a test keeps the two in agreement): LF,
/// CRLF and lone CR end a line; a UTF-8 BOM at the start is skipped. A line longer than
/// `maxLineBytes` is reported as too long (its bytes are not kept).
struct LineReader {
    /// One line: its 1-based number and bytes, or nil bytes when it was too long.
    struct Line {
        package let number: Int
        let bytes: [UInt8]?
        /// Where the line's bytes start in the file.
        var offset = 0
    }

    static let defaultMaxLineBytes = EventFile.maxLineBytes

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
    init?(path: String, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        self.maxLineBytes = maxLineBytes
    }

    /// Reads standard input (or any handle).
    init(handle: FileHandle, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
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
    mutating func next() -> Line? {
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

/// The records of a JSON Lines file: non-blank lines, each with its path and line number, or
/// a diagnostic for a line too long to read.
struct JSONLinesReader {
    /// One record.
    struct Record {
        /// The file's path.
        let path: String
        /// The 1-based line number.
        let line: Int
        /// The line's bytes, or why it could not be read.
        let bytes: Result<[UInt8], Diagnostic>
        /// Where the line's bytes start in the file.
        var offset = 0

        /// `path:line`, for messages.
        var location: String { "\(path):\(line)" }

        /// A rejection of this record.
        func rejection(_ message: String) -> Diagnostic { .badRecord(message, file: path, line: line) }
    }

    private var lines: LineReader
    let path: String

    /// Opens `path`, or returns nil when it is missing, a directory or unreadable.
    init?(path: String) {
        guard let lines = LineReader(path: path) else { return nil }
        self.lines = lines
        self.path = path
    }

    /// The next non-blank line (spaces and tabs only count as blank).
    mutating func next() -> Record? {
        while let line = lines.next() {
            guard let bytes = line.bytes else {
                return Record(path: path, line: line.number, bytes: .failure(.badRecord("line is longer than 1 MiB", file: path, line: line.number)))
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            return Record(path: path, line: line.number, bytes: .success(bytes), offset: line.offset)
        }
        return nil
    }

    /// The next record read as a profile (SPEC §2 rules applied), or the diagnostic rejecting it.
    mutating func nextProfile() -> (record: Record, profile: Result<Profile, Diagnostic>)? {
        guard let record = next() else { return nil }
        switch record.bytes {
        case .failure(let error): return (record, .failure(error))
        case .success(let bytes):
            return (record, ProfileReader.read(bytes).mapError { record.rejection($0.message) })
        }
    }
}
