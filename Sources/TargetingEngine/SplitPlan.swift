import TargetingProfiles
import TargetingSyntax

/// A split, or an experiment row, prepared once for drawing: its variants in Adapty's draw
/// order (weight ascending, ties by destination id bytes with `nothing` as "" for a split, by
/// variant name for an experiment), each with the running total of weights below which a
/// bucket chooses it. Evaluation and SQL both draw from this one plan.
package struct SplitPlan: Hashable, Sendable {
    /// One variant in draw order.
    package struct Step: Hashable, Sendable {
        /// What the variant shows (never a split).
        package var destination: Destination
        /// A bucket below this bound (and not below an earlier step's) chooses the variant.
        package var bound: Int
        /// The experiment variant's name; nil for a split's variant.
        package var variant: String? = nil
    }

    /// The split id, or the experiment's name: the text before `-` in what is hashed.
    package let id: String
    /// Whose value is drawn.
    package let key: DrawKey
    /// Whether this is an experiment row rather than a split.
    package let isExperiment: Bool
    /// The variants in draw order.
    package let steps: [Step]
    /// For a sticky experiment: how long (ms) an assignment in the profile's history keeps
    /// deciding; nil for a split and an experiment that is not sticky.
    package let sticky: Int64?

    /// Prepares a split that checked without errors.
    package init(_ split: SplitDestination, key: DrawKey = .profileID) {
        id = split.id
        self.key = key
        isExperiment = false
        sticky = nil
        let weighted = split.variants.map { (weight: $0.weightValue, sortKey: $0.destination.splitSortKey) }
        var bound = 0
        steps = SplitDraw.sortedIndices(weighted).map { index in
            bound += weighted[index].weight
            return Step(destination: split.variants[index].destination, bound: bound)
        }
    }

    /// Prepares an experiment row that checked without errors: the experiment's variants in
    /// draw order, each showing the row's destination for it (without a row, nothing: the
    /// draw alone, as `bucket` shows it).
    package init(_ experiment: ExperimentDeclaration, row: ExperimentDestination? = nil, key: DrawKey) {
        id = experiment.name.text
        self.key = key
        isExperiment = true
        sticky = experiment.sticky?.milliseconds
        let weighted = experiment.variants.map { (weight: $0.weightValue, sortKey: $0.name.text) }
        var bound = 0
        steps = SplitDraw.sortedIndices(weighted).map { index in
            bound += weighted[index].weight
            let name = experiment.variants[index].name.text
            return Step(destination: row?.arm(for: name)?.destination ?? .nothing(row?.range ?? experiment.name.range), bound: bound, variant: name)
        }
    }

    /// The index in `steps` of the variant drawn for `value` of the key.
    package func step(forKeyValue value: String) -> Int {
        step(forBucket: SplitDraw.bucket(splitID: id, profileID: value))
    }

    /// The variant a bucket (0..<100) chooses: the weights' walk (subtract each weight
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

    /// For a sticky experiment, the step of the variant `history` assigned the profile when that
    /// assignment still sticks at `now` (it is younger than the duration: `at > now − sticky`)
    /// and names a variant the experiment has; nil otherwise, and the row draws as usual.
    package func stickyStep(in history: ProfileHistory?, now: Int64) -> Int? {
        guard let sticky, let assignment = history?.assignment(of: id), assignment.at > now &- sticky else { return nil }
        return steps.firstIndex { $0.variant == assignment.variant }
    }
}
