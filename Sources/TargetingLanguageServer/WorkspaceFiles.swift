import TargetingBase

/// Where the server finds the files of the workspace that are not open in the editor.
package protocol WorkspaceFiles: Sendable {
    /// The paths of the `.rules` and `.tests` files under `root`.
    func list(root: String) -> [String]
    /// The bytes of the file at `path`, or nil when it cannot be read.
    func read(_ path: String) -> [UInt8]?
}

/// The files on disk, found and read as `check` and `test` find and read them.
package struct DiskFiles: WorkspaceFiles {
    /// Creates the disk view.
    package init() {}

    package func list(root: String) -> [String] {
        var paths: [String] = []
        for ext in ["rules", "tests"] {
            if case .success(let found) = SourceLoader.files(at: root, extension: ext) { paths += found }
        }
        return paths
    }

    package func read(_ path: String) -> [UInt8]? {
        if case .success(let bytes) = SourceLoader.read(path) { return bytes }
        return nil
    }
}
