import Dispatch
import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingStore

/// Resolves the records of a JSON Lines file in batches spread over `jobs` threads.
///
/// Each thread takes a contiguous run of a batch and writes its decisions into its own byte
/// buffer, noting where a rejected record's diagnostic falls; the runs are then written in
/// input order, so the output is byte-identical whatever the number of jobs, and memory holds
/// one batch at a time.
///
/// A line is read by `ProfileScan` straight into the program's slots when it can be, and by
/// `ProfileReader` otherwise (which gives the same values, or the message rejecting the line).
/// A decision is printed as the head for the profile id and the prepared tail of its choice.
struct BatchResolver {
    /// What a run of records comes to.
    struct Output {
        /// The bytes for standard output.
        var bytes: [UInt8] = []
        /// Each rejected record's diagnostic, with the length of `bytes` when it came.
        var rejections: [(offset: Int, diagnostic: Diagnostic)] = []
        /// Whether some record was the profile asked for (always, without `--id`).
        var matched = false
        /// With `--summary`: profiles per decision (indexed as `DecisionTails`), instead of lines.
        var counts: [Int] = []

        mutating func reject(_ diagnostic: Diagnostic) { rejections.append((bytes.count, diagnostic)) }
    }

    let program: Program
    let placements: [Int]
    let now: Int64
    let onlyID: String?
    let printer: DecisionPrinter
    let jobs: Int
    let tails: DecisionTails
    /// Count decisions instead of printing them (`--summary`).
    var summary = false
    /// Records per batch.
    static let batchSize = 4096

    init(program: Program, placements: [Int], now: Int64, onlyID: String?, printer: DecisionPrinter, jobs: Int) {
        self.program = program
        self.placements = placements
        self.now = now
        self.onlyID = onlyID
        self.printer = printer
        self.jobs = jobs
        tails = DecisionTails(program: program, format: printer.format)
    }

    /// Resolves one record into `worker`'s output, scanning with its scan.
    func resolve(_ record: JSONLinesReader.Record, by worker: inout Worker) {
        resolve(record, scan: &worker.scan, into: &worker.output)
    }

    func resolve(_ record: JSONLinesReader.Record, scan: inout ProfileScan, into output: inout Output) {
        switch record.bytes {
        case .failure(let rejection):
            output.reject(rejection)
        case .success(let line):
            line.withUnsafeBufferPointer { bytes in
                if !printer.explain, scan.scan(bytes) {
                    let scanned = ScannedProfile(scan: scan, bytes: bytes)
                    if let onlyID, scanned.profileID != onlyID { return }
                    resolve(.scanned(scanned), file: record.path, line: record.line, into: &output)
                    return
                }
                switch ProfileReader.read(bytes) {
                case .failure(let error):
                    output.reject(record.rejection(error.message))
                case .success(let profile):
                    if let onlyID, profile.id != onlyID { return }
                    resolve(.profile(profile), file: record.path, line: record.line, into: &output)
                }
            }
        }
    }

    /// A profile as read: scanned in place, or a `Profile` (what `--explain` needs).
    enum ReadProfile {
        case scanned(ScannedProfile)
        case profile(Profile)
    }

    /// Resolves one profile read from `file` (at `line` of a JSON Lines file, if any) into
    /// `output`: the one path from a profile to printed decisions, for `--profile` and for batches.
    func resolve(_ read: ReadProfile, file: String, line: Int?, into output: inout Output) {
        output.matched = true
        if printer.explain, case .profile(let profile) = read {
            switch program.decide(placements: placements, for: profile, now: now) {
            case .failure(let error):
                output.reject(.unresolvable(error, file: file, line: line))
            case .success(let decisions):
                var evaluator = Evaluator(program: program, profile: profile, now: now)
                for decision in decisions {
                    output.bytes.append(contentsOf: printer.text(decision, explanation: evaluator.explain(decision, profile: profile)).utf8)
                }
            }
            return
        }
        let start = output.bytes.count
        var chosen: [Int] = []
        let failure: ResolveError?
        switch read {
        case .scanned(let scanned):
            failure = program.choose(placements: placements, for: scanned, now: now) { index, choice in
                if summary { chosen.append(tails.index(placement: index, choice: choice)) } else {
                    tails.append(placement: index, choice: choice, profileID: scanned.profileID, to: &output.bytes)
                }
            }
        case .profile(let profile):
            let profileID = profile.id
            failure = program.choose(placements: placements, for: profile, now: now) { index, choice in
                if summary { chosen.append(tails.index(placement: index, choice: choice)) } else {
                    tails.append(placement: index, choice: choice, profileID: profileID, to: &output.bytes)
                }
            }
        }
        if let failure {
            output.bytes.removeSubrange(start...)
            output.reject(.unresolvable(failure, file: file, line: line))
        } else if summary {
            // Counted only once every placement decided, so a rejected profile counts nowhere.
            if output.counts.isEmpty { output.counts = Array(repeating: 0, count: tails.count) }
            for tail in chosen { output.counts[tail] += 1 }
        }
    }

