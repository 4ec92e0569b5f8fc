import TargetingBase

/// Why a rule set could not be loaded: the diagnostics (errors, and any warnings found
/// alongside them).
public struct RuleSetError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic, sorted by file and position.
    public let diagnostics: [Diagnostic]
    /// The source files, for quoting lines.
    package let sources: [SourceFile]

    /// Creates the error of a failed load.
    package init(diagnostics: [Diagnostic], sources: [SourceFile]) {
        self.diagnostics = diagnostics
        self.sources = sources
    }

    /// The diagnostics as `check` prints them (header, source line, caret, help), then the `N errors, N warnings` line.
    public var description: String {
        let renderer = DiagnosticRenderer(files: sources)
        return diagnostics.map(renderer.text).joined() + DiagnosticRenderer.summary(diagnostics) + "\n"
    }
}
