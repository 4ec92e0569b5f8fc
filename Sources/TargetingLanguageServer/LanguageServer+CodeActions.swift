import TargetingBase
import TargetingProfiles
import TargetingSemantics
import TargetingSyntax

extension LanguageServer {
    /// `textDocument/codeAction`: quick fixes for the diagnostics in the range asked about.
    ///
    /// A diagnostic that carries a fix (a literal of the wrong type written in the right one)
    /// gets that edit, titled with the diagnostic's help and preferred when it is certain and
    /// the diagnostic an error. A diagnostic whose help is "did you mean `x`?" gets a fix that
    /// writes `x` in place of the name (spelled as the name was: quoted, backticked or bare), preferred when the
    /// diagnostic is an error. An undeclared custom
    /// attribute in the range gets "declare attribute `k`", which inserts `attribute k: TYPE`
    /// after the file's attribute declarations (or at its top, after a leading comment), with
    /// the type the checker inferred or, when the rules have errors, the one the comparisons
    /// suggest.
    func codeActions(_ request: DocumentRequest) -> JSONValue {
        guard let start = LSPPosition(json: request.params["range", "start"]), let end = LSPPosition(json: request.params["range", "end"]) else {
            return .array([])
        }
        if let only = request.params["context", "only"]?.arrayValue?.compactMap(\.stringValue),
           !only.contains(where: { "quickfix".hasPrefix($0) }) {
            return .array([])
        }
        let from = request.lines.offset(of: start), to = max(from, request.lines.offset(of: end))
        let tokens = Lexer.lex(request.source).tokens.filter { $0.kind != .endOfFile }
        let diagnostics = (request.analysis.diagnostics[request.path] ?? []).filter { $0.place == .span }
        var actions: [JSONValue] = []
        for diagnostic in diagnostics {
            guard let fix = diagnostic.fix, fix.range.file == diagnostic.range.file,
                  fix.range.start.offset <= to, from <= fix.range.end.offset,
                  fix.range.start.offset <= fix.range.end.offset, fix.range.end.offset <= request.source.bytes.count else { continue }
            let original = String(decoding: request.source.bytes[fix.range.start.offset..<fix.range.end.offset], as: UTF8.self)
            actions.append(action(request, title: diagnostic.help ?? "replace `\(original)` with `\(fix.replacement)`", diagnostics: [diagnostic],
                                  edit: (fix.range.start.offset..<fix.range.end.offset, fix.replacement), preferred: diagnostic.isError && fix.isCertain))
        }
        for diagnostic in diagnostics {
            guard let range = CodeActionFixes.span(of: diagnostic, tokens: tokens), range.lowerBound <= to, from <= range.upperBound,
                  let suggestion = CodeActionFixes.suggestion(in: diagnostic.help) else { continue }
            let original = String(decoding: request.source.bytes[range], as: UTF8.self)
            let replacement = CodeActionFixes.spelled(suggestion, like: original)
            guard replacement != original else { continue }
            actions.append(action(request, title: "replace `\(original)` with `\(replacement)`", diagnostics: [diagnostic],
                                  edit: (range, replacement), preferred: diagnostic.isError))
        }
        guard !Workspace.isTests(request.path), let file = request.analysis.ruleFile(request.path) else { return .array(actions) }
        let fixes = CodeActionFixes(request.analysis)
        var keys: [String] = []
        for diagnostic in diagnostics where diagnostic.kind == .undeclaredAttribute {
            guard let range = CodeActionFixes.span(of: diagnostic, tokens: tokens), range.lowerBound <= to, from <= range.upperBound,
                  let key = fixes.undeclaredKey(at: range.lowerBound, in: file) else { continue }
            keys.append(key)
        }
        for reference in CodeActionFixes.references(in: file) where reference.range.start.offset <= to && from <= reference.range.end.offset {
            guard case .custom(let key) = reference.target, fixes.isUndeclared(key) else { continue }
            keys.append(key)
        }
        var offered: Set<String> = []
        for key in keys where offered.insert(key).inserted {
            let related = diagnostics.filter { diagnostic in
                diagnostic.kind == .undeclaredAttribute
                    && CodeActionFixes.span(of: diagnostic, tokens: tokens).flatMap { fixes.undeclaredKey(at: $0.lowerBound, in: file) } == key
            }
            let (offset, text) = fixes.declaration(of: key, in: file)
            actions.append(action(request, title: "declare attribute `\(key)`", diagnostics: related, edit: (offset..<offset, text), preferred: false))
        }
        return .array(actions)
    }

    /// A quick fix that makes one edit in the request's document.
    private func action(_ request: DocumentRequest, title: String, diagnostics: [Diagnostic], edit: (range: Range<Int>, text: String), preferred: Bool) -> JSONValue {
        let textEdit: JSONValue = .object(["range": request.lines.json(from: edit.range.lowerBound, to: edit.range.upperBound), "newText": .string(edit.text)])
        var members: [JSONMember] = [
            JSONMember(key: "title", value: .string(title)),
            JSONMember(key: "kind", value: .string("quickfix")),
        ]
        if !diagnostics.isEmpty {
            members.append(JSONMember(key: "diagnostics", value: .array(diagnostics.map { LanguageServer.diagnostic($0, lines: request.lines) })))
        }
        if preferred { members.append(JSONMember(key: "isPreferred", value: .bool(true))) }
        members.append(JSONMember(key: "edit", value: .object(["changes": .object([JSONMember(key: request.uri, value: .array([textEdit]))])])))
        return .object(members)
    }
}

