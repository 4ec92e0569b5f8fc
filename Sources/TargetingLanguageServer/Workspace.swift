import Targeting
import TargetingAnalysis
import TargetingBase
import TargetingSemantics
import TargetingSyntax

/// The rule sets as the editor sees them: every `.rules` and `.tests` file under the root,
/// with the open documents in place of their files on disk, grouped into rule sets by
/// `RuleSetLayout`.
///
/// Each file is parsed once per change (a parse is kept until its file changes); a rule set is
/// checked again, and its tests checked against it, whenever one of its files changed. Names,
/// diagnostics and edits never cross from one rule set to another.
package struct Workspace: Sendable {
    /// The workspace folder, when the editor gave one.
    package private(set) var root: String?
    /// The rule set directories the editor named (`initializationOptions.rules`), as given.
    package private(set) var named: [String]
    let files: any WorkspaceFiles
    /// The open documents by path.
    package private(set) var open: [String: [UInt8]] = [:]
    /// The files found under the root.
    private var disk: [String] = []
    /// Which rule set each file belongs to.
    package private(set) var layout: RuleSetLayout
    private var parsedRules: [String: LoadedRules.ParsedFile] = [:]
    private var parsedTests: [String: (file: TestFile, diagnostics: [Diagnostic])] = [:]
    /// The analysis of each rule set, by its directory, until one of its files changes.
    private var current: [String: Analysis] = [:]
    /// How many analyses were computed (one per rule set and change at most; requests reuse the last).
    package private(set) var analysesComputed = 0

    /// A workspace rooted at `root`, reading files through `files`; `named` are the rule set
    /// directories the editor named (absolute, or relative to `root`).
    package init(root: String?, named: [String] = [], files: any WorkspaceFiles) {
        self.root = root
        self.named = named
        self.files = files
        layout = RuleSetLayout(root: root, named: named, paths: [])
        rescan()
    }

    /// Lists the files under the root again (after a save, a create or a delete).
    package mutating func rescan() {
        disk = root.map { files.list(root: $0) } ?? []
        parsedRules = parsedRules.filter { open[$0.key] != nil }
        parsedTests = parsedTests.filter { open[$0.key] != nil }
        regroup()
    }

    /// Opens or replaces a document's text.
    package mutating func setText(_ bytes: [UInt8], path: String) {
        let isNew = open[path] == nil && !disk.contains(path)
        open[path] = bytes
        forget(path)
        if isNew { regroup() }
    }

    /// Closes a document: its file on disk counts again.
    package mutating func close(path: String) {
        open[path] = nil
        forget(path)
        if !disk.contains(path) { regroup() }
    }

    private mutating func forget(_ path: String) {
        parsedRules[path] = nil
        parsedTests[path] = nil
        current[layout.ruleSet(of: path)] = nil
    }

    /// Groups the files into rule sets again (a file came or went): every analysis is redone.
    private mutating func regroup() {
        layout = RuleSetLayout(root: root, named: named, paths: paths)
        current = [:]
    }

    /// Every file: those on disk, then the open documents that are not (yet) on disk.
    private var paths: [String] {
        var paths = disk
        for path in open.keys.sorted() where !disk.contains(path) { paths.append(path) }
        return paths
    }

    /// Whether `path` is a tests file.
    package static func isTests(_ path: String) -> Bool { path.hasSuffix(".tests") }

    /// The analysis of the rule set the file at `path` belongs to (computed once per change).
    package mutating func analysis(of path: String) -> Analysis {
        analysis(ofRuleSet: layout.ruleSet(of: path))
    }

    /// The analysis of every rule set of the workspace, in the order of their directories.
    package mutating func analyses() -> [Analysis] {
        layout.ruleSets.map { analysis(ofRuleSet: $0) }
    }

    /// The analysis of the rule set in `directory`.
    private mutating func analysis(ofRuleSet directory: String) -> Analysis {
        if let found = current[directory] { return found }
        analysesComputed += 1
        var sources: [String: SourceFile] = [:]
        var rules: [LoadedRules.ParsedFile] = []
        var tests: [(file: TestFile, diagnostics: [Diagnostic])] = []
        for path in layout.paths(of: directory) {
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
        // Compiled once, for hover and for the analysis alike.
        let compiled = LoadedRules(parsed: rules)
        let loaded = compiled.analyzed { checked in compiled.program.map(Analyzer.analyze) ?? Analyzer.analyze(checked) }
        var diagnostics = Dictionary(grouping: loaded.diagnostics, by: \.range.file)
        var testDiagnostics = tests.flatMap(\.diagnostics)
        if let checked = loaded.checked, !tests.isEmpty {
            testDiagnostics += TestChecker.check(tests.map(\.file), ruleSet: checked) { [files] in files.read($0) != nil }
        }
        for (path, found) in Dictionary(grouping: testDiagnostics, by: \.range.file) {
            diagnostics[path, default: []] += Diagnostic.sorted(found)
        }
        let ruleFiles = rules.compactMap(\.file)
        let analysis = Analysis(directory: directory, sources: sources, rules: loaded, ruleFiles: ruleFiles, testFiles: tests.map(\.file),
                                diagnostics: diagnostics, symbols: SymbolIndex(rules: ruleFiles, tests: tests.map(\.file)))
        current[directory] = analysis
        return analysis
    }
}

/// What the server knows about one rule set of the workspace at one moment.
package struct Analysis: Sendable {
    /// The directory of the rule set (see `RuleSetLayout`).
    package var directory: String
    /// Every file of the rule set, by path.
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
