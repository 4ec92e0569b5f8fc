import TargetingEngine
import TargetingProfiles

extension ReconcileClass {
    /// The class of shown line `shown` (see the type's definitions).
    /// - Parameters:
    ///   - prediction: the rules' decision for the profile before the line at its `at`; nil when
    ///     the placement is unknown or no decision could be made.
    ///   - isKnownPlacement: whether the rules declare the line's placement.
    ///   - assignedBefore: the variant the profile's history assigned the line's experiment
    ///     before the line, if any.
    package static func of(_ shown: ShownEvent, prediction: Decision?, isKnownPlacement: Bool, assignedBefore: String?) -> ReconcileClass {
        guard isKnownPlacement else { return .unknownPlacement }
        guard let prediction, let outcome = prediction.outcome else { return .shownButPredictedNothing }
        let predicted: (kind: ShownEvent.Kind, id: String)
        switch outcome {
        case .nothing: return .shownButPredictedNothing
        case .flow(let id): predicted = (.flow, id)
        case .paywall(let id): predicted = (.paywall, id)
        }
        if shown.experiment != nil, prediction.heldOut || shown.heldOut { return .heldOutButShownExperiment }
        if let variant = shown.variant, let assignedBefore, assignedBefore != variant { return .variantChangedAfterAssignment }
        if shown.experiment != prediction.experiment || shown.variant != prediction.variant || shown.heldOut != prediction.heldOut {
            return .differentVariant
        }
        if shown.kind != predicted.kind || shown.id != predicted.id { return .differentDestination }
        return .match
    }
}
