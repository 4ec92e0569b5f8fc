import Foundation
import TargetingBase

/// `targeting lsp`: the Language Server Protocol (3.17) for `.rules` and `.tests` files.
///
/// The server is a value that takes one JSON-RPC message at a time and returns the messages
/// to send back (responses and notifications such as `textDocument/publishDiagnostics`), so
/// it is tested in-process; the CLI frames them over stdio. A message it cannot read gets a
/// JSON-RPC error, an unknown request `MethodNotFound`, and a request about a document it does
/// not know an empty result: never a crash.
package struct LanguageServer: Sendable {
    /// JSON-RPC error codes.
    package enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
        case requestFailed = -32803
    }

    /// A request that failed, answered with a JSON-RPC error.
    package struct RequestError: Error, Sendable {
        var code: ErrorCode
        var message: String
    }

    /// The workspace, once `initialize` named it.
    package private(set) var workspace: Workspace?
    let files: any WorkspaceFiles
    /// The clock, in Unix ms (hover on `now` shows the instant it means).
    let clock: @Sendable () -> Int64
    private var initialized = false
    private var shuttingDown = false
    /// The exit status, once `exit` was received: 0 after `shutdown`, else 1.
    package private(set) var exitStatus: Int32?
    /// The URIs that have diagnostics published, so that fixed files are cleared.
    private var published: Set<String> = []
    /// The URI each path was opened with (editors differ in how they escape them).
    private var uris: [String: String] = [:]
    /// Open documents' versions.
    private var versions: [String: Int] = [:]
    /// Whether the client takes workspace edits as `documentChanges` with change annotations.
    private var annotatesEdits = false
    /// Whether the client takes completion items in snippet syntax (`$1` placeholders).
    private(set) var completesSnippets = false
    /// Notifications to send after the response to the current request.
    private var afterResponse: [JSONValue] = []

    /// A server reading files through `files`, with `clock` for `now`.
    package init(files: any WorkspaceFiles = DiskFiles(), clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }) {
        self.files = files
        self.clock = clock
    }

    /// Handles one message body; returns the messages to send, in order.
    package mutating func handle(_ body: [UInt8]) -> [JSONValue] {
        guard case .success(let message) = JSONParser.parse(body, maxDepth: 512) else {
            return [LanguageServer.error(id: .null, .parseError, "the message is not valid JSON")]
        }
        return handle(message)
    }

    /// Handles one parsed message; returns the messages to send, in order.
    package mutating func handle(_ message: JSONValue) -> [JSONValue] {
        guard case .object = message, let method = message["method"]?.stringValue else {
            if case .object = message, message["id"] != nil, message["method"] == nil { return [] }  // a response to us
            return [LanguageServer.error(id: message["id"] ?? .null, .invalidRequest, "a message needs a `method`")]
        }
        let params = message["params"] ?? .null
        guard let id = message["id"] else {
            return notification(method, params)
        }
        guard initialized || method == "initialize" else {
            return [LanguageServer.error(id: id, .serverNotInitialized, "the server is not initialized")]
        }
        guard !shuttingDown else {
            return [LanguageServer.error(id: id, .invalidRequest, "the server is shutting down")]
        }
        do {
            afterResponse = []
            let result = try request(method, params)
            defer { afterResponse = [] }
            return [.object(["jsonrpc": .string("2.0"), "id": id, "result": result])] + afterResponse
        } catch {
            return [LanguageServer.error(id: id, error.code, error.message)]
        }
    }

    static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        .object(["jsonrpc": .string("2.0"), "id": id, "error": .object(["code": .int(code.rawValue), "message": .string(message)])])
    }

    private mutating func request(_ method: String, _ params: JSONValue) throws(RequestError) -> JSONValue {
        switch method {
        case "initialize": return initialize(params)
        case "shutdown":
            shuttingDown = true
            return .null
        case "textDocument/hover": return documentRequest(params).map(hover) ?? .null
        case "textDocument/definition": return documentRequest(params).map(definition) ?? .null
        case "textDocument/references": return documentRequest(params).map(references) ?? .array([])
        case "textDocument/prepareRename": return documentRequest(params).map(prepareRename) ?? .null
        case "textDocument/rename":
            guard let request = documentRequest(params) else { return .null }
            return workspaceEdit(try rename(request), request)
        case "textDocument/completion": return documentRequest(params).map(completion) ?? .array([])
        case "textDocument/formatting":
            guard let request = documentRequest(params) else { return .null }
            return try formatting(request)
        case "textDocument/codeAction": return documentRequest(params).map(codeActions) ?? .array([])
        case "textDocument/semanticTokens/full": return documentRequest(params).map(semanticTokens) ?? .object(["data": .array([])])
        case "textDocument/documentSymbol": return documentRequest(params).map(documentSymbols) ?? .array([])
        case "workspace/symbol": return workspaceSymbols(query: params["query"]?.stringValue ?? "")
        default:
            throw RequestError(code: .methodNotFound, message: "unknown method `\(method)`")
        }
    }

    private mutating func notification(_ method: String, _ params: JSONValue) -> [JSONValue] {
        switch method {
        case "exit":
            exitStatus = shuttingDown ? 0 : 1
            return []
        case "initialized":
            return []
        default:
            break
        }
        guard initialized, !shuttingDown else { return [] }
        switch method {
        case "textDocument/didOpen":
            guard let uri = params["textDocument", "uri"]?.stringValue, let path = DocumentURI.path(of: uri),
                  let text = params["textDocument", "text"]?.stringValue else { return [] }
            uris[path] = uri
            versions[path] = params["textDocument", "version"]?.intValue
            workspace?.setText(Array(text.utf8), path: path)
        case "textDocument/didChange":
            guard let uri = params["textDocument", "uri"]?.stringValue, let path = DocumentURI.path(of: uri),
                  let changes = params["contentChanges"]?.arrayValue, var bytes = workspace?.open[path] else { return [] }
            for change in changes {
                guard let text = change["text"]?.stringValue else { continue }
                if let range = change["range"], let start = LSPPosition(json: range["start"]), let end = LSPPosition(json: range["end"]) {
                    let lines = LineIndex(SourceFile(path: path, bytes: bytes))
                    let from = lines.offset(of: start), to = max(from, lines.offset(of: end))
                    bytes.replaceSubrange(from..<to, with: Array(text.utf8))
                } else {
                    bytes = Array(text.utf8)
                }
            }
            versions[path] = params["textDocument", "version"]?.intValue
            workspace?.setText(bytes, path: path)
        case "textDocument/didClose":
            guard let uri = params["textDocument", "uri"]?.stringValue, let path = DocumentURI.path(of: uri) else { return [] }
            versions[path] = nil
            workspace?.close(path: path)
        case "textDocument/didSave", "workspace/didChangeWatchedFiles":
            workspace?.rescan()
        default:
            return []
        }
        return publishDiagnostics()
    }

    private mutating func initialize(_ params: JSONValue) -> JSONValue {
        let rootURI = params["workspaceFolders"]?.arrayValue?.first?["uri"]?.stringValue ?? params["rootUri"]?.stringValue
        let root = rootURI.flatMap(DocumentURI.path(of:)) ?? params["rootPath"]?.stringValue
        let named = params["initializationOptions", "rules"].map { value in
            value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
        } ?? []
        workspace = Workspace(root: root, named: named, files: files)
        let editing = params["capabilities", "workspace", "workspaceEdit"]
        annotatesEdits = editing?["documentChanges"]?.boolValue == true && editing?["changeAnnotationSupport"] != nil
        completesSnippets = params["capabilities", "textDocument", "completion", "completionItem", "snippetSupport"]?.boolValue == true
        initialized = true
        return .object([
            "capabilities": .object([
                "positionEncoding": .string("utf-16"),
                "textDocumentSync": .object(["openClose": .bool(true), "change": .int(2), "save": .object(["includeText": .bool(false)])]),
                "hoverProvider": .bool(true),
                "definitionProvider": .bool(true),
                "referencesProvider": .bool(true),
                "renameProvider": .object(["prepareProvider": .bool(true)]),
                "completionProvider": .object(["triggerCharacters": .array([".", "\"", " ", "["].map(JSONValue.string))]),
                "documentFormattingProvider": .bool(true),
                "codeActionProvider": .object(["codeActionKinds": .array([.string("quickfix")])]),
                "semanticTokensProvider": .object([
                    "legend": .object([
                        "tokenTypes": .array(LanguageServer.tokenTypes.map(JSONValue.string)),
                        "tokenModifiers": .array(LanguageServer.tokenModifiers.map(JSONValue.string)),
                    ]),
                    "full": .bool(true),
                ]),
                "documentSymbolProvider": .bool(true),
                "workspaceSymbolProvider": .bool(true),
            ]),
            "serverInfo": .object(["name": .string("targeting"), "version": .string(PackageVersion.text)]),
        ])
    }

    /// A rename as a `WorkspaceEdit`: `changes` by URI, with its warning sent after the
    /// response as `window/showMessage`; or, when the client supports change annotations,
    /// `documentChanges` whose edits carry the warning as an annotation to confirm.
    private mutating func workspaceEdit(_ rename: RenameEdit, _ request: DocumentRequest) -> JSONValue {
        guard annotatesEdits, let warning = rename.warning else {
            if let warning = rename.warning {
                afterResponse.append(.object(["jsonrpc": .string("2.0"), "method": .string("window/showMessage"),
                                              "params": .object(["type": .int(2), "message": .string(warning)])]))
            }
            return .object(["changes": .object(rename.edits.map { JSONMember(key: request.uri(of: $0.path), value: .array($0.edits)) })])
        }
        let annotation = "stored-profiles"
        let documents: [JSONValue] = rename.edits.map { file in
            let annotated = file.edits.map { edit -> JSONValue in
                guard case .object(var members) = edit else { return edit }
                members.append(JSONMember(key: "annotationId", value: .string(annotation)))
                return .object(members)
            }
            return .object([
                "textDocument": .object(["uri": .string(request.uri(of: file.path)), "version": versions[file.path].map(JSONValue.int) ?? .null]),
                "edits": .array(annotated),
            ])
        }
        return .object([
            "documentChanges": .array(documents),
            "changeAnnotations": .object([annotation: .object([
                "label": .string("stored profiles keep the old key"), "needsConfirmation": .bool(true), "description": .string(warning),
            ])]),
        ])
    }

    /// The document a request is about, or nil when the server does not know it; its analysis
    /// is that of the rule set it belongs to.
    private mutating func documentRequest(_ params: JSONValue) -> DocumentRequest? {
        guard let uri = params["textDocument", "uri"]?.stringValue, let path = DocumentURI.path(of: uri),
              let analysis = analysis(of: path), let source = analysis.sources[path] else { return nil }
        let lines = LineIndex(source)
        let offset = LSPPosition(json: params["position"]).map(lines.offset(of:))
        return DocumentRequest(uri: uri, path: path, params: params, analysis: analysis, source: source, lines: lines, offset: offset, now: clock())
    }

    /// The current analysis of the rule set the file at `path` belongs to (nil before `initialize`).
    package mutating func analysis(of path: String) -> Analysis? {
        guard var workspace else { return nil }
        let analysis = workspace.analysis(of: path)
        self.workspace = workspace
        return analysis
    }

    /// The current analysis of every rule set of the workspace (empty before `initialize`).
    package mutating func analyses() -> [Analysis] {
        guard var workspace else { return [] }
        let analyses = workspace.analyses()
        self.workspace = workspace
        return analyses
    }

    /// `textDocument/publishDiagnostics` for every file that has diagnostics, every open
    /// document, and every file whose diagnostics were published before (now cleared); each
    /// file's diagnostics come from its own rule set.
    private mutating func publishDiagnostics() -> [JSONValue] {
        guard workspace != nil else { return [] }
        var diagnostics: [String: [Diagnostic]] = [:]
        var sources: [String: SourceFile] = [:]
        for analysis in analyses() {
            diagnostics.merge(analysis.diagnostics) { $0 + $1 }
            sources.merge(analysis.sources) { first, _ in first }
        }
        let paths = Set(diagnostics.keys).union(workspace.map { Array($0.open.keys) } ?? [])
        let previously = published
        published = []
        var out: [JSONValue] = []
        for path in paths.sorted() {
            guard let uri = uris[path] ?? (sources[path] != nil ? DocumentURI.uri(of: path) : nil) else { continue }
            let found = diagnostics[path] ?? []
            let lines = sources[path].map(LineIndex.init)
            var params: [JSONMember] = [JSONMember(key: "uri", value: .string(uri))]
            if let version = versions[path] { params.append(JSONMember(key: "version", value: .int(version))) }
            params.append(JSONMember(key: "diagnostics", value: .array(found.map { LanguageServer.diagnostic($0, lines: lines) })))
            out.append(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"), "params": .object(params)]))
            if !found.isEmpty || workspace?.open[path] != nil { published.insert(uri) }
        }
        let publishedNow = Set(out.compactMap { $0["params", "uri"]?.stringValue })
        for uri in previously.subtracting(publishedNow).sorted() {
            out.append(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"),
                                "params": .object(["uri": .string(uri), "diagnostics": .array([])])]))
        }
        return out
    }

    /// One diagnostic in LSP form: 0-based UTF-16 range (an empty span widened to its
    /// character), severity, code, and the `help:` line in the message.
    static func diagnostic(_ diagnostic: Diagnostic, lines: LineIndex?) -> JSONValue {
        let severity = switch diagnostic.severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
        var range: JSONValue = .object(["start": LSPPosition(line: 0, character: 0).json, "end": LSPPosition(line: 0, character: 0).json])
        if let lines, diagnostic.place == .span || diagnostic.place == .line {
            let start = diagnostic.range.start.offset
            var end = max(start, diagnostic.range.end.offset)
            if end == start, start < lines.bytes.count, lines.bytes[start] != 10, lines.bytes[start] != 13 {
                end = start + LineIndex.decode(lines.bytes, at: start).length
            }
            if diagnostic.place == .line {
                let line = min(max(diagnostic.range.start.line - 1, 0), lines.lineStarts.count - 1)
                range = lines.json(from: lines.lineStarts[line], to: lines.lineEnd(line))
            } else {
                range = lines.json(from: start, to: end)
            }
        }
        let message = diagnostic.message + (diagnostic.help.map { "\nhelp: \($0)" } ?? "")
        return .object([
            "range": range,
            "severity": .int(severity),
            "code": .string(diagnostic.code),
            "source": .string("targeting"),
            "message": .string(message),
        ])
    }
}
