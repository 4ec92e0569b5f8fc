import TargetingBase

extension SplitVariant {
    /// The weight as a whole number (0 when the literal is not one; the checker reports that).
    package var weightValue: Int {
        weight.weightValue
    }
}

extension Destination {
    /// The key splits sort ties by, and split variants must not share: the flow or paywall id,
    /// or "" for `nothing`.
    package var splitSortKey: String {
        switch self {
        case .flow(let id, _), .paywall(let id, _): id
        case .nothing, .split, .experiment: ""
        }
    }
}
