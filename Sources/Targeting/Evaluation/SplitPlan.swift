/// A split prepared once for drawing: its variants in Adapty's draw order (weight ascending,
/// ties by destination id bytes, `nothing` as ""), each with the running total of weights
/// below which a bucket chooses it. Evaluation and SQL both draw from this one plan.
public struct SplitPlan: Hashable, Sendable {
    /// One variant in draw order.
    public struct Step: Hashable, Sendable {
        /// What the variant shows (never a split).
        public var destination: Destination
        /// A bucket below this bound (and not below an earlier step's) chooses the variant.
        public var bound: Int
    }

    /// The split id.
    public let id: String
    /// The variants in draw order.
    public let steps: [Step]

    /// Prepares a split that checked without errors.
    public init(_ split: SplitDestination) {
        id = split.id
        let weighted = split.variants.map { (weight: $0.weightValue, sortKey: $0.destination.splitSortKey) }
        var bound = 0
        steps = SplitDraw.sortedIndices(weighted).map { index in
            bound += weighted[index].weight
            return Step(destination: split.variants[index].destination, bound: bound)
        }
    }

    /// The variant a bucket (0..<100) chooses: the walk of SPEC §4.5 (subtract each weight
    /// from r; the first that takes r below 0 wins) is the first step whose bound exceeds r.
    public func destination(forBucket bucket: Int) -> Destination {
        steps.first { bucket < $0.bound }?.destination ?? steps[steps.count - 1].destination
    }

    /// The variant Adapty shows the profile with this id.
    public func destination(forProfileID profileID: String) -> Destination {
        destination(forBucket: SplitDraw.bucket(splitID: id, profileID: profileID))
    }
}

extension SplitVariant {
    /// The weight as a whole number (0 when the literal is not one; the checker reports that).
    public var weightValue: Int {
        if case .number(let value) = weight.value, value.isFinite, value >= 0, value <= 100 { return Int(value) }
        return 0
    }
}

extension Destination {
    /// The key splits sort ties by, and split variants must not share: the flow or paywall id,
    /// or "" for `nothing`.
    public var splitSortKey: String {
        switch self {
        case .flow(let id, _), .paywall(let id, _): id
        default: ""
        }
    }
}
