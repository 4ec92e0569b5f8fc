import Foundation
import TargetingBase

/// One line of an event stream on disk: the event's params as the SDK delivers them
/// (including `name`) plus `"profile_id"`.
package struct EventLine: Hashable, Sendable {
    /// The profile the event belongs to.
    package var profileID: String
    /// The event name, e.g. `flow_user_input`.
    package var name: String
    /// The whole object, handed to the interpreter as the event's params.
    package var params: JSONValue
    /// The user's time zone, from the line's `"time_zone"` (an IANA name such as
    /// `Europe/Berlin`); nil when absent or `null`.
    package var timeZone: TimeZone?

    /// Whether the event closes the profile's flow session (`flow_did_disappear`).
    package var closesSession: Bool { name == EventLine.sessionEnd }

    /// The name of the event that closes a flow session.
    package static let sessionEnd = "flow_did_disappear"

    /// Why a line is not an event.
    package struct Rejection: Error, Hashable, Sendable {
        /// A lowercase message, e.g. "missing `name`".
        package var message: String
        /// The profile the line names: set when the line is a JSON object with a usable
        /// `profile_id`, nil when the line cannot be attributed to any profile.
        package var profileID: String?
    }

    /// Reads one line: the event, or why it is not one (and whose line it is, when that can be told).
    package static func read(_ bytes: some Collection<UInt8>) -> Result<EventLine, Rejection> {
        func reject(_ message: String, of profileID: String? = nil) -> Result<EventLine, Rejection> {
            .failure(Rejection(message: message, profileID: profileID))
        }
        let event: JSONValue
        switch JSONParser.parse(bytes) {
        case .failure(let error): return reject("invalid JSON at column \(error.column): \(error.message)")
        case .success(let value): event = value
        }
        guard case .object = event else {
            return reject("an event must be a JSON object, found \(event.typeName)")
        }
        guard let idValue = event["profile_id"] else { return reject("missing `profile_id`") }
        guard case .string(let profileID) = idValue, !profileID.isEmpty else {
            return reject("`profile_id` must be a non-empty string, found \(idValue.typeName)")
        }
        guard let nameValue = event["name"] else { return reject("missing `name`", of: profileID) }
        guard case .string(let name) = nameValue else {
            return reject("`name` must be a string, found \(nameValue.typeName)", of: profileID)
        }
        var timeZone: TimeZone?
        if let zoneValue = event["time_zone"], zoneValue != .null {
            guard case .string(let zoneName) = zoneValue else {
                return reject("`time_zone` must be a string naming an IANA time zone such as `Europe/Berlin`, found \(zoneValue.typeName)")
            }
            guard let zone = TimeZone(identifier: zoneName) else {
                return reject("unknown time zone `\(zoneName)` in `time_zone`; give an IANA name such as `Europe/Berlin`")
            }
            timeZone = zone
        }
        return .success(EventLine(profileID: profileID, name: name, params: event, timeZone: timeZone))
    }

    /// Reads line `line` of `file`; a failure is the diagnostic rejecting that record.
    package static func parse(_ bytes: some Collection<UInt8>, file: String, line: Int) -> Result<EventLine, Diagnostic> {
        read(bytes).mapError { .badRecord($0.message, file: file, line: line) }
    }

    /// Splits a whole event file into numbered lines by the source line table (LF, CRLF and
    /// lone CR end a line; a leading UTF-8 BOM is skipped). Lines holding only spaces and tabs
    /// are left out.
    package static func lines(of bytes: [UInt8]) -> [(number: Int, bytes: ArraySlice<UInt8>)] {
        let file = SourceFile(path: "", bytes: bytes)
        return (1...file.lineStarts.count).compactMap { number in
            let line = file.lineBytes(number)
            return line.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? nil : (number, line)
        }
    }
}
