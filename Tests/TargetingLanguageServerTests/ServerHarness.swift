import TargetingBase
@testable import TargetingLanguageServer

/// Files of a workspace held in memory.
struct MemoryFiles: WorkspaceFiles {
    var files: [String: String]

    func list(root: String) -> [String] {
        files.keys.filter { $0.hasPrefix(root + "/") && ($0.hasSuffix(".rules") || $0.hasSuffix(".tests")) }.sorted()
    }

    func read(_ path: String) -> [UInt8]? { files[path].map { Array($0.utf8) } }
}

/// A server in process over a workspace `/w`, with helpers to send messages.
struct ServerHarness {
    var server: LanguageServer
    private var nextID = 1

    /// 2026-11-29T12:00:00Z.
    static let now: Int64 = 1_795_953_600_000

    /// A server over `files`, initialized with `initializationOptions` and client `capabilities`.
    init(_ files: [String: String] = [:], initializationOptions: JSONValue? = nil, capabilities: JSONValue = .object([])) {
        server = LanguageServer(files: MemoryFiles(files: files), clock: { ServerHarness.now })
        var params: [JSONMember] = [JSONMember(key: "rootUri", value: .string("file:///w")), JSONMember(key: "capabilities", value: capabilities)]
        if let initializationOptions { params.append(JSONMember(key: "initializationOptions", value: initializationOptions)) }
        _ = request("initialize", .object(params))
        _ = notify("initialized", .object([]))
    }

    static func uri(_ name: String) -> String { "file:///w/" + name }

    /// Sends a request; returns its response (and the other messages sent).
    mutating func request(_ method: String, _ params: JSONValue) -> (response: JSONValue?, others: [JSONValue]) {
        let id = nextID
        nextID += 1
        let out = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(id), "method": .string(method), "params": params]))
        let response = out.first { $0["id"]?.intValue == id }
        return (response, out.filter { $0["id"]?.intValue != id })
    }

    /// The result of a request.
    mutating func result(_ method: String, _ params: JSONValue) -> JSONValue? {
        request(method, params).response?["result"]
    }

    /// Sends a notification; returns the messages sent.
    mutating func notify(_ method: String, _ params: JSONValue) -> [JSONValue] {
        server.handle(.object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params]))
    }

    /// Opens a document; returns the diagnostics published, by URI.
    @discardableResult
    mutating func open(_ name: String, _ text: String, version: Int = 1) -> [String: [JSONValue]] {
        ServerHarness.diagnostics(notify("textDocument/didOpen", .object(["textDocument": .object([
            "uri": .string(ServerHarness.uri(name)), "languageId": .string("targeting"), "version": .int(version), "text": .string(text),
        ])])))
    }

    /// Replaces a document's text; returns the diagnostics published, by URI.
    @discardableResult
    mutating func change(_ name: String, _ text: String, version: Int = 2) -> [String: [JSONValue]] {
        ServerHarness.diagnostics(notify("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(ServerHarness.uri(name)), "version": .int(version)]),
            "contentChanges": .array([.object(["text": .string(text)])]),
        ])))
    }

    /// The `publishDiagnostics` notifications among `messages`, by URI.
    static func diagnostics(_ messages: [JSONValue]) -> [String: [JSONValue]] {
        var out: [String: [JSONValue]] = [:]
        for message in messages where message["method"]?.stringValue == "textDocument/publishDiagnostics" {
            out[message["params", "uri"]?.stringValue ?? ""] = message["params", "diagnostics"]?.arrayValue ?? []
        }
        return out
    }

    /// Parameters naming a document and a position.
    static func at(_ name: String, _ line: Int, _ character: Int, _ extra: KeyValuePairs<String, JSONValue> = [:]) -> JSONValue {
        var members = [JSONMember(key: "textDocument", value: .object(["uri": .string(uri(name))])),
                       JSONMember(key: "position", value: LSPPosition(line: line, character: character).json)]
        members += extra.map { JSONMember(key: $0.key, value: $0.value) }
        return .object(members)
    }

    /// `{"start": [l, c], "end": [l, c]}` of a range, for short assertions.
    static func span(_ range: JSONValue?) -> [Int] {
        [range?["start", "line"], range?["start", "character"], range?["end", "line"], range?["end", "character"]].map { $0?.intValue ?? -1 }
    }
}
