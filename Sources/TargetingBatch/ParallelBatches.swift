import Dispatch
import Foundation

/// The one parallel batch runner behind `resolve`, `diff` and `test`: the input is read as a
/// sequence of chunks, each chunk is worked on whole by one thread into a part of its own, and
/// the parts are merged in input order. The result is therefore the same for any number of
/// jobs.
///
/// Chunks and parts live in a ring of `jobs × 2` slots that is reused from chunk to chunk, so
/// memory holds that many chunks whatever the input's size. Chunk `k` goes to thread
/// `k mod jobs`; this thread reads chunks into free slots and merges finished parts in order,
/// and a thread waits only when its next slot is not filled yet.
package enum ParallelBatches {
    /// Slots in flight per job.
    static let depth = 2

    /// Works through the chunks `next` reads (into a reused chunk made by `chunk`) until it
    /// reads none.
    ///
    /// Each thread keeps one worker (made by `worker`) from chunk to chunk, for the state a
    /// run reuses (a scanner, a cache). `work` fills a slot's part (made by `part`, and given
    /// back as the last `merge` left it, for its buffers' capacity); `next` and `merge` are
    /// only ever called on this thread, `merge` in input order.
    package static func run<Chunk, Worker, Part>(
        jobs: Int,
        chunk: () -> Chunk,
        part: () -> Part,
        worker: () -> Worker,
        next: (inout Chunk) -> Bool,
        work: @escaping @Sendable (inout Chunk, inout Worker, inout Part) -> Void,
        merge: (inout Part) -> Void
    ) {
        guard jobs > 1 else {
            var only = worker()
            var input = chunk()
            var output = part()
            while next(&input) {
                work(&input, &only, &output)
                merge(&output)
            }
            return
        }
        let ring = Ring<Chunk, Worker, Part>(jobs: jobs, depth: depth, chunk: chunk, part: part, worker: worker)
        for thread in 0..<jobs {
            let worker = Thread {
                var index = thread
                while true {
                    let slot = index % ring.count
                    ring.filled[slot].wait()
                    if ring.stop[slot] { break }
                    work(&ring.chunks[slot].pointee, &ring.workers[thread].pointee, &ring.parts[slot].pointee)
                    ring.done[slot].signal()
                    index += jobs
                }
                ring.exited.signal()
            }
            // As much stack as the main thread: evaluation keeps its state on the stack.
            worker.stackSize = 8 << 20
            worker.start()
        }
        var produced = 0
        var merged = 0
        while true {
            if produced - merged == ring.count {
                ring.done[merged % ring.count].wait()
                merge(&ring.parts[merged % ring.count].pointee)
                merged += 1
            }
            guard next(&ring.chunks[produced % ring.count].pointee) else { break }
            ring.filled[produced % ring.count].signal()
            produced += 1
        }
        while merged < produced {
            ring.done[merged % ring.count].wait()
            merge(&ring.parts[merged % ring.count].pointee)
            merged += 1
        }
        // The chunk each thread would take next is a stop.
        for index in produced..<(produced + jobs) {
            ring.stop[index % ring.count] = true
            ring.filled[index % ring.count].signal()
        }
        for _ in 0..<jobs { ring.exited.wait() }
    }

    /// `transform` applied to every record on up to `jobs` threads, the results in input order.
    package static func map<Record: Sendable, Result>(_ records: [Record], jobs: Int,
                                                      _ transform: @escaping @Sendable (Record) -> Result) -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(records.count)
        let jobs = max(1, min(jobs, records.count))
        // A few chunks per thread, so a slow record holds up one chunk only.
        let size = max(1, (records.count + jobs * 4 - 1) / (jobs * 4))
        var position = 0
        run(jobs: jobs, chunk: { [Record]() }, part: { [Result]() }, worker: {}, next: { chunk in
            guard position < records.count else { return false }
            chunk = Array(records[position..<min(position + size, records.count)])
            position += chunk.count
            return true
        }, work: { chunk, _, part in
            part = chunk.map(transform)
        }, merge: { part in
            results += part
            part = []
        })
        return results
    }
}

/// The slots of a run: per slot a chunk, a part and the semaphores that hand the slot from
/// this thread to its worker thread (`filled`) and back (`done`); per thread its worker. All in
/// memory allocated once (not in arrays, whose accesses from several threads would overlap).
/// A slot belongs to one thread at a time, handed over by a semaphore, which is what makes
/// sharing it sound.
private final class Ring<Chunk, Worker, Part>: @unchecked Sendable {
    let count: Int
    let jobs: Int
    let chunks: Padded<Chunk>
    let parts: Padded<Part>
    let workers: Padded<Worker>
    let stop: UnsafeMutablePointer<Bool>
    let filled: [DispatchSemaphore]
    let done: [DispatchSemaphore]
    let exited = DispatchSemaphore(value: 0)

    init(jobs: Int, depth: Int, chunk: () -> Chunk, part: () -> Part, worker: () -> Worker) {
        self.jobs = jobs
        count = jobs * depth
        chunks = Padded(count: count, chunk)
        parts = Padded(count: count, part)
        workers = Padded(count: jobs, worker)
        stop = .allocate(capacity: count)
        stop.initialize(repeating: false, count: count)
        filled = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        done = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    deinit {
        chunks.free()
        parts.free()
        workers.free()
        stop.deallocate()
    }
}

/// Values of one type, each on cache lines of its own: threads write their own values many
/// times a chunk (a worker's scan, a part's counters), and two values on one line would make
/// each write wait for the other core.
private struct Padded<Value> {
    private let base: UnsafeMutableRawPointer
    private let stride: Int
    private let count: Int

    /// Bytes between values: a whole number of cache lines (two, for adjacent-line prefetching).
    private static var lineBytes: Int { 128 }

    init(count: Int, _ make: () -> Value) {
        self.count = count
        let lines = Padded.lineBytes
        stride = (MemoryLayout<Value>.stride + lines - 1) / lines * lines
        base = .allocate(byteCount: max(1, stride * count), alignment: max(lines, MemoryLayout<Value>.alignment))
        for index in 0..<count { (base + index * stride).initializeMemory(as: Value.self, to: make()) }
    }

    subscript(index: Int) -> UnsafeMutablePointer<Value> {
        (base + index * stride).assumingMemoryBound(to: Value.self)
    }

    func free() {
        for index in 0..<count { self[index].deinitialize(count: 1) }
        base.deallocate()
    }
}
