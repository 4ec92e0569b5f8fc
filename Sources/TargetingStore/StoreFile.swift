#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store file as opened, read again by byte range: its lines need not stay in memory.
///
/// Lines read in file order go through a window of about 1 MiB (one read per window); a line
/// read out of order is read alone.
package final class StoreFile {
    private let descriptor: Int32
    private var window: [UInt8] = []
    private var windowStart = 0

    /// Opens `path` for reading, or returns nil.
    package init?(path: String) {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    /// The bytes in `range`, or nil when they cannot be read (the file shrank, or the read
    /// failed); `readingAhead` when the next reads follow in file order.
    package func bytes(_ range: Range<Int>, readingAhead: Bool = false) -> ArraySlice<UInt8>? {
        if range.lowerBound >= windowStart, range.upperBound <= windowStart + window.count {
            return window[(range.lowerBound - windowStart)..<(range.upperBound - windowStart)]
        }
        let size = readingAhead ? max(range.count, 1 << 20) : range.count
        var chunk = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, size - filled, off_t(range.lowerBound + filled)) }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { break }
            filled += read
        }
        guard filled >= range.count else { return nil }
        chunk.removeLast(size - filled)
        guard readingAhead else { return chunk[0..<range.count] }
        window = chunk
        windowStart = range.lowerBound
        return window[0..<range.count]
    }
}
