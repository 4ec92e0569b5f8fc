import Foundation
import TargetingBase
import TargetingProfiles

/// The input handler over event streams: applies each event line to the store's profile as it
/// arrives, and counts what it did.
///
/// A line of the common shape is read by `EventScan`, without a JSON tree; any other line by
/// `EventLine`, which reads every line and names what is wrong with a bad one. A rejected line
/// and each warning are reported where they are, and the next line is read: a bad line never
/// keeps a good one out.
package struct Ingestor {
    /// Reads events through the rules' `input` declarations.
    package let interpreter: FlowEventInterpreter
    /// The name the default time zone was given, for messages (Foundation calls UTC `GMT`).
    package let zoneName: String
    /// What the lines so far did.
    package private(set) var summary = IngestSummary()
    private var scan = EventScan()

    /// An ingestor whose pickers feeding a calendar date fall back to `interpreter`'s zone, named `zoneName`.
    package init(interpreter: FlowEventInterpreter, zoneName: String) {
        self.interpreter = interpreter
        self.zoneName = zoneName
    }

    /// Applies one record of an event file to `store`, handing each warning and the rejection
    /// (if any) to `report`, in that order.
    package mutating func ingest(_ record: JSONLinesReader.Record, into store: inout ProfileStore, report: (Diagnostic) -> Void) {
        let problem: Diagnostic?
        switch record.bytes {
        case .failure(let rejection):
            problem = rejection
        case .success(let bytes):
            summary.events += 1
            problem = ingest(bytes, record: record, into: &store, report: report)
        }
        if let problem {
            summary.rejected += 1
            report(problem)
        }
    }

    /// Ends the run over `store` once saved: counts its changed lines and returns the summary,
    /// handing the one warning for picker dates that were not midnight to `report`.
    package mutating func finish(_ store: ProfileStore, report: (Diagnostic) -> Void) -> IngestSummary {
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
    private mutating func ingest(_ bytes: [UInt8], record: JSONLinesReader.Record, into store: inout ProfileStore, report: (Diagnostic) -> Void) -> Diagnostic? {
        var scan = self.scan
        defer { self.scan = scan }
        let scanned = bytes.withUnsafeBufferPointer { buffer -> Diagnostic?? in
            // A `profile_updated` line is read whole: its fields are a nested object.
            guard let head = scan.scan(buffer), head.name != ProfileUpdate.eventName else { return .none }
            return .some(ingest(profileID: head.profileID, name: head.name, lineTimeZone: head.timeZone, params: scan.params(in: buffer),
                                record: record, into: &store, report: report))
        }
        if let scanned { return scanned }
        switch EventLine.parse(bytes, file: record.path, line: record.line) {
        case .failure(let rejection): return rejection
        case .success(let event) where event.name == ProfileUpdate.eventName:
            return update(profileID: event.profileID, params: event.params, record: record, into: &store)
        case .success(let event):
            return ingest(profileID: event.profileID, name: event.name, lineTimeZone: event.timeZone, params: event.params,
                          record: record, into: &store, report: report)
        }
    }

    /// Sets the built-in fields of a `profile_updated` line; returns the diagnostic rejecting it.
    private mutating func update(profileID: String, params: JSONValue, record: JSONLinesReader.Record, into store: inout ProfileStore) -> Diagnostic? {
        switch ProfileUpdate.read(params) {
        case .failure(let error):
            return record.rejection("profile `\(profileID)`: " + error.message)
        case .success(let update):
            let created = store.update(id: profileID) { profile in
                profile.apply(update)
                return true
            }
            if created { summary.created += 1 }
            summary.profileUpdates += 1
            return nil
        }
    }

    /// Handles one event; returns the diagnostic rejecting it.
    private mutating func ingest(profileID: String, name: String, lineTimeZone: TimeZone?, params: some EventParams,
                                 record: JSONLinesReader.Record, into store: inout ProfileStore, report: (Diagnostic) -> Void) -> Diagnostic? {
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
            effect = .rejected("")  // always replaced: `update` calls its change once
            let interpreter = self.interpreter
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
                let zone = date.zone == interpreter.timeZone ? zoneName : date.zone.identifier
                summary.firstNotMidnight = IngestSummary.NotMidnight(file: record.path, line: record.line, zone: zone, date: answer.value?.stringValue ?? "")
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
                report(.recordWarning(warning, file: record.path, line: record.line))
            }
            if case .notStored(let rejection, _) = effect { return record.rejection("profile `\(profileID)`: " + rejection.message) }
            summary.applied += 1
            return nil
        }
    }
}
