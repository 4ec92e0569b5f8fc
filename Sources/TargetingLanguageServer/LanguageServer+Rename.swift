import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// `textDocument/prepareRename` and `textDocument/rename` for segments, audiences, placements,
/// experiments, variants, the holdout and custom attributes: a workspace edit of every
/// occurrence in the rule set, rules and tests files alike.
///
/// A new name must be a name the language accepts there (not a keyword; a custom attribute key
/// within Adapty's limits, written in backticks when it is not a bare name) and not taken by another of the
/// same namespace: segments, audiences, placements, experiments and the holdout share one; a
/// variant's is its experiment's variants. The edit is applied to a copy of the workspace first,
/// so a rename that would add an error is refused.
///
/// A variant is renamed in its experiment and in every arm for it of the rows that use that
/// experiment (never a variant of the same name of another experiment).
///
/// A custom attribute receives the answers of every element whose id is its key, on any
/// screen no screen-qualified `input` claims, unless an unqualified `input OLD -> …` sends
/// them elsewhere. Renaming it adds `input OLD -> NEW` after its declaration
/// (or after the first declaration that uses it), so those answers still reach it; its
/// `input`s keep feeding it, only their target renamed. No line is added when an unqualified
/// `input OLD -> …` already decides where element `OLD` goes. Every attribute rename warns that stored profiles keep the old key: as a
/// change annotation the editor asks to confirm when it supports them, else in a
/// `window/showMessage` warning.
extension LanguageServer {
    /// A rename worked out: the edits by file and, for an attribute, the warning to show.
    struct RenameEdit: Sendable {
        /// The edits of each file, by path, in source order.
        var edits: [(path: String, edits: [JSONValue])]
        /// What the user should know before applying it.
        var warning: String?
    }

    func prepareRename(_ request: DocumentRequest) -> JSONValue {
        guard let occurrence = renamable(request) else { return .null }
        return .object(["range": request.lines.json(occurrence.range), "placeholder": .string(occurrence.writtenName)])
    }

