import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// Lifecycle, robustness and diagnostics of `targeting lsp`, in process.
final class LanguageServerTests: XCTestCase {
    private let segments = "attribute experience: string one of [\"pro\", \"amateur\"]\nsegment pros = experience == \"pro\"\n"
    private let placements = "audience pro_people = pros\nplacement main {\n  pro_people -> flow \"f_pro\"\n  everyone -> nothing\n}\n"

    func testInitializeAdvertisesTheCapabilities() {
        var server = LanguageServer(files: MemoryFiles(files: [:]))
        let out = server.handle(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file:///w"}}"#.utf8))
        let capabilities = out.first?["result", "capabilities"]
        for name in ["hoverProvider", "definitionProvider", "referencesProvider", "documentFormattingProvider", "documentSymbolProvider", "workspaceSymbolProvider"] {
            XCTAssertEqual(capabilities?[name], .bool(true), name)
        }
        XCTAssertEqual(capabilities?["textDocumentSync", "change"]?.intValue, 2)
        XCTAssertEqual(capabilities?["renameProvider", "prepareProvider"], .bool(true))
        XCTAssertNotNil(capabilities?["semanticTokensProvider", "legend", "tokenTypes"]?.arrayValue)
        XCTAssertEqual(capabilities?["positionEncoding"], .string("utf-16"))
    }

    func testExitStatusDependsOnShutdown() {
        var clean = ServerHarness()
        XCTAssertEqual(clean.result("shutdown", .null), .null)
        XCTAssertTrue(clean.notify("exit", .null).isEmpty)
        XCTAssertEqual(clean.server.exitStatus, 0)
        var abrupt = ServerHarness()
        _ = abrupt.notify("exit", .null)
        XCTAssertEqual(abrupt.server.exitStatus, 1)
    }

    func testBadMessagesGetErrorsNotCrashes() {
        var harness = ServerHarness()
        XCTAssertEqual(harness.server.handle(Array("{not json".utf8)).first?["error", "code"]?.intValue, -32700)
        XCTAssertEqual(harness.server.handle(Array(#"{"id":3}"#.utf8)), [], "a response from the client is ignored")
        XCTAssertEqual(harness.server.handle(Array(#"[1,2]"#.utf8)).first?["error", "code"]?.intValue, -32600)
        XCTAssertEqual(harness.request("no/such", .null).response?["error", "code"]?.intValue, -32601)
        XCTAssertTrue(harness.notify("no/such/notification", .null).isEmpty)
        XCTAssertEqual(harness.result("textDocument/hover", ServerHarness.at("unknown.rules", 0, 0)), .null)
        XCTAssertEqual(harness.result("textDocument/references", ServerHarness.at("unknown.rules", 0, 0)), .array([]))
        XCTAssertEqual(harness.result("textDocument/hover", .string("nonsense")), .null)
        var fresh = LanguageServer(files: MemoryFiles(files: [:]))
        let early = fresh.handle(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("textDocument/hover"), "params": .null]))
        XCTAssertEqual(early.first?["error", "code"]?.intValue, -32002)
        _ = harness.request("shutdown", .null)
        XCTAssertEqual(harness.request("textDocument/hover", .null).response?["error", "code"]?.intValue, -32600)
    }

    func testDiagnosticsFollowEditsAcrossFiles() {
        var harness = ServerHarness(["/w/segments.rules": segments, "/w/placements.rules": placements])
        var published = harness.open("placements.rules", placements)
        XCTAssertEqual(published[ServerHarness.uri("placements.rules")], [], "clean at first")
        // Renaming the segment on disk's behalf breaks the other file.
        published = harness.open("segments.rules", segments.replacingOccurrences(of: "segment pros", with: "segment pro"))
        let broken = published[ServerHarness.uri("placements.rules")] ?? []
        XCTAssertEqual(broken.count, 1)
        XCTAssertEqual(broken.first?["code"], .string("unknown-segment"))
        XCTAssertEqual(broken.first?["severity"]?.intValue, 1)
        XCTAssertEqual(ServerHarness.span(broken.first?["range"]), [0, 22, 0, 26])
        XCTAssertTrue(broken.first?["message"]?.stringValue?.contains("help: did you mean `pro`?") == true, "\(broken)")
        // Fixing it clears the other file's diagnostics.
        published = harness.change("segments.rules", segments)
        XCTAssertEqual(published[ServerHarness.uri("placements.rules")], [])
    }

    func testListFragmentAndIDDiagnosticsArePublished() {
        var harness = ServerHarness()
        let text = "attribute level: string one of [\"a\", \"a\"]\nsegment s = level ends with \"z\"\naudience x = s\nplacement p { x -> flow \"\" }\n"
        let published = harness.open("a.rules", text)[ServerHarness.uri("a.rules")] ?? []
        let byCode = Dictionary(published.compactMap { d in d["code"]?.stringValue.map { ($0, d) } }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byCode["duplicate-value"]?["severity"]?.intValue, 2, "\(published)")
        XCTAssertEqual(ServerHarness.span(byCode["duplicate-value"]?["range"]), [0, 37, 0, 40])
        XCTAssertEqual(byCode["fragment-never-matches"]?["severity"]?.intValue, 2, "\(published)")
        XCTAssertEqual(ServerHarness.span(byCode["fragment-never-matches"]?["range"]), [1, 28, 1, 31])
        XCTAssertEqual(byCode["empty-destination-id"]?["severity"]?.intValue, 1, "\(published)")
        XCTAssertEqual(ServerHarness.span(byCode["empty-destination-id"]?["range"]), [3, 24, 3, 26])
    }

    /// The reachability analysis runs on every change, as `check` runs it.
    func testTheAnalysisWarningsArePublished() {
        var harness = ServerHarness()
        let text = "attribute plan: string one of [\"basic\", \"pro\"]\nsegment pros = plan == \"pro\"\naudience pro_users = pros\n"
            + "placement p {\n  pro_users -> flow \"a\"\n  pro_users -> flow \"b\"\n  everyone -> flow \"d\"\n}\n"
        let published = harness.open("a.rules", text)[ServerHarness.uri("a.rules")] ?? []
        let unreachable = published.filter { $0["code"] == .string("unreachable-row") }
        XCTAssertEqual(unreachable.count, 1, "\(published)")
        XCTAssertEqual(unreachable.first?["severity"]?.intValue, 2)
        XCTAssertEqual(unreachable.first.map { ServerHarness.span($0["range"])[0] }, 5)
        // A hover on the row's audience answers from the program compiled when loading.
        let hover = harness.result("textDocument/hover", ServerHarness.at("a.rules", 5, 4)).map(JSONWriter.write) ?? ""
        XCTAssertTrue(hover.contains("**never decides**"), hover)
    }

    func testIncrementalChangesUseUTF16Ranges() {
        var harness = ServerHarness()
        let text = "# 😀 中文\nsegment a = x == \"y\"\n"
        harness.open("a.rules", text)
        // Replace `a` (line 1, character 8) by `b😀`… then fix it: both edits are range edits.
        var published = ServerHarness.diagnostics(harness.notify("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(ServerHarness.uri("a.rules")), "version": .int(2)]),
            "contentChanges": .array([.object(["range": .object(["start": LSPPosition(line: 0, character: 2).json, "end": LSPPosition(line: 0, character: 4).json]),
                                               "text": .string("☃")])]),
        ])))
        XCTAssertEqual(published[ServerHarness.uri("a.rules")]?.filter { $0["severity"]?.intValue == 1 }.count, 0)
        let analysis = harness.server.analysis(of: "/w/a.rules")
        XCTAssertEqual(analysis?.sources["/w/a.rules"].map { String(decoding: $0.bytes, as: UTF8.self) }, "# ☃ 中文\nsegment a = x == \"y\"\n")
        published = ServerHarness.diagnostics(harness.notify("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(ServerHarness.uri("a.rules")), "version": .int(3)]),
            "contentChanges": .array([.object(["range": .object(["start": LSPPosition(line: 1, character: 12).json, "end": LSPPosition(line: 1, character: 13).json]),
                                               "text": .string("(")])]),
        ])))
        let diagnostics = published[ServerHarness.uri("a.rules")] ?? []
        XCTAssertEqual(diagnostics.first?["severity"]?.intValue, 1, "`segment a = ( == \"y\"` does not parse")
    }

    func testLargeFilesAreParsedOncePerChange() {
        var lines = ["attribute level: number"]
        for index in 0..<20_000 { lines.append("segment s\(index) = level >= \(index)") }
        let text = lines.joined(separator: "\n") + "\n"
        var harness = ServerHarness()
        harness.open("big.rules", text)
        XCTAssertEqual(harness.server.workspace?.analysesComputed, 1)
        for line in [5, 10_000, 19_999] {
            XCTAssertNotNil(harness.result("textDocument/hover", ServerHarness.at("big.rules", line, 9))?["contents"])
        }
        XCTAssertEqual(harness.result("textDocument/definition", ServerHarness.at("big.rules", 3, 9))?.arrayValue?.count, 1)
        XCTAssertEqual(harness.server.workspace?.analysesComputed, 1, "requests reuse the analysis of the last change")
        harness.change("big.rules", text + "segment extra = level > 1\n")
        XCTAssertEqual(harness.server.workspace?.analysesComputed, 2)
    }
}
