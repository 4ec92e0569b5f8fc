import TargetingBase
import TargetingEngine
import TargetingTesting

/// `targeting test [PATH…]`: run `.tests` files against the rules.
enum TestCommand: Command {
    static let name = "test"
    static let overview = "Run .tests files against the rules"
    static let usage = "test [PATH…] [--rules PATH] [--run SUBSTRING] [--now TIME] [--strict] [--format text|json|junit] [--coverage] [--min-coverage N]"
    static let discussion = """
    ARGUMENTS:
      PATH                        .tests files or directories searched for them (default: the
                                  .tests files under the --rules directory, or beside the
                                  --rules file)

    Each test builds a profile from its `given` lines in order and checks every `expect`
    against it; a test without a `now` line runs at --now. Prints one line per test, PASS or
    FAIL with its file and line; under a FAIL, each failing `expect` with its position, what
    was expected, what came out and the deciding audience. The last line is
    `N passed, N failed`; a test that cannot run (an unreadable input file, a split for a
    profile without an id) counts as failed. With --format json each test is one JSON
    object per line, then {"passed":N,"failed":N}. --coverage adds, before that line, every
    placement row (covered when it decided some `expect`) and every segment (covered when it
    was true for some test and false for another), then one line for each of the three
    figures (`coverage of rows|segments|variants: N of M (P%)`) and `coverage: N of M (P%)`.
    --min-coverage N (a percentage from 0 to 100, at most one decimal; implies --coverage)
    fails the run when any of the three figures, as printed, is below N: each such figure is
    marked `below --min-coverage N%` (in JSON, named in "below") and the exit status is 1.
    With --format junit stdout is one JUnit XML document: <testsuites name="targeting"> with
    a <testsuite> per .tests file and a <testcase> per test run, a failed test holding a
    <failure> (its text is what the text report prints under FAIL) and a test that could not
    run an <error>; with coverage, the figures are <property> elements (`coverage`,
    `coverage.rows|segments|variants`, `min-coverage`, `below-min-coverage`) in a
    <properties> that opens <testsuites>. Warnings and errors go to stderr in every format:
    the rules' and the tests' warnings come first, worded as `check` words them, then their
    count (`0 errors, 1 warnings`), then the results.
    A run that finds no tests, or a --run that matches none, fails. With --strict, warnings in
    the rules or the tests are printed and fail the run before any test runs.
    Exit status: 0 all passed, 1 some failed (or no tests, or warnings with --strict, or
    coverage below --min-coverage), 2 rules or tests with errors, or an unreadable path.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now, CommonOptions.strict,
        OptionSpec(names: ["--format"], takesValue: true, valueName: "FORMAT", help: "Output format: text, json or junit (default: text)"),
        CommonOptions.jobs,
        OptionSpec(names: ["--run"], takesValue: true, valueName: "SUBSTRING", help: "Run only tests whose name contains SUBSTRING"),
        OptionSpec(names: ["--coverage"], takesValue: false, valueName: "", help: "Report which rows, split variants and segments the tests cover"),
        OptionSpec(names: ["--min-coverage"], takesValue: true, valueName: "N", help: "Exit 1 when a coverage figure is below N percent"),
    ]

    enum Format: String {
        case text, json, junit

        /// The format of the line-by-line printer; nil for a whole document.
        var lines: OutputFormat? {
            switch self {
            case .text: .text
            case .json: .json
            case .junit: nil
            }
        }
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let raw = arguments.value("--format") ?? "text"
        guard let format = Format(rawValue: raw) else { throw UsageError(message: "invalid format `\(raw)`; use `text`, `json` or `junit`") }
        let now = try CommandSupport.now(arguments)
        let threshold = try minCoverage(arguments)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io, analyzed: true)
        guard let rules = loadedRules else { return status }
        let roots = arguments.positionals.isEmpty
            ? [TestSources.defaultTestRoot(rulesPath: arguments.value("--rules") ?? "Rules")]
            : arguments.positionals
        let tests: LoadedTests
        // A missing `given events`/`given profile` file fails its own test when it runs; the others still run.
        switch LoadedTests.load(paths: roots, ruleSet: rules.program.ruleSet, fileExists: { _ in true }) {
        case .failure(let error):
            io.report(error)
            return ExitStatus.inputError
        case .success(let value): tests = value
        }
        let renderer = DiagnosticRenderer(files: tests.sources)
        if tests.hasErrors {
            for diagnostic in tests.diagnostics { io.err(renderer.text(diagnostic)) }
            io.err(DiagnosticRenderer.summary(tests.diagnostics) + "\n")
            return ExitStatus.inputError
        }
        // The rules' and the tests' warnings, as `check` words them, with their count, before
        // any result: a warning often explains a failure below it (a misspelt attribute).
        let warnings = rules.warnings.filter { $0.severity != .error } + tests.diagnostics
        if !warnings.isEmpty {
            let rulesRenderer = DiagnosticRenderer(files: rules.sources + tests.sources)
            for diagnostic in Diagnostic.sorted(warnings) { io.err(rulesRenderer.text(diagnostic)) }
            io.err(DiagnosticRenderer.summary(warnings) + "\n")
        }
        if arguments.has("--strict"), warnings.contains(where: { $0.severity == .warning }) {
            io.err("error: --strict: warnings count as errors; no test was run\n")
            return ExitStatus.no
        }
        if tests.files.isEmpty {
            io.report(.noTestsFiles(in: roots))
        }

        let program = rules.program
        let runner = TestRunner(program: program, defaultNow: now)
        let results = runner.run(tests.files, filter: arguments.value("--run"), jobs: try CommandSupport.jobs(arguments))
        let printer = format.lines.map { TestReportPrinter(format: $0, io: io) }
        if results.isEmpty {
            io.report(.noTestsRun(filter: arguments.value("--run"), in: roots))
            if let printer {
                printer.printSummary(passed: 0, failed: 0)
            } else {
                io.out(JUnitReport.document(files: tests.files.map(\.source.path), results: []))
            }
            return ExitStatus.no
        }
        if let printer { for result in results { printer.print(result) } }
        var below: [CoverageFigure] = []
        var coverage: TestCoverage?
        if arguments.has("--coverage") || threshold != nil {
            let measured = TestCoverage(program: program, results: results)
            printer?.print(measured, threshold: threshold)
            below = threshold?.failing(measured) ?? []
            coverage = measured
        }
        let passed = results.filter(\.status.isPassed).count
        if let printer {
            printer.printSummary(passed: passed, failed: results.count - passed)
        } else {
            io.out(JUnitReport.document(files: tests.files.map(\.source.path), results: results, coverage: coverage, threshold: threshold))
        }
        if let threshold, !below.isEmpty {
            let figures = below.map { "\($0.name) \(CoverageFigure.percentText($0.permille))" }.joined(separator: ", ")
            io.err("error: coverage is below --min-coverage \(threshold.text): \(figures)\n")
        }
        return passed == results.count && below.isEmpty ? ExitStatus.success : ExitStatus.no
    }

    /// The `--min-coverage` threshold, or nil when not given.
    static func minCoverage(_ arguments: ParsedArguments) throws -> CoverageThreshold? {
        guard let raw = arguments.value("--min-coverage") else { return nil }
        guard let threshold = CoverageThreshold(parsing: raw) else {
            throw UsageError(message: "invalid --min-coverage `\(raw)`: use a percentage from 0 to 100 with at most one decimal, such as `90` or `87.5`")
        }
        return threshold
    }
}
