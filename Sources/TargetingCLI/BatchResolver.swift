import Dispatch
import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Resolves the records of a JSON Lines file in batches spread over `jobs` threads. Each
/// record's output (decision lines, or the diagnostic rejecting it) is produced apart and
/// written in input order, so the output is byte-identical whatever the number of jobs, and
/// memory holds one batch at a time.
struct BatchResolver {
    /// What one record comes to.
    struct Result: Sendable {
        /// The text for standard output.
        var output = ""
        /// The diagnostic for standard error, when the record was rejected.
        var rejection: Diagnostic?
        /// Whether the record was the profile asked for (always, without `--id`).
        var matched = false
    }

    let program: Program
    let placements: [Int]
    let now: Int64
    let onlyID: String?
    let printer: DecisionPrinter
    let jobs: Int
    /// Records per batch.
    static let batchSize = 4096

    /// The result of one record.
    func resolve(_ record: JSONLinesReader.Record) -> Result {
        var result = Result()
        let profile: Profile
        switch record.bytes {
        case .failure(let rejection):
            result.rejection = rejection
            return result
        case .success(let bytes):
            switch ProfileReader.read(bytes) {
            case .failure(let error):
                result.rejection = record.rejection(error.message)
                return result
            case .success(let read): profile = read
            }
        }
        if let onlyID, profile.id != onlyID { return result }
        return resolve(profile, file: record.path, line: record.line)
    }

    /// The result of one profile read from `file` (at `line` of a JSON Lines file, if any):
    /// the one path from a profile to printed decisions, for `--profile` and for batches.
    func resolve(_ profile: Profile, file: String, line: Int?) -> Result {
        var result = Result()
        result.matched = true
        switch program.decide(placements: placements, for: profile, now: now) {
        case .failure(let error):
            result.rejection = .unresolvable(error, file: file, line: line)
        case .success(let decisions):
            if printer.explain {
                var evaluator = Evaluator(program: program, profile: profile, now: now)
                for decision in decisions { result.output += printer.text(decision, explanation: evaluator.explain(decision, profile: profile)) }
            } else {
                for decision in decisions { result.output += printer.text(decision) }
            }
        }
        return result
    }

    /// Writes one result: its rejection to standard error, its decisions to standard output.
    func emit(_ result: Result, io: CommandIO) {
        if let rejection = result.rejection { io.report(rejection) }
        if !result.output.isEmpty { io.out(result.output) }
    }

    /// Resolves every record of `reader`, writing results in order; returns (rejected, matched).
    func run(_ reader: inout JSONLinesReader, io: CommandIO) -> (rejected: Int, matched: Bool) {
        var rejected = 0
        var matched = false
        var batch: [JSONLinesReader.Record] = []
        batch.reserveCapacity(BatchResolver.batchSize)
        func flush() {
            for result in results(of: batch) {
                emit(result, io: io)
                if result.rejection != nil { rejected += 1 }
                matched = matched || result.matched
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

    /// The results of `records`, in order, computed on up to `jobs` threads.
    func results(of records: [JSONLinesReader.Record]) -> [Result] {
        guard jobs > 1, records.count > 1 else { return records.map(resolve) }
        let slots = ResultSlots(count: records.count)
        let workers = min(jobs, records.count)
        let resolver = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < records.count {
                slots.set(index, resolver.resolve(records[index]))
                index += workers
            }
        }
        return slots.all
    }
}

/// Results written by several threads, each to its own indices.
private final class ResultSlots: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<BatchResolver.Result>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: BatchResolver.Result())
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    /// Sets one result; no two threads write the same index, and nobody reads until all are done.
    func set(_ index: Int, _ result: BatchResolver.Result) { storage[index] = result }

    var all: [BatchResolver.Result] { Array(storage) }
}
