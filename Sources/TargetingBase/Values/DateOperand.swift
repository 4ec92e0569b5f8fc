/// A date literal of a comparison as a value: a fixed instant, or `now ± d`, which stays
/// relative to the instant of evaluation.
package enum DateOperand: Hashable, Sendable {
    /// A fixed instant (Unix ms).
    case fixed(Int64)
    /// `now` plus an offset (ms).
    case relative(Int64)

    /// The instant at time `now`.
    @inlinable @inline(__always)
    package func at(_ now: Int64) -> Int64 {
        switch self {
        case .fixed(let ms): ms
        case .relative(let offset): Timestamp.shifted(now, by: offset)
        }
    }
}
