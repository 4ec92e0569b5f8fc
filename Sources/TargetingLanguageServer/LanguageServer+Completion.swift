import TargetingBase
import TargetingFormatting
import TargetingProfiles
import TargetingSemantics
import TargetingSyntax

extension LanguageServer {
    /// `textDocument/completion`: the names, keywords, operators and values that fit at the
    /// cursor, by context (see `CompletionContext`). Every item carries a `textEdit` that
    /// replaces the word typed so far (or, inside a string literal, its content).
    func completion(_ request: DocumentRequest) -> JSONValue {
        guard let offset = request.offset else { return .array([]) }
        let names = CompletionNames(request.analysis, path: request.path)
        guard let context = CompletionContext(source: request.source, offset: offset, isTests: Workspace.isTests(request.path),
                                              isReference: { names.segments.contains($0) || names.audiences.contains($0) }) else {
            return .array([])
        }
        let word = String(decoding: request.source.bytes[context.replace], as: UTF8.self)
        var items: [CompletionCandidate] = []
        for expected in context.expected {
            // A word with a dot can only be an attribute (`profile.age`, `app.theme`).
            if word.contains("."), !context.inString, expected != .attributes(settable: false), expected != .attributes(settable: true),
               expected != .inputTargets, expected != .drawKeys { continue }
            items += names.candidates(expected, context: context, word: word, snippets: completesSnippets)
        }
        var seen: Set<String> = []
        let range = request.lines.json(from: context.replace.lowerBound, to: context.replace.upperBound)
        var out: [JSONValue] = []
        for item in items where seen.insert(item.label).inserted {
            var members: [JSONMember] = [
                JSONMember(key: "label", value: .string(item.label)),
                JSONMember(key: "kind", value: .int(item.kind.rawValue)),
            ]
            if let detail = item.detail { members.append(JSONMember(key: "detail", value: .string(detail))) }
            members.append(JSONMember(key: "sortText", value: .string(String(repeating: "0", count: max(0, 4 - String(out.count).count)) + String(out.count))))
            if item.newText != item.label { members.append(JSONMember(key: "filterText", value: .string(item.newText))) }
            members.append(JSONMember(key: "textEdit", value: .object(["range": range, "newText": .string(item.newText)])))
            if item.isSnippet { members.append(JSONMember(key: "insertTextFormat", value: .int(2))) }
            out.append(.object(members))
        }
        return .array(out)
    }
}

/// One completion item before it is written as JSON.
struct CompletionCandidate: Hashable, Sendable {
    /// LSP `CompletionItemKind`s used here.
    enum Kind: Int, Hashable, Sendable {
        case field = 5, variable = 6, `class` = 7, module = 9, property = 10, `enum` = 13, keyword = 14, enumMember = 20, `operator` = 24
    }

    /// What the list shows.
    var label: String
    /// The icon.
    var kind: Kind
    /// The line beside the label.
    var detail: String?
    /// What is written.
    var newText: String
    /// Whether `newText` is in snippet syntax (`${1:…}` placeholders).
    var isSnippet = false
}

/// The names of the workspace that completion offers, gathered once per request.
struct CompletionNames {
    /// Declared segment names.
    var segments: Set<String> = []
    /// Declared audience names.
    var audiences: Set<String> = []
    /// Declared placement names.
    var placements: Set<String> = []
    /// Declared experiments by name (the first of a name).
    var experiments: [String: ExperimentDeclaration] = [:]
    /// Declared custom attributes by key.
    var declared: [String: AttributeDeclaration] = [:]
    /// Custom attribute keys used by the rules (declared or not), with where each is used.
    var used: [String: [SourceRange]] = [:]
    /// The checked rules, when the rule set has no errors (types of undeclared attributes).
    var checked: CheckedRules?
    /// Every comparison of the rules, for the type an undeclared attribute is used as.
    var comparisons: [Comparison] = []
    /// The document being completed.
    var path: String
    /// Each placement's rows and split variants, in order.
    var placementRows: [String: [Destination]] = [:]
    /// Each placement's rows as written (for what a prerequisite on it can ask).
    var placementDeclarations: [String: PlacementDeclaration] = [:]

    /// The names of `analysis`, for a completion in the document at `path`.
    init(_ analysis: Analysis, path: String) {
        self.path = path
        for occurrence in analysis.symbols.occurrences where occurrence.isDeclaration {
            switch occurrence.kind {
            case .segment: segments.insert(occurrence.name)
            case .audience: audiences.insert(occurrence.name)
            case .placement: placements.insert(occurrence.name)
            case .attribute, .split, .experiment, .variant, .holdout, .layer, .history: break
            }
        }
        for file in analysis.ruleFiles {
            for declaration in file.declarations {
                switch declaration {
                case .attribute(let d):
                    if case .custom(let key) = d.name.target { declared[key] = d }
                case .input(let d):
                    if case .custom(let key) = d.target.target { used[key, default: []].append(d.target.range) }
                case .segment(let d), .audience(let d):
                    comparisons += d.expression.comparisons
                    for comparison in d.expression.comparisons {
                        guard case .attribute(let reference) = comparison.subject, case .custom(let key) = reference.target else { continue }
                        used[key, default: []].append(reference.range)
                    }
                case .placement(let d):
                    placementRows[d.name.text, default: []] += d.rows.flatMap(\.destination.shown)
                    if placementDeclarations[d.name.text] == nil { placementDeclarations[d.name.text] = d }
                case .experiment(let d):
                    if experiments[d.name.text] == nil { experiments[d.name.text] = d }
                case .holdout, .layer:
                    break
                }
            }
        }
        checked = analysis.rules.checked
    }

