import Foundation
import TargetingBase
import TargetingProfiles
import TargetingStore

/// `targeting ingest EVENTS.jsonl… [--store FILE]`: the input handler over event streams.
enum IngestCommand: Command {
    static let name = "ingest"
    static let overview = "Apply flow_user_input event streams to the profile store"
    static let usage = "ingest EVENTS.jsonl… [--store FILE] [--rules PATH | --no-rules] [--time-zone NAME] [--format text|json]"
    static let discussion = """
    ARGUMENTS:
      EVENTS.jsonl                JSON Lines: each line is an event's params plus "profile_id"
                                  (`-` reads standard input; messages name it `<stdin>`)

    Values are applied to the stored profile as they arrive; `flow_did_disappear` closes a
    session; a `profile_updated` line sets built-in fields, and a `placement_shown` line adds
    to the profile's history (what it was shown, and each experiment's first variant). Prints a summary; every rejected line is reported on stderr with its file and
    line number, and the exit status is then 2. The store (default profiles.jsonl) is locked
    while ingesting and replaced atomically; a store with a corrupt line is left untouched.
    Without --rules the rules are read from `Rules`; with neither, --no-rules is needed.

    A picker feeding profile.birthday is read as a calendar date in the event line's
    "time_zone" (an IANA name), else the profile's stored "time_zone", else --time-zone.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.format,
        OptionSpec(names: ["--store"], takesValue: true, valueName: "FILE", help: "The profile store (default: profiles.jsonl)"),
        OptionSpec(names: ["--no-rules"], takesValue: false, valueName: "", help: "Apply no `input` declarations: store every answer under its element id"),
        OptionSpec(names: ["--time-zone"], takesValue: true, valueName: "NAME", help: "Time zone for pickers that feed profile.birthday when neither the event line nor the profile has a \"time_zone\" (default: UTC)"),
    ]

    /// Open sessions listed by name in the text summary (JSON lists them all).
    static let openSessionsShown = 20

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        if arguments.value("--store") == "-" { throw UsageError(message: "--store names the file ingest writes; it cannot be `-` (standard input)") }
        try CommandSupport.readStandardInputOnce(arguments.positionals)
        let format = try OutputFormat.from(arguments)
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing event file (EVENTS.jsonl)") }
        let zoneName = arguments.value("--time-zone") ?? "UTC"
        guard let timeZone = TimeZone(identifier: zoneName) else {
            throw UsageError(message: "unknown time zone `\(zoneName)`")
        }
        var mapping = InputMapping()
        if arguments.has("--no-rules") {
            guard arguments.value("--rules") == nil else { throw UsageError(message: "--rules and --no-rules cannot be used together") }
        } else {
            guard CommandSupport.defaultRulesExist(arguments, io: io) else {
                io.report(.noRulesForIngest())
                return ExitStatus.inputError
            }
            let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
            guard let loaded = loadedRules else { return status }
            mapping = InputMapping(loaded.program.ruleSet)
        }
        let interpreter = FlowEventInterpreter(mapping: mapping, timeZone: timeZone)
        for path in arguments.positionals where path != "-" && !FileManager.default.isReadableFile(atPath: path) {
            io.report(.cannotRead(path))
            return ExitStatus.inputError
        }

        let storePath = arguments.value("--store") ?? "profiles.jsonl"
        var ingestor = Ingestor(interpreter: interpreter, zoneName: zoneName)
        var unreadable: String?
        let changed: ProfileStore?
        do throws(StoreError) {
            changed = try ProfileStore.change(at: storePath, onWait: { io.err("waiting for another ingest to release `\(storePath)`…\n") }) { store in
                for path in arguments.positionals {
                    guard var reader = CommandSupport.lines(of: path, io: io) else {
                        unreadable = path
                        return false
                    }
                    ingestor.ingest(&reader, into: &store, report: { io.report($0) })
                }
                return true
            }
        } catch {
            io.report(error.diagnostic)
            return ExitStatus.inputError
        }
        guard let store = changed else {
            io.report(.cannotRead(unreadable ?? ""))
            return ExitStatus.inputError
        }
        let summary = ingestor.finish(store, report: { io.report($0) })
        printSummary(summary, store: storePath, format: format, io: io)
        return summary.rejected > 0 ? ExitStatus.inputError : ExitStatus.success
    }

    static func printSummary(_ summary: IngestSummary, store: String, format: OutputFormat, io: CommandIO) {
        let ignoredTotal = summary.ignoredTotal
        let ignored = summary.ignored.map { (label: $0.key.description, count: $0.value) }.sorted { $0.label < $1.label }
        let open = summary.openSessions.sorted()
        switch format {
        case .json:
            var members = [
                JSONMember(key: "store", value: .string(store)),
                JSONMember(key: "events", value: .number(Double(summary.events))),
                JSONMember(key: "applied", value: .number(Double(summary.applied))),
                JSONMember(key: "profile_updates", value: .number(Double(summary.profileUpdates))),
            ]
            // Only runs that read shown lines carry `shown`, so other runs keep their output.
            if summary.shown > 0 { members.append(JSONMember(key: "shown", value: .number(Double(summary.shown)))) }
            members += [
                JSONMember(key: "ignored", value: .object(ignored.map { JSONMember(key: $0.label, value: .number(Double($0.count))) })),
                JSONMember(key: "rejected", value: .number(Double(summary.rejected))),
                JSONMember(key: "warnings", value: .number(Double(summary.warnings))),
                JSONMember(key: "profiles_created", value: .number(Double(summary.created))),
                JSONMember(key: "profiles_updated", value: .number(Double(summary.updated))),
                JSONMember(key: "profiles_unchanged", value: .number(Double(summary.unchanged))),
                JSONMember(key: "dates_not_midnight", value: .number(Double(summary.datesNotMidnight))),
                JSONMember(key: "sessions_closed", value: .number(Double(summary.sessionsClosed))),
                JSONMember(key: "sessions_open", value: .array(open.map(JSONValue.string))),
            ]
            io.out(JSONWriter.write(.object(members)) + "\n")
        case .text:
            var text = "events read: \(summary.events)\n"
            text += "inputs applied: \(summary.applied)\n"
            if summary.profileUpdates > 0 { text += "profile updates: \(summary.profileUpdates)\n" }
            if summary.shown > 0 { text += "shown events: \(summary.shown)\n" }
            text += "ignored: \(ignoredTotal)"
            if ignoredTotal > 0 {
                text += " (" + ignored.map { "\($0.label): \($0.count)" }.joined(separator: ", ") + ")"
            }
            text += "\nrejected: \(summary.rejected)\n"
            if summary.warnings > 0 { text += "warnings: \(summary.warnings)\n" }
            text += "profiles: \(summary.updated) updated, \(summary.created) created, \(summary.unchanged) unchanged\n"
            text += "sessions: \(summary.sessionsClosed) closed, \(open.count) still open"
            if !open.isEmpty {
                let shown = open.prefix(IngestCommand.openSessionsShown)
                text += " (" + shown.joined(separator: ", ")
                if open.count > shown.count { text += ", … and \(open.count - shown.count) more" }
                text += ")"
            }
            text += "\nstore: \(store)\n"
            io.out(text)
        }
    }
}
