import TargetingBase
import TargetingEngine
import TargetingTesting

/// `targeting test [PATH…]`: run `.tests` files against the rules.
enum TestCommand: Command {
    static let name = "test"
    static let overview = "Run .tests files against the rules"
    static let usage = "test [PATH…] [--rules PATH] [--run SUBSTRING] [--now TIME] [--strict] [--format text|json] [--coverage]"
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
    was true for some test and false for another), then `coverage: N of M (P%)`.
    A run that finds no tests, or a --run that matches none, fails. With --strict, warnings in
    the rules or the tests are printed and fail the run before any test runs.
    Exit status: 0 all passed, 1 some failed (or no tests, or warnings with --strict), 2 rules
    or tests with errors, or an unreadable path.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now, CommonOptions.strict, CommonOptions.format,
        OptionSpec(names: ["--run"], takesValue: true, valueName: "SUBSTRING", help: "Run only tests whose name contains SUBSTRING"),
        OptionSpec(names: ["--coverage"], takesValue: false, valueName: "", help: "Report which rows and segments the tests cover"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try OutputFormat.from(arguments)
        let now = try CommandSupport.now(arguments)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
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
        for diagnostic in tests.diagnostics { io.err(renderer.text(diagnostic)) }
        if arguments.has("--strict") {
            let ruleWarnings = rules.warnings.filter { $0.severity == .warning }
            let rulesRenderer = DiagnosticRenderer(files: rules.sources)
            for diagnostic in ruleWarnings { io.err(rulesRenderer.text(diagnostic)) }
            let warnings = ruleWarnings + tests.diagnostics.filter { $0.severity == .warning }
            if !warnings.isEmpty {
                io.err(DiagnosticRenderer.summary(warnings) + "\n")
                io.err("error: --strict: warnings count as errors; no test was run\n")
                return ExitStatus.no
            }
        }
        if tests.files.isEmpty {
            io.report(.noTestsFiles(in: roots))
        }

        let program = rules.program
        let runner = TestRunner(program: program, defaultNow: now)
        let results = runner.run(tests.files, filter: arguments.value("--run"))
        if results.isEmpty {
            io.report(.noTestsRun(filter: arguments.value("--run"), in: roots))
            TestReportPrinter(format: format, io: io).printSummary(passed: 0, failed: 0)
            return ExitStatus.no
        }
        let printer = TestReportPrinter(format: format, io: io)
        for result in results { printer.print(result) }
        if arguments.has("--coverage") { printer.print(TestCoverage(program: program, results: results)) }
        let passed = results.filter(\.status.isPassed).count
        printer.printSummary(passed: passed, failed: results.count - passed)
        return passed == results.count ? ExitStatus.success : ExitStatus.no
    }
}
