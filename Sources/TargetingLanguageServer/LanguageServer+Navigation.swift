import TargetingBase

/// `textDocument/definition` and `textDocument/references` for segments, audiences,
/// placements, attributes and splits, across rules and tests files.
extension LanguageServer {
    func definition(_ request: DocumentRequest) -> JSONValue {
        guard let offset = request.offset,
              let occurrence = request.analysis.symbols.occurrence(in: request.path, at: offset) else { return .null }
        let declarations = request.analysis.symbols.declarations(of: occurrence.kind, named: occurrence.name)
        return .array(declarations.compactMap { request.location($0.range) })
    }

    func references(_ request: DocumentRequest) -> JSONValue {
        guard let offset = request.offset,
              let occurrence = request.analysis.symbols.occurrence(in: request.path, at: offset) else { return .array([]) }
        let includeDeclaration = request.params["context", "includeDeclaration"]?.boolValue ?? true
        let found = request.analysis.symbols.occurrences(of: occurrence.kind, named: occurrence.name)
            .filter { includeDeclaration || !$0.isDeclaration }
        return .array(found.compactMap { request.location($0.range) })
    }
}
