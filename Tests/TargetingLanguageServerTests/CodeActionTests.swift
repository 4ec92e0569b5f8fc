import TargetingBase
import TargetingTestSupport
import XCTest
@testable import TargetingLanguageServer

/// The files of an in-memory workspace, by path.
struct CodeActionTestFiles: WorkspaceFiles {
    var files: [String: String]

    func list(root: String) -> [String] { files.keys.filter { $0.hasPrefix(root + "/") }.sorted() }
    func read(_ path: String) -> [UInt8]? { files[path].map { Array($0.utf8) } }
}

/// `textDocument/codeAction` on a real server: quick fixes for did-you-mean diagnostics and
/// undeclared attributes, with their edits in UTF-16 positions.
final class CodeActionTests: XCTestCase {
    /// The code actions for `range` (0-based line and UTF-16 characters) of `text`, opened at
    /// `/w/edit.rules` beside `files`.
    func actions(_ text: String, line: Int, from start: Int, to end: Int, files: [String: String] = [:], only: [String]? = nil) -> [JSONValue] {
        var server = LanguageServer(files: CodeActionTestFiles(files: files), clock: { 0 })
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"),
                                   "params": .object(["rootUri": .string("file:///w")])]))
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/didOpen"), "params": .object([
            "textDocument": .object(["uri": .string("file:///w/edit.rules"), "languageId": .string("targeting"), "version": .int(1), "text": .string(text)]),
        ])]))
        var context: [JSONMember] = [JSONMember(key: "diagnostics", value: .array([]))]
        if let only { context.append(JSONMember(key: "only", value: .array(only.map(JSONValue.string)))) }
        let response = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(2), "method": .string("textDocument/codeAction"), "params": .object([
            "textDocument": .object(["uri": .string("file:///w/edit.rules")]),
            "range": .object(["start": .object(["line": .int(line), "character": .int(start)]), "end": .object(["line": .int(line), "character": .int(end)])]),
            "context": .object(context),
        ])]))
        return response.first?["result"]?.arrayValue ?? []
    }

    /// An action as `title | line:start-line:end newText | diagnostic codes`.
    func summary(_ action: JSONValue) -> String {
        let title = action["title"]?.stringValue ?? "?"
        guard let edits = action["edit", "changes", "file:///w/edit.rules"]?.arrayValue, edits.count == 1, let edit = edits.first,
              let sl = edit["range", "start", "line"]?.intValue, let sc = edit["range", "start", "character"]?.intValue,
              let el = edit["range", "end", "line"]?.intValue, let ec = edit["range", "end", "character"]?.intValue,
              let text = edit["newText"]?.stringValue else { return title + " | no edit" }
        let codes = (action["diagnostics"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }.joined(separator: ",")
        XCTAssertEqual(action["kind"]?.stringValue, "quickfix")
        return "\(title) | \(sl):\(sc)-\(el):\(ec) \(text) | \(codes)"
    }

    let segments = """
    segment pros = experience == "pro"
    segment adults = profile.age >= 18

    """

    func testUnknownSegmentIsReplacedByTheSuggestion() {
        let text = "attribute experience: string one of [\"pro\", \"amateur\"]\n" + segments + "audience pro_adults = prso and adults\n"
        let found = actions(text, line: 3, from: 23, to: 23)
        XCTAssertEqual(found.map(summary), ["replace `prso` with `pros` | 3:22-3:26 pros | unknown-segment"])
        XCTAssertEqual(found.first?["isPreferred"]?.boolValue, true)
        XCTAssertEqual(found.first?["diagnostics"]?.arrayValue?.first?["message"]?.stringValue, "unknown segment `prso`\nhelp: did you mean `pros`?")
        // Out of the range: nothing.
        XCTAssertEqual(actions(text, line: 3, from: 0, to: 8).map(summary), [])
        // Asked only for refactorings: nothing.
        XCTAssertEqual(actions(text, line: 3, from: 23, to: 23, only: ["refactor"]).map(summary), [])
        XCTAssertEqual(actions(text, line: 3, from: 23, to: 23, only: ["quickfix"]).count, 1)
    }

    func testUnknownAudienceFieldAndValueAreReplaced() {
        let text = "attribute experience: string one of [\"pro\", \"amateur\"]\n" + segments + """
        audience pro_adults = pros and adults
        placement p {
          pro_adutls -> flow "a"
          everyone -> flow "b"
        }
        segment old = profile.agee >= 60
        segment pr = experience == "pr"

        """
        XCTAssertEqual(actions(text, line: 5, from: 4, to: 4).map(summary), ["replace `pro_adutls` with `pro_adults` | 5:2-5:12 pro_adults | unknown-audience"])
        XCTAssertEqual(actions(text, line: 8, from: 14, to: 26).map(summary), ["replace `profile.agee` with `profile.age` | 8:14-8:26 profile.age | unknown-field"])
        XCTAssertEqual(actions(text, line: 9, from: 30, to: 30).map(summary), [#"replace `"pr"` with `"pro"` | 9:27-9:31 "pro" | value-not-allowed"#])
    }

    func testPositionsCountUTF16AfterEmoji() {
        let text = segments + "segment s = profile.device == \"📱日本\" or prso\n"
        // `prso` starts after 12 + 14 + 4 + 1 + 2 (📱) + 2 (日本) + 1 + 4 UTF-16 units.
        XCTAssertEqual(actions(text, line: 2, from: 40, to: 44).map(summary), ["replace `prso` with `pros` | 2:40-2:44 pros | unknown-segment"])
    }

    func testUndeclaredAttributeIsDeclaredAfterTheHeaderComment() {
        let text = "# who is who\n\nsegment adults = years >= 18\nsegment teens = years < 18\n"
        XCTAssertEqual(actions(text, line: 2, from: 17, to: 17).map(summary),
                       ["declare attribute `years` | 1:0-1:0 \nattribute years: number\n | undeclared-attribute"])
        // A later use, without a diagnostic of its own, offers it too (and it resolves the warning at the first).
        XCTAssertEqual(actions(text, line: 3, from: 16, to: 16).map(summary), ["declare attribute `years` | 1:0-1:0 \nattribute years: number\n | undeclared-attribute"])
        // A comment right above the first declaration is that declaration's: the new one goes above it.
        XCTAssertEqual(actions("# adults\nsegment adults = years >= 18\n", line: 1, from: 17, to: 17).map(summary),
                       ["declare attribute `years` | 0:0-0:0 attribute years: number\n\n | undeclared-attribute"])
    }

    func testUndeclaredAttributeGoesAfterTheLastDeclarationWithTheInferredType() {
        let text = "attribute level: number\nattribute plan: string\n\nsegment fans = hobbies has \"music\"\n"
        XCTAssertEqual(actions(text, line: 3, from: 15, to: 22).map(summary),
                       ["declare attribute `hobbies` | 1:22-1:22 \nattribute hobbies: set | undeclared-attribute"])
    }

    func testTypeComesFromTheComparisonsWhenTheRulesHaveErrors() {
        // `release_train >= "4.2"` is an error (ordering an undeclared attribute by a string), so there is
        // no checked rule set: the type is read from the comparison, and the typo is fixed too.
        let text = "segment pros = tier == \"pro\"\nsegment modern = release_train >= \"4.2\" and prso\n"
        XCTAssertEqual(actions(text, line: 1, from: 17, to: 17).map(summary),
                       ["declare attribute `release_train` | 0:0-0:0 attribute release_train: version\n\n | undeclared-attribute"])
        XCTAssertEqual(actions(text, line: 1, from: 0, to: 48).map(summary), [
            "replace `prso` with `pros` | 1:44-1:48 pros | unknown-segment",
            "declare attribute `release_train` | 0:0-0:0 attribute release_train: version\n\n | undeclared-attribute",
        ])
    }

    func testUndeclaredAttributeIsDeclaredWithTheTypeItsComparisonInfers() {
        let cases: [(String, String)] = [
            ("streak_days >= 7", "number"),
            ("remind_me == true", "bool"),
            ("joined_on < 2026-01-01", "date"),
            ("trial_end <= now + 7d", "date"),
            ("hobbies has any [\"music\"]", "set"),
            ("nickname ends with \"x\"", "string"),
        ]
        for (comparison, type) in cases {
            let key = String(comparison.prefix { $0 != " " })
            XCTAssertEqual(actions("segment s = \(comparison)\n", line: 0, from: 12, to: 12).map(summary),
                           ["declare attribute `\(key)` | 0:0-0:0 attribute \(key): \(type)\n\n | undeclared-attribute"], comparison)
        }
    }

    func testDeclaredAttributeTyposSuggestTheDeclaredName() {
        let text = "attribute experience: string\nsegment pros = experiense == \"pro\"\n"
        XCTAssertEqual(actions(text, line: 1, from: 15, to: 15).map(summary), [
            "replace `experiense` with `experience` | 1:15-1:25 experience | undeclared-attribute",
            "declare attribute `experiense` | 0:28-0:28 \nattribute experiense: string | undeclared-attribute",
        ])
        // A guess at a warning is offered, not preferred; a fix for an error is preferred.
        XCTAssertNil(actions(text, line: 1, from: 15, to: 15).first?["isPreferred"])
    }

    /// `text` with the one edit of `action` applied (positions in ASCII text, so UTF-16 units are bytes).
    func applying(_ action: JSONValue, to text: String) -> String? {
        guard let edit = action["edit", "changes", "file:///w/edit.rules"]?.arrayValue?.first,
              let sl = edit["range", "start", "line"]?.intValue, let sc = edit["range", "start", "character"]?.intValue,
              let el = edit["range", "end", "line"]?.intValue, let ec = edit["range", "end", "character"]?.intValue,
              let newText = edit["newText"]?.stringValue else { return nil }
        var lineStarts = [0]
        for (offset, byte) in text.utf8.enumerated() where byte == 10 { lineStarts.append(offset + 1) }
        var bytes = Array(text.utf8)
        bytes.replaceSubrange((lineStarts[sl] + sc)..<(lineStarts[el] + ec), with: Array(newText.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    func testALiteralOfTheWrongTypeIsRewrittenAsItsDiagnosticsFixSays() {
        let declarations = """
        attribute reminders: bool
        attribute goal_date: date
        attribute sdk_version: version
        attribute hours: number
        attribute nickname: string
        attribute tags: set

        """
        // (segment, the action's summary, whether it is preferred)
        let cases: [(String, String, Bool)] = [
            (#"segment s = hours == "5""#, "write `5` without quotes | 6:21-6:24 5 | type-mismatch", true),
            (#"segment s = reminders == "true""#, "write `true` without quotes | 6:25-6:31 true | type-mismatch", true),
            (#"segment s = reminders == "yes""#, #"if `"yes"` means true, write `true` | 6:25-6:30 true | type-mismatch"#, false),
            (#"segment s = goal_date < "2008-12-01""#, "write `2008-12-01` without quotes | 6:24-6:36 2008-12-01 | type-mismatch", true),
            (#"segment s = profile.created_at >= "2026-11-29T12:00:00Z""#,
             "write `2026-11-29T12:00:00Z` without quotes | 6:34-6:56 2026-11-29T12:00:00Z | type-mismatch", true),
            ("segment s = sdk_version >= 4.2", #"write `"4.2"` in quotes | 6:27-6:30 "4.2" | type-mismatch"#, true),
            ("segment s = tags has 5", #"write `"5"` in quotes | 6:21-6:22 "5" | type-mismatch"#, true),
            ("segment s = nickname == 5", #"write `"5"` in quotes | 6:24-6:25 "5" | type-mismatch"#, true),
        ]
        for (segment, expected, preferred) in cases {
            let text = declarations + segment + "\n"
            let found = actions(text, line: 6, from: 0, to: segment.utf16.count)
            XCTAssertEqual(found.map(summary), [expected], segment)
            XCTAssertEqual(found.first?["isPreferred"]?.boolValue, preferred ? true : nil, segment)
            // The edit is the fix the checker attached to the diagnostic.
            let fix = diagnostics(text, file: "/w/edit.rules").compactMap(\.fix).first
            XCTAssertEqual(found.first?["edit", "changes", "file:///w/edit.rules"]?.arrayValue?.first?["newText"]?.stringValue, fix?.replacement, segment)
            guard let action = found.first, let fixed = applying(action, to: text) else { continue }
            XCTAssertEqual(diagnostics(fixed, file: "/w/edit.rules").filter(\.isError), [], fixed)
            XCTAssertEqual(actions(fixed, line: 6, from: 0, to: fixed.utf16.count).map(summary), [], fixed)
        }
    }

    func testEachItemOfAListGetsItsOwnFixAndTheRangeAskedForPicksThem() {
        let text = "attribute hours: number\nsegment s = hours in [\"1\", \"2\"]\n"
        XCTAssertEqual(actions(text, line: 1, from: 0, to: 33).map(summary), [
            "write `1` without quotes | 1:22-1:25 1 | type-mismatch",
            "write `2` without quotes | 1:27-1:30 2 | type-mismatch",
        ])
        XCTAssertEqual(actions(text, line: 1, from: 28, to: 28).map(summary), ["write `2` without quotes | 1:27-1:30 2 | type-mismatch"])
        // A literal with no rewrite that fits gets no action.
        XCTAssertEqual(actions("attribute hours: number\nsegment s = hours == \"five\"\n", line: 1, from: 0, to: 30).map(summary), [])
    }
}
