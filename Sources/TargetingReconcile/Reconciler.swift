import Foundation
import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingStore
import TargetingBatch

/// Served against predicted: replays event files in order, as `ingest` would into an empty
/// store (answers, `profile_updated` and `placement_shown` lines, read and rejected exactly as
/// `ingest` reads and rejects them), and classifies every shown line against the rules'
/// decision for the profile as it stood just before it (`ReconcileReplay`).
package struct Reconciler {
    private var ingestor: Ingestor
    private var replay: ReconcileReplay

    /// A replay over `program`, whose `input` declarations read the answers; a picker feeding a
    /// calendar date without a zone of its own is read in `timeZone`, named `zoneName` in messages.
    /// With `explaining`, the shown lines of that profile are kept with the explanation of each
    /// prediction (`trace`).
    package init(program: Program, timeZone: TimeZone, zoneName: String, explaining: String? = nil) {
        let interpreter = FlowEventInterpreter(mapping: InputMapping(program.ruleSet), timeZone: timeZone)
        ingestor = Ingestor(interpreter: interpreter, zoneName: zoneName)
        replay = ReconcileReplay(program: program, explaining: explaining)
    }

    /// Replays every line of the event file `reader` reads, handing each rejected line and each
    /// warning to `report` as `ingest` reports them.
    package mutating func replay(_ reader: inout LineChunkReader, report: (Diagnostic) -> Void) {
        ingestor.ingest(&reader, into: &replay, report: report)
    }

    /// How many lines were rejected so far.
    package var rejected: Int { ingestor.summary.rejected }

    /// What the shown lines so far amount to.
    package var report: ReconcileReport { replay.report }

    /// The shown lines of the profile given as `explaining`, with their explanations.
    package var trace: ReconcileTrace? { replay.trace }
}
