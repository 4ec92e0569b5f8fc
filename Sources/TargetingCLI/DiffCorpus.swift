import Dispatch
import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The corpus side of `diff --profiles`: every profile resolved under both rule sets, in
/// batches spread over `jobs` threads, and handed back in corpus order, so the report (example
/// ids included) is the same for any number of jobs.
struct DiffCorpus: Sendable {
    /// What one profile line gave.
    enum Outcome: Sendable {
        /// The line was rejected: unreadable, not a profile, or a split that cannot draw.
        case rejected(Diagnostic)
        /// The profile's decisions per placement (nil on the side without it), and the
        /// attributes (indices into `attributes`) it has.
        case compared(profileID: String?, decisions: [(placement: String, old: Decision?, new: Decision?)], seen: [Int])
    }

    let old: Program
    let new: Program
    let now: Int64
    /// Placements in both rule sets: name, index in `old`, index in `new`.
    let shared: [(String, Int, Int)]
    /// Placements only in `old`, and only in `new`.
    let removed: [(String, Int)]
    let added: [(String, Int)]
    /// The attributes the new rules read, whose presence in the corpus is reported.
    let attributes: [Slot]

    /// Profiles per batch: enough to keep every thread busy, few enough to bound memory.
    static let batchSize = 4_096

    /// Reads every record of `reader` and hands each outcome to `apply`, in corpus order.
    func run(_ reader: inout JSONLinesReader, jobs: Int, apply: (Outcome) -> Void) {
        var unseen = Array(attributes.indices)
        var batch: [JSONLinesReader.Record] = []
        batch.reserveCapacity(DiffCorpus.batchSize)
        func flush() {
            for outcome in compare(batch, unseen: unseen, jobs: jobs) {
                if case .compared(_, _, let seen) = outcome, !seen.isEmpty { unseen.removeAll { seen.contains($0) } }
                apply(outcome)
            }
            batch.removeAll(keepingCapacity: true)
        }
        while let record = reader.next() {
            batch.append(record)
            if batch.count == DiffCorpus.batchSize { flush() }
        }
        flush()
    }

    /// The outcomes of `records`, in order, computed on up to `jobs` threads.
    func compare(_ records: [JSONLinesReader.Record], unseen: [Int], jobs: Int) -> [Outcome] {
        let used = max(1, min(jobs, records.count))
        guard used > 1 else { return records.map { compare($0, unseen: unseen) } }
        var outcomes = [Outcome?](repeating: nil, count: records.count)
        let corpus = self
        outcomes.withUnsafeMutableBufferPointer { buffer in
            let slots = OutcomeSlots(buffer)
            DispatchQueue.concurrentPerform(iterations: used) { part in
                for position in (records.count * part / used)..<(records.count * (part + 1) / used) {
                    slots.set(position, corpus.compare(records[position], unseen: unseen))
                }
            }
        }
        return outcomes.map { $0! }
    }

    /// One record: its decisions under both rule sets, or why it is rejected.
    func compare(_ record: JSONLinesReader.Record, unseen: [Int]) -> Outcome {
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

/// The outcomes buffer, shared with the threads of one batch: each position is written by
/// one thread only, and the buffer outlives them (`concurrentPerform` returns when all are done).
private struct OutcomeSlots: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<DiffCorpus.Outcome?>

    init(_ buffer: UnsafeMutableBufferPointer<DiffCorpus.Outcome?>) { self.buffer = buffer }

    func set(_ index: Int, _ outcome: DiffCorpus.Outcome) { buffer[index] = outcome }
}
