import TargetingBase

/// A list of strings with constant-time membership by exact UTF-8 bytes.
///
/// Swift's `Set<String>` treats canonically equivalent spellings (precomposed and decomposed
/// "é") as one element; targeting compares stored text byte for byte, so lookups go through
/// a hash bucket and then compare bytes. Iterating yields the strings in list order.
package struct ExactStringSet: Hashable, Sendable, Sequence {
    /// The strings in list order.
    package let items: [String]
    private let buckets: [String: [String]]

    /// Creates a set from a list (order kept for iteration).
    package init(_ items: [String]) {
        self.items = items
        var buckets: [String: [String]] = [:]
        for item in items { buckets[item, default: []].append(item) }
        self.buckets = buckets
    }

    /// Whether some item has exactly the bytes of `text`.
    package func containsExactly(_ text: String) -> Bool {
        guard let candidates = buckets[text] else { return false }
        return candidates.contains { ByteText.equals($0, text) }
    }

    /// The number of items.
    package var count: Int { items.count }

    /// Iterates the items in list order.
    package func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }

    package static func == (lhs: ExactStringSet, rhs: ExactStringSet) -> Bool {
        lhs.items.count == rhs.items.count && zip(lhs.items, rhs.items).allSatisfy { ByteText.equals($0, $1) }
    }

    package func hash(into hasher: inout Hasher) {
        for item in items { hasher.combine(Array(item.utf8)) }
    }
}
