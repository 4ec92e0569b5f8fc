/// A set of Unicode scalars, kept as sorted, disjoint, non-adjacent ranges of scalar values.
///
/// A pattern's literal characters, classes and `.` are each one `ScalarSet`, so the automaton,
/// the analysis and the SQL printers all read one representation.
package struct ScalarSet: Hashable, Sendable {
    /// The ranges, sorted, disjoint and not adjacent; never the surrogate code points.
    package private(set) var ranges: [ClosedRange<UInt32>]

    /// The empty set.
    package init() { ranges = [] }

    /// The set of one scalar.
    package init(_ scalar: Unicode.Scalar) { ranges = [scalar.value...scalar.value] }

    /// The set of the scalars in `ranges` (in any order, possibly overlapping).
    package init(ranges: some Sequence<ClosedRange<UInt32>>) {
        self.ranges = []
        for range in ranges { insert(range) }
    }

    /// Every Unicode scalar (`.`).
    package static let all = ScalarSet(ranges: [0...0xD7FF, 0xE000...0x10FFFF])

    /// `\d`: exactly `[0-9]`.
    package static let digits = ScalarSet(ranges: [0x30...0x39])

    /// `\w`: exactly `[A-Za-z0-9_]`.
    package static let wordCharacters = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])

    /// Whether the set holds no scalar.
    package var isEmpty: Bool { ranges.isEmpty }

    /// The only scalar of a one-scalar set.
    package var single: Unicode.Scalar? {
        guard ranges.count == 1, ranges[0].lowerBound == ranges[0].upperBound else { return nil }
        return Unicode.Scalar(ranges[0].lowerBound)
    }

    /// The smallest scalar of the set.
    package var first: Unicode.Scalar? { ranges.first.flatMap { Unicode.Scalar($0.lowerBound) } }

    /// Whether `value` is in the set.
    package func contains(_ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else if ranges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }

    /// Adds the scalar values of `range` (surrogate code points are left out).
    package mutating func insert(_ range: ClosedRange<UInt32>) {
        let clipped = [range.clamped(to: 0...0xD7FF), range.clamped(to: 0xE000...0x10FFFF)]
        for part in clipped where range.overlaps(part) && part.lowerBound <= part.upperBound && range.contains(part.lowerBound) {
            merge(part)
        }
    }

    /// Adds every scalar of `other`.
    package mutating func formUnion(_ other: ScalarSet) {
        for range in other.ranges { merge(range) }
    }

    /// The set with every scalar of `self` and of `other`.
    package func union(_ other: ScalarSet) -> ScalarSet {
        var result = self
        result.formUnion(other)
        return result
    }

    /// The scalars not in the set.
    package var inverted: ScalarSet {
        var result = ScalarSet()
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.insert(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= 0x10FFFF { result.insert(next...0x10FFFF) }
        return result
    }

    /// The scalar values where membership changes: each range's first value and the value just
    /// past its last. Sets that share no boundary inside a span agree on every scalar of it.
    package var boundaries: [UInt32] {
        ranges.flatMap { [$0.lowerBound, $0.upperBound + 1] }
    }

    private mutating func merge(_ range: ClosedRange<UInt32>) {
        var low = range.lowerBound
        var high = range.upperBound
        var kept: [ClosedRange<UInt32>] = []
        kept.reserveCapacity(ranges.count + 1)
        var placed = false
        for existing in ranges {
            if existing.upperBound &+ 1 < low {
                kept.append(existing)
            } else if high &+ 1 < existing.lowerBound {
                if !placed {
                    kept.append(low...high)
                    placed = true
                }
                kept.append(existing)
            } else {
                low = min(low, existing.lowerBound)
                high = max(high, existing.upperBound)
            }
        }
        if !placed { kept.append(low...high) }
        ranges = kept
    }
}
