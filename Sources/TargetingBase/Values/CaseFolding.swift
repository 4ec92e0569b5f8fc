/// The lowercase mapping that `ignoring case` compares: the full
/// Unicode lowercase mapping of each scalar, with the Final_Sigma condition of Unicode §3.13
/// for U+03A3 GREEK CAPITAL LETTER SIGMA, as ICU's `u_strToLower` (PostgreSQL's `lower()`
/// under an ICU collation) and Java's `toLowerCase(Locale.ROOT)` (Spark's `lower()`) apply it.
///
/// Swift's `String.lowercased()` maps each scalar on its own, so `"ΟΔΟΣ"` becomes `"οδοσ"`;
/// here it becomes `"οδος"`. Every place that folds case calls `CaseFolding.lowercase`.
package enum CaseFolding {
    /// The lowercase mapping of `text`, with final sigma.
    package static func lowercase(_ text: String) -> String {
        guard containsCapitalSigma(text) else { return text.lowercased() }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for index in scalars.indices {
            let scalar = scalars[index]
            if scalar == capitalSigma {
                result.append(isFinal(index, in: scalars) ? finalSigma : smallSigma)
            } else {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(result)
    }

    /// U+03A3 GREEK CAPITAL LETTER SIGMA, whose mapping depends on its neighbours.
    static let capitalSigma: Unicode.Scalar = "\u{3A3}"
    /// U+03C3 GREEK SMALL LETTER SIGMA.
    static let smallSigma: Unicode.Scalar = "\u{3C3}"
    /// U+03C2 GREEK SMALL LETTER FINAL SIGMA.
    static let finalSigma: Unicode.Scalar = "\u{3C2}"

    /// Whether the UTF-8 of `text` holds U+03A3 (`CE A3`; `CE` only ever starts a scalar).
    static func containsCapitalSigma(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == 0xCE && byte == 0xA3 { return true }
            previous = byte
        }
        return false
    }

    /// Final_Sigma: a cased letter comes before the sigma and none after it, skipping
    /// case-ignorable scalars on both sides (a scalar that is both counts as case-ignorable).
    static func isFinal(_ index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        casedLetter(in: scalars[..<index].reversed()) && !casedLetter(in: scalars[(index + 1)...])
    }

    /// Whether the first scalar of `sequence` that is not case-ignorable is cased.
    static func casedLetter<S: Sequence<Unicode.Scalar>>(in sequence: S) -> Bool {
        for scalar in sequence where !scalar.properties.isCaseIgnorable {
            return scalar.properties.isCased
        }
        return false
    }
}
