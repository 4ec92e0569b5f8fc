extension Expression {
    /// The expression on one line as rules write it (`pros and not adults`, comparisons as
    /// `Comparison.text()` spells them, parentheses where written).
    package var text: String {
        switch self {
        case .or(let items, _): items.map(\.text).joined(separator: " or ")
        case .and(let items, _): items.map(\.text).joined(separator: " and ")
        case .not(let inner, _): "not " + inner.text
        case .group(let inner, _): "(" + inner.text + ")"
        case .reference(let name): name.text
        case .comparison(let comparison): comparison.text()
        case .prerequisite(let prerequisite): prerequisite.text
        }
    }
}
