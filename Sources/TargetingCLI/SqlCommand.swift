import Foundation
import TargetingBase
import TargetingEngine
import TargetingSQL

/// `targeting sql PLACEMENT --dialect postgres|spark|duckdb|clickhouse`: the placement as one SQL query.
enum SqlCommand: Command {
    static let name = "sql"
    static let overview = "Compile a placement into one SQL query for audience sizing"
    static let usage = "sql (PLACEMENT | --all | --schema | --check-table) --dialect postgres|spark|duckdb|clickhouse [--summary] [--layout json|columns] [--no-jit] [--table NAME] [--column NAME] [--rules PATH] [--now TIME]"
    static let discussion = """
    ARGUMENTS:
      PLACEMENT                   The placement to compile (or --all for every placement)

    The query reads a table `profiles` (--table) with one column `profile` (--column; jsonb in
    PostgreSQL, a JSON string in Spark SQL and ClickHouse, JSON in DuckDB) and returns, for every row, the columns of `resolve --format json`:
      profile_id, placement, audience, kind, id, split
    and, when the rules declare an experiment or a holdout, experiment, variant, held_out (then
    sticky, when an experiment is sticky: whether a recorded assignment decided).
    The time of evaluation (--now) is written into the query, and named in a leading comment.
    --summary counts inside the engine instead, as `resolve --summary` does: one row per
      placement, audience, kind, id, split (and experiment, variant, held_out) the placement can
      give, with profiles (0 where none takes it) and share (percent, rounded down to one
      decimal); with a sticky experiment in the rules, then sticky: how many of the entry's
      profiles a recorded assignment kept (one row per decision, however it was made)
    --layout columns reads a typed table instead, in the engine's native types: `id`, one column
      per built-in field the rules read, named as in the profile JSON (`country`, `birthday`
      for profile.age, ...), one column `ca_<attribute>` per custom attribute (characters other
      than letters, digits and `_` made `_`), and `history` (JSON) when the rules read it.
      Strings and versions are text, numbers DOUBLE, bools BOOLEAN, `birthday` DATE, instants
      TIMESTAMPTZ (Spark: TIMESTAMP in a UTC session; ClickHouse: DateTime64(3, 'UTC')), sets
      arrays; NULL is not set. Each value is held as the rules read it (custom text trimmed and
      not empty, finite numbers, a birthday's UTC date), so the query compares the columns as
      they are, in one pass; `targeting export --layout columns` writes such rows.
    --schema prints the CREATE TABLE statement of that table for the rules, and nothing else.
    --check-table prints a query counting, per column, the rows that break that contract
      (untrimmed or empty custom text, NaN or infinite numbers, NULL set members, a history
      that is no JSON object).
    DuckDB reads `profile` as JSON, ClickHouse as a String of JSON; ClickHouse's sets are
      Array(String), where an empty array is an unset set.
    --no-jit (PostgreSQL) puts `SET jit = off;` before the query: JIT-compiling a query this
      size takes PostgreSQL longer than running it
    In Spark, set spark.sql.codegen.hugeMethodLimit=8000 for the session: the code Spark
      generates for these queries is otherwise too large for the JVM to compile and runs interpreted
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now,
        OptionSpec(names: ["--dialect"], takesValue: true, valueName: "DIALECT", help: "SQL dialect: postgres, spark, duckdb or clickhouse"),
        OptionSpec(names: ["--all"], takesValue: false, valueName: "", help: "Every placement, in one query"),
        OptionSpec(names: ["--summary"], takesValue: false, valueName: "", help: "Profiles and share per audience, destination and variant"),
        layoutOption,
        OptionSpec(names: ["--schema"], takesValue: false, valueName: "", help: "Print the CREATE TABLE of --layout columns for the rules"),
        OptionSpec(names: ["--check-table"], takesValue: false, valueName: "", help: "Print a query counting, per column, the rows that break the typed table's contract"),
        noJITOption,
        OptionSpec(names: ["--table"], takesValue: true, valueName: "NAME", help: "The source table, e.g. warehouse.profiles (default: profiles)"),
        OptionSpec(names: ["--column"], takesValue: true, valueName: "NAME", help: "The column holding each profile's JSON (default: profile)"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard let dialectName = arguments.value("--dialect") else {
            throw UsageError(message: "missing `--dialect` (postgres, spark, duckdb or clickhouse)")
        }
        guard let dialect = SQLDialect(rawValue: dialectName) else {
            throw UsageError(message: "unknown dialect `\(dialectName)`; use `postgres`, `spark`, `duckdb` or `clickhouse`")
        }
        let noJIT = try noJIT(arguments, dialect: dialect)
        if let option = ["--schema", "--check-table"].first(where: arguments.has) {
            guard arguments.positionals.isEmpty, !arguments.has("--all"), !arguments.has("--summary"), !(arguments.has("--schema") && arguments.has("--check-table")) else {
                throw UsageError(message: "\(option) prints the \(option == "--schema" ? "table" : "check") only: give no placement, --all, --summary or other statement")
            }
            guard arguments.value("--layout").map({ $0 == SQLLayout.columns.rawValue }) ?? true else {
                throw UsageError(message: "\(option) is about the table of --layout columns")
            }
            let (table, _) = try source(arguments)
            let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
            guard let loaded = loadedRules else { return status }
            do {
                let schema = try SQLTableSchema(programs: [loaded.program])
                io.out(option == "--schema" ? schema.createTable(table, dialect: dialect) : schema.checkQuery(table, dialect: dialect))
            } catch {
                io.report(diagnostic(error, noPlacement: "the rules declare no placement"))
                return ExitStatus.inputError
            }
            return ExitStatus.success
        }
        let layout = try layout(arguments)
        let all = arguments.has("--all")
        guard arguments.positionals.count == (all ? 0 : 1) else {
            throw UsageError(message: all ? "give a placement or --all, not both"
                             : arguments.positionals.isEmpty ? "missing placement (or --all)" : "give one placement")
        }
        let (table, column) = try source(arguments)
        let now = try CommandSupport.nowNoted(arguments, io: io)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let loaded = loadedRules else { return status }
        let program = loaded.program
        let names = all ? program.placements.map(\.name) : arguments.positionals
        let query: String
        do {
            let schema = layout == .columns ? try SQLTableSchema(programs: [program]) : nil
            query = arguments.has("--summary")
                ? try SQLCompiler.summary(placements: names, program: program, now: now, dialect: dialect, table: table, column: column, schema: schema)
                : try SQLCompiler.compile(placements: names, program: program, now: now, dialect: dialect, table: table, column: column, schema: schema)
        } catch {
            io.report(diagnostic(error, noPlacement: "the rules declare no placement"))
            return ExitStatus.inputError
        }
        // The instant is inlined into the query; the header says which it was, and from what.
        let header = SQLCompiler.header(now: now, dialect: dialect, rules: loaded.sources.map(\.path).joined(separator: ", "))
        io.out(header + (noJIT ? SQLCompiler.jitOff : "") + query + (query.hasSuffix("\n") ? "" : "\n"))
        return ExitStatus.success
    }

    /// The error of a query that cannot be compiled; `noPlacement` says why no placement was named.
    static func diagnostic(_ error: SQLCompileError, noPlacement: String) -> Diagnostic {
        switch error {
        case .unknownPlacement(let name, let suggestion): .unknownPlacementArgument(.unknownPlacement(name, suggestion: suggestion))
        case .noPlacement: .noPlacementToCompile(noPlacement)
        case .columnClash(let name, let keys): .columnClash(name, keys: keys)
        }
    }

    /// `--no-jit`, shared with `diff --sql`.
    static let noJITOption = OptionSpec(names: ["--no-jit"], takesValue: false, valueName: "", help: "PostgreSQL: start with `SET jit = off;`")

    /// Whether `--no-jit` is given; a usage error with any dialect but PostgreSQL, which alone has the setting.
    static func noJIT(_ arguments: ParsedArguments, dialect: SQLDialect) throws -> Bool {
        guard arguments.has("--no-jit") else { return false }
        guard dialect.hasJIT else { throw UsageError(message: "--no-jit is for PostgreSQL only: \(dialect.displayName) has no JIT setting") }
        return true
    }

    /// `--layout`, shared with `diff --sql`.
    static let layoutOption = OptionSpec(names: ["--layout"], takesValue: true, valueName: "LAYOUT",
                                         help: "The table: json (one JSON column, the default) or columns (one typed column per field)")

    /// `--layout` (default json); a usage error for another value, or for `--column` with `columns`.
    static func layout(_ arguments: ParsedArguments) throws -> SQLLayout {
        guard let name = arguments.value("--layout") else { return .json }
        guard let layout = SQLLayout(rawValue: name) else { throw UsageError(message: "unknown layout `\(name)`; use `json` or `columns`") }
        if layout == .columns, arguments.value("--column") != nil {
            throw UsageError(message: "--column names the JSON column of --layout json; --layout columns reads one column per field")
        }
        return layout
    }

    /// The source table and column (`--table`, `--column`), each checked as an `SQLIdentifier`;
    /// a name that is not one is a usage error.
    static func source(_ arguments: ParsedArguments) throws -> (table: SQLIdentifier, column: SQLIdentifier) {
        do {
            return (try arguments.value("--table").map { try SQLIdentifier($0, role: .table) } ?? .profiles,
                    try arguments.value("--column").map { try SQLIdentifier($0, role: .column) } ?? .profile)
        } catch let invalid as SQLIdentifier.Invalid {
            let option = invalid.role == .table ? "--table" : "--column"
            throw UsageError(message: "invalid \(option) `\(invalid.name)`: use letters, digits and `_`" + (invalid.role == .table ? ", parts joined by `.`" : ""))
        }
    }
}
