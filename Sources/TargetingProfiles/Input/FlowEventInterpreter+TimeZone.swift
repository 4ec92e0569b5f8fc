import Foundation
import TargetingBase

/// What one event amounted to, with how a picker was read as a calendar date, if one was.
package struct EventReading: Hashable, Sendable {
    /// The answer, the reason it was ignored, or the reason it was rejected.
    package var outcome: EventOutcome
    /// For a picker feeding a calendar date (`profile.birthday`): the zone it was read in and
    /// whether its instant was midnight there. Nil for every other event.
    package var calendarDate: CalendarDateReading?
}

/// How a picker's instant became a calendar date (a birthday is a date in a zone).
package struct CalendarDateReading: Hashable, Sendable {
    /// The zone whose calendar date was stored.
    package var zone: TimeZone
    /// Whether the instant was 00:00:00.000 in `zone`; when it was not, a picker that sends
    /// the user's local midnight was probably read in another zone than the user's.
    package var isLocalMidnight: Bool
}

extension FlowEventInterpreter {
    /// Interprets one line of an event stream for `profile` (nil when it is not at hand).
    ///
    /// A picker feeding a calendar date is read in the first zone of: the line's `time_zone`,
    /// the profile's stored `time_zone` field, the interpreter's `timeZone` (`ingest
    /// --time-zone`, UTC by default). The user's zone where the event was made wins over one
    /// stored earlier, which wins over one zone for every user. A stored `time_zone` that is
    /// not an IANA name rejects such a picker (other answers do not read it).
    package func read(_ event: EventLine, storedOn profile: Profile?) -> EventReading {
        read(event, storedTimeZone: profile?["time_zone"])
    }

    /// Interprets one line of an event stream given the profile's stored `time_zone` field (nil
    /// when absent, `null`, or the profile is not at hand); see `read(_:storedOn:)`.
    package func read(_ event: EventLine, storedTimeZone stored: JSONValue?) -> EventReading {
        read(name: event.name, params: event.params, lineTimeZone: event.timeZone, storedTimeZone: stored)
    }

    /// Interprets an event given its name, params, the line's `time_zone` and the profile's
    /// stored one (either nil when absent); see `read(_:storedOn:)`.
    package func read(name: String, params: some EventParams, lineTimeZone: TimeZone?, storedTimeZone stored: JSONValue?) -> EventReading {
        let first = reading(name: name, params: params, timeZone: lineTimeZone ?? timeZone)
        guard first.calendarDate != nil, lineTimeZone == nil, let stored else { return first }
        guard case .string(let zoneName) = stored, let zone = TimeZone(identifier: zoneName) else {
            let shown = stored.stringValue.map { "`\($0)`" } ?? "holds a \(stored.typeName)"
            let reason = "the profile's stored `time_zone` \(shown) is not an IANA time zone such as `Europe/Berlin`, "
                + "so the picker's calendar date cannot be read"
            return EventReading(outcome: .rejected(reason), calendarDate: nil)
        }
        return zone == timeZone ? first : reading(name: name, params: params, timeZone: zone)
    }
}
