import TargetingBase
import TargetingFormatting

/// `textDocument/formatting`: the document in the canonical layout of `targeting fmt`.
extension LanguageServer {
    /// One edit replacing the whole document with its formatted text, or none when it is
    /// formatted already.
    ///
    /// A file that does not parse fails with a message saying it has syntax errors (their
    /// diagnostics are published already); so does output that fails the formatter's soundness
    /// check, with its reason: the editor's text is never replaced by either.
    func formatting(_ request: DocumentRequest) throws(RequestError) -> JSONValue {
        switch TargetingFormatting.Formatter.format(request.source) {
        case .failure(let error):
            throw RequestError(code: .requestFailed, message: error.message)
        case .success(let formatted):
            guard Array(formatted.utf8) != request.source.bytes else { return .array([]) }
            let range = request.lines.json(from: 0, to: request.source.bytes.count)
            return .array([.object(["range": range, "newText": .string(formatted)])])
        }
    }
}
