import Targeting
import TargetingBase
import TargetingSemantics
import TargetingSyntax

/// The rule set as the editor sees it: every `.rules` and `.tests` file under the root, with
/// the open documents in place of their files on disk.
///
/// Each file is parsed once per change (a parse is kept until its file changes); the rule set
/// is checked again, and its tests checked against it, whenever any file changed.
package struct Workspace: Sendable {
    /// The workspace folder, when the editor gave one.
    package private(set) var root: String?
    let files: any WorkspaceFiles
    /// The open documents by path.
    package private(set) var open: [String: [UInt8]] = [:]
    /// The files found under the root.
    private var disk: [String] = []
    private var parsedRules: [String: LoadedRules.ParsedFile] = [:]
    private var parsedTests: [String: (file: TestFile, diagnostics: [Diagnostic])] = [:]
    private var current: Analysis?
    /// How many analyses were computed (one per change at most; requests reuse the last).
    package private(set) var analysesComputed = 0

    /// A workspace rooted at `root`, reading files through `files`.
    package init(root: String?, files: any WorkspaceFiles) {
        self.root = root
        self.files = files
        rescan()
    }

    /// Lists the files under the root again (after a save, a create or a delete).
    package mutating func rescan() {
        disk = root.map { files.list(root: $0) } ?? []
        parsedRules = parsedRules.filter { open[$0.key] != nil }
        parsedTests = parsedTests.filter { open[$0.key] != nil }
        current = nil
    }

    /// Opens or replaces a document's text.
    package mutating func setText(_ bytes: [UInt8], path: String) {
        open[path] = bytes
        forget(path)
    }

    /// Closes a document: its file on disk counts again.
    package mutating func close(path: String) {
        open[path] = nil
        forget(path)
    }

    private mutating func forget(_ path: String) {
        parsedRules[path] = nil
        parsedTests[path] = nil
        current = nil
    }

    /// Whether `path` is a tests file.
    package static func isTests(_ path: String) -> Bool { path.hasSuffix(".tests") }

    /// The analysis of the workspace as it is now (computed once per change).
    package mutating func analysis() -> Analysis {
        if let current { return current }
        analysesComputed += 1
        var paths = disk
        for path in open.keys.sorted() where !paths.contains(path) { paths.append(path) }
        var sources: [String: SourceFile] = [:]
        var rules: [LoadedRules.ParsedFile] = []
        var tests: [(file: TestFile, diagnostics: [Diagnostic])] = []
        for path in paths.sorted() {
            guard let bytes = open[path] ?? files.read(path) else { continue }
            if Workspace.isTests(path) {
                let parsed = parsedTests[path] ?? {
                    let source = SourceFile(path: path, bytes: bytes)
                    return bytes.count > SourceLoader.maxFileSize
                        ? (TestFile(source: source, tests: [], comments: []), [.testsFileTooLarge(limit: SourceLoader.maxFileSize, at: source.range(0, 0))])
                        : Parser.parseTests(source)
                }()
                parsedTests[path] = parsed
                sources[path] = parsed.file.source
                tests.append(parsed)
            } else {
                let parsed = parsedRules[path] ?? LoadedRules.parse(SourceFile(path: path, bytes: bytes))
                parsedRules[path] = parsed
                sources[path] = parsed.source
                rules.append(parsed)
            }
        }
        let loaded = LoadedRules(parsed: rules)
        var diagnostics = Dictionary(grouping: loaded.diagnostics, by: \.range.file)
        var testDiagnostics = tests.flatMap(\.diagnostics)
        if let checked = loaded.checked, !tests.isEmpty {
            testDiagnostics += TestChecker.check(tests.map(\.file), ruleSet: checked) { [files] in files.read($0) != nil }
        }
        for (path, found) in Dictionary(grouping: testDiagnostics, by: \.range.file) {
            diagnostics[path, default: []] += Diagnostic.sorted(found)
        }
        let ruleFiles = rules.compactMap(\.file)
        let analysis = Analysis(sources: sources, rules: loaded, ruleFiles: ruleFiles, testFiles: tests.map(\.file),
                                diagnostics: diagnostics, symbols: SymbolIndex(rules: ruleFiles, tests: tests.map(\.file)))
        current = analysis
        return analysis
    }
}

/// What the server knows about the workspace at one moment.
package struct Analysis: Sendable {
    /// Every file, by path.
    package var sources: [String: SourceFile]
    /// The rule set loaded from the `.rules` files.
    package var rules: LoadedRules
    /// The parsed `.rules` files.
    package var ruleFiles: [RuleFile]
    /// The parsed `.tests` files.
    package var testFiles: [TestFile]
    /// The diagnostics of every file, by path.
    package var diagnostics: [String: [Diagnostic]]
    /// Every name declared or used, with its place.
    package var symbols: SymbolIndex

    /// The line index of the file at `path`.
    package func lines(_ path: String) -> LineIndex? { sources[path].map(LineIndex.init) }

    /// The parsed rules file at `path`.
    package func ruleFile(_ path: String) -> RuleFile? { ruleFiles.first { $0.source.path == path } }

    /// The parsed tests file at `path`.
    package func testFile(_ path: String) -> TestFile? { testFiles.first { $0.source.path == path } }
}
