/// How a shown line compares with what the rules predict for it. A line takes the first class
/// that applies, in the order of the cases (`allCases`); `match` applies only when none other does.
///
/// The prediction is the placement resolved for the profile as it stood just before the line,
/// at the line's `at`. Each class, precisely:
/// - `unknownPlacement`: the rules declare no placement of the line's name.
/// - `shownButPredictedNothing`: the rules decide nothing to show (no row matched, or the row
///   shows `nothing`), or cannot decide (a draw without its key), yet the line shows a destination.
/// - `heldOutButShownExperiment`: the line names an experiment, and the profile is held out, by
///   the prediction or by the line's own `held_out: true`.
/// - `variantChangedAfterAssignment`: the line names an experiment whose first assignment in the
///   profile's history (before this line) is another variant.
/// - `differentVariant`: the line and the prediction disagree on a draw: one names an experiment
///   and the other does not, or they name different experiments or variants, or they disagree on
///   whether the holdout held the profile out (the holdout's draw counts as a variant), whether
///   the destination is the same or not.
/// - `differentDestination`: the same draws, another flow or paywall (kind or id).
/// - `match`: the same destination, experiment and variant, and `held_out`.
package enum ReconcileClass: Int, CaseIterable, Hashable, Sendable {
    case unknownPlacement
    case shownButPredictedNothing
    case heldOutButShownExperiment
    case variantChangedAfterAssignment
    case differentVariant
    case differentDestination
    case match

    /// The class's name in every output, as the README spells it.
    package var name: String {
        switch self {
        case .unknownPlacement: "unknown placement"
        case .shownButPredictedNothing: "shown but predicted nothing"
        case .heldOutButShownExperiment: "held out but shown an experiment"
        case .variantChangedAfterAssignment: "variant changed after assignment"
        case .differentVariant: "different variant"
        case .differentDestination: "different destination"
        case .match: "match"
        }
    }
}
