import Foundation

/// Finds and reads rule and test files from disk.
package enum SourceLoader {
    /// The largest rule file accepted.
    package static let maxFileSize = 16 * 1024 * 1024

    /// The files with extension `ext` (e.g. "rules") under `path` (recursively), or `path`
    /// itself when it is a file; sorted by path.
    package static func files(at path: String, extension ext: String) -> Result<[String], Diagnostic> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.unreadable(path: path, "cannot read `\(path)`: no such file or directory"))
        }
        guard isDirectory.boolValue else { return .success([path]) }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            return .failure(.unreadable(path: path, "cannot read directory `\(path)`"))
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix("." + ext) else { continue }
            let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue { found.append(full) }
        }
        return .success(found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Why the file at `path` cannot be read ("no such file or directory", "it is a directory",
    /// "permission denied"), or nil when it looks readable.
    package static func whyUnreadable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file or directory" }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return nil
    }

    /// Reads a file's bytes.
    package static func read(_ path: String) -> Result<[UInt8], Diagnostic> {
        if let reason = whyUnreadable(path) {
            return .failure(.unreadable(path: path, "cannot read `\(path)`: \(reason)"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(.unreadable(path: path, "cannot read `\(path)`: it cannot be opened"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.readToEnd() ?? Data()
            return .success([UInt8](data))
        } catch {
            return .failure(.unreadable(path: path, "cannot read `\(path)`: \(error.localizedDescription)"))
        }
    }
}
