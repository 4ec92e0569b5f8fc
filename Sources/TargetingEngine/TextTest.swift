import TargetingBase

/// A test of a string: what `==`, `in`, `contains`, `starts with`, `ends with` and `matches`
/// compile to. Literals are stored lowercased when the test ignores case (`Kind.text`'s `fold`).
package enum TextTest: Hashable, Sendable {
    case equals(String)
    case isIn(ExactStringSet)
    case contains(String)
    case startsWith(String)
    case endsWith(String)
    /// The whole (trimmed) value matches the pattern, which lowercases the value itself when it
    /// ignores case.
    case matches(MatchPattern)

    /// The text literals compared with (none for a pattern).
    package var literals: [String] {
        switch self {
        case .equals(let literal), .contains(let literal), .startsWith(let literal), .endsWith(let literal): [literal]
        case .isIn(let literals): literals.items
        case .matches: []
        }
    }

    /// Whether `text` passes, lowercased first under `fold` (a pattern folds for itself).
    @inline(__always)
    package func holds(_ text: String, fold: Bool) -> Bool {
        func folded() -> String { fold ? CaseFolding.lowercase(text) : text }
        switch self {
        case .equals(let literal): return ByteText.equals(folded(), literal)
        case .isIn(let literals): return literals.containsExactly(folded())
        case .contains(let literal): return ByteText.contains(folded(), literal)
        case .startsWith(let literal): return ByteText.hasPrefix(folded(), literal)
        case .endsWith(let literal): return ByteText.hasSuffix(folded(), literal)
        case .matches(let pattern): return pattern.matches(text)
        }
    }
}
