import Targeting
import TargetingAnalysis
import TargetingBase
import TargetingTesting

/// `targeting check [PATH…]`: parse and check rules and tests, print diagnostics and a summary.
enum CheckCommand: Command {
    static let name = "check"
    static let overview = "Parse and check rule and test files; report errors and warnings"
    static let usage = "check [PATH…] [--rules PATH] [--strict] [--format text|json|sarif]"
    static let discussion = """
    ARGUMENTS:
      PATH                        Directories or .rules files, checked together as one rule set
                                  (default: the --rules path, else Rules); the .tests files
                                  under directories, and .tests files given, are checked
                                  against it (given only .tests files, the rules come from
                                  the --rules path)

    Text diagnostics go to stderr and the closing `N errors, N warnings` line to stdout;
    with --format json each diagnostic is one JSON object per line on stdout, and the last
    line is {"summary":{"errors":N,"warnings":N,"notes":N,"files":N}} (also for clean rules).
    With --format sarif stdout is one SARIF 2.1.0 log on one line: a rule per diagnostic code
    found, a result per diagnostic with its file (relative paths against %SRCROOT%) and
    region in Unicode-scalar columns; clean rules give an empty `results`. An unreadable path
    is reported on stderr, as for the other formats, and prints no log.
    Exit status: 0 no errors (warnings allowed), 1 errors (with --strict, errors or
    warnings), 2 unreadable path.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.strict,
        OptionSpec(names: ["--format"], takesValue: true, valueName: "FORMAT", help: "Output format: text, json or sarif (default: text)"),
    ]

    enum Format: String { case text, json, sarif }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let raw = arguments.value("--format") ?? "text"
        guard let format = Format(rawValue: raw) else { throw UsageError(message: "invalid format `\(raw)`; use `text`, `json` or `sarif`") }
        let roots = arguments.positionals.isEmpty ? [arguments.value("--rules") ?? "Rules"] : arguments.positionals
        let loaded: LoadedRules
        // Compiled only if the analysis runs: a rule set past its limits is checked alone.
        switch LoadedRules.load(paths: TestSources.ruleRoots(of: roots, fallback: arguments.value("--rules") ?? "Rules"), compiling: false) {
        case .failure(let error):
            io.report(error)
            return ExitStatus.inputError
        case .success(let value): loaded = value.analyzed(by: Analyzer.analyze)
        }
        let tests: LoadedTests
        switch TestSources.loadForCheck(roots: roots, rules: loaded) {
        case .failure(let error):
            io.report(error)
            return ExitStatus.inputError
        case .success(let value): tests = value
        }
        let diagnostics = Diagnostic.sorted(loaded.diagnostics + tests.diagnostics)
        let renderer = DiagnosticRenderer(files: loaded.sources + tests.sources)
        switch format {
        case .text:
            for diagnostic in diagnostics { io.err(renderer.text(diagnostic)) }
            io.out(DiagnosticRenderer.summary(diagnostics) + "\n")
        case .json:
            for diagnostic in diagnostics { io.out(JSONWriter.write(renderer.json(diagnostic)) + "\n") }
            let count = { (severity: Severity) in JSONValue.number(Double(diagnostics.count { $0.severity == severity })) }
            io.out(JSONWriter.write(.object([JSONMember(key: "summary", value: .object([
                JSONMember(key: "errors", value: count(.error)),
                JSONMember(key: "warnings", value: count(.warning)),
                JSONMember(key: "notes", value: count(.note)),
                JSONMember(key: "files", value: .number(Double(loaded.sources.count + tests.sources.count))),
            ]))])) + "\n")
        case .sarif:
            io.out(JSONWriter.write(SARIFReport.log(diagnostics)) + "\n")
        }
        let failing = diagnostics.contains { $0.isError || (arguments.has("--strict") && $0.severity == .warning) }
        if failing, !diagnostics.contains(where: \.isError), format == .text {
            io.err("error: --strict: warnings count as errors\n")
        }
        return failing ? ExitStatus.no : ExitStatus.success
    }
}
