import TargetingProfiles

/// What ingesting event lines into a store did, counted: `ingest` prints it.
package struct IngestSummary: Sendable {
    /// Event lines read (rejected lines included, lines too long to read not).
    package var events = 0
    /// Answers applied to a profile.
    package var applied = 0
    /// `profile_updated` lines applied.
    package var profileUpdates = 0
    /// `placement_shown` lines recorded in a history.
    package var shown = 0
    /// Events that are not inputs, by why.
    package var ignored: [IgnoredEvent: Int] = [:]
    /// Lines rejected (each reported where it is).
    package var rejected = 0
    /// Warnings reported (values outside a declared `one of`, picker dates not midnight).
    package var warnings = 0
    /// Profiles created by events.
    package var created = 0
    /// Profiles that existed before and whose stored line changed (created ones count only as created).
    package var updated = 0
    /// Profiles that existed before and took answers, but whose stored line stays the same.
    package var unchanged = 0
    /// Stored picker values read as calendar dates that were not midnight in the zone used.
    package var datesNotMidnight = 0
    /// The first of them.
    package var firstNotMidnight: NotMidnight?
    /// Sessions a `flow_did_disappear` closed.
    package var sessionsClosed = 0
    /// Profiles with events since their last `flow_did_disappear`.
    package var openSessions: Set<String> = []

    /// A picker value read as a calendar date that was not midnight: where, the zone it was
    /// read in, and the date stored.
    package struct NotMidnight: Sendable {
        package var file: String
        package var line: Int
        package var zone: String
        package var date: String
    }

    package init() {}

    /// Every ignored event.
    package var ignoredTotal: Int { ignored.values.reduce(0, +) }
}