    /// Writes an output: its bytes to standard output, each rejection to standard error where it came.
    func emit(_ output: Output, io: CommandIO) {
        var written = 0
        for (offset, diagnostic) in output.rejections {
            if offset > written { io.out(output.bytes[written..<offset]) }
            written = offset
            io.report(diagnostic)
        }
        if output.bytes.count > written { io.out(output.bytes[written...]) }
    }

    /// What one thread keeps from batch to batch: its scan and its output buffer.
    struct Worker {
        var scan = ProfileScan()
        var output = Output()
    }

    /// Resolves every record of `reader`, writing results in order; returns (rejected, matched)
    /// and, with `summary`, the profiles per decision.
    ///
    /// With more than one job the work is a pipeline: while the threads resolve one batch, this
    /// thread writes out the batch before it and reads the batch after it.
    func run(_ reader: inout JSONLinesReader, io: CommandIO) -> (rejected: Int, matched: Bool, counts: [Int]) {
        var rejected = 0
        var matched = false
        var counts = Array(repeating: 0, count: tails.count)
        func write(_ outputs: [Output]) {
            for output in outputs {
                emit(output, io: io)
                rejected += output.rejections.count
                matched = matched || output.matched
                for (tail, count) in output.counts.enumerated() { counts[tail] += count }
            }
        }
        func read() -> [JSONLinesReader.Record] {
            var batch: [JSONLinesReader.Record] = []
            batch.reserveCapacity(BatchResolver.batchSize)
            while batch.count < BatchResolver.batchSize, let record = reader.next() { batch.append(record) }
            return batch
        }
        var worker = Worker()
        guard jobs > 1 else {
            var batch = read()
            while !batch.isEmpty {
                for record in batch { resolve(record, by: &worker) }
                write([worker.output])
                worker.output = Output()
                batch = read()
            }
            return (rejected, matched, counts)
        }
        let slots = WorkerSlots(count: jobs)
        var batch = read()
        var finished: [Output] = []
        while !batch.isEmpty || !finished.isEmpty {
            let used = batch.isEmpty ? 0 : min(jobs, batch.count)
            let group = DispatchGroup()
            if used > 0 {
                let resolver = self, records = batch
                DispatchQueue.global().async(group: group) {
                    DispatchQueue.concurrentPerform(iterations: used) { index in
                        let range = (records.count * index / used)..<(records.count * (index + 1) / used)
                        slots.update(index) { worker in
                            for position in range { resolver.resolve(records[position], by: &worker) }
                        }
                    }
                }
            }
            write(finished)
            let next = used > 0 ? read() : []
            group.wait()
            finished = (0..<used).map { slots.takeOutput(at: $0) }
            batch = next
        }
        return (rejected, matched, counts)
    }
}

/// The workers of a pipelined run, shared with the threads of one batch: each worker is used
/// by one thread only, and its output taken once they are all done (`DispatchGroup.wait`).
private final class WorkerSlots: @unchecked Sendable {
    private let workers: UnsafeMutablePointer<BatchResolver.Worker>
    private let count: Int

    init(count: Int) {
        self.count = count
        workers = .allocate(capacity: count)
        workers.initialize(repeating: BatchResolver.Worker(), count: count)
    }

    deinit {
        workers.deinitialize(count: count)
        workers.deallocate()
    }

    func update(_ index: Int, _ body: (inout BatchResolver.Worker) -> Void) { body(&workers[index]) }

    /// Worker `index`'s output, leaving it an empty one.
    func takeOutput(at index: Int) -> BatchResolver.Output {
        defer { workers[index].output = BatchResolver.Output() }
        return workers[index].output
    }
}
