/// A parsed pattern of `matches`, in the few shapes every engine can spell: a set of scalars
/// (a literal character, a class or `.`), a sequence, an alternation and a counted repetition.
///
/// Under `ignoring case` the parser has already lowercased every literal and class member, so
/// a node always means "matches the (possibly lowercased) value as it is".
package indirect enum PatternNode: Hashable, Sendable {
    /// The empty string (an empty pattern branch).
    case empty
    /// One scalar from the set.
    case set(ScalarSet)
    /// Each item in turn.
    case sequence([PatternNode])
    /// Any one of the branches.
    case alternation([PatternNode])
    /// `min` to `max` repetitions of the node; `max` nil is no upper bound.
    case repetition(PatternNode, min: Int, max: Int?)

    /// The node that matches exactly `text`.
    package static func literal(_ text: String) -> PatternNode {
        let items = text.unicodeScalars.map { PatternNode.set(ScalarSet($0)) }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// Any text at all (`.*`). Made on each use: a stored static of an indirect enum is a
    /// tagged pointer that LeakSanitizer cannot follow, and reports as leaked.
    package static var anyText: PatternNode { .repetition(.set(.all), min: 0, max: nil) }

    /// Every scalar set the node reads, each once per place it occurs.
    package var scalarSets: [ScalarSet] {
        var found: [ScalarSet] = []
        collectSets(into: &found)
        return found
    }

    private func collectSets(into found: inout [ScalarSet]) {
        switch self {
        case .empty: break
        case .set(let set): found.append(set)
        case .sequence(let items), .alternation(let items): for item in items { item.collectSets(into: &found) }
        case .repetition(let inner, _, _): inner.collectSets(into: &found)
        }
    }

    /// Whether a repetition without upper bound occurs in the node (`*`, `+`, `{n,}`).
    package var repeatsWithoutBound: Bool {
        switch self {
        case .empty, .set: false
        case .sequence(let items), .alternation(let items): items.contains { $0.repeatsWithoutBound }
        case .repetition(let inner, _, let max): max == nil || inner.repeatsWithoutBound
        }
    }

    /// The number of scalar positions once every count is written out, capped just above
    /// `limit` so a deeply counted pattern is measured without being expanded.
    package func expandedSize(limit: Int) -> Int {
        switch self {
        case .empty: return 0
        case .set: return 1
        case .sequence(let items), .alternation(let items):
            var total = 0
            for item in items {
                total += item.expandedSize(limit: limit)
                if total > limit { return limit + 1 }
            }
            return total
        case .repetition(let inner, let min, let max):
            let size = inner.expandedSize(limit: limit)
            let copies = Swift.max(max ?? (min + 1), 1)
            let (product, overflow) = size.multipliedReportingOverflow(by: copies)
            return overflow || product > limit ? limit + 1 : product
        }
    }
}
