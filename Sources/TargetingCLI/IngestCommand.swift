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

    Values are applied to the stored profile as they arrive; `flow_did_disappear` closes a
    session. Prints a summary; every rejected line is reported on stderr with its file and
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

    /// Counters for the summary.
    struct Summary {
        var events = 0
        var applied = 0
        var ignored: [String: Int] = [:]
        var rejected = 0
        var warnings = 0
        var created = 0
        /// Profiles that existed before and whose stored line changed (created ones count only as created).
        var updated = 0
        /// Profiles that existed before and took answers, but whose stored line stays the same.
        var unchanged = 0
        /// Stored picker values read as calendar dates that were not midnight in the zone used.
        var datesNotMidnight = 0
        /// The first of them: where, the zone, and the date stored.
        var firstNotMidnight: (file: String, line: Int, zone: String, date: String)?
        var sessionsClosed = 0
        var openSessions: Set<String> = []
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
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
        for path in arguments.positionals where !FileManager.default.isReadableFile(atPath: path) {
            io.report(.cannotRead(path))
            return ExitStatus.inputError
        }

        let storePath = arguments.value("--store") ?? "profiles.jsonl"
        let lock: FileLock
        do {
            // Before locking, so a directory given as the store gets no lock file beside it.
            try ProfileStore.checkIsNotDirectory(storePath)
            lock = try FileLock(protecting: storePath, onWait: { io.err("waiting for another ingest to release `\(storePath)`…\n") })
        } catch let error as StoreError {
            io.report(error.adding("; the store was not changed"))
            return ExitStatus.inputError
        } catch let error as FileLock.Failure {
            io.report(.storeNotLockable(storePath, reason: error.reason))
            return ExitStatus.inputError
        }
        defer { lock.release() }
        AtomicFile.removeLeftovers(of: storePath)
        var store: ProfileStore
        do {
            store = try ProfileStore.open(storePath)
        } catch let error as StoreError {
            io.report(error.adding("; the store was not changed"))
            return ExitStatus.inputError
        }

        var summary = Summary()
        var scan = EventScan()
        for path in arguments.positionals {
            guard var reader = JSONLinesReader(path: path) else {
                io.report(.cannotRead(path))
                return ExitStatus.inputError
            }
            while let record = reader.next() {
                let problem: Diagnostic?
                switch record.bytes {
                case .failure(let rejection):
                    problem = rejection
                case .success(let bytes):
                    summary.events += 1
                    problem = ingest(bytes, scan: &scan, interpreter: interpreter, zoneName: zoneName, store: &store, summary: &summary, record: record, io: io)
                }
                if let problem {
                    summary.rejected += 1
                    io.report(problem)
                }
            }
        }
        store.settle()
        if store.isModified || !FileManager.default.fileExists(atPath: storePath) {
            do {
                try store.save()
            } catch let error as StoreError {
                io.report(error.adding("; the store was not changed"))
                return ExitStatus.inputError
            }
        }
        summary.updated = store.changedCount - summary.created
        summary.unchanged = store.unchangedCount
        if let first = summary.firstNotMidnight {
            summary.warnings += 1
            io.report(.pickerDatesNotMidnight(summary.datesNotMidnight, field: "profile.birthday", file: first.file, line: first.line,
                                              zone: first.zone, date: first.date))
        }
        printSummary(summary, store: storePath, format: format, io: io)
        return summary.rejected > 0 ? ExitStatus.inputError : ExitStatus.success
    }

    /// Handles one event line; returns the diagnostic rejecting it.
    ///
    /// A line of the common shape is read by `EventScan`, without a JSON tree; any other line
    /// by `EventLine`, which reads every line and names what is wrong with a bad one.
    static func ingest(_ bytes: [UInt8], scan: inout EventScan, interpreter: FlowEventInterpreter, zoneName: String, store: inout ProfileStore,
                       summary: inout Summary, record: JSONLinesReader.Record, io: CommandIO) -> Diagnostic? {
        let scanned = bytes.withUnsafeBufferPointer { buffer -> Diagnostic?? in
            guard let head = scan.scan(buffer) else { return .none }
            return .some(ingest(profileID: head.profileID, name: head.name, lineTimeZone: head.timeZone, params: scan.params(in: buffer),
                                interpreter: interpreter, zoneName: zoneName, store: &store, summary: &summary, record: record, io: io))
        }
        if let scanned { return scanned }
        switch EventLine.parse(bytes, file: record.path, line: record.line) {
        case .failure(let rejection): return rejection
        case .success(let event):
            return ingest(profileID: event.profileID, name: event.name, lineTimeZone: event.timeZone, params: event.params,
                          interpreter: interpreter, zoneName: zoneName, store: &store, summary: &summary, record: record, io: io)
        }
    }

    /// Handles one event; returns the diagnostic rejecting it.
    static func ingest(profileID: String, name: String, lineTimeZone: TimeZone?, params: some EventParams, interpreter: FlowEventInterpreter,
                       zoneName: String, store: inout ProfileStore, summary: inout Summary, record: JSONLinesReader.Record, io: CommandIO) -> Diagnostic? {
        if name == EventLine.sessionEnd {
            if summary.openSessions.remove(profileID) != nil { summary.sessionsClosed += 1 }
            return nil
        }
        summary.openSessions.insert(profileID)
        // Read without the profile first: only an answer reads or changes one, and only a
        // calendar date read from a line without a zone needs the profile's stored zone.
        var reading = interpreter.read(name: name, params: params, lineTimeZone: lineTimeZone, storedTimeZone: nil)
        var effect: EventEffect
        if reading.outcome.isAnswer {
            effect = .ignored("")
            let created = store.update(id: profileID) { profile in
                if reading.calendarDate != nil, lineTimeZone == nil {
                    reading = interpreter.read(name: name, params: params, lineTimeZone: nil, storedTimeZone: profile["time_zone"])
                }
                effect = profile.record(reading.outcome)
                return effect.changedProfile
            }
            if created { summary.created += 1 }
        } else {
            // Not an answer: no profile is read or changed.
            var untouched = Profile()
            effect = untouched.record(reading.outcome)
        }
        if case .stored(let answer, _) = effect, let date = reading.calendarDate, !date.isLocalMidnight {
            summary.datesNotMidnight += 1
            if summary.firstNotMidnight == nil {
                // The default zone by the name it was given (Foundation calls UTC `GMT`).
                let zone = date.zone == interpreter.timeZone ? zoneName : date.zone.identifier
                summary.firstNotMidnight = (record.path, record.line, zone, answer.value?.stringValue ?? "")
            }
        }
        switch effect {
        case .ignored(let reason):
            summary.ignored[reason, default: 0] += 1
            return nil
        case .rejected(let reason):
            return record.rejection("profile `\(profileID)`: " + reason)
        case .stored(_, let warnings), .notStored(_, let warnings):
            for warning in warnings {
                summary.warnings += 1
                io.report(.recordWarning(warning, file: record.path, line: record.line))
            }
            if case .notStored(let rejection, _) = effect { return record.rejection("profile `\(profileID)`: " + rejection.message) }
            summary.applied += 1
            return nil
        }
    }

    static func printSummary(_ summary: Summary, store: String, format: OutputFormat, io: CommandIO) {
        let ignoredTotal = summary.ignored.values.reduce(0, +)
        let open = summary.openSessions.sorted()
        switch format {
        case .json:
            let json = JSONValue.object([
                JSONMember(key: "store", value: .string(store)),
                JSONMember(key: "events", value: .number(Double(summary.events))),
                JSONMember(key: "applied", value: .number(Double(summary.applied))),
                JSONMember(key: "ignored", value: .object(summary.ignored.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .number(Double($0.value))) })),
                JSONMember(key: "rejected", value: .number(Double(summary.rejected))),
                JSONMember(key: "warnings", value: .number(Double(summary.warnings))),
                JSONMember(key: "profiles_created", value: .number(Double(summary.created))),
                JSONMember(key: "profiles_updated", value: .number(Double(summary.updated))),
                JSONMember(key: "profiles_unchanged", value: .number(Double(summary.unchanged))),
                JSONMember(key: "dates_not_midnight", value: .number(Double(summary.datesNotMidnight))),
                JSONMember(key: "sessions_closed", value: .number(Double(summary.sessionsClosed))),
                JSONMember(key: "sessions_open", value: .array(open.map(JSONValue.string))),
            ])
            io.out(JSONWriter.write(json) + "\n")
        case .text:
            var text = "events read: \(summary.events)\n"
            text += "inputs applied: \(summary.applied)\n"
            text += "ignored: \(ignoredTotal)"
            if ignoredTotal > 0 {
                text += " (" + summary.ignored.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
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
