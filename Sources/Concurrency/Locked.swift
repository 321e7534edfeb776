import Foundation

/// A value guarded by a lock, so reference types holding mutable state stay `Sendable`
/// without `Synchronization.Mutex` (which needs macOS 15; the package targets macOS 13).
/// Public so the sync service and the executable share it rather than hand-rolling locks.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
