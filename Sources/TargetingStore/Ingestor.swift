import TargetingBatch
import Foundation
import TargetingBase
import TargetingProfiles

/// The input handler over event streams: applies each event line to the store's profile as it
/// arrives, and counts what it did.
///
/// A line of the common shape is read by `EventScan`, without a JSON tree; any other line by
/// `EventLine`, which reads every line and names what is wrong with a bad one. A
/// `profile_updated` line sets built-in fields, and a `placement_shown` line adds to the
/// profile's history (`ShownEvent`); every other line goes to the input handler. A rejected line
/// and each warning are reported where they are, and the next line is read: a bad line never
/// keeps a good one out. The lines go to an `IngestDestination`: the store on disk, or
/// profiles held in memory.
package struct Ingestor {
    /// Reads events through the rules' `input` declarations.
    package let interpreter: FlowEventInterpreter
    /// The name the default time zone was given, for messages (Foundation calls UTC `GMT`).
    package let zoneName: String
    /// What the lines so far did.
    package private(set) var summary = IngestSummary()
    private var scan = EventScan()
    /// Per stored line of the store: whether its profile has a session open. Sessions of other
    /// profiles are kept by id in `summary.openSessions`, and these join them in `finish`.
    private var openStored: [Bool] = []
    /// Readings of scanned lines, by their bytes without the profile id.
    private var readings = EventReadingCache()

    /// An ingestor whose pickers feeding a calendar date fall back to `interpreter`'s zone, named `zoneName`.
    package init(interpreter: FlowEventInterpreter, zoneName: String) {
        self.interpreter = interpreter
        self.zoneName = zoneName
    }

    /// Applies one record of an event file to `store`, handing each warning and the rejection
    /// (if any) to `report`, in that order.
    package mutating func ingest<Store: IngestDestination>(_ record: JSONLinesReader.Record, into store: inout Store, report: (Diagnostic) -> Void) {
        let problem: Diagnostic?
        switch record.bytes {
        case .failure(let rejection):
            problem = rejection
        case .success(let bytes):
            summary.events += 1
            problem = bytes.withUnsafeBufferPointer { ingest($0, record: record, into: &store, report: report) }
        }
        if let problem {
            summary.rejected += 1
            report(problem)
        }
    }

    /// Applies every line of the event file `reader` reads, in order: a blank line is
    /// skipped, a line too long is rejected.
    package mutating func ingest<Store: IngestDestination>(_ reader: inout LineChunkReader, into store: inout Store, report: (Diagnostic) -> Void) {
        let path = reader.path
        var chunk = LineChunk()
        var linesBefore = 0
        while reader.next(into: &chunk) {
            linesBefore += chunk.forEachLine { number, bytes in
                ingest(bytes, line: linesBefore + number, path: path, into: &store, report: report)
            }
        }
    }

    /// Applies line `line` of the event file at `path` (nil bytes: too long).
    private mutating func ingest<Store: IngestDestination>(_ bytes: UnsafeBufferPointer<UInt8>?, line: Int, path: String, into store: inout Store, report: (Diagnostic) -> Void) {
        guard let bytes else {
            summary.rejected += 1
            report(.badRecord(LineChunk.tooLongMessage, file: path, line: line))
            return
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        summary.events += 1
        // The record names where the line is; its bytes are the chunk's, not the record's.
        let record = JSONLinesReader.Record(path: path, line: line, bytes: .success([]))
        if let problem = ingest(bytes, record: record, into: &store, report: report) {
            summary.rejected += 1
            report(problem)
        }
    }

    /// Ends the run over `store` once saved: counts its changed lines and returns the summary,
    /// handing the one warning for picker dates that were not midnight to `report`.
    package mutating func finish(_ store: ProfileStore, report: (Diagnostic) -> Void) -> IngestSummary {
        if !openStored.isEmpty {
            let open = openStored
            summary.openSessions.formUnion(store.storedIDs { open[$0] })
            openStored = []
        }
        summary.updated = store.changedCount - summary.created
        summary.unchanged = store.unchangedCount
        if let first = summary.firstNotMidnight {
            summary.warnings += 1
            report(.pickerDatesNotMidnight(summary.datesNotMidnight, field: AttributeTarget.builtin("birthday").written,
                                           file: first.file, line: first.line, zone: first.zone, date: first.date))
        }
        return summary
    }

    /// Handles one event line; returns the diagnostic rejecting it.
    private mutating func ingest<Store: IngestDestination>(_ bytes: UnsafeBufferPointer<UInt8>, record: JSONLinesReader.Record, into store: inout Store, report: (Diagnostic) -> Void) -> Diagnostic? {
        var scan = self.scan
        defer { self.scan = scan }
        // A `profile_updated` line is read whole: its fields are a nested object.
        if let head = scan.scan(bytes), head.name != ProfileUpdate.eventName {
            if head.name == ShownEvent.eventName {
                return show(profileID: head.profileID, params: scan.params(in: bytes), record: record, into: &store)
            }
            let hash = EventReadingCache.hash(bytes, without: head.profileIDBytes)
            let known = readings.reading(bytes, id: head.profileIDBytes, hash: hash)
            var reading = known
            let problem = ingest(profileID: head.profileID, name: head.name, lineTimeZone: head.timeZone, params: scan.params(in: bytes),
                                 reading: &reading, record: record, into: &store, report: report)
            if known == nil, let reading { readings.keep(reading, for: bytes, id: head.profileIDBytes, hash: hash) }
            return problem
        }
        switch EventLine.parse(bytes, file: record.path, line: record.line) {
        case .failure(let rejection): return rejection
        case .success(let event) where event.name == ProfileUpdate.eventName:
            return update(profileID: event.profileID, params: event.params, record: record, into: &store)
        case .success(let event) where event.name == ShownEvent.eventName:
            return show(profileID: event.profileID, params: event.params, record: record, into: &store)
        case .success(let event):
            var reading: EventReading?
            return ingest(profileID: event.profileID, name: event.name, lineTimeZone: event.timeZone, params: event.params,
                          reading: &reading, record: record, into: &store, report: report)
        }
    }

    /// Sets the built-in fields of a `profile_updated` line; returns the diagnostic rejecting it.
    private mutating func update<Store: IngestDestination>(profileID: String, params: JSONValue, record: JSONLinesReader.Record, into store: inout Store) -> Diagnostic? {
        switch ProfileUpdate.read(params) {
        case .failure(let error):
            return record.rejection("profile `\(profileID)`: " + error.message)
        case .success(let update):
            let created = store.update(id: profileID, at: store.index(of: profileID)) { profile in
                profile.apply(update)
                return true
            }
            if created { summary.created += 1 }
            summary.profileUpdates += 1
            return nil
        }
    }

    /// Records a `placement_shown` line in the profile's history; returns the diagnostic rejecting it.
    /// It needs no rules, and opens or closes no session.
    private mutating func show<Store: IngestDestination>(profileID: String, params: some EventParams, record: JSONLinesReader.Record, into store: inout Store) -> Diagnostic? {
        switch ShownEvent.read(params) {
        case .failure(let error):
            return record.rejection("profile `\(profileID)`: " + error.message)
        case .success(let shown):
            let created = store.record(shown, profileID: profileID, file: record.path, line: record.line)
            if created { summary.created += 1 }
            summary.shown += 1
            return nil
        }
    }

    /// Handles one event; returns the diagnostic rejecting it. `known` is the interpreter's reading
    /// of the event without the profile, when known; otherwise it is read here and left in `known`.
    private mutating func ingest<Store: IngestDestination>(profileID: String, name: String, lineTimeZone: TimeZone?, params: some EventParams, reading known: inout EventReading?,
                                 record: JSONLinesReader.Record, into store: inout Store, report: (Diagnostic) -> Void) -> Diagnostic? {
        // One lookup of the id serves the session and the answer.
        let index = store.index(of: profileID)
        let stored = index.flatMap { $0 < store.storedCount ? $0 : nil }
        if stored != nil, openStored.isEmpty { openStored = Array(repeating: false, count: store.storedCount) }
        if name == EventLine.sessionEnd {
            if let stored {
                if openStored[stored] { summary.sessionsClosed += 1 }
                openStored[stored] = false
            } else if summary.openSessions.remove(profileID) != nil {
                summary.sessionsClosed += 1
            }
            return nil
        }
        // Read without the profile first: only an answer reads or changes one, and only a
        // calendar date read from a line without a zone needs the profile's stored zone.
        var reading = known ?? interpreter.read(name: name, params: params, lineTimeZone: lineTimeZone, storedTimeZone: nil)
        known = reading
        var effect: EventEffect
        if reading.outcome.isAnswer {
            effect = .rejected("")  // always replaced: `update` calls its change once
            let interpreter = self.interpreter
            let created = store.update(id: profileID, at: index) { profile in
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
                let zone = date.zone == interpreter.timeZone ? zoneName : date.zone.identifier
                summary.firstNotMidnight = IngestSummary.NotMidnight(file: record.path, line: record.line, zone: zone, date: answer.value?.stringValue ?? "")
            }
        }
        // Any other event the profile's flow sends opens its session, unless it is rejected
        // (`.rejected`, `.notStored`): a rejected line changes nothing.
        func openSession() {
            if let stored { openStored[stored] = true } else { summary.openSessions.insert(profileID) }
        }
        switch effect {
        case .ignored(let reason):
            openSession()
            summary.ignored[reason, default: 0] += 1
            return nil
        case .rejected(let reason):
            return record.rejection("profile `\(profileID)`: " + reason)
        case .stored(_, let warnings), .notStored(_, let warnings):
            for warning in warnings {
                summary.warnings += 1
                report(.recordWarning(warning, file: record.path, line: record.line))
            }
            if case .notStored(let rejection, _) = effect { return record.rejection("profile `\(profileID)`: " + rejection.message) }
            openSession()
            summary.applied += 1
            return nil
        }
    }
}
