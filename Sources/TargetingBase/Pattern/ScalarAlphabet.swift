/// The Unicode scalars cut into spans that a set of patterns cannot tell apart: every scalar of
/// a span is in the same `ScalarSet`s. An automaton then reads a span's number instead of a
/// scalar, and the analysis needs one example scalar per span.
package struct ScalarAlphabet: Hashable, Sendable {
    /// The first scalar value of each span, ascending, starting at 0; a span runs to the next
    /// value (the last to U+10FFFF).
    package let starts: [UInt32]
    /// The span of each ASCII scalar, for the common case.
    let asciiSpans: [UInt16]

    /// The alphabet that tells apart exactly what `sets` tell apart.
    package init(_ sets: some Sequence<ScalarSet>) {
        var cuts: Set<UInt32> = [0, 0x80, 0xD800, 0xE000]
        for set in sets {
            for boundary in set.boundaries where boundary <= 0x10FFFF { cuts.insert(boundary) }
        }
        starts = cuts.sorted()
        var ascii: [UInt16] = []
        ascii.reserveCapacity(128)
        var span = 0
        for value in UInt32(0)..<128 {
            while span + 1 < starts.count, starts[span + 1] <= value { span += 1 }
            ascii.append(UInt16(span))
        }
        asciiSpans = ascii
    }

    /// How many spans there are.
    package var count: Int { starts.count }

    /// The span holding scalar value `value`.
    @inline(__always)
    package func span(of value: UInt32) -> Int {
        if value < 0x80 { return Int(asciiSpans[Int(value)]) }
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= value { low = middle } else { high = middle }
        }
        return low
    }

    /// The scalar values of span `span`.
    package func values(of span: Int) -> ClosedRange<UInt32> {
        let end = span + 1 < starts.count ? starts[span + 1] - 1 : 0x10FFFF
        return starts[span]...end
    }

    /// A scalar of span `span`, preferring a printable ASCII letter or digit so examples read
    /// well; nil for the span of surrogate code points, which holds no scalar.
    package func example(of span: Int) -> Unicode.Scalar? {
        let values = values(of: span)
        for preferred in ["a", "0", "A", "_", "-", " "] as [Unicode.Scalar] where values.contains(preferred.value) {
            return preferred
        }
        for value in values.lowerBound...min(values.upperBound, values.lowerBound + 0x200) {
            if let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .control,
               scalar.properties.generalCategory != .unassigned, !scalar.properties.isWhitespace {
                return scalar
            }
        }
        return Unicode.Scalar(values.lowerBound)
    }

    /// The spans whose scalars are in `set`.
    package func spans(in set: ScalarSet) -> [Int] {
        var result: [Int] = []
        for range in set.ranges {
            var span = self.span(of: range.lowerBound)
            while span < starts.count, starts[span] <= range.upperBound {
                result.append(span)
                span += 1
            }
        }
        return result
    }
}
