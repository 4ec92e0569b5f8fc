extension Expression {
    /// Calls `visit` for every segment reference, comparison and prerequisite, left to right.
    /// (Depth is bounded by the parser's nesting limit.)
    package func forEachLeaf(_ visit: (Expression) -> Void) {
        switch self {
        case .or(let items, _), .and(let items, _):
            for item in items { item.forEachLeaf(visit) }
        case .not(let inner, _), .group(let inner, _):
            inner.forEachLeaf(visit)
        case .reference, .comparison, .prerequisite:
            visit(self)
        }
    }

    /// The segment names referenced, left to right.
    package var references: [Identifier] {
        var result: [Identifier] = []
        forEachLeaf { if case .reference(let identifier) = $0 { result.append(identifier) } }
        return result
    }

    /// The comparisons, left to right.
    package var comparisons: [Comparison] {
        var result: [Comparison] = []
        forEachLeaf { if case .comparison(let comparison) = $0 { result.append(comparison) } }
        return result
    }

    /// The prerequisites, left to right.
    package var prerequisites: [Prerequisite] {
        var result: [Prerequisite] = []
        forEachLeaf { if case .prerequisite(let prerequisite) = $0 { result.append(prerequisite) } }
        return result
    }
}
