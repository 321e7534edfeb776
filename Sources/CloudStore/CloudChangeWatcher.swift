import Concurrency
import Foundation

/// Tells the sync engine that the cloud folder may have changed, so it can fetch without a key
/// press. Callbacks may come spuriously or in bursts; a fetch with nothing new is cheap.
public protocol CloudChangeWatcher: AnyObject, Sendable {
    func start(onChange: @escaping @Sendable () -> Void) throws(CloudStoreError)
    func stop()
}

extension CloudChangeWatcher {
    /// The same notifications as an async sequence; the watcher stops when the stream ends.
    public func changes() throws(CloudStoreError) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try start { continuation.yield() }
        continuation.onTermination = { [weak self] _ in self?.stop() }
        return stream
    }
}

/// The folder watch: inotify where it starts, and polling of the heads all the time, because
/// network file systems deliver no inotify events for writes made by other machines. Where
/// inotify cannot start (not Linux, no watches left, a folder that is not there yet) polling
/// alone watches, and `inotifyFailure` says why. Starting never fails.
public final class CombinedChangeWatcher: CloudChangeWatcher {
    private let polling: PollingChangeWatcher
    private let events: (any CloudChangeWatcher)?
    private let failure = Locked<String?>(nil)

    /// `inotify: false` polls alone, as where inotify cannot start (how tests reach that case).
    public init(root: URL, pollInterval: TimeInterval, inotify: Bool = true, fingerprint: @escaping @Sendable () -> String) {
        polling = PollingChangeWatcher(interval: pollInterval, fingerprint: fingerprint)
        #if os(Linux)
        events = inotify ? InotifyChangeWatcher(root: root) : nil
        #else
        events = nil
        #endif
        if events == nil { failure.withLock { $0 = inotify ? "inotify is only on Linux" : "inotify is turned off" } }
    }

    /// Why inotify is not watching (polling alone is), once started; nil while it watches.
    public var inotifyFailure: String? { failure.withLock { $0 } }

    public func start(onChange: @escaping @Sendable () -> Void) {
        polling.start(onChange: onChange)
        guard let events else { return }
        do {
            try events.start(onChange: onChange)
            failure.withLock { $0 = nil }
        } catch {
            failure.withLock { $0 = error.description }
        }
    }

    public func stop() {
        polling.stop()
        events?.stop()
    }
}

/// Polls a cheap fingerprint of the folder (the heads) and reports when it changes.
public final class PollingChangeWatcher: CloudChangeWatcher {
    private struct Run {
        var number = 0
        var wake: DispatchSemaphore?
    }

    private let interval: TimeInterval
    private let fingerprint: @Sendable () -> String
    private let run = Locked(Run())

    public init(interval: TimeInterval, fingerprint: @escaping @Sendable () -> String) {
        self.interval = interval
        self.fingerprint = fingerprint
    }

    /// Never fails: a fingerprint can always be read (an unreadable folder reads as such).
    public func start(onChange: @escaping @Sendable () -> Void) {
        let wake = DispatchSemaphore(value: 0)
        let started: Int? = run.withLock { run in
            guard run.wake == nil else { return nil }
            run.number += 1
            run.wake = wake
            return run.number
        }
        guard let number = started else { return }
        // Taken before returning, so a change made right after start() is never missed.
        let first = fingerprint()
        let thread = Thread { [self, interval, fingerprint] in
            var last = first
            // stop() wakes the wait, so a long interval does not keep the thread.
            while wake.wait(timeout: .now() + interval) == .timedOut, run.withLock({ $0.number == number && $0.wake != nil }) {
                let current = fingerprint()
                if current != last {
                    last = current
                    onChange()
                }
            }
        }
        thread.name = "cloud-poll"
        thread.start()
    }

    public func stop() {
        let wake = run.withLock { run in defer { run.wake = nil }; return run.wake }
        wake?.signal()
    }
}

extension FolderCloudDatabase {
    /// A short string that changes whenever another device publishes or the cloud is reset:
    /// what `PollingChangeWatcher` compares. Reads only the heads and the generation markers.
    public func changeFingerprint() -> String {
        let generation = (try? currentGeneration())?.name ?? "unavailable"
        let changes = try? fetchDatabaseChanges(since: nil)
        let positions = changes?.token.positions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } ?? []
        return ([generation] + positions).joined(separator: ",")
    }
}
