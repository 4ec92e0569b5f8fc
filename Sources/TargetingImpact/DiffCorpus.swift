import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingBatch

/// The corpus side of `diff --profiles`: every profile resolved under both rule sets, in
/// chunks of lines spread over `jobs` threads (`ParallelBatches`). Each thread records whole
/// chunks into reports of their own, and the partial reports are merged in corpus order, so the
/// report (example ids included) is the same for any number of jobs.
package struct DiffCorpus: Sendable {
    /// What one profile line gave.
    package enum Outcome: Sendable {
        /// The line was rejected (unreadable, not a profile, or a split that cannot draw), with this message.
        case rejected(String)
        /// The profile's decisions per placement (nil on the side without it), and the
        /// attributes (indices into `attributes`) it has.
        case compared(profileID: String?, decisions: [(placement: String, old: Decision?, new: Decision?)], seen: [Int])
    }

    /// What a chunk of lines gave: their report, the lines rejected (in order, numbered within
    /// the chunk, with their messages), the attributes (indices into `attributes`) some profile
    /// has, and the number of lines.
    package struct Part: Sendable {
        package var report: ImpactReport
        package var rejections: [(line: Int, message: String)] = []
        package var seen: [Int] = []
        package var lines = 0

        package init(report: ImpactReport) { self.report = report }
    }

    package private(set) var old: Program
    package private(set) var new: Program
    /// Compiles both rule sets anew, for each thread of a run with more than one job (as
    /// `BatchResolver.compileForThread` does, for the same reason). Nil: the threads share them.
    package var compileForThread: (@Sendable () -> (old: Program, new: Program)?)?
    package let now: Int64
    /// Placements in both rule sets: name, index in `old`, index in `new`.
    package let shared: [(String, Int, Int)]
    /// Placements only in `old`, and only in `new`.
    package let removed: [(String, Int)]
    package let added: [(String, Int)]
    /// The attributes the new rules read, whose presence in the corpus is reported.
    package let attributes: [Slot]

    /// A comparison of `old` and `new` at `now` over the placements named.
    package init(old: Program, new: Program, now: Int64, shared: [(String, Int, Int)], removed: [(String, Int)], added: [(String, Int)], attributes: [Slot]) {
        self.old = old
        self.new = new
        self.now = now
        self.shared = shared
        self.removed = removed
        self.added = added
        self.attributes = attributes
    }

    /// Reads every record of `reader` into `report` (an empty report over the placements
    /// compared), handing each rejected line's diagnostic to `reject` in corpus order; returns
    /// the report and the indices (into `attributes`) of the attributes some profile has.
    package func run(_ reader: inout LineChunkReader, jobs: Int, report empty: ImpactReport,
                     reject: (Diagnostic) -> Void) -> (report: ImpactReport, seen: Set<Int>) {
        var report = empty
        var seen: Set<Int> = []
        var linesBefore = 0
        let path = reader.path
        // Each thread looks only for the attributes no profile it read before has.
        ParallelBatches.run(jobs: jobs, chunk: { LineChunk() }, part: { Part(report: empty) }, worker: { () -> (corpus: DiffCorpus, unseen: [Int]) in
            var corpus = self
            if jobs > 1, let (old, new) = compileForThread?() { (corpus.old, corpus.new) = (old, new) }
            return (corpus, Array(attributes.indices))
        }, next: { reader.next(into: &$0) }, work: { chunk, worker, part in
            part = Part(report: empty)
            part.lines = chunk.forEachRecord { line, bytes in worker.corpus.record(line: line, bytes: bytes, unseen: &worker.unseen, into: &part) }
        }, merge: { part in
            report.merge(part.report)
            for (line, message) in part.rejections { reject(.badRecord(message, file: path, line: linesBefore + line)) }
            linesBefore += part.lines
            seen.formUnion(part.seen)
        })
        return (report, seen)
    }

    /// Records line `line` of a chunk (nil bytes: too long to read) into `part`; `unseen` lists
    /// the attributes no earlier profile has (only those are looked for), and loses those found.
    func record(line: Int, bytes: UnsafeBufferPointer<UInt8>?, unseen: inout [Int], into part: inout Part) {
        switch compare(bytes, unseen: unseen) {
        case .rejected(let message):
            part.rejections.append((line, message))
        case .compared(let profileID, let decisions, let seen):
            for (name, before, after) in decisions { part.report.record(placement: name, profileID: profileID, old: before, new: after) }
            if !seen.isEmpty {
                part.seen += seen
                unseen.removeAll { seen.contains($0) }
            }
        }
    }

    /// One line: its decisions under both rule sets, or why it is rejected.
    package func compare(_ bytes: UnsafeBufferPointer<UInt8>?, unseen: [Int]) -> Outcome {
        guard let bytes else { return .rejected(LineChunk.tooLongMessage) }
        let profile: Profile
        switch ProfileReader.read(bytes) {
        case .failure(let error): return .rejected(error.message)
        case .success(let read): profile = read
        }
        var decisions: [(placement: String, old: Decision?, new: Decision?)] = []
        decisions.reserveCapacity(shared.count + removed.count + added.count)
        switch (old.decide(placements: shared.map(\.1), for: profile, now: now), new.decide(placements: shared.map(\.2), for: profile, now: now)) {
        case (.success(let before), .success(let after)):
            for (position, (name, _, _)) in shared.enumerated() { decisions.append((name, before[position], after[position])) }
        case (.failure, _), (_, .failure):
            // The failure the placements meet first, old rules before new.
            for (_, oldIndex, newIndex) in shared {
                if case .failure(let error) = old.decide(placement: oldIndex, for: profile, now: now) {
                    return .rejected(error.message)
                }
                if case .failure(let error) = new.decide(placement: newIndex, for: profile, now: now) {
                    return .rejected(error.message)
                }
            }
        }
        // Placements on one side only are sized there (a split that cannot choose counts as its row's audience).
        if !removed.isEmpty {
            let all = old.decideAll(for: profile, now: now)
            for (name, index) in removed { decisions.append((name, all[index], nil)) }
        }
        if !added.isEmpty {
            let all = new.decideAll(for: profile, now: now)
            for (name, index) in added { decisions.append((name, nil, all[index])) }
        }
        let seen = unseen.filter { attributes[$0].read(from: profile, now: now).isPresent }
        return .compared(profileID: profile.id, decisions: decisions, seen: seen)
    }
}
