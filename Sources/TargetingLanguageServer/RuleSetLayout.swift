/// Which rule set each file of the workspace belongs to.
///
/// A rule set is a directory of `.rules` files, as `check DIR` and `resolve --rules DIR` read
/// it, with the `.tests` files next to or under it. A workspace may hold several side by side
/// (`old-rules/` and `Rules/` for `targeting diff`); each is analysed on its own. The rule set of
/// a file is, walking up from the file's directory to the workspace root:
///
/// 1. the nearest directory named by `initializationOptions.rules`;
/// 2. else the nearest directory named `Rules`, the directory the command line reads by default,
///    with everything under it (`Rules/segments/` and `Rules/placements/` are one rule set);
/// 3. else, from the nearest directory that holds `.rules` files itself, the highest directory
///    reached by going up through parents that hold `.rules` files themselves;
/// 4. else (a `.tests` file with no rules above it) the workspace's only rule set when it has
///    exactly one, or the file's own directory.
package struct RuleSetLayout: Sendable, Equatable {
    /// The workspace root, when the editor gave one: the walk up stops there.
    package var root: String?
    /// The directories named by the editor's setting, as absolute paths.
    package var named: [String]
    /// The directories that hold `.rules` files themselves.
    private var ruleDirectories: Set<String> = []
    /// The rule set of each path.
    private var sets: [String: String] = [:]

    /// The layout of `paths` (`.rules` and `.tests` files) under `root`, with the rule set
    /// directories `named` by the editor (absolute, or relative to `root`).
    package init(root: String?, named: [String], paths: [String]) {
        self.root = root.map(RuleSetLayout.normalized)
        self.named = named.compactMap { name in
            if name.hasPrefix("/") { return RuleSetLayout.normalized(name) }
            return root.map { RuleSetLayout.normalized($0 + "/" + name) }
        }
        for path in paths where !path.hasSuffix(".tests") {
            ruleDirectories.insert(RuleSetLayout.directory(of: path))
        }
        var orphans: [String] = []
        for path in paths {
            if let found = ruleSet(above: path) { sets[path] = found } else { orphans.append(path) }
        }
        let all = Set(sets.values)
        for path in orphans {
            sets[path] = all.count == 1 ? all.first! : RuleSetLayout.directory(of: path)
        }
    }

    /// The rule set (a directory) the file at `path` belongs to.
    package func ruleSet(of path: String) -> String {
        sets[path] ?? ruleSet(above: path) ?? RuleSetLayout.directory(of: path)
    }

    /// Every rule set of the workspace, sorted.
    package var ruleSets: [String] { Set(sets.values).sorted() }

    /// The paths of the rule set `directory`, sorted.
    package func paths(of directory: String) -> [String] {
        sets.filter { $0.value == directory }.map(\.key).sorted()
    }

    /// Rules 1 to 3: the rule set found walking up from `path`, or nil when no directory above
    /// it is named and none holds `.rules` files.
    private func ruleSet(above path: String) -> String? {
        let ancestors = ancestors(of: path)
        if let found = ancestors.first(where: named.contains) { return found }
        if let found = ancestors.first(where: { RuleSetLayout.name(of: $0) == "Rules" }) { return found }
        guard var top = ancestors.firstIndex(where: ruleDirectories.contains) else { return nil }
        while top + 1 < ancestors.count, ruleDirectories.contains(ancestors[top + 1]) { top += 1 }
        return ancestors[top]
    }

    /// The directories above `path`, nearest first, up to the workspace root when `path` is
    /// under it (else up to `/`).
    private func ancestors(of path: String) -> [String] {
        var out: [String] = []
        var directory = RuleSetLayout.directory(of: path)
        let stop = root.flatMap { root in directory == root || directory.hasPrefix(root == "/" ? "/" : root + "/") ? root : nil }
        while true {
            out.append(directory)
            if directory == stop || directory == "/" || directory.isEmpty { break }
            directory = RuleSetLayout.directory(of: directory)
        }
        return out
    }

    /// The directory holding `path` (`/` for a path directly under it).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a directory path.
    static func name(of directory: String) -> Substring {
        directory.split(separator: "/").last ?? ""
    }

    /// A path without `.` components, repeated or trailing slashes, and with `..` applied.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
