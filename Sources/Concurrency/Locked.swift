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

/// A flag set once from any thread (a signal handler's queue) and read from another.
public final class StopFlag: Sendable {
    private let stopped = Locked(false)

    public init() {}

    public func set() { stopped.withLock { $0 = true } }
    public var isSet: Bool { stopped.withLock { $0 } }
}

/// Values posted from any thread, taken all at once by the one that reads them.
public final class Mailbox<Element: Sendable>: Sendable {
    private let waiting = Locked<[Element]>([])

    public init() {}

    public func post(_ element: Element) { waiting.withLock { $0.append(element) } }
    public func take() -> [Element] { waiting.withLock { waiting in defer { waiting = [] }; return waiting } }
}
