import Foundation

/// The text of one input file, kept as UTF-8 bytes with a table of line starts.
package struct SourceFile: Hashable, Sendable {
    /// The path as the user gave it (used in diagnostics).
    package let path: String
    /// The file's bytes, without a leading UTF-8 byte order mark.
    package let bytes: [UInt8]
    /// Byte offsets at which each line starts (CRLF, CR and LF end a line).
    package let lineStarts: [Int]

    /// Creates a source file from raw bytes; a leading UTF-8 BOM is dropped.
    package init(path: String, bytes: [UInt8]) {
        self.path = path
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            self.bytes = Array(bytes[3...])
        } else {
            self.bytes = bytes
        }
        self.lineStarts = SourceFile.computeLineStarts(self.bytes)
    }

    /// Creates a source file from text.
    package init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    static func computeLineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        return starts
    }

    /// The 0-based line index holding a byte offset.
    package func lineIndex(ofOffset offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The 1-based line and column (counted in Unicode scalars) of a byte offset.
    package func position(ofOffset offset: Int) -> SourcePosition {
        let line = lineIndex(ofOffset: offset)
        var column = 1
        var index = lineStarts[line]
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        if index < offset { column += offset - index }
        return SourcePosition(offset: offset, line: line + 1, column: column)
    }

    /// The bytes of a 1-based line without its line break.
    package func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : bytes.count
        while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<end]
    }

    /// The text of a 1-based line without its line break (invalid UTF-8 is replaced).
    package func lineText(_ line: Int) -> String {
        String(decoding: lineBytes(line), as: UTF8.self)
    }

    /// A range covering the bytes `start..<end`.
    package func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(file: path, start: position(ofOffset: start), end: position(ofOffset: max(start, end)))
    }
}
