import TargetingBase

/// One line of formatted code (comments aside), with the span of source it was made from.
///
/// Lines come in source order and their spans do not overlap, so every token of a file
/// belongs to exactly one line; comments are placed by where they fall between them.
struct LayoutLine: Hashable, Sendable {
    /// Whether the line opens or closes a block.
    enum Role: Hashable, Sendable {
        /// An ordinary line.
        case plain
        /// A line that opens a block: one ending with `{`, or with `=` or `(` before an expression
        /// broken over the lines below. No blank line follows it.
        case opener
        /// A `}` line, or the `)` line of a broken expression: no blank line precedes it; comments
        /// before it are indented one level deeper.
        case closer
    }

    /// Spaces before the text.
    var indent: Int
    /// The code, without indentation.
    var text: String
    /// Byte offset of the first token.
    var start: Int
    /// Byte offset just past the last token.
    var end: Int
    /// Source line of the first token.
    var startLine: Int
    /// Source line of the last token.
    var endLine: Int
    /// Opener, closer or plain.
    var role: Role = .plain

    /// A line covering the tokens of `range`.
    init(indent: Int, text: String, range: SourceRange, role: Role = .plain) {
        self.init(indent: indent, text: text, from: range, to: range, role: role)
    }

    /// A line covering the tokens from the start of `first` to the end of `last`.
    init(indent: Int, text: String, from first: SourceRange, to last: SourceRange, role: Role = .plain) {
        self.indent = indent
        self.text = text
        self.start = first.start.offset
        self.end = last.end.offset
        self.startLine = first.start.line
        self.endLine = last.end.line
        self.role = role
    }

    /// The indentation of a comment on its own line placed before this line.
    var commentIndent: Int { role == .closer ? indent + 2 : indent }
}
