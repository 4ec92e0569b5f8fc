/// Names bucketed by length, so a "did you mean" lookup compares a name only with the names
/// whose length is within the edit distance a suggestion may have (at most 3), not with all.
package struct SuggestionIndex: Sendable {
    private var byLength: [Int: [(name: String, scalars: [Unicode.Scalar])]] = [:]

    /// Indexes `names`.
    package init(_ names: some Sequence<String>) {
        for name in names {
            let scalars = Array(name.unicodeScalars)
            byLength[scalars.count, default: []].append((name, scalars))
        }
    }

    /// The indexed name closest to `name`, with the same choice as `Suggestion.nearest`.
    package func nearest(to name: String) -> String? {
        let target = Array(name.unicodeScalars)
        let limit = Suggestion.limit(for: target.count)
        var best: (String, Int)?
        for length in max(0, target.count - limit)...(target.count + limit) {
            for candidate in byLength[length] ?? [] where candidate.name != name {
                let distance = Suggestion.editDistance(target, candidate.scalars, limit: limit)
                if distance <= limit, best == nil || distance < best!.1 || (distance == best!.1 && candidate.name < best!.0) {
                    best = (candidate.name, distance)
                }
            }
        }
        return best?.0
    }
}
