import Foundation
import Targeting
import TargetingBase
import TargetingTesting

/// Where `check` and `test` find `.tests` files.
enum TestSources {
    /// Whether `path` is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The roots `check` reads rules from: every root but `.tests` files; when only `.tests`
    /// files are given, the rules path `fallback`.
    static func ruleRoots(of roots: [String], fallback: String) -> [String] {
        let rules = roots.filter { !$0.hasSuffix(".tests") || isDirectory($0) }
        return rules.isEmpty ? [fallback] : rules
    }

    /// The `.tests` files `check` reads: those under directory roots and `.tests` roots.
    static func testRoots(of roots: [String]) -> [String] {
        roots.filter { isDirectory($0) || $0.hasSuffix(".tests") }
    }

    /// The default roots of `test`: the rules directory, or the directory holding a rules file.
    static func defaultTestRoot(rulesPath: String) -> String {
        if isDirectory(rulesPath) { return rulesPath }
        guard let slash = rulesPath.lastIndex(of: "/") else { return "." }
        return slash == rulesPath.startIndex ? "/" : String(rulesPath[..<slash])
    }

    /// Loads the tests under `roots` for `check`: checked against the rules when they have no
    /// errors, else only parsed.
    static func loadForCheck(roots: [String], rules: LoadedRules) -> Result<LoadedTests, Diagnostic> {
        LoadedTests.load(paths: testRoots(of: roots), ruleSet: rules.checked)
    }
}
