import TargetingBase

/// A test of an instant (`==`, `<`, `<=`, `>`, `>=`, `between`; no lists): its operands fixed
/// or relative to the instant of evaluation.
package enum InstantTest: Hashable, Sendable {
    case equals(DateOperand)
    case order(Ordering, DateOperand)
    /// Both bounds included.
    case between(DateOperand, DateOperand)

    /// Whether the instant `ms` passes at `now` (both Unix ms).
    @inline(__always)
    package func holds(_ ms: Int64, now: Int64) -> Bool {
        switch self {
        case .equals(let literal): ms == literal.at(now)
        case .order(let ordering, let literal): ordering.holds(ms, literal.at(now))
        case .between(let low, let high): low.at(now) <= ms && ms <= high.at(now)
        }
    }

    /// The operands compared with.
    package var literals: [DateOperand] {
        switch self {
        case .equals(let literal), .order(_, let literal): [literal]
        case .between(let low, let high): [low, high]
        }
    }
}