    func rename(_ request: DocumentRequest) throws(RequestError) -> RenameEdit {
        guard let occurrence = renamable(request) else {
            throw RequestError(code: .requestFailed, message: "only segments, audiences, placements, experiments, variants, the holdout and custom attributes can be renamed")
        }
        guard let newName = request.params["newName"]?.stringValue, !newName.isEmpty else {
            throw RequestError(code: .invalidParams, message: "rename needs a `newName`")
        }
        guard newName != occurrence.writtenName else { return RenameEdit(edits: [], warning: nil) }
        try checkName(newName, for: occurrence, request.analysis.symbols)
        let occurrences = request.analysis.symbols.occurrences(of: occurrence.kind, named: occurrence.name)
        var byFile: [String: [(range: Range<Int>, text: String)]] = [:]
        for found in occurrences {
            byFile[found.range.file, default: []].append((found.range.start.offset..<found.range.end.offset, LanguageServer.spelled(newName, found)))
        }
        var warning: String?
        if occurrence.kind == .attribute {
            let input = LanguageServer.defaultInput(of: occurrence.name, renamedTo: newName, request.analysis, occurrences)
            if let input { byFile[input.path, default: []].append((input.offset..<input.offset, input.text)) }
            warning = LanguageServer.renameWarning(occurrence.name, newName, input: input?.text)
        }

        var edits: [(path: String, edits: [JSONValue])] = []
        var workspace = self.workspace
        for (path, found) in byFile.sorted(by: { $0.key < $1.key }) {
            guard let source = request.analysis.sources[path] else { continue }
            let lines = LineIndex(source)
            var bytes = source.bytes
            var fileEdits: [JSONValue] = []
            for item in found.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                bytes.replaceSubrange(item.range, with: Array(item.text.utf8))
                fileEdits.append(.object(["range": lines.json(from: item.range.lowerBound, to: item.range.upperBound), "newText": .string(item.text)]))
            }
            workspace?.setText(bytes, path: path)
            edits.append((path, fileEdits.reversed()))
        }
        let before = request.analysis.diagnostics.values.joined().filter(\.isError).count
        if var workspace {
            let after = workspace.analysis(of: request.path).diagnostics.values.joined().filter(\.isError)
            if after.count > before, let first = after.first {
                throw RequestError(code: .requestFailed, message: "renaming to `\(newName)` would break the rules: \(first.message)")
            }
        }
        return RenameEdit(edits: edits, warning: warning)
    }

    /// The `input OLD -> NEW` line that keeps the answers of element `OLD` flowing to the
    /// attribute `old` once it is renamed `new`, and where it goes: nil when an unqualified
    /// `input OLD -> …` already maps that element (its target is renamed with the rest, or it
    /// sends the element elsewhere), or when no rules file uses the attribute. A
    /// screen-qualified input does not count: answers of element `OLD` from other screens
    /// still go to the attribute named `OLD`.
    static func defaultInput(of old: String, renamedTo new: String, _ analysis: Analysis,
                             _ occurrences: [SymbolIndex.Occurrence]) -> (path: String, offset: Int, text: String)? {
        let explicit = analysis.ruleFiles.flatMap(\.declarations).contains { declaration in
            guard case .input(let input) = declaration else { return false }
            return input.screen == nil && input.element.text == old
        }
        guard !explicit else { return nil }
        // After the declaration, else after the first declaration that uses it.
        let inRules = occurrences.filter { !Workspace.isTests($0.range.file) }
        guard let anchor = inRules.first(where: \.isDeclaration) ?? inRules.first,
              let file = analysis.ruleFile(anchor.range.file),
              let holder = file.declarations.first(where: { $0.range.start.offset <= anchor.range.start.offset && anchor.range.end.offset <= $0.range.end.offset })
        else { return nil }
        let bytes = file.source.bytes
        // The new key spelled as at the declaration (or first use) it follows.
        let text = "input \(CompletionNames.spelled(old)) -> \(LanguageServer.spelled(new, anchor))"
        guard let newline = bytes[holder.range.end.offset...].firstIndex(of: 10) else {
            return (file.source.path, bytes.count, "\n" + text)
        }
        let lineBreak = newline > 0 && bytes[newline - 1] == 13 ? "\r\n" : "\n"
        return (file.source.path, newline + 1, text + lineBreak)
    }

    /// What a rename of the attribute `old` to `new` warns about; `input` is the line added.
    static func renameWarning(_ old: String, _ new: String, input: String?) -> String {
        let added = input.map { line in
            "`\(line.filter { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })` is added, so answers to the element `\(old)` still reach it; "
        } ?? ""
        return "renaming the attribute `\(old)` to `\(new)`: \(added)profiles already stored keep the key `\(old)` until their events are ingested again"
    }

    /// The occurrence under the cursor, when it can be renamed.
    private func renamable(_ request: DocumentRequest) -> SymbolIndex.Occurrence? {
        guard let offset = request.offset,
              let occurrence = request.analysis.symbols.occurrence(in: request.path, at: offset) else { return nil }
        switch occurrence.kind {
        case .segment, .audience, .placement, .experiment, .variant, .holdout, .layer: return occurrence
        case .attribute: return AttributeTarget.isBuiltinSpelling(occurrence.name) ? nil : occurrence
        case .split, .history: return nil
        }
    }

    /// Throws when `name` cannot replace `occurrence`'s name.
    private func checkName(_ name: String, for occurrence: SymbolIndex.Occurrence, _ symbols: SymbolIndex) throws(RequestError) {
        if occurrence.kind == .attribute {
            guard AdaptyLimits.isValidKey(name), !AttributeTarget.isBuiltinSpelling(name) else {
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
        if occurrence.kind == .variant, let experiment = occurrence.experiment {
            guard symbols.declarations(of: .variant, named: experiment + "." + name).isEmpty else {
                throw RequestError(code: .requestFailed, message: "experiment `\(experiment)` already has a variant `\(name)`")
            }
            return
        }
        // Segments, audiences, placements, experiments and the holdout share one namespace.
        let kinds: [SymbolIndex.Kind] = [.segment, .audience, .placement, .experiment, .holdout]
        for kind in kinds where !symbols.declarations(of: kind, named: name).isEmpty {
            throw RequestError(code: .requestFailed, message: "\(kind == .audience || kind == .experiment ? "an" : "a") \(kind.rawValue) `\(name)` already exists")
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
