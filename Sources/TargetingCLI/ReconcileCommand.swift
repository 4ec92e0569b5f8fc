import Foundation
import Targeting
import TargetingBase
import TargetingReconcile
import TargetingBatch

/// `targeting reconcile EVENTS…`: what the app showed against what the rules predict.
enum ReconcileCommand: Command {
    static let name = "reconcile"
    static let overview = "Compare the placements an event stream shows with what the rules decide"
    static let usage = "reconcile EVENTS.jsonl… [--rules PATH] [--time-zone NAME] [--explain PROFILE_ID] [--format text|json|markdown]"
    static let discussion = """
    ARGUMENTS:
      EVENTS.jsonl                JSON Lines event files, replayed in order (`-` reads
                                  standard input)

    Replays the files as `ingest` would into an empty store, in memory (answers,
    `profile_updated` and `placement_shown` lines; a rejected line is reported on stderr with
    its file and line number, and the next line is read). At each `placement_shown` line the
    rules resolve its placement for the profile as it stood just before the line, at the
    line's "at", and the line takes the first class that applies: unknown placement, shown but
    predicted nothing, held out but shown an experiment, variant changed after assignment,
    different variant, different destination, match. Prints, per placement, the count of each
    class with up to three example lines: profile id, instant, what the rules predicted and
    what was shown (destination, experiment and variant, held out). Then per experiment a
    sample-ratio check: the profiles first assigned to each variant, their observed share
    against the share the weights expect, with Pearson's chi-squared p-value, flagged below
    0.001.
    With --format json: {"placements":[{"placement","shown","classes":{CLASS:N},"examples":
    {CLASS:[{"profile_id","at","predicted","shown"}]}}],"experiments":[{"experiment",
    "assigned":{VARIANT:N},"expected":{VARIANT:PERCENT},"p_value","flagged"}]}. "predicted"
    and "shown" are {"kind","id","experiment","variant","held_out"} (kind and id null for
    nothing); "predicted" is null when the placement is unknown, no row matched, or no draw
    could be made. "expected" is a percentage (50 for half), null for an undeclared variant.
    --format markdown prints the report for a pull request.
    --explain PROFILE_ID prints instead, for each shown line of that profile in order, its
    file and line, instant, what it showed, its class and the rules' explanation of their
    decision (the text of `resolve --explain`); with --format json one object:
    {"profile_id","lines":[{"file","line","at","placement","class","predicted","shown",
    "decision","error"}]}, "decision" being the object of `resolve --explain --format json`.
    It takes no --format markdown (usage error, 64), and a profile no line creates is an
    error (2); its exit status otherwise counts only that profile's shown lines.
    Exit status: 0 when every shown line matches; 1 when some do not; 2 for an unreadable file,
    rules with errors, or rejected event lines.
    """
    static let options = [
        CommonOptions.rules,
        OptionSpec(names: ["--time-zone"], takesValue: true, valueName: "NAME", help: "Time zone for pickers that feed profile.birthday when neither the event line nor the profile has a \"time_zone\" (default: UTC)"),
        OptionSpec(names: ["--explain"], takesValue: true, valueName: "PROFILE_ID", help: "Follow one profile: each of its shown lines with the rules' explanation"),
        ReportFormat.option,
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try ReportFormat.from(arguments)
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing event file (EVENTS.jsonl)") }
        let explaining = arguments.value("--explain")
        if explaining != nil, format == .markdown { throw UsageError(message: "--explain prints text or json, not markdown") }
        let zoneName = arguments.value("--time-zone") ?? "UTC"
        guard let timeZone = TimeZone(identifier: zoneName) else { throw UsageError(message: "unknown time zone `\(zoneName)`") }
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        try CommandSupport.readStandardInputOnce(arguments.positionals)
        var readers: [LineChunkReader] = []
        for path in arguments.positionals {
            guard let reader = CommandSupport.lines(of: path, io: io) else {
                io.report(.cannotRead(path))
                return ExitStatus.inputError
            }
            readers.append(reader)
        }
        var reconciler = Reconciler(program: rules.program, timeZone: timeZone, zoneName: zoneName, explaining: explaining)
        for index in readers.indices {
            reconciler.replay(&readers[index], report: { io.report($0) })
        }
        if let trace = reconciler.trace {
            guard trace.isKnown else {
                io.report(.noProfileInEvents(id: trace.profileID))
                return ExitStatus.inputError
            }
            switch format {
            case .text: io.out(trace.text)
            case .json: io.out(JSONWriter.write(trace.json) + "\n")
            case .markdown: break
            }
            if reconciler.rejected > 0 { return ExitStatus.inputError }
            return trace.mismatches == 0 ? ExitStatus.success : ExitStatus.no
        }
        let report = reconciler.report
        switch format {
        case .text: io.out(report.text)
        case .json: io.out(JSONWriter.write(report.json) + "\n")
        case .markdown: io.out(ReconcileMarkdown.render(report))
        }
        if reconciler.rejected > 0 { return ExitStatus.inputError }
        return report.allMatch ? ExitStatus.success : ExitStatus.no
    }
}
