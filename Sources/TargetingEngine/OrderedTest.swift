import TargetingBase

/// A test of an ordered value that has lists: numbers and versions (`==`, `<`, `<=`, `>`, `>=`,
/// `between`, `in`).
package enum OrderedTest<Value: Comparable & Hashable & Sendable>: Hashable, Sendable {
    case equals(Value)
    case order(Ordering, Value)
    /// Both bounds included.
    case between(Value, Value)
    case isIn(Set<Value>)

    /// Whether `value` passes.
    @inline(__always)
    package func holds(_ value: Value) -> Bool {
        switch self {
        case .equals(let literal): value == literal
        case .order(let ordering, let literal): ordering.holds(value, literal)
        case .between(let low, let high): low <= value && value <= high
        case .isIn(let literals): literals.contains(value)
        }
    }

    /// The literals compared with.
    package var literals: [Value] {
        switch self {
        case .equals(let literal), .order(_, let literal): [literal]
        case .between(let low, let high): [low, high]
        case .isIn(let literals): Array(literals)
        }
    }
}
