import Dispatch
import TargetingBase
import TargetingEngine
import TargetingProfiles

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

        mutating func reject(_ diagnostic: Diagnostic) { rejections.append((bytes.count, diagnostic)) }
    }

    let program: Program
    let placements: [Int]
    let now: Int64
    let onlyID: String?
    let printer: DecisionPrinter
    let jobs: Int
    let tails: DecisionTails
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

    /// Resolves one record into `output`, scanning with `scan`.
    func resolve(_ record: JSONLinesReader.Record, scan: inout ProfileScan, into output: inout Output) {
        switch record.bytes {
        case .failure(let rejection):
            output.reject(rejection)
        case .success(let line):
            line.withUnsafeBufferPointer { bytes in
                if !printer.explain, scan.scan(bytes) {
                    let scanned = ScannedProfile(scan: scan, bytes: bytes)
                    if let onlyID, scanned.profileID != onlyID { return }
                    resolve(scanned, profile: nil, file: record.path, line: record.line, into: &output)
                    return
                }
                switch ProfileReader.read(bytes) {
                case .failure(let error):
                    output.reject(record.rejection(error.message))
                case .success(let profile):
                    if let onlyID, profile.id != onlyID { return }
                    resolve(profile, profile: profile, file: record.path, line: record.line, into: &output)
                }
            }
        }
    }

    /// Resolves one profile read from `file` (at `line` of a JSON Lines file, if any) into
    /// `output`: the one path from a profile to printed decisions, for `--profile` and for
    /// batches. `--explain` needs the `Profile` itself.
    func resolve<Source: SlotSource>(_ source: Source, profile: Profile?, file: String, line: Int?, into output: inout Output) {
        output.matched = true
        if printer.explain, let profile {
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
        program.withRun(for: source, now: now) { run in
            let start = output.bytes.count
            for index in placements {
                switch run.choose(placement: index) {
                case .failure(let error):
                    output.bytes.removeSubrange(start...)
                    output.reject(.unresolvable(error, file: file, line: line))
                    return
                case .success(let choice):
                    tails.append(placement: index, choice: choice, profileID: source.profileID, to: &output.bytes)
                }
            }
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

    /// Resolves every record of `reader`, writing results in order; returns (rejected, matched).
    func run(_ reader: inout JSONLinesReader, io: CommandIO) -> (rejected: Int, matched: Bool) {
        var rejected = 0
        var matched = false
        var batch: [JSONLinesReader.Record] = []
        batch.reserveCapacity(BatchResolver.batchSize)
        var scans = [ProfileScan](repeating: ProfileScan(), count: max(1, jobs))
        func flush() {
            for output in outputs(of: batch, scans: &scans) {
                emit(output, io: io)
                rejected += output.rejections.count
                matched = matched || output.matched
            }
            batch.removeAll(keepingCapacity: true)
        }
        while let record = reader.next() {
            batch.append(record)
            if batch.count == BatchResolver.batchSize { flush() }
        }
        flush()
        return (rejected, matched)
    }

    /// The outputs of `records`, in order: one per contiguous run, computed on up to `jobs` threads.
    func outputs(of records: [JSONLinesReader.Record], scans: inout [ProfileScan]) -> [Output] {
        let workers = min(jobs, records.count, scans.count)
        guard workers > 1 else {
            var output = Output()
            for record in records { resolve(record, scan: &scans[0], into: &output) }
            return [output]
        }
        let slots = OutputSlots(outputs: workers, scans: scans)
        let resolver = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = (records.count * worker / workers)..<(records.count * (worker + 1) / workers)
            slots.fill(worker) { output, scan in
                for index in range { resolver.resolve(records[index], scan: &scan, into: &output) }
            }
        }
        scans = slots.scans
        return slots.outputs
    }
}

/// Outputs and scans written by several threads, each to its own index.
private final class OutputSlots: @unchecked Sendable {
    private let outputStorage: UnsafeMutableBufferPointer<BatchResolver.Output>
    private let scanStorage: UnsafeMutableBufferPointer<ProfileScan>

    init(outputs count: Int, scans: [ProfileScan]) {
        outputStorage = .allocate(capacity: count)
        outputStorage.initialize(repeating: BatchResolver.Output())
        scanStorage = .allocate(capacity: scans.count)
        _ = scanStorage.initialize(from: scans)
    }

    deinit {
        outputStorage.deinitialize()
        outputStorage.deallocate()
        scanStorage.deinitialize()
        scanStorage.deallocate()
    }

    /// Runs `body` on output and scan `index`; no two threads use the same index, and nobody
    /// reads until all are done.
    func fill(_ index: Int, _ body: (inout BatchResolver.Output, inout ProfileScan) -> Void) {
        body(&outputStorage[index], &scanStorage[index])
    }

    var outputs: [BatchResolver.Output] { Array(outputStorage) }
    var scans: [ProfileScan] { Array(scanStorage) }
}
