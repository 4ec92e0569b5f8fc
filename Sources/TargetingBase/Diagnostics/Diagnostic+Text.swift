extension Diagnostic: CustomStringConvertible {
    /// The diagnostic header, `path:line:col: severity: message`, with a `= help:` line when there is
    /// help; without the quoted source line, which needs the file (`RuleSetError` quotes it).
    public var description: String {
        var text = DiagnosticRenderer().text(self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

extension Severity: CustomStringConvertible {
    /// `error`, `warning` or `note`, as in a diagnostic's header.
    public var description: String { rawValue }
}
