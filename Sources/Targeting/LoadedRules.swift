import TargetingBase
import TargetingSemantics
import TargetingSyntax

/// The result of loading a rule set: every `.rules` file parsed, checked and (when error-free)
/// compiled, once. The reachability analysis is a separate step for the tools,
/// `analyzed(by:)`: an app's load never runs it.
package struct LoadedRules: Sendable {
    /// The source files read.
    package var sources: [SourceFile]
    /// The checked rules; nil when any diagnostic is an error, so nothing downstream can run
    /// on rules with errors.
    package var checked: CheckedRules?
    /// The rules compiled for evaluation; nil when `checked` is, or when loaded without
    /// compiling (`check`, whose analysis compiles only if some placement is analysed).
    package var program: Program?
    /// Every diagnostic, sorted by file and position: the parser's and the checker's, and
    /// after `analyzed(by:)` the analysis's.
    package var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.isError } }

    /// Parses, checks and (when error-free and `compiling`) compiles rule files already read.
    package init(sources: [SourceFile], compiling: Bool = true) {
        self.init(parsed: sources.map(LoadedRules.parse), compiling: compiling)
    }

    /// One rules file parsed on its own: the first stage of loading, which a caller that
    /// reloads often (the language server) keeps for the files that did not change.
    package struct ParsedFile: Sendable {
        /// The source.
        package var source: SourceFile
        /// The syntax tree; nil when the file is too large to parse.
        package var file: RuleFile?
        /// The lexer's and parser's diagnostics.
        package var diagnostics: [Diagnostic]
    }

    /// Parses one rules file.
    package static func parse(_ source: SourceFile) -> ParsedFile {
        if source.bytes.count > SourceLoader.maxFileSize {
            return ParsedFile(source: source, file: nil, diagnostics: [.fileTooLarge(limit: SourceLoader.maxFileSize, at: source.range(0, 0))])
        }
        let (file, diagnostics) = Parser.parseRules(source)
        return ParsedFile(source: source, file: file, diagnostics: diagnostics)
    }

    /// Checks and (when error-free and `compiling`) compiles rule files already parsed.
    package init(parsed files: [ParsedFile], compiling: Bool = true) {
        self.sources = files.map(\.source)
        var diagnostics = files.flatMap(\.diagnostics)
        let parsed = files.compactMap(\.file)
        let (ruleSet, checkDiagnostics) = Checker.check(parsed)
        diagnostics += checkDiagnostics
        if let ruleSet, !diagnostics.contains(where: \.isError) {
            checked = ruleSet
            if compiling { program = Program(ruleSet) }
        }
        self.diagnostics = Diagnostic.sorted(diagnostics)
    }

    /// These rules with the reachability analysis's findings among their diagnostics, as
    /// `check` and the language server report them. `analyze` is the analysis
    /// (`Analyzer.analyze`, which this layer does not link); it runs on error-free rules within
    /// `analysisLimits`, and past them a note says it was skipped.
    package func analyzed(by analyze: (CheckedRules) -> [Diagnostic]) -> LoadedRules {
        guard let checked else { return self }
        var analyzed = self
        if LoadedRules.isSmallEnoughToAnalyze(checked) {
            analyzed.diagnostics = Diagnostic.sorted(diagnostics + analyze(checked))
        } else if let first = checked.placements.first {
            let limits = LoadedRules.analysisLimits
            analyzed.diagnostics = Diagnostic.sorted(diagnostics + [.analysisSkipped(comparisons: limits.comparisons, literals: limits.literals, at: first.name.range)])
        }
        return analyzed
    }

    /// Whether the reachability analysis runs: it searches over representative profiles of one
    /// graph of every condition, so a rule set past these sizes gets a note instead. Within
    /// them each placement is analysed on its own budget of work (and one with more than
    /// `Analyzer.rowsPerPlacement` rows is left out with a note naming it).
    /// The work of the analysis grows with the size of the graph (a single `or` of 100,000
    /// terms is analysed), and so do its tables and memory; the limit keeps `check` quick.
    static let analysisLimits = (comparisons: 250_000, literals: 1_000_000)

    static func isSmallEnoughToAnalyze(_ ruleSet: CheckedRules) -> Bool {
        var comparisons = 0
        var literals = 0
        for segment in ruleSet.segments {
            segment.expression.forEachLeaf { leaf in
                guard case .comparison(let comparison) = leaf else { return }
                comparisons += 1
                literals += comparison.literals.count
            }
        }
        let limits = analysisLimits
        return comparisons <= limits.comparisons && literals <= limits.literals
    }

    /// Reads every `.rules` file under `path` (a directory or a file) and loads them.
    package static func load(path: String) -> Result<LoadedRules, Diagnostic> {
        load(paths: [path])
    }

    /// Reads every `.rules` file under each of `paths` and loads them together as one rule set
    /// (compiled when `compiling`).
    package static func load(paths roots: [String], compiling: Bool = true) -> Result<LoadedRules, Diagnostic> {
        var sources: [SourceFile] = []
        for root in roots {
            switch SourceLoader.files(at: root, extension: "rules") {
            case .failure(let error): return .failure(error)
            case .success(let paths):
                for file in paths {
                    switch SourceLoader.read(file) {
                    case .failure(let error): return .failure(error)
                    case .success(let bytes): sources.append(SourceFile(path: file, bytes: bytes))
                    }
                }
            }
        }
        return .success(LoadedRules(sources: sources, compiling: compiling))
    }
}
