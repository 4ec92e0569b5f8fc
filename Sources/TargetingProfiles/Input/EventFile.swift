/// A whole event file read at once (as `given events` reads it): its events in order, and the
/// lines that are not events, each with the profile it names when that can be told.
///
/// Lines are split by `EventLine.lines(of:)` and read by `EventLine.read(_:)`, the reading
/// `ingest` does line by line; a `placement_shown` line is read further by `ShownEvent.read(_:)`,
/// and one it rejects is a broken line of its profile.
package struct EventFile: Hashable, Sendable {
    /// One event and its 1-based line number.
    package struct Entry: Hashable, Sendable {
        package var line: Int
        package var event: EventLine
        /// The shown event, when the line is a `placement_shown` line.
        package var shown: ShownEvent?
    }

    /// A line that is not an event.
    package struct BrokenLine: Hashable, Sendable {
        /// The 1-based line number.
        package var line: Int
        /// Why it is not an event.
        package var message: String
        /// The profile the line names in `profile_id`; nil when the line cannot be attributed
        /// (not JSON, not an object, no usable `profile_id`, too long to read).
        package var profileID: String?
    }

    /// The longest line read, as `ingest` reads it.
    package static let maxLineBytes = 1024 * 1024

    /// The events, in file order.
    package var events: [Entry] = []
    /// The lines that are not events, in file order.
    package var broken: [BrokenLine] = []

    /// Reads every non-blank line of `bytes`.
    package init(bytes: [UInt8]) {
        for line in EventLine.lines(of: bytes) {
            guard line.bytes.count <= EventFile.maxLineBytes else {
                broken.append(BrokenLine(line: line.number, message: "line is longer than 1 MiB", profileID: nil))
                continue
            }
            switch EventLine.read(line.bytes) {
            case .success(let event) where event.name == ShownEvent.eventName:
                switch ShownEvent.read(event.params) {
                case .success(let shown): events.append(Entry(line: line.number, event: event, shown: shown))
                case .failure(let error):
                    broken.append(BrokenLine(line: line.number, message: error.message, profileID: event.profileID))
                }
            case .success(let event): events.append(Entry(line: line.number, event: event))
            case .failure(let rejection):
                broken.append(BrokenLine(line: line.number, message: rejection.message, profileID: rejection.profileID))
            }
        }
    }

    /// Every profile the file names, valid lines and broken ones alike, in order of first appearance.
    package var profileIDs: [String] {
        var seen: Set<String> = []
        var ids: [String] = []
        var events = self.events.makeIterator(), broken = self.broken.makeIterator()
        var nextEvent = events.next(), nextBroken = broken.next()
        while nextEvent != nil || nextBroken != nil {
            let id: String?
            if let event = nextEvent, nextBroken.map({ event.line < $0.line }) ?? true {
                id = event.event.profileID
                nextEvent = events.next()
            } else {
                id = nextBroken?.profileID
                nextBroken = broken.next()
            }
            if let id, seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// The broken lines a reader of `profileID`'s events skips: those of other profiles and
    /// those that cannot be attributed.
    package func skipped(reading profileID: String) -> [BrokenLine] {
        broken.filter { $0.profileID != profileID }
    }

    /// The line numbers of `lines` as a short list: `4, 9`, or the first 20 then `… and N more`.
    package static func describe(_ lines: [BrokenLine]) -> String {
        let shown = lines.prefix(20).map { String($0.line) }.joined(separator: ", ")
        return lines.count > 20 ? shown + ", … and \(lines.count - 20) more" : shown
    }
}
