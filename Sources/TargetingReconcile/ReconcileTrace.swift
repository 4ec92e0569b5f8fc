import TargetingEngine

/// Every shown line of one profile in the order replayed, each with the rules' explanation of
/// the decision they made for it (`reconcile --explain`).
package struct ReconcileTrace: Hashable, Sendable {
    /// One shown line and why the rules decided what they did.
    package struct Entry: Hashable, Sendable {
        /// The line, its prediction and its class.
        package var line: ReconcileLine
        /// The explanation of `line.prediction`'s decision; nil when no decision was made.
        package var explanation: Explanation?
    }

    /// The profile followed.
    package var profileID: String
    /// Its shown lines in the order replayed.
    package var entries: [Entry] = []
    /// Whether a line of the events created the profile (a shown line, an answer, an update).
    package var isKnown = false

    package init(profileID: String) {
        self.profileID = profileID
    }

    /// The entries that do not match.
    package var mismatches: Int { entries.filter { $0.line.kind != .match }.count }
}
