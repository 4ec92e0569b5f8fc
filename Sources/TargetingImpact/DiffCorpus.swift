import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingStore

/// The corpus side of `diff --profiles`: every profile resolved under both rule sets, in
/// batches spread over `jobs` threads. Each thread records its share of a batch (a contiguous
/// run of lines) into a report of its own, and the partial reports are merged in corpus order,
/// so the report (example ids included) is the same for any number of jobs. With more than one
/// job, the next batch is read while the threads work on the current one.
package struct DiffCorpus: Sendable {
    /// What one profile line gave.
    package enum Outcome: Sendable {
        /// The line was rejected: unreadable, not a profile, or a split that cannot draw.
        case rejected(Diagnostic)
        /// The profile's decisions per placement (nil on the side without it), and the
        /// attributes (indices into `attributes`) it has.
        case compared(profileID: String?, decisions: [(placement: String, old: Decision?, new: Decision?)], seen: [Int])
    }

    /// What a run of consecutive lines gave: their report, the diagnostics of the lines
    /// rejected (in order), and the attributes (indices into `attributes`) some profile has.
    package struct Part: Sendable {
        package var report: ImpactReport
        package var rejections: [Diagnostic] = []
        package var seen: [Int] = []

        package init(report: ImpactReport) { self.report = report }
    }

    package let old: Program
    package let new: Program
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

    /// Profiles per batch: enough to keep every thread busy, few enough to bound memory.
    package static let batchSize = 4_096

    /// Reads every record of `reader` into `report` (an empty report over the placements
    /// compared), handing each rejected line's diagnostic to `reject` in corpus order; returns
    /// the report and the indices (into `attributes`) of the attributes some profile has.
    package func run(_ reader: inout JSONLinesReader, jobs: Int, report empty: ImpactReport,
                     reject: (Diagnostic) -> Void) -> (report: ImpactReport, seen: Set<Int>) {
        var report = empty
        var seen: Set<Int> = []
        let corpus = self
        // Each thread looks only for the attributes no profile it read before has.
        ParallelBatches.run(jobs: jobs, worker: { Array(attributes.indices) }, next: {
            var batch: [JSONLinesReader.Record] = []
            batch.reserveCapacity(DiffCorpus.batchSize)
            while batch.count < DiffCorpus.batchSize, let record = reader.next() { batch.append(record) }
            return batch
        }, work: { records, unseen in
            var part = Part(report: empty)
            corpus.record(records, unseen: &unseen, into: &part)
            return part
        }, merge: { part in
            report.merge(part.report)
            part.rejections.forEach(reject)
            seen.formUnion(part.seen)
        })
        return (report, seen)
    }

    /// Records `records`, consecutive lines of the corpus, into `part`; `unseen` lists the
    /// attributes no earlier profile has (only those are looked for), and loses those found.
    func record(_ records: ArraySlice<JSONLinesReader.Record>, unseen: inout [Int], into part: inout Part) {
        for record in records {
            switch compare(record, unseen: unseen) {
            case .rejected(let diagnostic):
                part.rejections.append(diagnostic)
            case .compared(let profileID, let decisions, let seen):
                for (name, before, after) in decisions { part.report.record(placement: name, profileID: profileID, old: before, new: after) }
                if !seen.isEmpty {
                    part.seen += seen
                    unseen.removeAll { seen.contains($0) }
                }
            }
        }
    }
    /// One record: its decisions under both rule sets, or why it is rejected.
    package func compare(_ record: JSONLinesReader.Record, unseen: [Int]) -> Outcome {
        let profile: Profile
        switch record.bytes {
        case .failure(let error): return .rejected(error)
        case .success(let bytes):
            switch ProfileReader.read(bytes) {
            case .failure(let error): return .rejected(record.rejection(error.message))
            case .success(let read): profile = read
            }
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
                    return .rejected(.unresolvable(error, file: record.path, line: record.line))
                }
                if case .failure(let error) = new.decide(placement: newIndex, for: profile, now: now) {
                    return .rejected(.unresolvable(error, file: record.path, line: record.line))
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
