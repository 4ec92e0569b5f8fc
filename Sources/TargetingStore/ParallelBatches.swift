import Dispatch

/// The one parallel batch runner behind `resolve`, `diff` and `test`: records are read in
/// batches, each batch is cut into up to `jobs` contiguous runs, each run is worked on by one
/// thread, and the part each run gives is merged in input order. The result is therefore the
/// same for any number of jobs, and memory holds about two batches at a time.
package enum ParallelBatches {
    /// Works through the batches `next` reads until it reads an empty one.
    ///
    /// Each thread keeps one worker (made by `worker`) from batch to batch, for the state a
    /// run reuses (a scanner, a buffer). With more than one job, the threads work on one batch
    /// while this thread merges the parts of the batch before and reads the batch after;
    /// `next` and `merge` are only ever called on this thread.
    package static func run<Record: Sendable, Worker, Part>(
        jobs: Int,
        worker: () -> Worker,
        next: () -> [Record],
        work: @escaping @Sendable (ArraySlice<Record>, inout Worker) -> Part,
        merge: (Part) -> Void
    ) {
        guard jobs > 1 else {
            var only = worker()
            var batch = next()
            while !batch.isEmpty {
                merge(work(batch[...], &only))
                batch = next()
            }
            return
        }
        let slots = ThreadSlots<Worker, Part>(count: jobs, worker: worker)
        var batch = next()
        var finished: [Part] = []
        while !batch.isEmpty || !finished.isEmpty {
            let used = min(jobs, batch.count)
            let group = DispatchGroup()
            if used > 0 {
                let records = batch
                DispatchQueue.global().async(group: group) {
                    DispatchQueue.concurrentPerform(iterations: used) { index in
                        let run = (records.count * index / used)..<(records.count * (index + 1) / used)
                        slots.work(index) { work(records[run], &$0) }
                    }
                }
            }
            for part in finished { merge(part) }
            let following = used > 0 ? next() : []
            group.wait()
            finished = (0..<used).map { slots.takePart($0) }
            batch = following
        }
    }

    /// `transform` applied to every record on up to `jobs` threads, the results in input order.
    package static func map<Record: Sendable, Result>(_ records: [Record], jobs: Int,
                                                      _ transform: @escaping @Sendable (Record) -> Result) -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(records.count)
        var pending = records
        run(jobs: min(jobs, records.count), worker: {}, next: {
            defer { pending = [] }
            return pending
        }, work: { run, _ in run.map(transform) }, merge: { results += $0 })
        return results
    }
}

/// Per thread of a run: its worker and the part of its last run, in memory allocated once
/// (not in arrays, whose accesses from several threads would overlap). Each slot is used by one
/// thread at a time only, and a part is taken once the batch's threads are all done
/// (`DispatchGroup.wait`), which is what makes sharing it sound.
private final class ThreadSlots<Worker, Part>: @unchecked Sendable {
    private let workers: UnsafeMutablePointer<Worker>
    private let parts: UnsafeMutablePointer<Part?>
    private let count: Int

    init(count: Int, worker: () -> Worker) {
        self.count = count
        workers = .allocate(capacity: count)
        parts = .allocate(capacity: count)
        for index in 0..<count { (workers + index).initialize(to: worker()) }
        parts.initialize(repeating: nil, count: count)
    }

    deinit {
        workers.deinitialize(count: count)
        workers.deallocate()
        parts.deinitialize(count: count)
        parts.deallocate()
    }

    /// Runs `body` with slot `index`'s worker and keeps the part it gives.
    func work(_ index: Int, _ body: (inout Worker) -> Part) {
        parts[index] = body(&workers[index])
    }

    /// Slot `index`'s part, leaving it empty.
    func takePart(_ index: Int) -> Part {
        defer { parts[index] = nil }
        return parts[index]!
    }
}