    /// Whether `key` is used somewhere other than at the word being completed (`pro|` is not
    /// a name yet).
    func isUsed(_ key: String, besides context: CompletionContext) -> Bool {
        (used[key] ?? []).contains { !($0.file == path && $0.start.offset == context.replace.lowerBound) }
    }

    /// The type, allowed values and whether it is declared, of an attribute.
    func type(of target: AttributeTarget) -> (type: ValueType?, allowed: [String]?, isDeclared: Bool) {
        switch target {
        case .builtin(let field):
            guard let builtin = BuiltinField.all[field] else { return (nil, nil, false) }
            return (builtin.type, builtin.allowed, true)
        case .custom(let key):
            if let declaration = declared[key] {
                let allowed = declaration.allowed.map { $0.items.compactMap { item -> String? in
                    if case .string(let value) = item.value { value } else { nil }
                } }
                return (declaration.type, allowed, true)
            }
            let inferred = checked?.attributeTypes[SubjectTarget(target)]
            // Without checked types (the rules have errors), the type the checker would infer.
            return (inferred?.type ?? Comparison.inferredType(of: key, in: comparisons)?.type, inferred?.allowed, false)
        }
    }

    /// How an attribute's type reads beside its name: `string one of ["a", "b"]`, `number`.
    func describe(_ target: AttributeTarget) -> String {
        let (type, allowed, isDeclared) = type(of: target)
        guard isDeclared else { return type.map { "undeclared, compared as \($0.rawValue)" } ?? "undeclared" }
        var text = type?.rawValue ?? "unknown"
        if let allowed {
            text += (type == .set ? " of [" : " one of [") + allowed.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
        if case .builtin(let field) = target, let derived = BuiltinField.derivation(of: field) {
            text += ", derived from `\(AttributeTarget.builtin(derived.source).written)`"
        }
        return text
    }

    /// The items for one kind of expected text.
    func candidates(_ expected: CompletionContext.Expected, context: CompletionContext, word: String, snippets: Bool = false) -> [CompletionCandidate] {
        switch expected {
        case .pattern:
            // `/.*/`, its body selected where the client takes snippets.
            return [CompletionCandidate(label: "/…/", kind: .keyword, detail: "pattern: the whole value must match",
                                        newText: snippets ? "/${1:.*}/" : "/.*/", isSnippet: snippets)]
        case .keyword(let keyword):
            let isOperator = keyword.first.map { !$0.isLetter } ?? false
            return [CompletionCandidate(label: keyword, kind: isOperator ? .operator : .keyword, detail: nil, newText: keyword)]
        case .comparisonOperators:
            return ComparisonOperator.allCases.map { CompletionCandidate(label: $0.rawValue, kind: .operator, detail: "operator", newText: $0.rawValue) }
        case .segments:
            return segments.subtracting(context.declaring.map { [$0] } ?? []).sorted().map {
                CompletionCandidate(label: $0, kind: .variable, detail: "segment", newText: $0)
            }
        case .audiences:
            return audiences.sorted().map { CompletionCandidate(label: $0, kind: .class, detail: "audience", newText: $0) }
        case .placements(let listed):
            return placements.subtracting(listed).sorted().map { CompletionCandidate(label: $0, kind: .module, detail: "placement", newText: $0) }
        case .experiments:
            return experiments.keys.sorted().map { name in
                let variants = experiments[name]?.variants.map(\.name.text).joined(separator: ", ") ?? ""
                return CompletionCandidate(label: name, kind: .enum, detail: "experiment: \(variants)", newText: name)
            }
        case .variants(let name, let given):
            let variants = experiments[name]?.variants ?? []
            let untaken = variants.filter { !given.contains($0.name.text) }
            return (untaken.isEmpty ? variants : untaken).map {
                CompletionCandidate(label: $0.name.text, kind: .enumMember, detail: "\($0.weight.text)% of `\(name)`", newText: $0.name.text)
            }
        case .drawKeys:
            let builtins = ["id", "customer_user_id"].compactMap { BuiltinField.all[$0] }.map { field in
                let target = AttributeTarget.builtin(field.name)
                return CompletionCandidate(label: target.written, kind: .field, detail: describe(target), newText: target.written)
            }
            return builtins + declared.filter { $0.value.type == .string }.keys.sorted().map(customAttribute)
        case .attributes(let settable):
            if word.hasPrefix("profile") {
                return BuiltinField.all.values.filter { !settable || !$0.isDerived }.sorted { $0.name < $1.name }.map(field)
            }
            let keys = Set(declared.keys).union(used.keys.filter { isUsed($0, besides: context) })
            return keys.sorted().map(customAttribute)
                + [CompletionCandidate(label: AttributeTarget.builtinPrefix, kind: .module, detail: "built-in profile fields", newText: AttributeTarget.builtinPrefix)]
        case .inputTargets:
            let keys = Set(declared.keys).union(used.keys.filter { isUsed($0, besides: context) })
            return keys.sorted().map(customAttribute) + BuiltinField.inputTargets.compactMap { BuiltinField.all[$0] }.map(field)
        case .undeclaredAttributes:
            return used.keys.filter { declared[$0] == nil && isUsed($0, besides: context) }.sorted().map {
                CompletionCandidate(label: $0, kind: .property, detail: describe(.custom($0)), newText: CompletionNames.spelled($0))
            }
        case .types:
            return ValueType.allCases.map { CompletionCandidate(label: $0.rawValue, kind: .keyword, detail: "type", newText: $0.rawValue) }
        case .values(let target, let listed):
            let (type, allowed, _) = type(of: target)
            let name = target.written
            var found = (allowed ?? []).filter { !listed.contains($0) }.map { value in
                context.inString
                    ? CompletionCandidate(label: value, kind: .enumMember, detail: "value of `\(name)`",
                                          newText: CompletionNames.escaped(value) + (context.closesString ? "\"" : ""))
                    : CompletionCandidate(label: "\"\(value)\"", kind: .enumMember, detail: "value of `\(name)`",
                                          newText: "\"" + CompletionNames.escaped(value) + "\"")
            }
            if !context.inString, type == .bool { found += ["true", "false"].map { CompletionCandidate(label: $0, kind: .keyword, detail: nil, newText: $0) } }
            if !context.inString, type == .date { found.append(CompletionCandidate(label: "now", kind: .keyword, detail: nil, newText: "now")) }
            return found
        case .outcomes(let placement):
            guard let declaration = placementDeclarations[placement] else { return [] }
            var written: [String] = []
            for row in declaration.rows {
                for shown in row.destination.shown where !written.contains(shown.description) { written.append(shown.description) }
            }
            var found = written.map { CompletionCandidate(label: $0, kind: .enumMember, detail: "a decision of `\(placement)`", newText: $0) }
            if !declaration.rows.contains(where: { if case .everyone = $0.audience { true } else { false } }) {
                found.append(CompletionCandidate(label: PrerequisiteOutcome.noMatchText, kind: .keyword, detail: "no row of `\(placement)` takes the profile",
                                                 newText: PrerequisiteOutcome.noMatchText))
            }
            for row in declaration.rows {
                guard case .experiment(let used) = row.destination else { continue }
                for arm in used.arms {
                    let text = used.experiment.text + "." + arm.variant.text
                    found.append(CompletionCandidate(label: text, kind: .enumMember, detail: "variant of `\(used.experiment.text)` -> \(arm.destination)", newText: text))
                }
            }
            return found
        case .destinations(let paywall, let placement):
            let destinations = placementRows[placement] ?? placementRows.keys.sorted().flatMap { placementRows[$0] ?? [] }
            var ids: [String] = []
            for destination in destinations {
                switch destination {
                case .flow(let id, _) where !paywall, .paywall(let id, _) where paywall:
                    if !ids.contains(id) { ids.append(id) }
                case .flow, .paywall, .nothing, .split, .experiment:
                    break  // the other kind; `shown` gives no split or experiment
                }
            }
            let detail = (paywall ? "paywall" : "flow") + (placementRows[placement] != nil ? " of `\(placement)`" : "")
            return ids.map { id in
                context.inString
                    ? CompletionCandidate(label: id, kind: .enumMember, detail: detail, newText: CompletionNames.escaped(id) + (context.closesString ? "\"" : ""))
                    : CompletionCandidate(label: "\"\(id)\"", kind: .enumMember, detail: detail, newText: CodePrinter.quoted(id))
            }
        }
    }

    /// A built-in field as an item: labelled by its name, written `profile.NAME`.
    func field(_ field: BuiltinField) -> CompletionCandidate {
        let target = AttributeTarget.builtin(field.name)
        return CompletionCandidate(label: field.name, kind: .field, detail: describe(target), newText: target.written)
    }

    /// A custom attribute as an item.
    func customAttribute(_ key: String) -> CompletionCandidate {
        CompletionCandidate(label: key, kind: .property, detail: describe(.custom(key)), newText: CompletionNames.spelled(key))
    }

    /// A custom attribute key as a rule writes it: bare when it can be, else in backticks.
    static func spelled(_ key: String) -> String {
        let tokens = Lexer.lex(SourceFile(path: "", bytes: Array(key.utf8))).tokens
        let bare = tokens.count == 2 && tokens[0].kind == .identifier && tokens[0].text == key && !AttributeTarget.isBuiltinSpelling(key)
        return bare ? key : "`" + key + "`"
    }

    /// A value as the content of a string literal: the formatter's literal without its quotes.
    static func escaped(_ value: String) -> String {
        String(CodePrinter.quoted(value).dropFirst().dropLast())
    }
}
