import TargetingBase

/// Why a file was not formatted.
package enum FormatError: Error, Hashable, Sendable {
    /// The file has syntax errors; formatting needs a file that parses.
    case syntax([Diagnostic])
    /// The formatted text failed the soundness check (it would parse differently, lose a
    /// comment, or change again when formatted a second time); it must not be written.
    case unsound(String)

    /// The syntax errors, when that is the reason.
    package var diagnostics: [Diagnostic] {
        switch self {
        case .syntax(let diagnostics): diagnostics
        case .unsound: []
        }
    }

    /// A lowercase one-line description, without a final period.
    package var message: String {
        switch self {
        case .syntax(let diagnostics):
            let count = diagnostics.filter(\.isError).count
            return count == 1 ? "the file has a syntax error" : "the file has \(count) syntax errors"
        case .unsound(let reason):
            return reason
        }
    }
}
