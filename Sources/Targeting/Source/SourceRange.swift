/// A point in a source file: byte offset plus 1-based line and column (Unicode scalars).
public struct SourcePosition: Hashable, Sendable, Comparable {
    /// Byte offset from the start of the file (after a BOM).
    public var offset: Int
    /// 1-based line.
    public var line: Int
    /// 1-based column counted in Unicode scalars.
    public var column: Int

    /// Creates a position.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }
}

/// A span of source text in one file.
public struct SourceRange: Hashable, Sendable {
    /// The path of the file, as given by the user.
    public var file: String
    /// The first character of the span.
    public var start: SourcePosition
    /// Just past the last character of the span.
    public var end: SourcePosition

    /// Creates a range.
    public init(file: String, start: SourcePosition, end: SourcePosition) {
        self.file = file
        self.start = start
        self.end = end
    }

    /// A range that covers both ranges (they must be in one file).
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(file: file, start: min(start, other.start), end: max(end, other.end))
    }

    /// A range for something that has no place in a file (e.g. a command-line value).
    public static func unknown(_ file: String) -> SourceRange {
        let origin = SourcePosition(offset: 0, line: 1, column: 1)
        return SourceRange(file: file, start: origin, end: origin)
    }
}
