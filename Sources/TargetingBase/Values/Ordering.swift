/// An ordering relation between a value and a bound: `<`, `<=`, `>`, `>=`.
///
/// The engine's per-profile loop orders numbers, instants and plain version bits through the
/// concrete overloads: each is a direct call, compiled and specialised in this module, rather
/// than a generic call that another module makes through `Comparable`'s witness table.
package enum Ordering: Hashable, Sendable {
    case less, lessOrEqual, greater, greaterOrEqual

    /// Whether `lhs` stands in this relation to `rhs`.
    package func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool { relates(lhs, rhs) }

    /// `holds` on two numbers.
    package func holds(_ lhs: Double, _ rhs: Double) -> Bool { relates(lhs, rhs) }

    /// `holds` on two instants (Unix ms).
    package func holds(_ lhs: Int64, _ rhs: Int64) -> Bool { relates(lhs, rhs) }

    /// `holds` on two plain version keys.
    package func holds(_ lhs: UInt64, _ rhs: UInt64) -> Bool { relates(lhs, rhs) }

    /// The one definition of the four relations.
    @inline(__always)
    private func relates<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }
}
