import TargetingBase
import TargetingEngine

/// The strings one comparison on a string accepts, as a pattern: `==` and `in` are literals,
/// `contains`, `starts with` and `ends with` are literals with any text around them, and
/// `matches` is its own pattern. Under `fold` the pattern reads the lowercased value (its
/// literals are already lowercased, as compiled).
struct TextLanguage: Hashable {
    /// The pattern the (possibly lowercased) value must match in full.
    var node: PatternNode
    /// Whether the comparison reads the value lowercased.
    var fold: Bool

    /// The language of a comparison on a string; nil for `is set`, which every string meets,
    /// and for comparisons of other types, which no string meets.
    init?(_ kind: CompiledTest.Kind) {
        guard case .text(let test, let fold) = kind else { return nil }
        switch test {
        case .equals(let text):
            self.init(node: .literal(text), fold: fold)
        case .isIn(let texts):
            // An empty list accepts nothing: a set with no scalar.
            let branches = texts.map { PatternNode.literal($0) }
            self.init(node: branches.isEmpty ? .set(ScalarSet()) : .alternation(branches), fold: fold)
        case .contains(let text):
            self.init(node: .sequence([.anyText, .literal(text), .anyText]), fold: fold)
        case .startsWith(let text):
            self.init(node: .sequence([.literal(text), .anyText]), fold: fold)
        case .endsWith(let text):
            self.init(node: .sequence([.anyText, .literal(text)]), fold: fold)
        case .matches(let pattern):
            self.init(node: pattern.node, fold: pattern.ignoringCase)
        }
    }

    /// The language of `node`, read lowercased with `fold`.
    init(node: PatternNode, fold: Bool) {
        self.node = node
        self.fold = fold
    }
}
