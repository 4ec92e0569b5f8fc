#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TargetingProfiles

/// What scanned event lines amounted to, kept by the line's bytes with the profile id left out:
/// an event stream repeats a few shapes of line for many users, and the interpreter's reading
/// depends on nothing else in a line (it never reads `profile_id`).
///
/// A reading that depends on the profile (a picker read as a calendar date, which may need the
/// stored `time_zone`) is never kept. The cache holds at most `capacity` lines and starts
/// afresh when full, so memory does not grow with the stream, and the shapes that repeat come
/// back at once.
struct EventReadingCache {
    /// One line kept: its bytes without the profile id, where the id was, and its reading.
    private struct Entry {
        var bytes: [UInt8]
        var idStart: Int
        var reading: EventReading
    }

    /// Lines kept, by hash (a line whose hash another line holds is not kept).
    private var entries: [UInt64: Entry] = [:]
    /// The most lines kept at once.
    static let capacity = 1024

    /// The hash of `line` without the bytes in `id`.
    static func hash(_ line: UnsafeBufferPointer<UInt8>, without id: Range<Int>) -> UInt64 {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(id.lowerBound)
        func mix(_ range: Range<Int>) {
            var index = range.lowerBound
            let base = UnsafeRawPointer(line.baseAddress!)
            while index + 8 <= range.upperBound {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                state = (state ^ word) &* 0x1000_0000_01B3 &+ (state >> 29)
                index += 8
            }
            while index < range.upperBound {
                state = (state ^ UInt64(line[index])) &* 0x1000_0000_01B3 &+ (state >> 29)
                index += 1
            }
        }
        mix(0..<id.lowerBound)
        mix(id.upperBound..<line.count)
        return state ^ (state >> 31) ^ UInt64(line.count)
    }

    /// The reading kept for `line` with its profile id at `id`, if any.
    func reading(_ line: UnsafeBufferPointer<UInt8>, id: Range<Int>, hash: UInt64) -> EventReading? {
        guard let entry = entries[hash], entry.idStart == id.lowerBound, entry.bytes.count == line.count - id.count else { return nil }
        let same = entry.bytes.withUnsafeBufferPointer { kept in
            memcmp(kept.baseAddress!, line.baseAddress!, id.lowerBound) == 0
                && memcmp(kept.baseAddress! + id.lowerBound, line.baseAddress! + id.upperBound, line.count - id.upperBound) == 0
        }
        return same ? entry.reading : nil
    }

    /// Keeps `reading` for `line` with its profile id at `id` (unless it depends on the profile).
    mutating func keep(_ reading: EventReading, for line: UnsafeBufferPointer<UInt8>, id: Range<Int>, hash: UInt64) {
        guard reading.calendarDate == nil else { return }
        if entries.count >= EventReadingCache.capacity { entries.removeAll(keepingCapacity: true) }
        var bytes = Array(line[0..<id.lowerBound])
        bytes.append(contentsOf: line[id.upperBound...])
        entries[hash] = Entry(bytes: bytes, idStart: id.lowerBound, reading: reading)
    }
}
