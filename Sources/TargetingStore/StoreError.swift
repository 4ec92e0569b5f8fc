import TargetingBase

/// The store (or a file being rewritten) could not be read or written; carries its coded diagnostic.
package struct StoreError: Error {
    package let diagnostic: Diagnostic

    package init(message: String) { diagnostic = .storeFailed(message) }

    /// A failure with its own diagnostic.
    package init(diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    /// The same failure, saying that the store was left as it was.
    package var unchanged: StoreError { StoreError(diagnostic: adding("; the store was not changed")) }

    /// The same failure with more said after it (e.g. "; the store was not changed").
    package func adding(_ text: String) -> Diagnostic {
        var extended = diagnostic
        extended.message += text
        return extended
    }
}
