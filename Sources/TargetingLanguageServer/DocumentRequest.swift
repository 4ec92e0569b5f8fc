import TargetingBase

/// A request about one document of the workspace: the document, the position asked about and
/// the analysis of the workspace, ready for a feature to answer.
package struct DocumentRequest: Sendable {
    /// The document's URI, as the editor sent it.
    package var uri: String
    /// Its path.
    package var path: String
    /// The request's parameters.
    package var params: JSONValue
    /// The analysis of the whole workspace.
    package var analysis: Analysis
    /// The document's text.
    package var source: SourceFile
    /// Its line index.
    package var lines: LineIndex
    /// The byte offset of `params.position`, clamped, when the request has one.
    package var offset: Int?
    /// The instant `now` means (for hover), in Unix ms.
    package var now: Int64

    /// The URI of another file of the workspace.
    package func uri(of path: String) -> String { path == self.path ? uri : DocumentURI.uri(of: path) }

    /// A location (`{"uri", "range"}`) of a source range, in whichever file it is.
    package func location(_ range: SourceRange) -> JSONValue? {
        guard let lines = range.file == path ? lines : analysis.lines(range.file) else { return nil }
        return .object(["uri": .string(uri(of: range.file)), "range": lines.json(range)])
    }
}
