import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Resolves the records of a JSON Lines file in batches spread over `jobs` threads.
///
/// Each thread takes a contiguous run of a batch (`ParallelBatches`) and writes its decisions
/// into its own byte buffer, noting where a rejected record's diagnostic falls; the runs are
/// then written in input order, so the output is byte-identical whatever the number of jobs.
///
/// A line is read by `ProfileScan` straight into the program's slots when it can be, and by
/// `ProfileReader` otherwise (which gives the same values, or the message rejecting the line).
/// A decision is printed as the head for the profile id and the prepared tail of its choice.
package struct BatchResolver: Sendable {
    /// What a run of records comes to.
    package struct Output {
        /// The bytes for standard output.
        package var bytes: [UInt8] = []
        /// Each rejected record's diagnostic, with the length of `bytes` when it came.
        package var rejections: [(offset: Int, diagnostic: Diagnostic)] = []
        /// Whether some record was the profile asked for (always, without `--id`).
        package var matched = false
        /// With `--summary`: profiles per decision (indexed as `DecisionTails`), instead of lines.
        package var counts: [Int] = []

        package init() {}

        package mutating func reject(_ diagnostic: Diagnostic) { rejections.append((bytes.count, diagnostic)) }
    }

    package let program: Program
    package let placements: [Int]
    package let now: Int64
    package let onlyID: String?
    package let printer: DecisionPrinter
    package let jobs: Int
    package let tails: DecisionTails
    /// Count decisions instead of printing them (`--summary`).
    package var summary = false
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

    package func resolve(_ record: JSONLinesReader.Record, scan: inout ProfileScan, into output: inout Output) {
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
    package enum ReadProfile {
        case scanned(ScannedProfile)
        case profile(Profile)
    }

    /// Resolves one profile read from `file` (at `line` of a JSON Lines file, if any) into
    /// `output`: the one path from a profile to printed decisions, for `--profile` and for batches.
    package func resolve(_ read: ReadProfile, file: String, line: Int?, into output: inout Output) {
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

    /// Resolves every record of `reader`, handing each batch's output to `write` in input
    /// order; returns (rejected, matched) and, with `summary`, the profiles per decision.
    package func run(_ reader: inout JSONLinesReader, write: (Output) -> Void) -> (rejected: Int, matched: Bool, counts: [Int]) {
        var rejected = 0
        var matched = false
        var counts = Array(repeating: 0, count: tails.count)
        let resolver = self
        ParallelBatches.run(jobs: jobs, worker: { ProfileScan() }, next: {
            var batch: [JSONLinesReader.Record] = []
            batch.reserveCapacity(BatchResolver.batchSize)
            while batch.count < BatchResolver.batchSize, let record = reader.next() { batch.append(record) }
            return batch
        }, work: { records, scan in
            var output = Output()
            for record in records { resolver.resolve(record, scan: &scan, into: &output) }
            return output
        }, merge: { output in
            write(output)
            rejected += output.rejections.count
            matched = matched || output.matched
            for (tail, count) in output.counts.enumerated() { counts[tail] += count }
        })
        return (rejected, matched, counts)
    }
}
