import Foundation

/// Work started on a thread of its own at once; `value()` waits for its result, and may be
/// asked again. How the store decodes or compresses the next snapshot part while this thread
/// handles the one before, and how a sync's database reads the next page while the store
/// commits the current one.
public final class Background<T: Sendable, Failure: Error>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the thread, before `finished` is signalled; read only after.
    private var outcome: Result<T, Failure>?

    public init(_ body: @escaping @Sendable () throws(Failure) -> T) {
        Thread { [self] in
            outcome = Result { () throws(Failure) -> T in try body() }
            finished.signal()
        }.start()
    }

    public func value() throws(Failure) -> T {
        finished.wait()
        defer { finished.signal() }
        return try outcome!.get()
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
