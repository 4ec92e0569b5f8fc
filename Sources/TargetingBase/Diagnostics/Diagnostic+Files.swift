/// Findings about files and records as a whole.
extension Diagnostic {
    /// A file or directory that could not be read; `message` names the path and the reason.
    package static func unreadable(_ message: String, path: String = "") -> Diagnostic {
        Diagnostic(.error, .unreadable, message, at: .unknown(path), place: .none)
    }

    /// A file that cannot be opened, saying why (missing, a directory, no permission).
    package static func cannotRead(_ path: String) -> Diagnostic {
        .unreadable("cannot read `\(path)`" + (SourceLoader.whyUnreadable(path).map { ": " + $0 } ?? ""), path: path)
    }

    /// A file or directory at `path` that could not be read, for `reason`.
    package static func unreadable(path: String, _ reason: String) -> Diagnostic {
        unreadable(reason, path: path)
    }

    /// A line of a JSON Lines file (a profile, an event, a store record) that was rejected.
    package static func badRecord(_ message: String, file: String, line: Int) -> Diagnostic {
        Diagnostic(.error, .badRecord, message, at: .line(line, of: file), place: .line)
    }

    /// A whole input file (one profile, say) that was rejected.
    package static func badFile(_ message: String, file: String) -> Diagnostic {
        Diagnostic(.error, .badFile, message, at: .unknown(file), place: .file)
    }

    /// A note about a record that was still accepted (a value outside a declared `one of`).
    package static func recordWarning(_ message: String, file: String, line: Int) -> Diagnostic {
        Diagnostic(.warning, .recordWarning, message, at: .line(line, of: file), place: .line)
    }
}
