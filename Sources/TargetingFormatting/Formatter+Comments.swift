import TargetingBase
import TargetingSyntax

extension Formatter {
    /// One line of output before blank lines are decided.
    private struct OutputLine {
        var text: String
        /// The source lines it stands for, used to find the blank lines the source had.
        var firstSourceLine: Int
        var lastSourceLine: Int
        var role: LayoutLine.Role
    }

    /// A comment placed on its own line before a code line.
    private struct OwnLineComment {
        var comment: Comment
        /// Whether it came from inside the code line's span and moved above it.
        var moved: Bool
    }

    /// Writes `lines` with `comments` placed among them and the source's blank lines (collapsed
    /// to one) kept, ending with one newline; an empty result when there is nothing to write.
    static func assemble(_ lines: [LayoutLine], comments: [Comment], source: SourceFile) -> String {
        var before = [[OwnLineComment]](repeating: [], count: lines.count)
        var trailing = [Comment?](repeating: nil, count: lines.count)
        var atEnd: [Comment] = []
        var following = 0  // index of the first line that starts after the comment
        for comment in comments {
            let offset = comment.range.start.offset
            while following < lines.count, lines[following].start < offset { following += 1 }
            if following > 0, lines[following - 1].end > offset {
                before[following - 1].append(OwnLineComment(comment: comment, moved: true))
            } else if following > 0, lines[following - 1].endLine == comment.range.start.line, trailing[following - 1] == nil {
                trailing[following - 1] = comment
            } else if following < lines.count {
                before[following].append(OwnLineComment(comment: comment, moved: false))
            } else {
                atEnd.append(comment)
            }
        }

        var output: [OutputLine] = []
        for (index, line) in lines.enumerated() {
            let indent = String(repeating: " ", count: line.commentIndent)
            for placed in before[index] {
                let sourceLine = placed.moved ? line.startLine : placed.comment.range.start.line
                output.append(OutputLine(text: indent + commentText(placed.comment), firstSourceLine: sourceLine,
                                         lastSourceLine: sourceLine, role: .plain))
            }
            var text = String(repeating: " ", count: line.indent) + line.text
            if let comment = trailing[index] { text += "  " + commentText(comment) }
            output.append(OutputLine(text: text, firstSourceLine: line.startLine, lastSourceLine: line.endLine, role: line.role))
        }
        for comment in atEnd {
            let sourceLine = comment.range.start.line
            output.append(OutputLine(text: commentText(comment), firstSourceLine: sourceLine, lastSourceLine: sourceLine, role: .plain))
        }

        var result = ""
        var previous: OutputLine?
        for line in output {
            if let previous, previous.role != .opener, line.role != .closer,
               hasBlankLine(in: source, after: previous.lastSourceLine, before: line.firstSourceLine) {
                result += "\n"
            }
            result += line.text + "\n"
            previous = line
        }
        return result
    }

    /// A comment's text without trailing white space.
    static func commentText(_ comment: Comment) -> String {
        var text = Substring(comment.text)
        while let last = text.last, last == " " || last == "\t" || last == "\u{0B}" || last == "\u{0C}" { text.removeLast() }
        return String(text)
    }

    /// Whether a line strictly between lines `first` and `last` (1-based) holds only white space.
    private static func hasBlankLine(in source: SourceFile, after first: Int, before last: Int) -> Bool {
        guard last - first >= 2 else { return false }
        for line in (first + 1)..<last {
            if source.lineBytes(line).allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0B || $0 == 0x0C }) {
                return true
            }
        }
        return false
    }
}
