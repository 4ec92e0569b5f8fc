import TargetingBase
import TargetingSyntax

/// `textDocument/documentSymbol` (the outline of one file) and `workspace/symbol` (every
/// declaration of the workspace, found by name).
///
/// A rules file's outline lists its declarations in file order: attributes (detail: the type),
/// inputs (named `[SCREEN/]ELEMENT`, detail: `-> TARGET`), segments, audiences, and placements
/// with a child per row (named by its audience, detail: the destination); a split row holds the
/// split, which holds its variants, and an experiment row its arms (named by variant). An
/// experiment holds its variants (detail: the weight); the holdout's detail is its weight, key
/// and `except` list. A declaration that failed to parse after its name is listed
/// by its name. A tests file's outline has one symbol per `test "NAME"`.
extension LanguageServer {
    /// LSP `SymbolKind` numbers.
    enum SymbolKind: Int {
        case namespace = 3, `class` = 5, property = 7, `enum` = 10, function = 12, variable = 13, number = 16, enumMember = 22, event = 24
    }

    /// The outline of the document: `DocumentSymbol[]`.
    func documentSymbols(_ request: DocumentRequest) -> JSONValue {
        let symbols = LanguageServer.symbols(in: request.path, analysis: request.analysis)
        return .array(symbols.map { $0.documentSymbol(request.lines) })
    }

    /// Every declaration of the workspace whose name matches `query` (case-insensitive, its
    /// characters in order; every declaration for an empty query): `SymbolInformation[]`.
    ///
    /// Names that start with the query come first, then names that hold it, then the rest;
    /// each group in file and source order.
    mutating func workspaceSymbols(query: String) -> JSONValue {
        let query = query.lowercased()
        var out: [(rank: Int, symbol: JSONValue)] = []
        // Every file of every rule set, in path order.
        let files = analyses().flatMap { analysis in analysis.sources.keys.map { (path: $0, analysis: analysis) } }.sorted { $0.path < $1.path }
        for (path, analysis) in files {
            guard let lines = analysis.lines(path) else { continue }
            let uri = DocumentURI.uri(of: path)
            func add(_ symbol: OutlineSymbol, container: String?) {
                if symbol.isDeclaration, let rank = LanguageServer.match(symbol.name, query) {
                    var members: [JSONMember] = [
                        JSONMember(key: "name", value: .string(symbol.name)),
                        JSONMember(key: "kind", value: .int(symbol.kind.rawValue)),
                        JSONMember(key: "location", value: .object(["uri": .string(uri), "range": lines.json(symbol.range)])),
                    ]
                    if let container { members.append(JSONMember(key: "containerName", value: .string(container))) }
                    out.append((rank, .object(members)))
                }
                // A split is declared inside a placement's row: it is listed with the placement as its container.
                let inner = symbol.isDeclaration ? symbol.name : container
                for child in symbol.children { add(child, container: inner) }
            }
            for symbol in LanguageServer.symbols(in: path, analysis: analysis) { add(symbol, container: nil) }
        }
        return .array(out.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.symbol))
    }

    /// How well `name` matches a lowercased `query`, ignoring case: 0 when it starts with it,
    /// 1 when it holds it, 2 when it holds its characters in order; nil when it does not match.
    static func match(_ name: String, _ query: String) -> Int? {
        let name = name.lowercased()
        if name.hasPrefix(query) { return 0 }
        if name.contains(query) { return 1 }
        var rest = query.unicodeScalars[...]
        for scalar in name.unicodeScalars where scalar == rest.first {
            rest = rest.dropFirst()
            if rest.isEmpty { return 2 }
        }
        return nil
    }

    /// The outline of the file at `path`, from the workspace's parse of it.
    static func symbols(in path: String, analysis: Analysis) -> [OutlineSymbol] {
        if let file = analysis.testFile(path) {
            return file.tests.map { test in
                OutlineSymbol(name: test.name, kind: .function, range: test.range, selectionRange: test.nameRange)
            }
        }
        guard let file = analysis.ruleFile(path) else { return [] }
        var symbols = file.declarations.map(OutlineSymbol.init)
        for unparsed in file.unparsed {
            let kind: SymbolKind = switch unparsed.kind {
            case .attribute: .property
            case .segment: .variable
            case .audience: .class
            case .placement: .namespace
            case .experiment, .holdout, .layer: .enum
            }
            symbols.append(OutlineSymbol(name: unparsed.name, kind: kind, range: unparsed.range, selectionRange: unparsed.range))
        }
        return symbols.sorted { $0.range.start.offset < $1.range.start.offset }
    }
}

/// One entry of a file's outline.
struct OutlineSymbol {
    /// The name shown.
    var name: String
    /// What it is shown as.
    var kind: LanguageServer.SymbolKind
    /// Extra text shown beside the name.
    var detail: String?
    /// The whole construct.
    var range: SourceRange
    /// The name within it.
    var selectionRange: SourceRange
    /// Whether it declares a name of the workspace (a placement's rows and a split's variants
    /// do not: they are listed only in the outline).
    var isDeclaration = true
    /// The entries inside it.
    var children: [OutlineSymbol] = []

