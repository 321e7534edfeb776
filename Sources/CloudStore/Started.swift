import Foundation

/// Starts `work` on another thread at once; the function returned waits for its result (and
/// may be called more than once). How the store decodes or compresses the next snapshot part
/// on the other core while this one handles the part before.
func started<T: Sendable>(_ work: @escaping @Sendable () -> T) -> () -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Locked<T?>(nil)
    DispatchQueue.global().async {
        let value = work()
        result.withLock { $0 = value }
        done.signal()
    }
    return {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}

/// `work` for each of `0..<count`, run on every core at once; the results in order.
func concurrently<T: Sendable>(_ count: Int, _ work: @Sendable (Int) -> T) -> [T] {
    let results = Locked([T?](repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { index in
        let result = work(index)
        results.withLock { $0[index] = result }
    }
    return results.withLock { $0 }.map { $0! }
}
