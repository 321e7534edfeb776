import Concurrency
import Foundation
import Sync

/// When and how a run syncs, the one place every front end asks: quietly before a command shows
/// the player's data and after one changes what others see (`inPassing`, `around`), one round
/// or a reset adopted for `sync` (`once`), rounds as either side changes for `sync --watch`
/// (`watch`), and the full-screen game's rounds in the background (`background`). Only this
/// type drives `SyncEngine` and `SyncService` for a front end.
public struct Syncing: Sendable {
    let setup: Setup

    /// How far a long round is, or that it ended (the progress line is wiped).
    public enum Progress: Sendable, Equatable {
        case importing(done: Int, total: Int?)
        case sending(done: Int, total: Int?)
        case ended
    }

    /// A quiet round when sync is on: a failure is a warning, never the end of the command (a
    /// full disk's waits for the end of the run: `Setup.finish`).
    public func inPassing() {
        guard setup.syncEnabled else { return }
        do {
            try setup.syncEngine().sync()
        } catch let error as SyncError {
            if case .storage(let inner) = error, inner.isDiskFull { return setup.warned.hold(Wording.sentence(inner)) }
            setup.voice.warn("sync: \(error)")
        } catch {
            setup.voice.warn("sync: \(error)")
        }
    }

    /// A command's action between quiet rounds: one first (what the other machines changed
    /// shows, and is acted on), and when the action `publishes` (a match made, answered or
    /// cancelled, a friend trusted, a plain session's moves), one after, so the others see it
    /// at once.
    public func around<T>(publishing: Bool, _ act: () throws -> T) rethrows -> T {
        inPassing()
        let result = try act()
        if publishing { inPassing() }
        return result
    }

    /// `sync`: one round, or the answer to a reset made on another machine (`adopting`), with a
    /// long round's progress on `progress`, wiped at the end.
    public func once(adopting: SyncEngine.Adoption? = nil, progress: ProgressLine? = nil) throws -> SyncReport {
        var engine = try setup.syncEngine()
        if let progress {
            engine.progress = { @Sendable done, total in progress.show(.importing, done: done, total: total) }
            engine.sendProgress = { @Sendable done, total in progress.show(.sending, done: done, total: total) }
        }
        defer { progress?.clear() }
        return try adopting.map { try engine.adoptReset($0) } ?? engine.sync()
    }

    /// `sync --watch`: a round when the cloud folder changes (inotify, and polling for file
    /// systems that send no events) and when this machine has changes queued, until SIGINT or
    /// SIGTERM; each round's outcome goes to `synced`, a long round's progress to `progress`,
    /// problems to the voice as warnings. A reset made on another machine ends it
    /// (`SyncError.cloudReset`).
    public func watch(progress: @escaping @Sendable (Progress) -> Void, synced: @escaping @Sendable (SyncReport) -> Void) throws {
        let engine = try setup.syncEngine()
        let wake = DispatchSemaphore(value: 0)
        let stop = StopFlag()
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.set(); wake.signal() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        guard let cloudDir = setup.cloudDir else { return }
        let voice = setup.voice
        let reset = Locked(false)
        // Changes queued here by players on this machine are looked for every second (longer
        // after failures), so they go out promptly.
        let service = SyncService(openEngine: { engine }, watch: SyncService.Watch(folder: cloudDir, player: setup.profile.playerID),
                                  checkQueue: 1, now: setup.clock) { event in
            switch event {
            case .importing(let done, let total):
                progress(.importing(done: done, total: total))
            case .sending(let done, let total):
                progress(.sending(done: done, total: total))
            case .synced(let report, _, _):
                progress(.ended)
                synced(report)
            case .cloudReset:
                progress(.ended)
                reset.withLock { $0 = true }
                stop.set()
                wake.signal()
            case .offline(let reason, _):
                progress(.ended)
                voice.warn(SyncError.offline(reason).description)
            case .failed(let message, _), .notPaired(let message):
                progress(.ended)
                voice.warn(message)
            case .watching, .syncing, .adopted:
                break
            }
        }
        service.start()
        while !stop.isSet { wake.wait() }
        service.stop()
        if reset.withLock({ $0 }) { throw SyncError.cloudReset }
    }

    /// The full-screen game's sync, nil when sync is off: rounds off the interface's thread
    /// (asked for by F5, by every change made there and by the folder watch), each event told
    /// to `tell` as what the header and status line show of it. Not started: the game is on
    /// screen first.
    public func background(_ tell: @escaping @Sendable (SyncHeadline) -> Void) -> SyncService? {
        guard setup.syncEnabled else { return nil }
        let setup = setup
        return SyncService(openEngine: { try setup.syncEngine() },
                           watch: setup.cloudDir.map { SyncService.Watch(folder: $0, player: setup.profile.playerID) },
                           now: setup.clock) { event in
            if let headline = SyncHeadline(event) { tell(headline) }
        }
    }
}

/// What the full-screen game's header and status line show of a sync event: the event (whose
/// state the header shows), the note (`Wording.note`), whether it is an error, and whether what
/// is on screen must be read again (something arrived, or a new cloud was joined).
public struct SyncHeadline: Sendable, Equatable {
    public var event: SyncService.Event
    public var note: String?
    public var isError: Bool
    public var changedHere: Bool

    public init(event: SyncService.Event, note: String?, isError: Bool, changedHere: Bool) {
        (self.event, self.note, self.isError, self.changedHere) = (event, note, isError, changedHere)
    }

    /// Nil for an event the screen does not show (the watch starting).
    public init?(_ event: SyncService.Event) {
        let note = Wording.note(for: event)
        switch event {
        case .watching:
            return nil
        case .syncing, .importing, .sending, .cloudReset, .notPaired:
            self.init(event: event, note: nil, isError: false, changedHere: false)
        case .synced(let report, _, _):
            self.init(event: event, note: note, isError: false, changedHere: report.downloaded + report.deleted + report.shared > 0)
        case .adopted:
            self.init(event: event, note: note, isError: false, changedHere: true)
        case .offline(_, let manual):
            self.init(event: event, note: note, isError: manual, changedHere: false)
        case .failed:
            self.init(event: event, note: note, isError: true, changedHere: false)
        }
    }
}

extension SyncReport {
    /// Whether the round sent, brought or deleted anything: what `sync --watch`'s text tells.
    public var movedRecords: Bool { uploaded + downloaded + deleted > 0 }
}

extension Setup {
    /// When and how this run syncs.
    public var sync: Syncing { Syncing(setup: self) }
}
