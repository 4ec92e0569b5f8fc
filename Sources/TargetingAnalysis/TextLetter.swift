import TargetingBase

/// A class of Unicode scalars that the comparisons of one string field cannot tell apart,
/// neither as they are nor lowercased: one letter of the product automaton.
struct TextLetter {
    /// A scalar of the class, for spelling witnesses.
    var example: Unicode.Scalar
    /// The span of the alphabet that holds the scalars as they are.
    var raw: Int
    /// The spans of their lowercase, one per scalar of it (usually one).
    var folded: [Int]
}

extension TextLetter {
    /// The letters over `alphabet`: one per span whose scalars lowercase into that same span,
    /// and, with `folding`, one per distinct way the scalars that lowercasing moves elsewhere
    /// read (their span as they are, and the spans of their lowercase). Together they cover
    /// every scalar; nicer examples first (ASCII letters and digits, then the rest).
    static func letters(_ alphabet: ScalarAlphabet, folding: Bool) -> [TextLetter] {
        var letters: [TextLetter] = []
        var moved: Set<UInt32> = []
        if folding {
            var groups: [[Int]: Int] = [:]
            for entry in LowercaseTable.changing {
                let raw = alphabet.span(of: entry.scalar)
                let folded = entry.lower.map { alphabet.span(of: $0) }
                if folded == [raw] { continue }
                moved.insert(entry.scalar)
                let key = [raw] + folded
                if groups[key] == nil, let scalar = Unicode.Scalar(entry.scalar) {
                    groups[key] = letters.count
                    letters.append(TextLetter(example: scalar, raw: raw, folded: folded))
                }
            }
        }
        for span in 0..<alphabet.count {
            if let scalar = example(of: span, in: alphabet, avoiding: moved) {
                letters.append(TextLetter(example: scalar, raw: span, folded: [span]))
            }
        }
        return letters.sorted { ($0.rank, $0.example.value) < ($1.rank, $1.example.value) }
    }

    /// A scalar of span `span` outside `moved`, printable where one is near the start; nil
    /// when every scalar of the span is in `moved` (or the span is the surrogates').
    static func example(of span: Int, in alphabet: ScalarAlphabet, avoiding moved: Set<UInt32>) -> Unicode.Scalar? {
        if let preferred = alphabet.example(of: span), !moved.contains(preferred.value) { return preferred }
        let values = alphabet.values(of: span)
        var fallback: Unicode.Scalar?
        // Past `moved.count` scalars at least one is not moved; a little further finds a printable one.
        let end = values.upperBound - values.lowerBound > UInt32(moved.count + 0x200) ? values.lowerBound + UInt32(moved.count + 0x200) : values.upperBound
        for value in values.lowerBound...end where !moved.contains(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            if category != .control, category != .unassigned, !scalar.properties.isWhitespace { return scalar }
            if fallback == nil { fallback = scalar }
        }
        return fallback
    }

    /// How readable the example is in a witness: lowercase ASCII letters, digits, capitals,
    /// other visible ASCII, the space, then everything else.
    var rank: Int {
        switch example.value {
        case 0x61...0x7A: 0
        case 0x30...0x39: 1
        case 0x41...0x5A: 2
        case 0x21...0x7E: 3
        case 0x20: 4
        default: example.properties.generalCategory == .control ? 6 : 5
        }
    }
}
