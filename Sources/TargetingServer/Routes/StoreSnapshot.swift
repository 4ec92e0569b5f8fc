import TargetingBase
import TargetingProfiles

/// The profile store as last read: its bytes and where each profile's line is, by id. A
/// profile is read from its line when asked for, so the server holds the file once.
package final class StoreSnapshot: Sendable {
    private let bytes: [UInt8]
    private let lines: [String: Range<Int>]
    /// Lines that are not a JSON object with a string `id` (blank lines aside).
    package let unreadableLines: [Int]

    /// The profiles of a store file's bytes; a later line with the same id wins.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        var lines: [String: Range<Int>] = [:]
        var unreadable: [Int] = []
        var start = 0, number = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count {
                number += 1
                var end = start
                while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
                let line = buffer[start..<end]
                if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    if case .success(let value) = JSONParser.parse(line), case .string(let id)? = value["id"] {
                        lines[id] = start..<end
                    } else {
                        unreadable.append(number)
                    }
                }
                start = end + 1
            }
        }
        self.lines = lines
        self.unreadableLines = unreadable
    }

    /// How many profiles the store holds.
    package var count: Int { lines.count }

    /// The profile with `id`: nil when the store has none, else the profile or why its line
    /// is rejected.
    package func profile(id: String) -> Result<Profile, ProfileError>? {
        guard let range = lines[id] else { return nil }
        return ProfileReader.read(bytes[range])
    }
}
