import TargetingBase
@testable import TargetingLanguageServer

/// Files held in memory, standing in for the disk under the workspace root.
struct FeatureTestFiles: WorkspaceFiles {
    /// The text of each file, by path.
    var texts: [String: String]

    func list(root: String) -> [String] {
        texts.keys.filter { $0.hasPrefix(root + "/") }.sorted()
    }

    func read(_ path: String) -> [UInt8]? { texts[path].map { Array($0.utf8) } }
}

/// A language server initialized on `file:///w` over in-memory files, driven a message at a time.
struct FeatureTestServer {
    /// The server under test.
    var server: LanguageServer
    private var nextID = 1

    /// A server whose workspace `/w` holds `files` (paths under `/w`).
    init(files: [String: String] = [:]) {
        server = LanguageServer(files: FeatureTestFiles(texts: files), clock: { 1_790_000_000_000 })
        _ = request("initialize", .object(["processId": .null, "rootUri": .string("file:///w"), "capabilities": .object([])]))
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "method": .string("initialized"), "params": .object([])]))
    }

    /// Opens a document with `text`.
    mutating func open(_ path: String, _ text: String) {
        let document: JSONValue = .object(["uri": .string("file://" + path), "languageId": .string("targeting"), "version": .int(1), "text": .string(text)])
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/didOpen"), "params": .object(["textDocument": document])]))
    }

    /// Sends a request; returns the whole response message.
    mutating func request(_ method: String, _ params: JSONValue) -> JSONValue {
        let id = nextID
        nextID += 1
        let replies = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(id), "method": .string(method), "params": params]))
        return replies.first { $0["id"]?.intValue == id } ?? .null
    }

    /// Sends a request about the document at `path`; returns the response's `result`.
    mutating func result(_ method: String, path: String) -> JSONValue? {
        request(method, .object(["textDocument": .object(["uri": .string("file://" + path)])]))["result"]
    }
}

extension JSONValue {
    /// A range as `L:C-L:C` (0-based, UTF-16), for compact assertions.
    var rangeText: String {
        func position(_ value: JSONValue?) -> String {
            "\(value?["line"]?.intValue ?? -1):\(value?["character"]?.intValue ?? -1)"
        }
        return position(self["start"]) + "-" + position(self["end"])
    }
}
