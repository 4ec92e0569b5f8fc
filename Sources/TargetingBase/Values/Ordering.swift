/// An ordering relation between a value and a bound: `<`, `<=`, `>`, `>=`.
///
/// `holds` is `@inlinable` so the engine's per-profile loop orders values without a
/// cross-module call.
package enum Ordering: Hashable, Sendable {
    case less, lessOrEqual, greater, greaterOrEqual

    /// Whether `lhs` stands in this relation to `rhs`.
    @inlinable @inline(__always)
    package func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }
}
