import Foundation
import TargetingBase

/// The server's log: one JSON object per line on standard error, `time`, `level` and `event`
/// first, then the event's own members.
package final class ServerLog: @unchecked Sendable {
    private let lock = NSLock()
    private let write: (String) -> Void

    /// A log written by `write` (standard error by default); each call gets one whole line.
    package init(write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.write = write
    }

    package enum Level: String, Sendable {
        case info, warning, error
    }

    /// Writes one line.
    package func log(_ level: Level, _ event: String, _ members: [JSONMember] = []) {
        let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let line = JSONWriter.write(.object([
            JSONMember(key: "time", value: .string(Timestamp.format(milliseconds))),
            JSONMember(key: "level", value: .string(level.rawValue)),
            JSONMember(key: "event", value: .string(event)),
        ] + members)) + "\n"
        lock.withLock { write(line) }
    }
}
