import TargetingBase
import TargetingProfiles

/// The records of a JSON Lines file: non-blank lines, each with its path and line number, or
/// a diagnostic for a line too long to read.
package struct JSONLinesReader {
    /// One record.
    package struct Record {
        /// The file's path.
        package let path: String
        /// The 1-based line number.
        package let line: Int
        /// The line's bytes, or why it could not be read.
        package let bytes: Result<[UInt8], Diagnostic>
        /// Where the line's bytes start in the file.
        package var offset = 0

        package init(path: String, line: Int, bytes: Result<[UInt8], Diagnostic>, offset: Int = 0) {
            self.path = path
            self.line = line
            self.bytes = bytes
            self.offset = offset
        }

        /// `path:line`, for messages.
        package var location: String { "\(path):\(line)" }

        /// A rejection of this record.
        package func rejection(_ message: String) -> Diagnostic { .badRecord(message, file: path, line: line) }
    }

    private var lines: LineReader
    package let path: String

    /// Opens `path`, or returns nil when it is missing, a directory or unreadable.
    package init?(path: String) {
        guard let lines = LineReader(path: path) else { return nil }
        self.lines = lines
        self.path = path
    }

    /// The next non-blank line (spaces and tabs only count as blank).
    package mutating func next() -> Record? {
        while let line = lines.next() {
            guard let bytes = line.bytes else {
                return Record(path: path, line: line.number, bytes: .failure(.badRecord(LineChunk.tooLongMessage, file: path, line: line.number)))
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            return Record(path: path, line: line.number, bytes: .success(bytes), offset: line.offset)
        }
        return nil
    }

    /// The next record read as a profile (the profile rules applied), or the diagnostic rejecting it.
    package mutating func nextProfile() -> (record: Record, profile: Result<Profile, Diagnostic>)? {
        guard let record = next() else { return nil }
        switch record.bytes {
        case .failure(let error): return (record, .failure(error))
        case .success(let bytes):
            return (record, ProfileReader.read(bytes).mapError { record.rejection($0.message) })
        }
    }
}
