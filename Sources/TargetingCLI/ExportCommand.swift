import TargetingBase
import TargetingBatch
import TargetingEngine
import TargetingProfiles
import TargetingSQL

/// `targeting export --layout columns`: profiles as the rows of the typed table the rules read,
/// as JSON Lines every engine loads natively.
enum ExportCommand: Command {
    static let name = "export"
    static let overview = "Write profiles as the typed rows of `sql --layout columns`, as JSON Lines"
    static let usage = "export --layout columns (--profiles FILE.jsonl | --store FILE) [--rules PATH]"
    static let discussion = """
    Writes one JSON object per profile, with one key per column of the typed table the rules
    read (`sql --schema` prints its CREATE TABLE): `id`, the built-in fields, `ca_<attribute>`
    for each custom attribute, and `history` when the rules read it. Each value is written as
    the rules read it: null for unset, a custom attribute's text trimmed, dates `YYYY-MM-DD`,
    instants RFC 3339 UTC with milliseconds (`2026-11-29T12:00:00.000Z`), sets as arrays,
    numbers and bools as JSON numbers and bools, the history as its JSON object.
    A value the table cannot hold as the rules read it (a number in a text field, a date
    outside years 1 to 9999) is written as null, with a warning naming its line and column;
    a `birthday` with a time of day is written as its UTC date, with a warning.
    A line that is not a valid profile is reported where it is and skipped; the others are
    written. Exit status: 0, or 2 when a line was rejected (or the rules have errors).
    """
    static let options = [
        CommonOptions.rules,
        SqlCommand.layoutOption,
        OptionSpec(names: ["--profiles"], takesValue: true, valueName: "FILE", help: "A JSON Lines file of profiles (`-` = standard input)"),
        OptionSpec(names: ["--store"], takesValue: true, valueName: "FILE", help: "A profile store (JSON Lines), read only (`-` = standard input)"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard arguments.value("--layout") == SQLLayout.columns.rawValue else {
            throw UsageError(message: arguments.has("--layout") ? "export writes --layout columns only: the json layout is the profile file itself"
                             : "missing `--layout columns`")
        }
        guard arguments.positionals.isEmpty else { throw UsageError(message: "export takes no argument; give --profiles or --store") }
        let sources = ["--profiles", "--store"].filter { arguments.has($0) }
        guard sources.count == 1, let given = arguments.value(sources[0]) else {
            throw UsageError(message: sources.isEmpty ? "missing profile input: --profiles or --store" : "give only one of --profiles, --store")
        }
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        let schema: SQLTableSchema
        do {
            schema = try SQLTableSchema(programs: [rules.program])
        } catch {
            io.report(SqlCommand.diagnostic(error, noPlacement: "the rules declare no placement"))
            return ExitStatus.inputError
        }
        let path = CommandSupport.inputName(given)
        guard var reader = CommandSupport.lines(of: given, io: io) else {
            io.report(.cannotRead(path))
            return ExitStatus.inputError
        }
        var rejected = 0
        var linesBefore = 0
        var chunk = LineChunk()
        while reader.next(into: &chunk) {
            var written = ""
            let before = linesBefore
            linesBefore += chunk.forEachRecord { number, line in
                let lineNumber = before + number
                guard let line else {
                    rejected += 1
                    io.report(.badRecord(LineChunk.tooLongMessage, file: path, line: lineNumber))
                    return
                }
                switch ProfileReader.read(Array(line)) {
                case .failure(let error):
                    rejected += 1
                    io.report(.badRecord(error.message, file: path, line: lineNumber))
                case .success(let profile):
                    let row = schema.row(of: profile)
                    for problem in row.problems { io.report(.recordWarning(problem, file: path, line: lineNumber)) }
                    written += JSONWriter.write(.object(row.members)) + "\n"
                }
            }
            io.out(written)
        }
        return rejected > 0 ? ExitStatus.inputError : ExitStatus.success
    }
}
