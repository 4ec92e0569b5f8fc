import TargetingBase

/// An LSP position: a 0-based line and a 0-based offset in UTF-16 code units within it.
package struct LSPPosition: Hashable, Sendable, Comparable {
    /// The 0-based line.
    package var line: Int
    /// The 0-based UTF-16 offset within the line.
    package var character: Int

    /// Creates a position.
    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    package static func < (lhs: LSPPosition, rhs: LSPPosition) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }
}

/// Converts between the byte offsets of a `SourceFile` (and so the 1-based scalar columns of
/// diagnostics) and LSP positions. Lines end at LF, CR or CRLF, as in `SourceFile`.
package struct LineIndex: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]
    /// Where each line starts.
    let lineStarts: [Int]

    /// The index of `file`.
    package init(_ file: SourceFile) {
        bytes = file.bytes
        lineStarts = file.lineStarts.isEmpty ? [0] : file.lineStarts
    }

    /// Where line `line` (0-based) ends, before its line break.
    func lineEnd(_ line: Int) -> Int {
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        while end > lineStarts[line], bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
        return end
    }

    /// The LSP position of byte offset `offset` (clamped to the file).
    package func position(of offset: Int) -> LSPPosition {
        let offset = max(0, min(offset, bytes.count))
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let end = min(offset, lineEnd(low))
        var units = 0
        var index = lineStarts[low]
        while index < end {
            let (scalar, length) = LineIndex.decode(bytes, at: index)
            units += scalar >= 0x10000 ? 2 : 1
            index += length
        }
        return LSPPosition(line: low, character: units)
    }

    /// The byte offset of an LSP position; a line past the end clamps to the end of the file,
    /// a character past the end of its line to the end of the line, and a character inside a
    /// surrogate pair to the start of its scalar.
    package func offset(of position: LSPPosition) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let end = lineEnd(position.line)
        var index = lineStarts[position.line]
        var units = 0
        while index < end {
            let (scalar, length) = LineIndex.decode(bytes, at: index)
            let width = scalar >= 0x10000 ? 2 : 1
            if units + width > position.character { break }
            units += width
            index += length
        }
        return index
    }

    /// The LSP range of a source range.
    package func range(of range: SourceRange) -> (start: LSPPosition, end: LSPPosition) {
        (position(of: range.start.offset), position(of: max(range.start.offset, range.end.offset)))
    }

    /// The scalar at `index` and its length in bytes (invalid bytes count as one scalar each).
    static func decode(_ bytes: [UInt8], at index: Int) -> (scalar: UInt32, length: Int) {
        let lead = bytes[index]
        let length: Int
        var scalar: UInt32
        switch lead {
        case 0..<0x80: return (UInt32(lead), 1)
        case 0xC0..<0xE0: length = 2; scalar = UInt32(lead & 0x1F)
        case 0xE0..<0xF0: length = 3; scalar = UInt32(lead & 0x0F)
        case 0xF0..<0xF8: length = 4; scalar = UInt32(lead & 0x07)
        default: return (0xFFFD, 1)
        }
        guard index + length <= bytes.count else { return (0xFFFD, 1) }
        for next in 1..<length {
            let byte = bytes[index + next]
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        return (scalar, length)
    }
}
