/// A name of up to 32 UTF-8 bytes held in the value itself, with no storage to retain: what a
/// plain read compares a scanned key with. Every thread of a batch reads the same slots, and a
/// retain of a shared string is a write to a cache line both cores read.
struct InlineName: Sendable {
    /// The bytes, in order, zero past `count`.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private let count: Int

    /// The most bytes a name can have.
    static let capacity = 32

    /// `name`'s bytes, or nil when it is longer than `capacity`.
    init?(_ name: String) {
        let utf8 = Array(name.utf8)
        guard utf8.count <= InlineName.capacity else { return nil }
        count = utf8.count
        withUnsafeMutableBytes(of: &words) { raw in
            for (index, byte) in utf8.enumerated() { raw[index] = byte }
        }
    }

    /// Calls `body` with the name's bytes (valid only inside the call).
    @inline(__always)
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeBytes(of: words) { raw in
            raw.withMemoryRebound(to: UInt8.self) { body(UnsafeBufferPointer(rebasing: $0.prefix(count))) }
        }
    }
}
