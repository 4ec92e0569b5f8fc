/// Byte strings back to back in memory that never moves, read through raw pointers: a read
/// through a pointer to the value (`bytes(of:at:)`) loads two words and retains nothing. Tables
/// read by every thread of a batch are held this way, since a retain of a shared object is a
/// write to a cache line all cores read.
package struct PinnedBytes: @unchecked Sendable {
    /// Owns the memory `all` and `ends` point to; it is freed with the last copy.
    private final class Storage {
        let all: UnsafeMutableBufferPointer<UInt8>
        let ends: UnsafeMutableBufferPointer<Int>

        init(_ items: [[UInt8]]) {
            let all = items.flatMap { $0 }
            var ends: [Int] = []
            var end = 0
            for item in items {
                end += item.count
                ends.append(end)
            }
            self.all = .allocate(capacity: all.count)
            _ = self.all.initialize(from: all)
            self.ends = .allocate(capacity: ends.count)
            _ = self.ends.initialize(from: ends)
        }

        deinit {
            all.deallocate()
            ends.deallocate()
        }
    }

    private let storage: Storage
    /// Every item's bytes, back to back; item `i` ends at `ends[i]`.
    package let all: UnsafeBufferPointer<UInt8>
    package let ends: UnsafeBufferPointer<Int>

    package init(_ items: [[UInt8]]) {
        storage = Storage(items)
        all = UnsafeBufferPointer(storage.all)
        ends = UnsafeBufferPointer(storage.ends)
    }

    /// The number of items.
    package var count: Int { ends.count }

    /// Where item `index` starts in `all`.
    @inline(__always)
    package func start(of index: Int) -> Int { index == 0 ? 0 : ends[index - 1] }

    /// Item `index`'s bytes (valid while this value or a copy of it lives).
    @inline(__always)
    package subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[start(of: index)..<ends[index]])
    }
}
