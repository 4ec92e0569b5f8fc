import TargetingBase

/// A pattern as the fuzz references read it, matched by a memoised search over end positions
/// (no automaton, nothing shared with `PatternAutomaton`): the whole-value match.
package indirect enum ReferencePattern: Sendable {
    /// The empty string.
    case empty
    /// One scalar whose value lies in one of the ranges (or, `negated`, in none of them).
    case scalar(ranges: [ClosedRange<UInt32>], negated: Bool)
    /// Each item in turn.
    case sequence([ReferencePattern])
    /// Any one of the branches.
    case alternation([ReferencePattern])
    /// `min` to `max` (nil: any number of) repetitions.
    case repetition(ReferencePattern, min: Int, max: Int?)

    /// Any one scalar (`.`): every value but the surrogate code points.
    package static let any = ReferencePattern.scalar(ranges: [0xD800...0xDFFF], negated: true)

    /// Exactly the scalar `scalar`.
    package static func literal(_ scalar: Unicode.Scalar) -> ReferencePattern { .scalar(ranges: [scalar.value...scalar.value], negated: false) }

    /// The reading of a parsed `PatternNode` (whose sets are already lowercased under `ignoring case`).
    package init(_ node: PatternNode) {
        switch node {
        case .empty: self = .empty
        case .set(let set): self = .scalar(ranges: set.ranges, negated: false)
        case .sequence(let items): self = .sequence(items.map(ReferencePattern.init))
        case .alternation(let branches): self = .alternation(branches.map(ReferencePattern.init))
        case .repetition(let inner, let min, let max): self = .repetition(ReferencePattern(inner), min: min, max: max)
        }
    }

    /// How many nodes the pattern has, and how deep it nests.
    package var shape: (nodes: Int, depth: Int) {
        switch self {
        case .empty, .scalar: return (1, 1)
        case .sequence(let items), .alternation(let items):
            var nodes = 1, depth = 0
            for item in items {
                let inner = item.shape
                nodes += inner.nodes
                depth = Swift.max(depth, inner.depth)
            }
            return (nodes, depth + 1)
        case .repetition(let inner, _, _):
            let shape = inner.shape
            return (shape.nodes + 1, shape.depth + 1)
        }
    }
}

/// Whole-value matching of a `ReferencePattern` over at most `ReferenceMatcher.maxLength`
/// scalars: for each node and start position, the set of positions where the node can end
/// (a bit set), computed once.
package struct ReferenceMatcher {
    /// The longest value matched (positions 0…63 fit one `UInt64`).
    package static let maxLength = 63

    private var nodes: [ReferencePattern] = []
    private var children: [[Int]] = []
    private let value: [UInt32]
    private var memo: [Int: UInt64] = [:]

    /// Whether `pattern` matches the whole of `value` (at most `maxLength` scalars).
    package static func matches(_ pattern: ReferencePattern, _ value: [Unicode.Scalar]) -> Bool {
        precondition(value.count <= maxLength)
        var matcher = ReferenceMatcher(value: value.map(\.value))
        let root = matcher.add(pattern)
        return matcher.ends(root, from: 0) & (1 << UInt64(value.count)) != 0
    }

    /// Whether `pattern` matches the whole of `value` read the way `matches` reads it: lowercased
    /// by `CaseFolding` under `ignoring case`.
    package static func matches(_ pattern: ReferencePattern, value: String, ignoringCase: Bool) -> Bool {
        matches(pattern, Array((ignoringCase ? CaseFolding.lowercase(value) : value).unicodeScalars))
    }

    private init(value: [UInt32]) { self.value = value }

    private mutating func add(_ pattern: ReferencePattern) -> Int {
        let index = nodes.count
        nodes.append(pattern)
        children.append([])
        switch pattern {
        case .empty, .scalar: break
        case .sequence(let items), .alternation(let items): children[index] = items.map { add($0) }
        case .repetition(let inner, _, _): children[index] = [add(inner)]
        }
        return index
    }

    /// The positions where node `node` can end when it starts at `start`.
    private mutating func ends(_ node: Int, from start: Int) -> UInt64 {
        let key = node * 64 + start
        if let known = memo[key] { return known }
        var result: UInt64 = 0
        switch nodes[node] {
        case .empty:
            result = 1 << UInt64(start)
        case .scalar(let ranges, let negated):
            if start < value.count {
                let inside = ranges.contains { $0.contains(value[start]) }
                if inside != negated { result = 1 << UInt64(start + 1) }
            }
        case .sequence:
            result = 1 << UInt64(start)
            for item in children[node] {
                result = step(item, result)
                if result == 0 { break }
            }
        case .alternation:
            for branch in children[node] { result |= ends(branch, from: start) }
        case .repetition(_, let min, let max):
            let inner = children[node][0]
            var current: UInt64 = 1 << UInt64(start)
            var count = 0
            while count < min, current != 0 {
                current = step(inner, current)
                count += 1
            }
            result = current
            // After `min`, more repetitions add positions until a round adds none (the step
            // distributes over union, so nothing new can appear after that).
            while current != 0, max.map({ count < $0 }) ?? true {
                current = step(inner, current)
                count += 1
                if current & ~result == 0 { break }
                result |= current
            }
        }
        memo[key] = result
        return result
    }

    /// The end positions of `node` from every start in `starts`.
    private mutating func step(_ node: Int, _ starts: UInt64) -> UInt64 {
        var result: UInt64 = 0
        var rest = starts
        while rest != 0 {
            let start = rest.trailingZeroBitCount
            rest &= rest - 1
            result |= ends(node, from: start)
        }
        return result
    }
}
