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

/// Watches with inotify where it works and polls as well, because network file systems
/// deliver no inotify events for writes made by other machines.
public final class CombinedChangeWatcher: CloudChangeWatcher {
    private let watchers: [any CloudChangeWatcher]

    public init(root: URL, pollInterval: TimeInterval, fingerprint: @escaping @Sendable () -> String) {
        var watchers: [any CloudChangeWatcher] = [PollingChangeWatcher(interval: pollInterval, fingerprint: fingerprint)]
        #if os(Linux)
        watchers.append(InotifyChangeWatcher(root: root))
        #endif
        self.watchers = watchers
    }

    public func start(onChange: @escaping @Sendable () -> Void) throws(CloudStoreError) {
        for watcher in watchers {
            // inotify may be unavailable (limits, odd file systems); polling still covers it.
            do { try watcher.start(onChange: onChange) } catch where watcher is PollingChangeWatcher { throw error } catch {}
        }
    }

    public func stop() { watchers.forEach { $0.stop() } }
}

/// Polls a cheap fingerprint of the folder (the heads) and reports when it changes.
public final class PollingChangeWatcher: CloudChangeWatcher {
    private let interval: TimeInterval
    private let fingerprint: @Sendable () -> String
    private let running = Locked(false)

    public init(interval: TimeInterval, fingerprint: @escaping @Sendable () -> String) {
        self.interval = interval
        self.fingerprint = fingerprint
    }

    public func start(onChange: @escaping @Sendable () -> Void) throws(CloudStoreError) {
        guard running.withLock({ value -> Bool in defer { value = true }; return !value }) else { return }
        // Taken before returning, so a change made right after start() is never missed.
        let first = fingerprint()
        let thread = Thread { [self] in
            var last = first
            while running.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: interval)
                guard running.withLock({ $0 }) else { break }
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

    public func stop() { running.withLock { $0 = false } }
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
