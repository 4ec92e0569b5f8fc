/// A point in a source file: byte offset plus 1-based line and column (Unicode scalars).
package struct SourcePosition: Hashable, Sendable, Comparable {
    /// Byte offset from the start of the file (after a BOM).
    package var offset: Int
    /// 1-based line.
    package var line: Int
    /// 1-based column counted in Unicode scalars.
    package var column: Int

    /// Creates a position.
    package init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }
}

/// A span of source text in one file.
package struct SourceRange: Hashable, Sendable {
    /// The path of the file, as given by the user.
    package var file: String
    /// The first character of the span.
    package var start: SourcePosition
    /// Just past the last character of the span.
    package var end: SourcePosition

    /// Creates a range.
    package init(file: String, start: SourcePosition, end: SourcePosition) {
        self.file = file
        self.start = start
        self.end = end
    }

    /// A range that covers both ranges (they must be in one file).
    package func union(_ other: SourceRange) -> SourceRange {
        SourceRange(file: file, start: min(start, other.start), end: max(end, other.end))
    }

    /// The start of 1-based line `line` of `file`, for a place known only by its line.
    package static func line(_ line: Int, of file: String) -> SourceRange {
        let position = SourcePosition(offset: 0, line: line, column: 1)
        return SourceRange(file: file, start: position, end: position)
    }

    /// A range for something that has no place in a file (e.g. a command-line value).
    package static func unknown(_ file: String) -> SourceRange {
        let origin = SourcePosition(offset: 0, line: 1, column: 1)
        return SourceRange(file: file, start: origin, end: origin)
    }
}
