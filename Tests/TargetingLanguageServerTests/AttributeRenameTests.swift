import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// Renaming a custom attribute keeps the SDK's answers flowing to it and warns about the
/// profiles already stored.
final class AttributeRenameTests: XCTestCase {
    private static let rules = """
    attribute notifications: bool
    attribute `push-pref`: string
    segment wants_push = notifications == true
    segment likes_email = `push-pref` == "email"
    segment teen = age < 18
    audience reachable = wants_push or likes_email or teen
    placement main {
      reachable -> flow "f_reach"
      everyone -> nothing
    }
    """ + "\n"

    private func rename(_ rules: String, line: Int, character: Int, to name: String,
                        capabilities: JSONValue = .object([])) -> (edit: JSONValue?, others: [JSONValue], renamed: String) {
        var harness = ServerHarness(["/w/main.rules": rules], capabilities: capabilities)
        harness.open("main.rules", rules)
        let (response, others) = harness.request("textDocument/rename", ServerHarness.at("main.rules", line, character, ["newName": .string(name)]))
        let edit = response?["result"]
        let edits = edit?["changes", ServerHarness.uri("main.rules")]?.arrayValue
            ?? edit?["documentChanges"]?.arrayValue?.first?["edits"]?.arrayValue ?? []
        return (edit, others, AttributeRenameTests.apply(edits, to: rules))
    }

