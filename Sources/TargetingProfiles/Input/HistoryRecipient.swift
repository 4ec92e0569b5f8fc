/// What a shown event is recorded on: a profile, or a store's edit of one.
package protocol HistoryRecipient {
    /// Records that `placement` was shown at `at` (Unix ms), as `ProfileHistory.recordShown` keeps it.
    mutating func recordShown(_ placement: String, at: Int64)
    /// Records that `experiment` assigned `variant` at `at`, unless it already has an assignment.
    mutating func recordAssignment(_ experiment: String, variant: String, at: Int64)
}

extension HistoryRecipient {
    /// Records a shown event: the instant its placement was shown, and, when it names an
    /// experiment, the experiment's assignment unless one is recorded already. The one path from
    /// a shown line to a history, shared by `ingest` and every other reader of event files.
    package mutating func record(_ shown: ShownEvent) {
        recordShown(shown.placement, at: shown.at)
        if let experiment = shown.experiment, let variant = shown.variant {
            recordAssignment(experiment, variant: variant, at: shown.at)
        }
    }
}

extension Profile: HistoryRecipient {
    package mutating func recordShown(_ placement: String, at: Int64) {
        if history == nil { history = ProfileHistory() }
        history?.recordShown(placement, at: at)
    }

    package mutating func recordAssignment(_ experiment: String, variant: String, at: Int64) {
        if history == nil { history = ProfileHistory() }
        history?.recordAssignment(experiment, variant: variant, at: at)
    }
}
