import Foundation

/// Work handed to the store's few worker threads (`WorkPool.shared`) at once; `value()` waits
/// for its result, and may be asked again. How the store decodes or compresses the next
/// snapshot part while this thread handles the one before, and how a sync's database reads the
/// next page while the store commits the current one. No thread is started for it: a snapshot
/// of a hundred parts costs no more threads than one of two. Work not yet begun when its value
/// is asked for is done on the asking thread, so waiting never depends on a free worker.
public final class Background<T: Sendable, Failure: Error>: @unchecked Sendable {
    private let job: WorkPool.Job
    /// Written once by whoever runs the job, before the job is marked done; read only after.
    private var outcome: Result<T, Failure>?

    public init(_ body: @escaping @Sendable () throws(Failure) -> T) {
        job = WorkPool.Job()
        // The job holds this object until it has run (then lets go of its body).
        job.body = { [self] in
            outcome = Result { () throws(Failure) -> T in try body() }
        }
        WorkPool.shared.submit(job)
    }

    public func value() throws(Failure) -> T {
        WorkPool.shared.wait(for: job)
        return try outcome!.get()
    }
}

/// A fixed number of worker threads (one per core, at least two), started as work first needs
/// them and kept for the life of the process, taking jobs in the order they were handed in.
final class WorkPool: @unchecked Sendable {
    final class Job: @unchecked Sendable {
        enum Stage { case queued, running, done }
        var body: (() -> Void)?
        var stage = Stage.queued
    }

    static let shared = WorkPool(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    let limit: Int
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private var threads = 0
    private var idle = 0
    private var jobsRun = 0

    init(threads: Int) { limit = max(1, threads) }

    /// Threads this pool has started, ever: at most `limit`.
    var threadsStarted: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Jobs run so far, by a worker or by the thread that waited for them.
    var jobsFinished: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobsRun
    }

    func submit(_ job: Job) {
        condition.lock()
        queue.append(job)
        let start = idle == 0 && threads < limit
        if start { threads += 1 }
        // Waiters for other jobs share the condition: every sleeper looks, an idle worker takes it.
        condition.broadcast()
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Returns once `job` is done: run here if no worker has begun it.
    func wait(for job: Job) {
        condition.lock()
        if job.stage == .queued, let index = queue[head...].firstIndex(where: { $0 === job }) {
            queue.remove(at: index)
            job.stage = .running
            condition.unlock()
            run(job)
            return
        }
        while job.stage != .done { condition.wait() }
        condition.unlock()
    }

    private func run(_ job: Job) {
        job.body?()
        condition.lock()
        job.stage = .done
        job.body = nil
        jobsRun += 1
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == queue.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = queue[head]
            head += 1
            if head > 64, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            job.stage = .running
            condition.unlock()
            run(job)
        }
    }
}

/// `work` for each of `0..<count`, run on every core at once; the results in order.
public func concurrently<T: Sendable>(_ count: Int, _ work: @Sendable (Int) -> T) -> [T] {
    let results = Locked([T?](repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { index in
        let result = work(index)
        results.withLock { $0[index] = result }
    }
    return results.withLock { $0 }.map { $0! }
}
