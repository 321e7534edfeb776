import CloudStore
import Concurrency
import Foundation

/// Sync in the background, for the full-screen game and `sync --watch`: one round at a time on a
/// queue of its own, asked for by `request` (a change made here, a key press), by the folder watch
/// when another machine writes, and, when `checkQueue` is given, by changes another process of this
/// machine queued. Requests that come while a round runs fold into exactly one more round, manual
/// when any of them was. What happens is told to `report`, one event at a time, from the queue.
public final class SyncService: Sendable {
    public enum Event: Sendable, Equatable {
        /// How the folder is watched, once `start()` has started watching it.
        case watching(Watching)
        /// A round (or an adoption) began.
        case syncing
        /// A long fetch stored `done` records of `total`; at most about ten a second, and the last.
        case importing(done: Int, total: Int?)
        /// A long upload sent `done` records of `total`; at most about ten a second, and the last.
        case sending(done: Int, total: Int)
        /// A round ended well; `manual` when the player asked for it (or for one that folded into it).
        case synced(SyncReport, at: Date, manual: Bool)
        /// `adoptReset` joined the new cloud.
        case adopted(SyncReport, at: Date)
        /// The folder is missing, unmounted or read-only; every change stays queued.
        case offline(reason: String, manual: Bool)
        /// Another machine reset the cloud: nothing syncs until the reset is adopted.
        case cloudReset
        /// This machine is not one of its player's machines yet (docs/trust.md): nothing syncs
        /// until it joins with a pairing code; the line says how.
        case notPaired(String)
        /// Any other failure, in its one sentence.
        case failed(String, manual: Bool)
    }

    public enum Watching: Sendable, Equatable {
        /// inotify, and polling the heads for file systems that send it no events (NFS).
        case inotifyAndPolling
        /// Polling alone: inotify could not start (or was turned off), for this reason.
        case pollingOnly(reason: String)
    }

    /// The cloud folder to watch, for a player.
    public struct Watch: Sendable {
        public var folder: URL
        public var player: String
        /// How often the heads are read, for writes inotify does not see.
        public var pollInterval: TimeInterval
        /// Off: polling alone, as where inotify cannot start.
        public var inotify: Bool

        public init(folder: URL, player: String, pollInterval: TimeInterval = 2, inotify: Bool = true) {
            self.folder = folder
            self.player = player
            self.pollInterval = pollInterval
            self.inotify = inotify
        }
    }

    private struct State {
        var engine: SyncEngine?
        var started = false
        var stopped = false
        /// A round is queued and has not begun: further requests fold into it.
        var pending = false
        var manual = false
        var firstRoundDone = false
        /// Failed rounds in a row, for the queue check's backing off.
        var failures = 0
        /// The latest queue check scheduled; earlier ones do nothing.
        var check = 0
        var watcher: CombinedChangeWatcher?
    }

