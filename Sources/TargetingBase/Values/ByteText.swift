/// Exact text matching on UTF-8 bytes: equality, prefix, suffix and substring.
///
/// Swift's `==` on `String` also equates canonically equivalent spellings (precomposed and
/// decomposed "é"), which stored data and SQL engines do not; targeting compares text byte for
/// byte. Evaluation, the checker's fragment warnings and the analysis all match through here.
/// The functions are `@inlinable` so the engine's per-profile loop calls them without a
/// cross-module call.
package enum ByteText {
    /// Whether `a` and `b` have the same UTF-8 bytes.
    @inlinable @inline(__always)
    package static func equals(_ a: String, _ b: String) -> Bool {
        // Equal bytes make equal strings, so `!=` settles most cases at the speed of `==`
        // (a few machine words for short strings); only a match is confirmed byte by byte.
        guard a == b else { return false }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// Whether the bytes of `text` begin with those of `prefix`.
    @inlinable
    package static func hasPrefix<Text: Collection, Part: Collection>(_ text: Text, _ prefix: Part) -> Bool
    where Text.Element == UInt8, Part.Element == UInt8 {
        text.starts(with: prefix)
    }

    /// Whether the bytes of `text` end with those of `suffix`.
    @inlinable
    package static func hasSuffix<Text: Collection, Part: Collection>(_ text: Text, _ suffix: Part) -> Bool
    where Text.Element == UInt8, Part.Element == UInt8 {
        let count = suffix.count
        guard count <= text.count else { return false }
        return text.suffix(count).elementsEqual(suffix)
    }

    /// Whether the bytes of `part` occur contiguously in those of `text` (the empty part
    /// occurs in every text).
    @inlinable
    package static func contains<Text: Collection, Part: Collection>(_ text: Text, _ part: Part) -> Bool
    where Text.Element == UInt8, Part.Element == UInt8 {
        let found = text.withContiguousStorageIfAvailable { t in
            part.withContiguousStorageIfAvailable { p in contains(buffer: t, p) }
        }
        if case let found?? = found { return found }
        return Array(text).withUnsafeBufferPointer { t in Array(part).withUnsafeBufferPointer { p in contains(buffer: t, p) } }
    }

    /// Whether `part` occurs contiguously in `text`.
    @inlinable
    package static func contains(buffer text: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = part.first else { return true }
        guard part.count <= text.count else { return false }
        var start = 0
        let last = text.count - part.count
        while start <= last {
            if text[start] == first, UnsafeBufferPointer(rebasing: text[start..<(start + part.count)]).elementsEqual(part) { return true }
            start += 1
        }
        return false
    }

    /// Whether the bytes of `text` begin with those of `prefix`.
    @inlinable @inline(__always)
    package static func hasPrefix(_ text: String, _ prefix: String) -> Bool { hasPrefix(text.utf8, prefix.utf8) }

    /// Whether the bytes of `text` end with those of `suffix`.
    @inlinable @inline(__always)
    package static func hasSuffix(_ text: String, _ suffix: String) -> Bool { hasSuffix(text.utf8, suffix.utf8) }

    /// Whether the bytes of `part` occur contiguously in those of `text`.
    @inlinable @inline(__always)
    package static func contains(_ text: String, _ part: String) -> Bool { contains(text.utf8, part.utf8) }
}
