import Foundation
import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingBatch

/// `targeting resolve PLACEMENT | --all`: which flow or paywall profiles see.
enum ResolveCommand: Command {
    static let name = "resolve"
    static let overview = "Show which flow or paywall a profile sees in a placement, and why"
    static let usage = "resolve (PLACEMENT | --all) (--profile FILE | --profiles FILE.jsonl | --store FILE [--id ID]) [--explain | --summary] [--jobs N] [--rules PATH] [--now TIME] [--format text|json]"
    static let discussion = """
    ARGUMENTS:
      PLACEMENT                   The placement to resolve (or --all for every placement)

    --profile reads one JSON profile; --profiles and --store read one profile per line and
    stream them. Each reads standard input when given `-` (messages name it `<stdin>`). With --format json each result is one line:
      {"profile_id":…,"placement":…,"audience":…,"kind":…,"id":…,"split":…}
    (`split` names the split that decided). Rules with an experiment or a holdout add
    "experiment":…,"variant":… (the experiment and variant that decided, or null) and
    "held_out": true or false (a held-out profile skips every row but `everyone` in the
    placements the holdout covers).
    A rejected profile line is reported on stderr with its line number, the other lines are
    still resolved, and the exit status is 2. --jobs spreads --profiles and --store over N
    threads (default: every core); the output is in input order and the same for any N.
    --summary (with --profiles or --store) prints, per placement, how many profiles each
    audience, destination and split variant takes and their share: every one the placement
    can give, 0 where no profile takes it, and no match where it has no `everyone` row; with
    --format json one line per entry: {"placement","audience","kind","id","split",["experiment","variant","held_out",]"profiles","share"}.
    An entry is one decision: the profiles a sticky experiment's recorded assignment kept on a
    variant and those drawn into it are one entry, and with sticky experiments in the rules
    each entry says how many of its profiles an assignment kept (`2535 (50.7%, 485 sticky)` on
    the entries of sticky experiments; JSON "sticky" after "share", on every entry).
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now, CommonOptions.format,
        OptionSpec(names: ["--all"], takesValue: false, valueName: "", help: "Resolve every placement"),
        OptionSpec(names: ["--profile"], takesValue: true, valueName: "FILE", help: "One JSON profile (`-` = standard input)"),
        OptionSpec(names: ["--profiles"], takesValue: true, valueName: "FILE", help: "JSON Lines, one profile per line (`-` = standard input)"),
        OptionSpec(names: ["--store"], takesValue: true, valueName: "FILE", help: "A profile store (JSON Lines), read only (`-` = standard input)"),
        OptionSpec(names: ["--id"], takesValue: true, valueName: "ID", help: "With --store: only this profile"),
        OptionSpec(names: ["--explain"], takesValue: false, valueName: "", help: "List every row with why it matched or not"),
        OptionSpec(names: ["--summary"], takesValue: false, valueName: "", help: "Count profiles per audience, destination and variant instead of listing them"),
        CommonOptions.jobs,
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try OutputFormat.from(arguments)
        let now = try CommandSupport.now(arguments)
        let all = arguments.has("--all")
        guard all != (arguments.positionals.count == 1), arguments.positionals.count <= 1 else {
            throw UsageError(message: all ? "give a placement or --all, not both" : "missing placement (or --all)")
        }
        let sources = ["--profile", "--profiles", "--store"].filter { arguments.has($0) }
        guard sources.count == 1 else {
            throw UsageError(message: sources.isEmpty ? "missing profile input: --profile, --profiles or --store" : "give only one of --profile, --profiles, --store")
        }
        if arguments.has("--id"), !arguments.has("--store") { throw UsageError(message: "--id needs --store") }
        let jobs = try CommandSupport.jobs(arguments)

        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let loaded = loadedRules else { return status }
        let program = loaded.program
        var placements: [Int]
        if all {
            placements = Array(program.placements.indices)
        } else {
            guard let index = CommandSupport.placementIndex(named: arguments.positionals[0], in: program, io: io) else {
                return ExitStatus.inputError
            }
            placements = [index]
        }
        let printer = DecisionPrinter(format: format, explain: arguments.has("--explain"))
        var batch = BatchResolver(program: program, placements: placements, now: now, onlyID: arguments.value("--id"),
                                  printer: printer, jobs: jobs)
        batch.compileForThread = { loaded.compiledAgain() }
        if arguments.has("--summary") {
            guard !arguments.has("--profile"), !arguments.has("--id") else { throw UsageError(message: "--summary needs --profiles or --store (without --id)") }
            guard !arguments.has("--explain") else { throw UsageError(message: "give --summary or --explain, not both") }
            batch.summary = true
        }
        var rejected = 0

        if let path = arguments.value("--profile") {
            let bytes: [UInt8]
            if path == "-" {
                bytes = io.readStandardInput()
            } else {
                switch SourceLoader.read(path) {
                case .failure(let error):
                    io.report(error)
                    return ExitStatus.inputError
                case .success(let read): bytes = read
                }
            }
            let name = CommandSupport.inputName(path)
            switch ProfileReader.read(bytes) {
            case .failure(let error):
                io.report(jsonLinesLine(in: bytes, file: name).map { .secondProfileInFile(file: name, line: $0) } ?? .badFile(error.message, file: name))
                return ExitStatus.inputError
            case .success(let profile):
                var output = BatchResolver.Output()
                batch.resolve(.profile(profile), line: nil, into: &output)
                emit(output, file: name, linesBefore: 0, io: io)
                rejected += output.rejections.count
            }
        } else {
            let given = arguments.value("--profiles") ?? arguments.value("--store")!
            let path = CommandSupport.inputName(given)
            guard var reader = CommandSupport.lines(of: given, io: io) else {
                io.report(.cannotRead(path))
                return ExitStatus.inputError
            }
            let (batchRejected, found, counts) = batch.run(&reader) { emit($0, file: path, linesBefore: $1, io: io) }
            if batch.summary { printSummary(counts, tails: batch.tails, program: program, placements: placements, format: format, io: io) }
            rejected += batchRejected
            if let onlyID = batch.onlyID, !found {
                io.report(.noProfile(id: onlyID, in: path))
                return ExitStatus.inputError
            }
        }
        return rejected > 0 ? ExitStatus.inputError : ExitStatus.success
    }

    /// The line where a second JSON value starts, when `bytes` hold one JSON value per line
    /// (a JSON Lines file given to `--profile`): its first non-blank line is JSON on its own.
    static func jsonLinesLine(in bytes: [UInt8], file: String) -> Int? {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().filter { !$0.element.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }[...]
        guard lines.count > 1, let first = lines.popFirst(), case .success = JSONParser.parse(first.element) else { return nil }
        return lines.first.map { $0.offset + 1 }
    }

    /// Writes a chunk's output: its bytes to standard output, each rejection to standard error
    /// where it came (numbered after the `linesBefore` lines of `file` before the chunk).
    static func emit(_ output: BatchResolver.Output, file: String, linesBefore: Int, io: CommandIO) {
        var written = 0
        for (index, rejection) in output.rejections.enumerated() {
            if rejection.offset > written { io.out(output.bytes[written..<rejection.offset]) }
            written = rejection.offset
            io.report(output.diagnostic(index, file: file, linesBefore: linesBefore))
        }
        if output.bytes.count > written { io.out(output.bytes[written...]) }
    }

    /// Prints `--summary`: per placement, every decision it can make (`possibleDecisions`) with
    /// its profile count and share, 0 where no profile takes it. One entry is one decision,
    /// whether a sticky experiment's recorded assignment or the audience and a draw gave it;
    /// when the rules have sticky experiments, each entry also says how many of its profiles an
    /// assignment kept (JSON `sticky` on every entry; text on the entries of sticky experiments).
    static func printSummary(_ counts: [Int], tails: DecisionTails, program: Program, placements: [Int], format: OutputFormat, io: CommandIO) {
        let stickyExperiments = program.stickyExperiments
        for placement in placements {
            let entries = tails.placementTails[placement]
            let total = entries.reduce(0) { $0 + counts[$1] }
            if format == .text { io.out("\(program.placements[placement].name): \(total) profiles\n") }
            for decision in program.possibleDecisions(placement: placement) {
                var count = 0, sticky = 0
                for tail in entries where tails.decisions[tail].sameEntry(as: decision) {
                    count += counts[tail]
                    if tails.decisions[tail].isSticky { sticky += counts[tail] }
                }
                switch format {
                case .text:
                    let canStick = decision.experiment.map(stickyExperiments.contains) ?? false
                    io.out("  \(decision.outcomeText): \(CommandSupport.sizeText(count, of: total, sticky: canStick ? sticky : nil))\n")
                case .json:
                    var members = decision.json.objectMembers ?? []
                    members.removeAll { $0.key == "profile_id" }
                    members.append(JSONMember(key: "profiles", value: .number(Double(count))))
                    members.append(JSONMember(key: "share", value: .number(CommandSupport.share(count, of: total))))
                    if !stickyExperiments.isEmpty { members.append(JSONMember(key: "sticky", value: .number(Double(sticky)))) }
                    io.out(JSONWriter.write(.object(members)) + "\n")
                }
            }
        }
    }
}
