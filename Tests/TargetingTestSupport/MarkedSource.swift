import XCTest
import Targeting
import TargetingAnalysis
import TargetingBase

/// Source text with position markers `1️⃣`, `2️⃣`, … removed, and where each marker was.
///
/// A marker is a keycap emoji: a digit, U+FE0F and U+20E3. Positions are 1-based lines and
/// columns counted in Unicode scalars; LF, CRLF and a lone CR end a line.
package struct MarkedSource {
    /// A marker's place in the clean text.
    package struct Position: Hashable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var description: String { "\(line):\(column)" }

        package init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// The text without markers.
    package let text: String
    /// Marker (e.g. "1️⃣") → its position in `text`.
    package let markers: [String: Position]

    package init(_ marked: String) {
        let scalars = Array(marked.unicodeScalars)
        var clean = String.UnicodeScalarView()
        var markers: [String: Position] = [:]
        var line = 1
        var column = 1
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if index + 2 < scalars.count, scalar.value >= 0x30, scalar.value <= 0x39,
               scalars[index + 1] == "\u{FE0F}", scalars[index + 2] == "\u{20E3}" {
                let marker = String(String.UnicodeScalarView(scalars[index...(index + 2)]))
                precondition(markers[marker] == nil, "marker \(marker) used twice")
                markers[marker] = Position(line: line, column: column)
                index += 3
                continue
            }
            if scalar == "\u{1F51F}" {  // 🔟
                markers["🔟"] = Position(line: line, column: column)
                index += 1
                continue
            }
            clean.append(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else if scalar == "\r" {
                if index + 1 < scalars.count, scalars[index + 1] == "\n" {
                    clean.append(scalars[index + 1])
                    index += 1
                }
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        self.text = String(clean)
        self.markers = markers
    }

    /// The position of `marker`; fails the test when the marker is absent.
    package func position(_ marker: String = "1️⃣", file: StaticString = #filePath, line: UInt = #line) -> Position {
        guard let found = markers[marker] else {
            XCTFail("marker \(marker) is not in the text", file: file, line: line)
            return Position(line: 0, column: 0)
        }
        return found
    }
}

/// The diagnostics of checking one rules file with text `rules`, the analysis's included, as
/// `targeting check` reports them.
package func diagnostics(_ rules: String, file: String = "main.rules") -> [Diagnostic] {
    LoadedRules(sources: [SourceFile(path: file, text: rules)]).analyzed(by: Analyzer.analyze).diagnostics
}

/// The diagnostics of checking several rules files, given as (path, text), as `diagnostics(_:file:)`.
package func diagnostics(files: [(path: String, text: String)]) -> [Diagnostic] {
    LoadedRules(sources: files.map { SourceFile(path: $0.path, text: $0.text) }).analyzed(by: Analyzer.analyze).diagnostics
}

/// A one-line description of a diagnostic for failure messages.
package func describe(_ diagnostic: Diagnostic) -> String {
    let range = diagnostic.range
    return "\(range.file):\(range.start.line):\(range.start.column): \(diagnostic.severity.rawValue) [\(diagnostic.code)] \(diagnostic.message)"
        + (diagnostic.help.map { " (help: \($0))" } ?? "")
}

/// Describes a list of diagnostics, one per line.
package func describe(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.isEmpty ? "(no diagnostics)" : diagnostics.map(describe).joined(separator: "\n")
}

/// Whether `diagnostic` starts at `position` of `path`.
package func diagnostic(_ diagnostic: Diagnostic, isAt position: MarkedSource.Position, in path: String) -> Bool {
    diagnostic.range.file == path && diagnostic.range.start.line == position.line && diagnostic.range.start.column == position.column
}

/// Asserts that loading the marked rules text reports a diagnostic of `severity` and `code`
/// whose message contains `messageContains`, starting exactly at `marker`. Returns it.
@discardableResult
package func assertDiagnostic(_ marked: String, severity: Severity, code: String, messageContains: String,
                      marker: String = "1️⃣", path: String = "main.rules",
                      file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
    let source = MarkedSource(marked)
    let position = source.position(marker, file: file, line: line)
    let found = diagnostics(source.text, file: path)
    return assertDiagnostic(in: found, severity: severity, code: code, messageContains: messageContains,
                            at: position, path: path, file: file, line: line)
}

/// Asserts that `found` holds a diagnostic of `severity` and `code` with `messageContains` in its
/// message, starting at `position` of `path`. Returns it.
@discardableResult
package func assertDiagnostic(in found: [Diagnostic], severity: Severity, code: String, messageContains: String,
                      at position: MarkedSource.Position, path: String = "main.rules",
                      file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
    let match = found.first {
        $0.severity == severity && $0.code == code && $0.message.contains(messageContains)
            && diagnostic($0, isAt: position, in: path)
    }
    if match == nil {
        XCTFail("expected \(severity.rawValue) [\(code)] containing \"\(messageContains)\" at \(path):\(position); got:\n\(describe(found))",
                file: file, line: line)
    }
    return match
}
