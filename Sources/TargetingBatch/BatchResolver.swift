import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Resolves the records of a JSON Lines file in chunks spread over `jobs` threads.
///
/// Each thread scans, resolves and prints whole chunks of lines (`ParallelBatches`,
/// `LineChunkReader`) into its own byte buffer, noting where a rejected record's diagnostic
/// falls and on which line of the chunk; the chunks are then written in input order, so the
/// output is byte-identical whatever the number of jobs.
///
/// A line is read by `ProfileScan` straight into the program's slots when it can be, and by
/// `ProfileReader` otherwise (which gives the same values, or the message rejecting the line).
/// A decision is printed as the head for the profile id and the prepared tail of its choice.
package struct BatchResolver: Sendable {
    /// What a run of records comes to.
    package struct Output {
        /// The bytes for standard output.
        package var bytes: [UInt8] = []
        /// Each rejected record: the length of `bytes` when it came, its line (within the
        /// chunk; nil for a whole file) and the message.
        package var rejections: [(offset: Int, line: Int?, message: String)] = []
        /// Whether some record was the profile asked for (always, without `--id`).
        package var matched = false
        /// With `--summary`: profiles per decision (indexed as `DecisionTails`), instead of lines.
        package var counts: [Int] = []
        /// The lines of the chunk (blank ones included), to number the next chunk's.
        package var lines = 0

        package init() {}

        package mutating func reject(_ message: String, line: Int?) { rejections.append((bytes.count, line, message)) }

        /// Empties the output for the next chunk, keeping its buffers.
        mutating func reset() {
            bytes.removeAll(keepingCapacity: true)
            rejections.removeAll(keepingCapacity: true)
            matched = false
            for index in counts.indices { counts[index] = 0 }
            lines = 0
        }

        /// The diagnostic of rejection `index`, for `file` whose lines before this output's are `linesBefore`.
        package func diagnostic(_ index: Int, file: String, linesBefore: Int) -> Diagnostic {
            let rejection = rejections[index]
            guard let line = rejection.line else { return .badFile(rejection.message, file: file) }
            return .badRecord(rejection.message, file: file, line: linesBefore + line)
        }
    }

    package private(set) var program: Program
    package let placements: [Int]
    package let now: Int64
    package let onlyID: String?
    package let printer: DecisionPrinter
    package let jobs: Int
    package let tails: DecisionTails
    /// Count decisions instead of printing them (`--summary`).
    package var summary = false
    /// Compiles the rules anew, for each thread of a run with more than one job: every object
    /// of a program shared by two threads would have its reference count written by both at
    /// each use, a cache line bouncing between the cores; a thread's own copy keeps them apart.
    /// Nil: the threads share `program`.
    package var compileForThread: (@Sendable () -> Program?)?
    /// Records per batch.
    package static let batchSize = 4096

    package init(program: Program, placements: [Int], now: Int64, onlyID: String?, printer: DecisionPrinter, jobs: Int) {
        self.program = program
        self.placements = placements
        self.now = now
        self.onlyID = onlyID
        self.printer = printer
        self.jobs = jobs
        tails = DecisionTails(program: program, format: printer.format)
    }

    /// Resolves line `line` of a chunk (nil bytes: too long to read) into `output`.
    package func resolve(line: Int, bytes: UnsafeBufferPointer<UInt8>?, scan: inout ProfileScan, into output: inout Output) {
        guard let bytes else { return output.reject(LineChunk.tooLongMessage, line: line) }
        if !printer.explain, scan.scan(bytes) {
            return ScannedProfile.with(&scan, bytes: bytes) { scanned in
                if let onlyID, scanned.profileID != onlyID { return }
                resolve(.scanned(scanned), line: line, into: &output)
            }
        }
        switch ProfileReader.read(bytes) {
        case .failure(let error):
            output.reject(error.message, line: line)
        case .success(let profile):
            if let onlyID, profile.id != onlyID { return }
            resolve(.profile(profile), line: line, into: &output)
        }
    }

    /// A profile as read: scanned in place, or a `Profile` (what `--explain` needs).
    package enum ReadProfile {
        case scanned(ScannedProfile)
        case profile(Profile)
    }

    /// Resolves one profile (at `line` of a chunk of a JSON Lines file, nil for a whole file)
    /// into `output`: the one path from a profile to printed decisions, for `--profile` and for batches.
    package func resolve(_ read: ReadProfile, line: Int?, into output: inout Output) {
        output.matched = true
        if printer.explain, case .profile(let profile) = read {
            switch program.decide(placements: placements, for: profile, now: now) {
            case .failure(let error):
                output.reject(error.message, line: line)
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
            output.reject(failure.message, line: line)
        } else if summary {
            // Counted only once every placement decided, so a rejected profile counts nowhere.
            if output.counts.isEmpty { output.counts = Array(repeating: 0, count: tails.count) }
            for tail in chosen { output.counts[tail] += 1 }
        }
    }

    /// Resolves every record of `reader`, handing each chunk's output to `write` in input
    /// order with the number of lines before it; returns (rejected, matched) and, with
    /// `summary`, the profiles per decision.
    package func run(_ reader: inout LineChunkReader, write: (Output, _ linesBefore: Int) -> Void) -> (rejected: Int, matched: Bool, counts: [Int]) {
        var rejected = 0
        var matched = false
        var counts = Array(repeating: 0, count: tails.count)
        var linesBefore = 0
        ParallelBatches.run(jobs: jobs, chunk: { LineChunk() }, part: { Output() }, worker: { () -> (resolver: BatchResolver, scan: ProfileScan) in
            var resolver = self
            if jobs > 1, let program = compileForThread?() { resolver.program = program }
            return (resolver, ProfileScan())
        }, next: { reader.next(into: &$0) }, work: { chunk, worker, output in
            output.reset()
            output.lines = chunk.forEachRecord { line, bytes in worker.resolver.resolve(line: line, bytes: bytes, scan: &worker.scan, into: &output) }
        }, merge: { output in
            write(output, linesBefore)
            linesBefore += output.lines
            rejected += output.rejections.count
            matched = matched || output.matched
            for (tail, count) in output.counts.enumerated() { counts[tail] += count }
        })
        return (rejected, matched, counts)
    }
}
