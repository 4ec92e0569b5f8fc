import Foundation
import TargetingBase
import TargetingEngine
import TargetingSQL

/// `targeting sql PLACEMENT --dialect postgres|spark`: the placement as one SQL query (SPEC §7).
enum SqlCommand: Command {
    static let name = "sql"
    static let overview = "Compile a placement into one SQL query for audience sizing"
    static let usage = "sql PLACEMENT --dialect postgres|spark [--rules PATH] [--now TIME]"
    static let discussion = """
    ARGUMENTS:
      PLACEMENT                   The placement to compile

    The query reads a table `profiles` with one column `profile` (jsonb in PostgreSQL, a JSON
    string in Spark SQL) and returns, for every row, the columns of `resolve --format json`:
      profile_id, placement, audience, kind, id, split
    The time of evaluation (--now) is written into the query.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now,
        OptionSpec(names: ["--dialect"], takesValue: true, valueName: "DIALECT", help: "SQL dialect: postgres or spark"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard let dialectName = arguments.value("--dialect") else {
            throw UsageError(message: "missing `--dialect` (postgres or spark)")
        }
        guard let dialect = SQLDialect(rawValue: dialectName) else {
            throw UsageError(message: "unknown dialect `\(dialectName)`; use `postgres` or `spark`")
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError(message: arguments.positionals.isEmpty ? "missing placement" : "give one placement")
        }
        let now = try CommandSupport.nowNoted(arguments, io: io)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let loaded = loadedRules else { return status }
        let program = loaded.program
        let name = arguments.positionals[0]
        guard program.placementIndex(named: name) != nil else {
            let suggestion = Suggestion.nearest(to: name, in: program.placements.map(\.name))
            io.report(.unknownPlacementArgument(.unknownPlacement(name, suggestion: suggestion)))
            return ExitStatus.inputError
        }
        // The instant is inlined into the query; the leading comment says which it was.
        io.out("-- now: \(Timestamp.format(now))\n" + SQLCompiler.compile(placement: name, program: program, now: now, dialect: dialect))
        return ExitStatus.success
    }
}