    func testADeclaredAttributeWithoutAnInputGetsOneFromItsOldKey() {
        let (_, others, renamed) = rename(AttributeRenameTests.rules, line: 0, character: 12, to: "push_opt_in")
        XCTAssertEqual(renamed, """
        attribute push_opt_in: bool
        input notifications -> push_opt_in
        attribute `push-pref`: string
        segment wants_push = push_opt_in == true
        """ + "\n" + AttributeRenameTests.rules.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).joined(separator: "\n"))
        let warnings = others.filter { $0["method"]?.stringValue == "window/showMessage" }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?["params", "type"]?.intValue, 2)
        XCTAssertEqual(warnings.first?["params", "message"]?.stringValue,
                       "renaming the attribute `notifications` to `push_opt_in`: `input notifications -> push_opt_in` is added, so answers to the element `notifications` still reach it; profiles already stored keep the key `notifications` until their events are ingested again")
    }

    func testKeysThatAreNotBareNamesAreWrittenInBackticks() {
        let (_, _, renamed) = rename(AttributeRenameTests.rules, line: 3, character: 23, to: "pref.channel")
        XCTAssertTrue(renamed.contains("attribute `pref.channel`: string\ninput `push-pref` -> `pref.channel`\nsegment wants_push"), renamed)
        XCTAssertTrue(renamed.contains("segment likes_email = `pref.channel` == \"email\""), renamed)
    }

    func testAnUndeclaredAttributeGetsTheInputAfterItsFirstUse() {
        let (_, _, renamed) = rename(AttributeRenameTests.rules, line: 4, character: 15, to: "age_years")
        XCTAssertTrue(renamed.contains("segment teen = age_years < 18\ninput age -> age_years\naudience reachable"), renamed)
    }

    func testTheAddedLineEndsAsTheFileDoes() {
        let crlf = AttributeRenameTests.rules.replacingOccurrences(of: "\n", with: "\r\n")
        XCTAssertTrue(rename(crlf, line: 0, character: 12, to: "push_opt_in").renamed.hasPrefix("attribute push_opt_in: bool\r\ninput notifications -> push_opt_in\r\nattribute"))
        let unterminated = "attribute notifications: bool"
        XCTAssertEqual(rename(unterminated, line: 0, character: 12, to: "push_opt_in").renamed, "attribute push_opt_in: bool\ninput notifications -> push_opt_in")
    }

    func testAnAttributeFedByAnUnqualifiedInputOnlyHasItsTargetRenamed() {
        let rules = "input notifications -> notifications\n" + AttributeRenameTests.rules
        let (_, others, renamed) = rename(rules, line: 1, character: 12, to: "push_opt_in")
        XCTAssertEqual(renamed.components(separatedBy: "\n").prefix(4), [
            "input notifications -> push_opt_in", "attribute push_opt_in: bool", "attribute `push-pref`: string",
            "segment wants_push = push_opt_in == true",
        ])
        XCTAssertEqual(renamed.components(separatedBy: "input ").count, 2, renamed)
        XCTAssertEqual(others.first?["params", "message"]?.stringValue,
                       "renaming the attribute `notifications` to `push_opt_in`: profiles already stored keep the key `notifications` until their events are ingested again")
    }

    /// A screen-qualified input claims one screen only: the element's answers from every other
    /// screen still go to the attribute named by the element id, so the rename keeps them too.
    func testAScreenQualifiedInputStillGetsTheUnqualifiedLine() {
        let rules = "input scr_settings/push_toggle -> notifications\n" + AttributeRenameTests.rules
        let (_, others, renamed) = rename(rules, line: 1, character: 12, to: "push_opt_in")
        XCTAssertEqual(renamed.components(separatedBy: "\n").prefix(5), [
            "input scr_settings/push_toggle -> push_opt_in", "attribute push_opt_in: bool", "input notifications -> push_opt_in",
            "attribute `push-pref`: string", "segment wants_push = push_opt_in == true",
        ])
        XCTAssertTrue(others.first?["params", "message"]?.stringValue?.contains("`input notifications -> push_opt_in` is added") == true,
                      "\(others)")
    }

    func testAnElementSentElsewhereGetsNoInput() {
        let rules = "input notifications -> profile.first_name\n" + AttributeRenameTests.rules
        let (_, _, renamed) = rename(rules, line: 1, character: 12, to: "push_opt_in")
        XCTAssertFalse(renamed.contains("-> push_opt_in"), renamed)
    }

    func testClientsWithChangeAnnotationsConfirmTheWarning() throws {
        let capabilities: JSONValue = .object(["workspace": .object(["workspaceEdit": .object([
            "documentChanges": .bool(true), "changeAnnotationSupport": .object(["groupsOnLabel": .bool(true)]),
        ])])])
        let (edit, others, renamed) = rename(AttributeRenameTests.rules, line: 0, character: 12, to: "push_opt_in", capabilities: capabilities)
        XCTAssertTrue(renamed.contains("input notifications -> push_opt_in\n"), renamed)
        XCTAssertEqual(others.filter { $0["method"]?.stringValue == "window/showMessage" }, [])
        let document = try XCTUnwrap(edit?["documentChanges"]?.arrayValue?.first)
        XCTAssertEqual(document["textDocument", "uri"]?.stringValue, ServerHarness.uri("main.rules"))
        XCTAssertEqual(document["textDocument", "version"]?.intValue, 1)
        let ids = Set(document["edits"]?.arrayValue?.compactMap { $0["annotationId"]?.stringValue } ?? [])
        XCTAssertEqual(ids.count, 1)
        let annotation = try XCTUnwrap(edit?["changeAnnotations", ids.first ?? ""])
        XCTAssertEqual(annotation["needsConfirmation"], .bool(true))
        XCTAssertTrue(annotation["description"]?.stringValue?.contains("profiles already stored keep the key `notifications`") == true)
        // A segment's rename has nothing to warn about: plain `changes`.
        let (segment, _, _) = rename(AttributeRenameTests.rules, line: 2, character: 10, to: "push_fans", capabilities: capabilities)
        XCTAssertNotNil(segment?["changes"])
    }

    /// Applies LSP text edits (0-based lines, UTF-16 characters) to `text` (lines end at LF,
    /// so a CR before it is part of its line).
    static func apply(_ edits: [JSONValue], to text: String) -> String {
        var utf16 = Array(text.utf16)
        let lineStarts = [0] + utf16.indices.filter { utf16[$0] == 10 }.map { $0 + 1 }
        func offset(_ position: JSONValue?) -> Int {
            lineStarts[position?["line"]?.intValue ?? 0] + (position?["character"]?.intValue ?? 0)
        }
        for edit in edits.sorted(by: { offset($0["range", "start"]) > offset($1["range", "start"]) }) {
            utf16.replaceSubrange(offset(edit["range", "start"])..<offset(edit["range", "end"]), with: Array((edit["newText"]?.stringValue ?? "").utf16))
        }
        return String(decoding: utf16, as: UTF16.self)
    }
}
