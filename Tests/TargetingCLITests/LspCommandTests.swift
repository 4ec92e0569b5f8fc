import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase

/// `targeting lsp` over standard input and output, on files on disk.
final class LspCommandTests: TemporaryDirectoryTestCase {
    private let rules = """
    attribute notifications: bool
    segment push_fans = notifications == true
    audience reachable = push_fans
    placement main {
      reachable -> flow "f_push"
      everyone  -> flow "f_default"
    }
    """ + "\n"

    private let tests = """
    test "a push fan from the SDK's events" {
      given events "../events/push.jsonl"
      expect main -> flow "f_push" from reachable
    }

    test "a push fan set by hand" {
      given {
        notifications = true
      }
      expect main -> flow "f_push"
    }
    """ + "\n"

    private let events = """
    {"profile_id":"u1","name":"flow_user_input","instanceId":"scr_settings","isBackendEvent":false,"isCustomerEvent":true,"element_id":"notifications","element_type":"toggle","value":true}
    """ + "\n"

    /// One LSP message framed for standard input.
    private func frame(_ message: JSONValue) -> String {
        let body = JSONWriter.write(message)
        return "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// The messages `targeting lsp` wrote to standard output.
    private func messages(_ out: String) -> [JSONValue] {
        out.components(separatedBy: "Content-Length: ").dropFirst().compactMap { part in
            guard let start = part.range(of: "\r\n\r\n") else { return nil }
            if case .success(let value) = JSONParser.parse(Array(part[start.upperBound...].utf8)) { return value }
            return nil
        }
    }

    /// Applies the LSP text edits of one file (0-based lines, UTF-16 characters) to `text`.
    private func apply(_ edits: [JSONValue], to text: String) -> String {
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

    func testRenamingAnAttributeKeepsTheSDKsAnswersFlowingToIt() throws {
        let rulesPath = directory.write("Rules/main.rules", rules)
        let testsPath = directory.write("Rules/push.tests", tests)
        directory.write("events/push.jsonl", events)
        let rulesDirectory = directory.file("Rules")
        let before = CLIHarness.run(["test", "--rules", rulesDirectory])
        XCTAssertEqual(before.status, 0, before.out + before.err)

        let root = URL(fileURLWithPath: directory.path).absoluteString
        let rulesURI = URL(fileURLWithPath: rulesPath).absoluteString
        let input = [
            frame(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"),
                           "params": .object(["rootUri": .string(root), "capabilities": .object([:])])])),
            frame(.object(["jsonrpc": .string("2.0"), "method": .string("initialized"), "params": .object([:])])),
            frame(.object(["jsonrpc": .string("2.0"), "id": .int(2), "method": .string("textDocument/rename"), "params": .object([
                "textDocument": .object(["uri": .string(rulesURI)]),
                "position": .object(["line": .int(0), "character": .int(12)]),
                "newName": .string("push_opt_in"),
            ])])),
            frame(.object(["jsonrpc": .string("2.0"), "id": .int(3), "method": .string("shutdown")])),
            frame(.object(["jsonrpc": .string("2.0"), "method": .string("exit")])),
        ].joined()
        let session = CLIHarness.run(["lsp"], stdin: input)
        XCTAssertEqual(session.status, 0, session.err)
        let replies = messages(session.out)
        let changes = try XCTUnwrap(replies.first { $0["id"]?.intValue == 2 }?["result", "changes"])
        let warning = replies.first { $0["method"]?.stringValue == "window/showMessage" }?["params", "message"]?.stringValue ?? ""
        XCTAssertTrue(warning.contains("profiles already stored keep the key `notifications`"), warning)

        let renamedRules = apply(changes[rulesURI]?.arrayValue ?? [], to: rules)
        let renamedTests = apply(changes[URL(fileURLWithPath: testsPath).absoluteString]?.arrayValue ?? [], to: tests)
        XCTAssertTrue(renamedRules.hasPrefix("attribute push_opt_in: bool\ninput notifications -> push_opt_in\n"), renamedRules)
        XCTAssertTrue(renamedTests.contains("push_opt_in = true"), renamedTests)
        directory.write("Rules/main.rules", renamedRules)
        directory.write("Rules/push.tests", renamedTests)

        // The same events still send the user to the same destination, and the rules check clean.
        let after = CLIHarness.run(["test", "--rules", rulesDirectory])
        XCTAssertEqual(after.status, 0, after.out + after.err)
        XCTAssertEqual(after.outLines.last, "2 passed, 0 failed")
        let check = CLIHarness.run(["check", rulesDirectory])
        XCTAssertEqual(check.status, 0, check.out + check.err)
        let fmt = CLIHarness.run(["fmt", "--check", rulesDirectory])
        XCTAssertEqual(fmt.status, 0, "the added input is formatted as `fmt` writes it: " + fmt.out + fmt.err)
    }
}
