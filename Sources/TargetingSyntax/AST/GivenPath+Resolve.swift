extension GivenPath {
    /// The path to open: `path` itself when absolute, else relative to the directory of the
    /// tests file at `testsFile`.
    package func resolved(relativeTo testsFile: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = testsFile.lastIndex(of: "/") else { return path }
        return String(testsFile[...slash]) + path
    }
}