    private let openEngine: @Sendable () throws -> SyncEngine
    private let watch: Watch?
    private let checkQueue: TimeInterval?
    private let now: @Sendable () -> Date
    private let report: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "qiktionary.sync")
    private let onQueue = DispatchSpecificKey<Bool>()
    private let state = Locked(State())
    /// Signalled once the first round has ended, however it ended.
    private let firstRound = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - openEngine: opens the engine, once, on the service's queue (a failure is reported and
    ///     tried again at the next round).
    ///   - watch: the folder to watch from `start()`; nil for none.
    ///   - checkQueue: how often to look for changes queued on this machine by another process
    ///     and send them (`sync --watch`); after failed rounds, twice as long each time, up to
    ///     half a minute. Nil: only requests and the watch start rounds.
    ///   - now: the clock of the events' times.
    ///   - report: told every event, one at a time, on the service's queue.
    public init(openEngine: @escaping @Sendable () throws -> SyncEngine, watch: Watch? = nil, checkQueue: TimeInterval? = nil,
                now: @escaping @Sendable () -> Date = { Date() }, report: @escaping @Sendable (Event) -> Void) {
        self.openEngine = openEngine
        self.watch = watch
        self.checkQueue = checkQueue
        self.now = now
        self.report = report
        queue.setSpecific(key: onQueue, value: true)
    }

    deinit {
        state.withLock { $0.watcher }?.stop()
    }

    /// Starts watching the folder, then the first round. Once only; nothing after `stop()`.
    public func start() {
        guard state.withLock({ state in defer { state.started = true }; return !state.started && !state.stopped }) else { return }
        if let watch {
            let fingerprint = FolderFingerprint(watch)
            let watcher = CombinedChangeWatcher(root: watch.folder, pollInterval: watch.pollInterval, inotify: watch.inotify) {
                fingerprint.current()
            }
            // Started before the first round, so a write made while it runs is not missed.
            watcher.start { [weak self] in self?.request(manual: false) }
            let stopped = state.withLock { state in
                if !state.stopped { state.watcher = watcher }
                return state.stopped
            }
            if stopped { watcher.stop() }
            let watching = watcher.inotifyFailure.map { Watching.pollingOnly(reason: $0) } ?? .inotifyAndPolling
            let report = self.report
            queue.async { report(.watching(watching)) }
        }
        request(manual: false)
    }

    /// Stops watching and waits for the round under way; no round runs after, queued or asked
    /// for. From `report` (on the queue) it cannot wait, and only stops.
    public func stop() {
        let watcher = state.withLock { state in
            state.stopped = true
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.stop()
        if DispatchQueue.getSpecific(key: onQueue) == nil { queue.sync {} }
        endFirstRound()
    }

    /// Asks for a round; a round already waiting to begin absorbs the request (and its `manual`).
    public func request(manual: Bool) {
        let schedule = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.manual = state.manual || manual
            guard !state.pending else { return false }
            state.pending = true
            return true
        }
        if schedule { queue.async { self.round() } }
    }

    /// Accepts a reset made on another machine (keeping this machine's games, or erasing them
    /// for the cloud's) and syncs, after the round under way.
    public func adoptReset(keepLocal: Bool) {
        guard state.withLock({ !$0.stopped }) else { return }
        queue.async { [self] in
            guard state.withLock({ !$0.stopped }) else { return }
            report(.syncing)
            do {
                let result = try engine().adoptReset(keepLocal ? .upload : .erase)
                state.withLock { $0.failures = 0 }
                report(.adopted(result, at: now()))
            } catch {
                report(Self.event(for: error, manual: true))
            }
        }
    }

    /// Waits for the first round to end, at most `seconds`: the game picks what to resume after
    /// it, so a game started on the other machine is the one on the board.
    public func waitForFirstRound(seconds: Double) {
        if state.withLock({ $0.firstRoundDone }) { return }
        if firstRound.wait(timeout: .now() + seconds) == .success { firstRound.signal() }
    }

    /// What an error from a round becomes.
    static func event(for error: any Error, manual: Bool) -> Event {
        switch error {
        case SyncError.cloudReset: .cloudReset
        case SyncError.notPaired(let line): .notPaired(line)
        case SyncError.offline(let reason): .offline(reason: reason, manual: manual)
        default: .failed("\(error)", manual: manual)
        }
    }

    // MARK: On the queue

    private func round() {
        let asked: Bool? = state.withLock { state in
            state.pending = false
            guard !state.stopped else { return nil }
            defer { state.manual = false }
            return state.manual
        }
        guard let manual = asked else { return }
        defer {
            endFirstRound()
            scheduleQueueCheck()
        }
        report(.syncing)
        do {
            var engine = try engine()
            let throttle = Throttle(), report = self.report
            engine.progress = { done, total in
                if throttle.due(done: done, total: total) { report(.importing(done: done, total: total)) }
            }
            engine.sendProgress = { done, total in
                if throttle.due(done: done, total: total) { report(.sending(done: done, total: total)) }
            }
            let result = try engine.sync()
            state.withLock { $0.failures = 0 }
            report(.synced(result, at: now(), manual: manual))
        } catch {
            state.withLock { $0.failures += 1 }
            report(Self.event(for: error, manual: manual))
        }
    }

    private func engine() throws -> SyncEngine {
        if let engine = state.withLock({ $0.engine }) { return engine }
        let opened = try openEngine()
        state.withLock { $0.engine = opened }
        return opened
    }

    private func endFirstRound() {
        let first = state.withLock { state in defer { state.firstRoundDone = true }; return !state.firstRoundDone }
        if first { firstRound.signal() }
    }

    /// A look at this machine's queue `checkQueue` after the last round (longer after failures).
    private func scheduleQueueCheck() {
        guard let every = checkQueue else { return }
        let (number, failures) = state.withLock { state in
            state.check += 1
            return (state.check, state.failures)
        }
        let delay = failures == 0 ? every : min(30, every * pow(2, Double(failures)))
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.lookAtQueue(number) }
    }

    private func lookAtQueue(_ number: Int) {
        guard state.withLock({ !$0.stopped && $0.check == number }) else { return }
        let queued = (try? engine()).flatMap { try? $0.player.pendingChangeCount() } ?? 0
        if queued > 0 { request(manual: false) } else { scheduleQueueCheck() }
    }
}

extension SyncService {
    /// Lets progress through at most about ten times a second, and always the last (done == total).
    public final class Throttle: Sendable {
        private let interval: TimeInterval
        private let now: @Sendable () -> Date
        private let last = Locked(Date.distantPast)

        public init(interval: TimeInterval = 0.1, now: @escaping @Sendable () -> Date = { Date() }) {
            self.interval = interval
            self.now = now
        }

        public func due(done: Int, total: Int?) -> Bool {
            last.withLock { last in
                let now = now()
                guard now.timeIntervalSince(last) >= interval || done == total else { return false }
                last = now
                return true
            }
        }
    }

    /// The heads and generations of the player's store in the folder, and of every other
    /// player's (whose shared zones bring matches and leaderboard lines), for the polling watch;
    /// each store is opened at the first look that can open it.
    final class FolderFingerprint: Sendable {
        private let watch: Watch
        private let stores = Locked<[String: FolderCloudDatabase]>([:])

        init(_ watch: Watch) { self.watch = watch }

        func current() -> String {
            let folder = DiskFolder(root: watch.folder)
            let others = (try? FolderCloudDatabase.players(in: folder)) ?? []
            let names = [watch.player] + others.filter { $0 != watch.player }
            return names.map { name in
                let store = stores.withLock { stores in
                    if stores[name] == nil {
                        stores[name] = try? name == watch.player
                            ? FolderCloudDatabase.onDisk(root: watch.folder, player: name, device: DeviceID(validated: "watcher"))
                            : FolderCloudDatabase.reader(of: name, in: folder)
                    }
                    return stores[name]
                }
                return name + ":" + (store?.changeFingerprint() ?? "")
            }.joined(separator: ";")
        }
    }
}
