/// Deterministic variant choice for a split (A/B test), bit-exact with Adapty's algorithm.
package enum SplitDraw {
    /// r in 0..<100: MD5 of UTF-8 "<splitID>-<profileID>", last 8 bytes of the digest read as a big-endian UInt64, modulo 100.
    package static func bucket(splitID: String, profileID: String) -> Int {
        var profileID = profileID
        return profileID.withUTF8 { bucket(splitID: splitID, key: $0) }
    }

    /// `bucket(splitID:profileID:)` for a key given as its UTF-8 bytes.
    package static func bucket(splitID: String, key: UnsafeBufferPointer<UInt8>) -> Int {
        let split = splitID.utf8
        // The message is assembled in stack memory: a draw allocates nothing.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: split.count + 1 + key.count) { message in
            var end = message.initialize(fromContentsOf: split)
            message[end] = UInt8(ascii: "-")
            end += 1
            end = message[end...].initialize(fromContentsOf: key)
            return Int(MD5.lastEightBytes(UnsafeBufferPointer(rebasing: message[..<end])) % 100)
        }
    }

    /// Chooses a variant. `variants` are (weight, sortKey) in declaration order; returns the index into `variants`.
    /// Algorithm: sort variants by weight ascending, ties by sortKey compared as UTF-8 bytes (a `nothing` destination uses ""),
    /// then walk the sorted list subtracting each weight from r; the first variant that takes r below 0 is chosen.
    /// Weights sum to 100 (the checker guarantees it); if they did not, return the last sorted variant.
    package static func chooseVariant(
        splitID: String,
        profileID: String,
        variants: [(weight: Int, sortKey: String)]
    ) -> Int {
        precondition(!variants.isEmpty, "a split needs at least one variant")
        let order = sortedIndices(variants)
        var r = bucket(splitID: splitID, profileID: profileID)
        for index in order {
            r -= variants[index].weight
            if r < 0 {
                return index
            }
        }
        return order[order.count - 1]
    }

    /// Indices of `variants` ordered by weight ascending, then by sort key as UTF-8 bytes, then by declaration order.
    static func sortedIndices(_ variants: [(weight: Int, sortKey: String)]) -> [Int] {
        let keys = variants.map { Array($0.sortKey.utf8) }
        return variants.indices.sorted { lhs, rhs in
            if variants[lhs].weight != variants[rhs].weight {
                return variants[lhs].weight < variants[rhs].weight
            }
            if keys[lhs] != keys[rhs] {
                return keys[lhs].lexicographicallyPrecedes(keys[rhs])
            }
            return lhs < rhs
        }
    }
}
