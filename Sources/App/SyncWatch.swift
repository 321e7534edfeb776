import Concurrency
import Foundation
import Sync

/// `sync --watch`: `SyncService` syncs when the cloud folder changes (inotify, and polling for
/// file systems that send no events) and when this machine has changes queued, until SIGINT or
/// SIGTERM; each round's outcome goes to the front end (`progress`, `synced`), its problems to
/// the setup's voice as warnings.
public struct SyncWatch {
    /// How far a long round is, or that it ended (the progress line is wiped).
    public enum Progress: Sendable {
        case importing(done: Int, total: Int?)
        case sending(done: Int, total: Int?)
        case ended
    }

    let setup: Setup
    let engine: SyncEngine
    let progress: @Sendable (Progress) -> Void
    let synced: @Sendable (SyncReport) -> Void

    public init(setup: Setup, engine: SyncEngine, progress: @escaping @Sendable (Progress) -> Void,
                synced: @escaping @Sendable (SyncReport) -> Void) {
        (self.setup, self.engine, self.progress, self.synced) = (setup, engine, progress, synced)
    }

    public func run() throws {
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
        let (engine, progress, synced, voice) = (engine, progress, synced, setup.voice)
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
}
