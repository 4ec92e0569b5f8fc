import TargetingProfiles

/// One replayed shown line: where it is, whose it is, what it showed, what the rules made of
/// its placement, and its class.
package struct ReconcileLine: Hashable, Sendable {
    /// The event file.
    package var file: String
    /// The line's number in `file`, from 1.
    package var line: Int
    /// The profile the line is about.
    package var profileID: String
    /// What the line says was shown.
    package var shown: ShownEvent
    /// The rules' prediction for the line.
    package var prediction: ReconcilePrediction
    /// How the line compares with the prediction.
    package var kind: ReconcileClass

    package init(file: String, line: Int, profileID: String, shown: ShownEvent, prediction: ReconcilePrediction, kind: ReconcileClass) {
        self.file = file
        self.line = line
        self.profileID = profileID
        self.shown = shown
        self.prediction = prediction
        self.kind = kind
    }

    /// When the line was shown (Unix ms).
    package var at: Int64 { shown.at }
}
