import TargetingBase
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
}
