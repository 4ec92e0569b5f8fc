/// Findings about files as a whole.
extension Diagnostic {
    /// A file or directory that could not be read; `message` names the path and the reason.
    package static func unreadable(_ message: String, path: String) -> Diagnostic {
        Diagnostic(.error, "unreadable", message, at: .unknown(path))
    }
}
