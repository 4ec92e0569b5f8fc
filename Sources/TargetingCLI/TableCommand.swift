import TargetingAnalysis
import TargetingBase
import TargetingEngine

/// `targeting table PLACEMENT`: where each combination of finite answers leads, from the
/// rules rather than a corpus.
enum TableCommand: Command {
    static let name = "table"
    static let overview = "Show the decision table of a placement over finite answers"
    static let usage = "table PLACEMENT [--by ATTR,...] [--rules PATH] [--now TIME] [--format text|json|markdown]"
    static let discussion = """
    ARGUMENTS:
      PLACEMENT                   A placement from the rules

    For every combination of the --by attributes (default: every declared `one of` string and
    `bool` attribute the placement reads; `set of` attributes and built-in enumerations such
    as profile.platform when named), exactly the destinations some profile with those values
    can reach, over every other input (ages, dates, the split, experiment and holdout
    buckets) at --now; an attribute that keys a draw gives each value its own bucket. Each value
    domain is the declared values plus "not set"; a set's domain is every subset. Rows merge
    combinations with the same destinations, and every combination lies in exactly one row.
    Where several destinations are possible the row says what else decides: comparisons,
    `split`, `experiment` or `holdout` draws, and the `key` a draw needs.
    With --format json: {"placement","now","by":[...],"rows":[{"when":{ATTR:[values, null
    for not set]},"destinations":[{"kind","id"} or null for no match],"depends_on":[...]}]}.
    --format markdown prints a table for a pull request.
    Exit status: 0; 2 for an unknown placement or attribute, or rules with errors; 3 when a
    destination could not be settled within the search's budget.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now,
        ReportFormat.option,
        OptionSpec(names: ["--by"], takesValue: true, valueName: "ATTR,...", help: "The attributes to tabulate (default: declared `one of` strings and bools the placement reads)"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try ReportFormat.from(arguments)
        guard arguments.positionals.count == 1 else { throw UsageError(message: "give exactly one placement") }
        var names: [String]?
        if let list = arguments.value("--by") {
            names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard names?.allSatisfy({ !$0.isEmpty }) == true else { throw UsageError(message: "invalid --by `\(list)`: give attribute names separated by commas") }
        }
        let now = try CommandSupport.nowNoted(arguments, io: io)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        let program = rules.program
        let name = arguments.positionals[0]
        guard let index = CommandSupport.placementIndex(named: name, in: program, io: io) else { return ExitStatus.inputError }
        switch DecisionTable.build(program, placement: index, by: names, now: now) {
        case .failure(let error):
            io.err("error: \(DecisionTable.message(error))\n")
            return ExitStatus.inputError
        case .success(let table):
            switch format {
            case .json: io.out(JSONWriter.write(table.json) + "\n")
            case .text: io.out(table.text)
            case .markdown: io.out(table.markdown)
            }
            return table.hasUndecided ? ExitStatus.undecided : ExitStatus.success
        }
    }
}
