import TargetingBase
import TargetingProfiles

/// Where `Ingestor` applies event lines: the profile store on disk, or profiles held in memory
/// (the replay of `reconcile`). The lines are read and judged the same way for both.
package protocol IngestDestination {
    /// A profile as one event line changes it.
    associatedtype Recipient: IngestedProfile

    /// How many profiles were read before the first event (their sessions are tracked by
    /// index; every other profile's by id).
    var storedCount: Int { get }

    /// Where the profile with `id` is: an index below `storedCount` for one read before the
    /// events, any other index for one created since; nil when there is none.
    func index(of id: String) -> Int?

    /// Applies `change` to the profile with `id`, found at `known` (`index(of: id)`), or to a new
    /// profile holding only the id when `known` is nil; the change is kept only when `change`
    /// returns true. Returns whether a profile was created.
    @discardableResult
    mutating func update(id: String, at known: Int?, _ change: (inout Recipient) -> Bool) -> Bool

    /// Records a valid shown line, line `line` of the event file `file`, in the history of the
    /// profile with `id` (created when there is none). Returns whether a profile was created.
    mutating func record(_ shown: ShownEvent, profileID id: String, file: String, line: Int) -> Bool
}

extension IngestDestination {
    package mutating func record(_ shown: ShownEvent, profileID id: String, file: String, line: Int) -> Bool {
        update(id: id, at: index(of: id)) { profile in
            profile.record(shown)
            return true
        }
    }
}

/// A profile as an event line changes it: answers, built-in fields, history; and its stored
/// `time_zone`, which reads a picker without a zone of its own.
package protocol IngestedProfile: AnswerRecipient, HistoryRecipient {
    /// The built-in (or unknown top-level) field `name`, nil when absent or `null`.
    subscript(name: String) -> JSONValue? { get }
}

extension Profile: IngestedProfile {}

extension EditedProfile: IngestedProfile {}

extension ProfileStore: IngestDestination {}
