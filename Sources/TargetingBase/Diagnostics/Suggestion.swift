/// "Did you mean" suggestions by edit distance.
package enum Suggestion {
    /// The candidate closest to `name`, if it is close enough to be a likely typo.
    package static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(name.unicodeScalars)
        let limit = limit(for: target.count)
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(target, Array(candidate.unicodeScalars), limit: limit)
            if distance <= limit, best == nil || distance < best!.1 || (distance == best!.1 && candidate < best!.0) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// The largest edit distance a suggestion for a name of `length` scalars may have.
    package static func limit(for length: Int) -> Int { max(1, min(3, length / 3 + 1)) }

    /// Optimal string alignment distance (insert, delete, substitute, swap neighbours), cut off above `limit`.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                row[j] = value
            }
            (previous2, previous, row) = (previous, row, previous2)
        }
        return previous[b.count]
    }
}
