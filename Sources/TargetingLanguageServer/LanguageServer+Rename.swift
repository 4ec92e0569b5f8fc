import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// `textDocument/prepareRename` and `textDocument/rename` for segments, audiences, placements
/// and custom attributes: a workspace edit of every occurrence, rules and tests files alike.
///
/// A new name must be a name the language accepts there (not a keyword; a custom attribute key
/// of SPEC §2, written in backticks when it is not a bare name) and not taken by another of the
/// same namespace; and the edit is applied to a copy of the workspace first, so a rename that
/// would add an error is refused.
extension LanguageServer {
    func prepareRename(_ request: DocumentRequest) -> JSONValue {
        guard let occurrence = renamable(request) else { return .null }
        return .object(["range": request.lines.json(occurrence.range), "placeholder": .string(occurrence.name)])
    }

    func rename(_ request: DocumentRequest) throws(RequestError) -> JSONValue {
        guard let occurrence = renamable(request) else {
            throw RequestError(code: .requestFailed, message: "only segments, audiences, placements and custom attributes can be renamed")
        }
        guard let newName = request.params["newName"]?.stringValue, !newName.isEmpty else {
            throw RequestError(code: .invalidParams, message: "rename needs a `newName`")
        }
        guard newName != occurrence.name else { return .object(["changes": .object([])]) }
        try checkName(newName, for: occurrence, request.analysis.symbols)
        let occurrences = request.analysis.symbols.occurrences(of: occurrence.kind, named: occurrence.name)
        var byFile: [String: [SymbolIndex.Occurrence]] = [:]
        for found in occurrences { byFile[found.range.file, default: []].append(found) }

        var changes: [JSONMember] = []
        var workspace = self.workspace
        for (path, found) in byFile.sorted(by: { $0.key < $1.key }) {
            guard let source = request.analysis.sources[path] else { continue }
            let lines = LineIndex(source)
            var bytes = source.bytes
            var edits: [JSONValue] = []
            for item in found.sorted(by: { $0.range.start.offset > $1.range.start.offset }) {
                let text = LanguageServer.spelled(newName, item)
                bytes.replaceSubrange(item.range.start.offset..<item.range.end.offset, with: Array(text.utf8))
                edits.append(.object(["range": lines.json(item.range), "newText": .string(text)]))
            }
            workspace?.setText(bytes, path: path)
            changes.append(JSONMember(key: request.uri(of: path), value: .array(edits.reversed())))
        }
        let before = request.analysis.diagnostics.values.joined().filter(\.isError).count
        if var workspace {
            let after = workspace.analysis().diagnostics.values.joined().filter(\.isError)
            if after.count > before, let first = after.first {
                throw RequestError(code: .requestFailed, message: "renaming to `\(newName)` would break the rules: \(first.message)")
            }
        }
        return .object(["changes": .object(changes)])
    }

    /// The occurrence under the cursor, when it can be renamed.
    private func renamable(_ request: DocumentRequest) -> SymbolIndex.Occurrence? {
        guard let offset = request.offset,
              let occurrence = request.analysis.symbols.occurrence(in: request.path, at: offset) else { return nil }
        switch occurrence.kind {
        case .segment, .audience, .placement: return occurrence
        case .attribute: return occurrence.name.hasPrefix("profile.") ? nil : occurrence
        case .split: return nil
        }
    }

    /// Throws when `name` cannot replace `occurrence`'s name.
    private func checkName(_ name: String, for occurrence: SymbolIndex.Occurrence, _ symbols: SymbolIndex) throws(RequestError) {
        if occurrence.kind == .attribute {
            guard AdaptyLimits.isValidKey(name), !name.hasPrefix("profile.") else {
                throw RequestError(code: .requestFailed, message: "`\(name)` is not a custom attribute key: 1–30 characters from A–Z a–z 0–9 . _ -")
            }
            guard symbols.occurrences(of: .attribute, named: name).isEmpty else {
                throw RequestError(code: .requestFailed, message: "an attribute `\(name)` already exists")
            }
            return
        }
        guard LanguageServer.isBareName(name) else {
            throw RequestError(code: .requestFailed, message: "`\(name)` is not a name: use letters, digits and `_`, starting with a letter or `_`")
        }
        guard Keyword.byName[name] == nil else {
            throw RequestError(code: .requestFailed, message: "`\(name)` is a keyword")
        }
        // Segments and audiences share one namespace in expressions.
        let kinds: [SymbolIndex.Kind] = occurrence.kind == .placement ? [.placement] : [.segment, .audience]
        for kind in kinds where !symbols.declarations(of: kind, named: name).isEmpty {
            throw RequestError(code: .requestFailed, message: "a \(kind.rawValue) `\(name)` already exists")
        }
    }

    /// Whether `name` lexes as one bare name (not a keyword check).
    static func isBareName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, Lexer.isNameStart(first) else { return false }
        return bytes.dropFirst().allSatisfy { Lexer.isNameContinue($0) && $0 != UInt8(ascii: ".") }
    }

    /// The text that writes `name` where `occurrence` is: backticks for an attribute spelled
    /// with them, else as completion writes a key (bare when it can be).
    static func spelled(_ name: String, _ occurrence: SymbolIndex.Occurrence) -> String {
        guard occurrence.kind == .attribute else { return name }
        return occurrence.spelling == .backticks ? "`\(name)`" : CompletionNames.spelled(name)
    }
}
