import TargetingBase

/// A boolean expression of a segment or audience.
package indirect enum Expression: Hashable, Sendable {
    /// `a or b or …`.
    case or([Expression], SourceRange)
    /// `a and b and …`.
    case and([Expression], SourceRange)
    /// `not a`; the range starts at `not`.
    case not(Expression, SourceRange)
    /// `( a )`, kept so the formatter can keep the parentheses.
    case group(Expression, SourceRange)
    /// A reference to a segment by name.
    case reference(Identifier)
    /// A comparison.
    case comparison(Comparison)
    /// `placement P -> OUTCOME`: a condition on another placement's decision.
    case prerequisite(Prerequisite)

    /// Where the expression is written.
    package var range: SourceRange {
        switch self {
        case .or(_, let range), .and(_, let range), .not(_, let range), .group(_, let range): range
        case .reference(let identifier): identifier.range
        case .comparison(let comparison): comparison.range
        case .prerequisite(let prerequisite): prerequisite.range
        }
    }
}