    /// The symbol of a declaration.
    init(_ declaration: Declaration) {
        switch declaration {
        case .attribute(let d):
            var type = d.type.rawValue
            if let allowed = d.allowed {
                type += (d.type == .set ? " of [" : " one of [") + allowed.items.map(\.text).joined(separator: ", ") + "]"
            }
            self.init(name: d.name.displayName, kind: .property, detail: type, range: d.range, selectionRange: d.name.range)
        case .input(let d):
            let name = (d.screen.map { $0.text + "/" } ?? "") + d.element.text
            let selection = SourceRange(file: d.range.file, start: (d.screen ?? d.element).range.start, end: d.element.range.end)
            self.init(name: name, kind: .event, detail: "-> " + d.target.displayName, range: d.range, selectionRange: selection)
        case .segment(let d):
            self.init(name: d.name.text, kind: .variable, range: d.range, selectionRange: d.name.range)
        case .audience(let d):
            self.init(name: d.name.text, kind: .class, range: d.range, selectionRange: d.name.range)
        case .placement(let d):
            self.init(name: d.name.text, kind: .namespace, range: d.range, selectionRange: d.name.range)
            children = d.rows.map(OutlineSymbol.init)
        case .experiment(let d):
            self.init(name: d.name.text, kind: .enum, detail: "experiment" + (d.key.map { " by " + $0.displayName } ?? ""),
                      range: d.range, selectionRange: d.name.range)
            children = d.variants.map { OutlineSymbol.weighted($0.name, weight: $0.weight, range: $0.range) }
        case .holdout(let d):
            let detail = "holdout " + d.weight.text + "%" + (d.key.map { " by " + $0.displayName } ?? "")
                + (d.excepted.isEmpty ? "" : " except " + d.excepted.map(\.text).joined(separator: ", "))
            self.init(name: d.name.text, kind: .enum, detail: detail, range: d.range, selectionRange: d.name.range)
        case .layer(let d):
            self.init(name: d.name.text, kind: .enum, detail: "layer" + (d.key.map { " by " + $0.displayName } ?? ""),
                      range: d.range, selectionRange: d.name.range)
            children = d.members.map { OutlineSymbol.weighted($0.experiment, weight: $0.weight, range: $0.range) }
        }
    }

    /// A weighted name inside a declaration (an experiment's variant, a layer's experiment),
    /// its weight as the detail; a use, not a declaration of its own.
    static func weighted(_ name: Identifier, weight: Literal, range: SourceRange) -> OutlineSymbol {
        var child = OutlineSymbol(name: name.text, kind: .enumMember, detail: weight.text + "%", range: range, selectionRange: name.range)
        child.isDeclaration = false
        return child
    }

    /// The symbol of a placement row (with its split, when it has one).
    init(_ row: PlacementRow) {
        self.init(name: row.audience.name, kind: .class, detail: row.destination.description, range: row.range, selectionRange: row.audience.range)
        isDeclaration = false
        if case .split(let split) = row.destination {
            var symbol = OutlineSymbol(name: split.id, kind: .enumMember, detail: "split", range: split.range, selectionRange: split.idRange)
            symbol.children = split.variants.map { variant in
                var child = OutlineSymbol(name: variant.weight.text + "%", kind: .number, detail: variant.destination.description,
                                          range: variant.range, selectionRange: variant.weight.range)
                child.isDeclaration = false
                return child
            }
            children = [symbol]
        }
        if case .experiment(let experiment) = row.destination {
            children = experiment.arms.map { arm in
                var child = OutlineSymbol(name: arm.variant.text, kind: .enumMember, detail: arm.destination.description,
                                          range: arm.range, selectionRange: arm.variant.range)
                child.isDeclaration = false
                return child
            }
        }
    }

    /// A symbol without children; an empty name (LSP forbids one) is shown as `""`.
    init(name: String, kind: LanguageServer.SymbolKind, detail: String? = nil, range: SourceRange, selectionRange: SourceRange) {
        self.name = name.isEmpty ? "\"\"" : name
        self.kind = kind
        self.detail = detail
        self.range = range
        self.selectionRange = selectionRange
    }

    /// As an LSP `DocumentSymbol`.
    func documentSymbol(_ lines: LineIndex) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "kind", value: .int(kind.rawValue)),
        ]
        if let detail { members.append(JSONMember(key: "detail", value: .string(detail))) }
        members.append(JSONMember(key: "range", value: lines.json(range)))
        members.append(JSONMember(key: "selectionRange", value: lines.json(selectionRange)))
        if !children.isEmpty { members.append(JSONMember(key: "children", value: .array(children.map { $0.documentSymbol(lines) }))) }
        return .object(members)
    }
}
