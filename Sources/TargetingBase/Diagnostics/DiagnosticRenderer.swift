/// Renders diagnostics as text (the `path:line:col: severity: message` form with a source
/// excerpt and a caret) or as JSON objects.
package struct DiagnosticRenderer: Sendable {
    /// Source files by path, used to print the offending line.
    package var files: [String: SourceFile]

    /// Creates a renderer that can quote lines of `files`.
    package init(files: [SourceFile] = []) {
        var map: [String: SourceFile] = [:]
        for file in files { map[file.path] = file }
        self.files = map
    }

    /// The text form of one diagnostic, ending with a newline.
    package func text(_ diagnostic: Diagnostic) -> String {
        let range = diagnostic.range
        let headline = "\(diagnostic.severity.rawValue): \(diagnostic.message)\n"
        switch diagnostic.place {
        case .none: return headline + (diagnostic.help.map { "  = help: \($0)\n" } ?? "")
        case .file: return "\(range.file): " + headline
        case .line: return "\(range.file):\(range.start.line): " + headline
        case .span: break
        }
        var out = "\(range.file):\(range.start.line):\(range.start.column): " + headline
        if let file = files[range.file], range.start.line <= file.lineStarts.count {
            let excerpt = DiagnosticRenderer.excerpt(in: file, range: range)
            let number = String(range.start.line)
            let pad = String(repeating: " ", count: number.count)
            out += "\(pad) |\n\(number) | \(excerpt.line)\n\(pad) | \(excerpt.caret)\n"
            if let help = diagnostic.help { out += "\(pad) = help: \(help)\n" }
        } else if let help = diagnostic.help {
            out += "  = help: \(help)\n"
        }
        return out
    }

    /// The widest source excerpt shown, in Unicode scalars; longer lines are cut around the
    /// column with `…` on the cut sides.
    static let maxExcerptWidth = 160

    /// Lines up to this many bytes are decoded whole; longer ones only around the column, so
    /// rendering many diagnostics on one long line costs time in proportion to their number.
    static let wholeLineLimit = 1024

    /// The excerpt of `range`'s line in `file`: cut from the bytes around the column when the
    /// line is long.
    static func excerpt(in file: SourceFile, range: SourceRange) -> (line: String, caret: String) {
        let bytes = file.lineBytes(range.start.line)
        guard bytes.count > wholeLineLimit else {
            return excerpt(of: Array(String(decoding: bytes, as: UTF8.self).unicodeScalars), range: range)
        }
        // Long line: a window of at most `maxExcerptWidth` scalars that starts a third of the
        // width before the column, exactly as `excerpt(of:range:)` cuts it.
        func isLead(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
        let lineStart = bytes.startIndex
        let anchor = min(max(range.start.offset, lineStart), bytes.endIndex)
        var first = anchor
        var back = 0
        while first > lineStart, back < maxExcerptWidth / 3 {
            first -= 1
            while first > lineStart, !isLead(bytes[first]) { first -= 1 }
            back += 1
        }
        var last = first
        var count = 0
        while last < bytes.endIndex, count < maxExcerptWidth {
            last += 1
            while last < bytes.endIndex, !isLead(bytes[last]) { last += 1 }
            count += 1
        }
        let columnInWindow = back + 1
        let spanEnd = range.end.line == range.start.line ? range.end.column - range.start.column + columnInWindow : count + 1
        let width = max(1, min(spanEnd, count + 1) - columnInWindow)
        let line = (first > lineStart ? "…" : "") + String(decoding: bytes[first..<last], as: UTF8.self) + (last < bytes.endIndex ? "…" : "")
        var caret = first > lineStart ? " " : ""
        for byte in bytes[first..<min(anchor, last)] where isLead(byte) { caret += byte == 0x09 ? "\t" : " " }
        caret += "^" + String(repeating: "~", count: width - 1)
        return (line, caret)
    }

    /// The source line to show and the caret line under it (tabs kept so the caret lines up).
    static func excerpt(of scalars: [Unicode.Scalar], range: SourceRange) -> (line: String, caret: String) {
        let column = max(1, min(range.start.column, scalars.count + 1))
        let spanEnd = range.end.line == range.start.line ? range.end.column : scalars.count + 1
        var width = max(1, min(spanEnd, scalars.count + 1) - column)
        var first = 0
        var last = scalars.count
        if scalars.count > maxExcerptWidth {
            first = max(0, column - 1 - maxExcerptWidth / 3)
            last = min(scalars.count, first + maxExcerptWidth)
            width = min(width, max(1, last - (column - 1)))
        }
        var line = String.UnicodeScalarView()
        if first > 0 { line.append("…") }
        line.append(contentsOf: scalars[first..<last])
        if last < scalars.count { line.append("…") }
        var caret = first > 0 ? " " : ""
        for scalar in scalars[first..<min(column - 1, last)] { caret.append(scalar == "\t" ? "\t" : " ") }
        caret += "^" + String(repeating: "~", count: width - 1)
        return (String(line), caret)
    }

    /// The JSON form of one diagnostic: `file`, `line`, `column`, `end_line`, `end_column`,
    /// `severity`, `code`, `message` and, when present, `help` and `fix` (the span to replace and
    /// its `replacement`, and whether it is `certain`).
    package func json(_ diagnostic: Diagnostic) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "file", value: .string(diagnostic.range.file)),
            JSONMember(key: "line", value: .number(Double(diagnostic.range.start.line))),
            JSONMember(key: "column", value: .number(Double(diagnostic.range.start.column))),
            JSONMember(key: "end_line", value: .number(Double(diagnostic.range.end.line))),
            JSONMember(key: "end_column", value: .number(Double(diagnostic.range.end.column))),
            JSONMember(key: "severity", value: .string(diagnostic.severity.rawValue)),
            JSONMember(key: "code", value: .string(diagnostic.code)),
            JSONMember(key: "message", value: .string(diagnostic.message)),
        ]
        if let help = diagnostic.help { members.append(JSONMember(key: "help", value: .string(help))) }
        if let fix = diagnostic.fix {
            members.append(JSONMember(key: "fix", value: .object([
                JSONMember(key: "line", value: .number(Double(fix.range.start.line))),
                JSONMember(key: "column", value: .number(Double(fix.range.start.column))),
                JSONMember(key: "end_line", value: .number(Double(fix.range.end.line))),
                JSONMember(key: "end_column", value: .number(Double(fix.range.end.column))),
                JSONMember(key: "replacement", value: .string(fix.replacement)),
                JSONMember(key: "certain", value: .bool(fix.isCertain)),
            ])))
        }
        return .object(members)
    }

    /// The closing summary line in the fixed form `N errors, N warnings` (always plural, so
    /// scripts can match it).
    package static func summary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        return "\(errors) errors, \(warnings) warnings"
    }
}
