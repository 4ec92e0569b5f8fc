import TargetingSyntax

/// A split prepared once for drawing: its variants in Adapty's draw order (weight ascending,
/// ties by destination id bytes, `nothing` as ""), each with the running total of weights
/// below which a bucket chooses it. Evaluation and SQL both draw from this one plan.
package struct SplitPlan: Hashable, Sendable {
    /// One variant in draw order.
    package struct Step: Hashable, Sendable {
        /// What the variant shows (never a split).
        package var destination: Destination
        /// A bucket below this bound (and not below an earlier step's) chooses the variant.
        package var bound: Int
    }

    /// The split id.
    package let id: String
    /// The variants in draw order.
    package let steps: [Step]

    /// Prepares a split that checked without errors.
    package init(_ split: SplitDestination) {
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
    package func destination(forBucket bucket: Int) -> Destination {
        steps[step(forBucket: bucket)].destination
    }

    /// The index in `steps` of the variant a bucket chooses.
    package func step(forBucket bucket: Int) -> Int {
        steps.firstIndex { bucket < $0.bound } ?? steps.count - 1
    }

    /// The index in `steps` of the variant Adapty shows the profile with this id.
    package func step(forProfileID profileID: String) -> Int {
        step(forBucket: SplitDraw.bucket(splitID: id, profileID: profileID))
    }

    /// The variant Adapty shows the profile with this id.
    package func destination(forProfileID profileID: String) -> Destination {
        steps[step(forProfileID: profileID)].destination
    }
}