/// What the quick fixes need to know about the rule set, and how they spell their edits.
struct CodeActionFixes {
    /// The custom attributes declared (or whose declaration failed to parse).
    var declared: Set<String> = []
    /// Every comparison of the rule set, for the type an undeclared attribute is used as.
    var comparisons: [Comparison] = []
    /// The types the checker gave attributes, when the rules have no errors.
    var types: [SubjectTarget: AttributeType] = [:]

    /// The facts of `analysis`.
    init(_ analysis: Analysis) {
        for file in analysis.ruleFiles {
            for declaration in file.declarations {
                switch declaration {
                case .attribute(let d):
                    if case .custom(let key) = d.name.target { declared.insert(key) }
                case .segment(let d), .audience(let d):
                    comparisons += d.expression.comparisons
                case .input, .placement, .experiment, .holdout, .layer:
                    break
                }
            }
            for unparsed in file.unparsed where unparsed.kind == .attribute { declared.insert(unparsed.name) }
        }
        types = analysis.rules.checked?.attributeTypes ?? [:]
    }

    /// Whether `key` is a valid custom attribute key that no `attribute` declares.
    func isUndeclared(_ key: String) -> Bool { !declared.contains(key) && AdaptyLimits.isValidKey(key) }

    /// The undeclared custom attribute referenced at byte `offset` of `file`.
    func undeclaredKey(at offset: Int, in file: RuleFile) -> String? {
        for reference in CodeActionFixes.references(in: file) where reference.range.start.offset == offset {
            if case .custom(let key) = reference.target, isUndeclared(key) { return key }
        }
        return nil
    }

    /// The attribute references of a file: comparison subjects and `input` targets.
    static func references(in file: RuleFile) -> [AttributeReference] {
        var found: [AttributeReference] = []
        for declaration in file.declarations {
            switch declaration {
            case .input(let d):
                found.append(d.target)
            case .segment(let d), .audience(let d):
                for comparison in d.expression.comparisons {
                    if case .attribute(let reference) = comparison.subject { found.append(reference) }
                }
            case .attribute, .placement, .experiment, .holdout, .layer:
                break
            }
        }
        return found
    }

    /// The type to declare `key` with: the checker's, else the one its comparisons suggest,
    /// else `string`.
    func type(of key: String) -> ValueType {
        types[.custom(key)]?.type ?? Comparison.inferredType(of: key, in: comparisons)?.type ?? .string
    }

    /// Where to insert the declaration of `key` in `file`, and the text: after the file's
    /// last `attribute` declaration, else after a comment that opens the file and is followed
    /// by a blank line, else at the top.
    func declaration(of key: String, in file: RuleFile) -> (offset: Int, text: String) {
        let line = "attribute \(CompletionNames.spelled(key)): \(type(of: key).rawValue)"
        let attributes = file.declarations.compactMap { if case .attribute(let d) = $0 { d } else { nil } }
        if let last = attributes.max(by: { $0.range.end.offset < $1.range.end.offset }) {
            return (last.range.end.offset, "\n" + line)
        }
        let source = file.source
        var header = 0
        for comment in file.comments.sorted(by: { $0.range.start.offset < $1.range.start.offset }) where comment.range.start.line == header + 1 {
            header += 1
        }
        if header > 0, header < source.lineStarts.count {
            let start = source.lineStarts[header]
            let end = header + 1 < source.lineStarts.count ? source.lineStarts[header + 1] : source.bytes.count
            if source.bytes[start..<end].allSatisfy({ [9, 10, 13, 32].contains($0) }) { return (start, "\n" + line + "\n") }
        } else if header > 0 {
            return (source.bytes.count, (source.bytes.last.map { $0 == 10 || $0 == 13 } ?? true ? "\n" : "\n\n") + line + "\n")
        }
        return (0, line + (source.bytes.isEmpty ? "\n" : "\n\n"))
    }

    /// The bytes a diagnostic points at: its span, or for an empty one the token starting there.
    static func span(of diagnostic: Diagnostic, tokens: [Token]) -> Range<Int>? {
        let start = diagnostic.range.start.offset, end = diagnostic.range.end.offset
        if end > start { return start..<end }
        guard let token = tokens.first(where: { $0.range.start.offset == start }), token.range.end.offset > start else { return nil }
        return start..<token.range.end.offset
    }

    /// The name a help line "did you mean `x`?" suggests.
    static func suggestion(in help: String?) -> String? {
        guard let help, help.hasPrefix("did you mean `"), help.hasSuffix("`?") else { return nil }
        let name = help.dropFirst("did you mean `".count).dropLast(2)
        return name.isEmpty || name.contains("`") ? nil : String(name)
    }

    /// A suggested name written the way the name it replaces was: a string literal stays
    /// quoted, a built-in field is bare, any other name is bare when it can be.
    static func spelled(_ suggestion: String, like original: String) -> String {
        if original.hasPrefix("\"") { return "\"" + CompletionNames.escaped(suggestion) + "\"" }
        if case .builtin(let field)? = AttributeTarget(written: suggestion), BuiltinField.all[field] != nil { return suggestion }
        return CompletionNames.spelled(suggestion)
    }
}
