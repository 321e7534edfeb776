import ArgumentParser
import CloudStore
import Concurrency
import Foundation
import PlainMode
import Storage
import Sync

extension SyncEngine.Adoption: ExpressibleByArgument {}

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync games, history and the reading list through the cloud folder.",
        discussion: """
            Give the shared folder once with --cloud-dir; it is remembered. Exit codes: 65 the cloud was \
            reset on another machine (answer with --adopt-reset), 69 the folder is unavailable (changes \
            stay queued), 75 the folder stayed busy.
            """
    )

    @OptionGroup var shared: SharedOptions

    @Flag(help: "Print a JSON summary (with --watch: one per sync).")
    var json = false

    @Flag(help: "Keep syncing as either side changes, until interrupted.")
    var watch = false

    @Option(name: .customLong("adopt-reset"), help: ArgumentHelp(
        "After a reset on another machine: 'upload' this machine's games into the new cloud, or 'erase' them and take the cloud's.",
        valueName: "upload|erase"))
    var adoptReset: SyncEngine.Adoption?

    func validate() throws {
        if watch && adoptReset != nil { throw ValidationError("--adopt-reset is a one-off; run it without --watch") }
    }

    func run() throws {
        let setup = try Setup.open(shared)
        var engine = try setup.syncEngine()
        // A long import shows a live line on a terminal; never in JSON, never into a pipe.
        let line = !json && isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
        if watch { return try Watch(setup: setup, engine: engine, json: json, line: line).run() }
        if let line {
            engine.progress = { @Sendable done, total in line.show(.importing, done: done, total: total) }
            engine.sendProgress = { @Sendable done, total in line.show(.sending, done: done, total: total) }
        }
        defer { line?.clear() }
        let report = try adoptReset.map { try engine.adoptReset($0) } ?? engine.sync()
        line?.clear()
        say(json ? JSONLine.encode(report) : Self.sentence(report))
    }

    static func sentence(_ report: SyncReport) -> String {
        var parts = ["Synced: \(report.uploaded) sent, \(report.downloaded) received"]
        if report.deleted > 0 { parts.append("\(report.deleted) deleted") }
        if report.conflictsResolved > 0 { parts.append("\(report.conflictsResolved) merged") }
        if report.skipped > 0 { parts.append("\(report.skipped) unreadable records skipped") }
        if report.waiting > 0 { parts.append("\(report.waiting) waiting for their game") }
        return parts.joined(separator: ", ") + " (\(report.durationMs) ms)."
    }
}

/// `sync --watch`: `SyncService` syncs when the cloud folder changes (inotify, and polling for
/// file systems that send no events) and when this machine has changes queued, until SIGINT or
/// SIGTERM; each round's outcome is printed here.
struct Watch {
    let setup: Setup
    let engine: SyncEngine
    let json: Bool
    let line: ProgressLine?

    func run() throws {
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
        let (engine, json, line) = (engine, json, line)
        let reset = Locked(false)
        // Changes queued here by players on this machine are looked for every second (longer
        // after failures), so they go out promptly.
        let service = SyncService(openEngine: { engine }, watch: SyncService.Watch(folder: cloudDir, player: setup.profile.playerID),
                                  checkQueue: 1, now: setup.clock) { event in
            switch event {
            case .importing(let done, let total):
                line?.draw(.importing, done: done, total: total)
            case .sending(let done, let total):
                line?.draw(.sending, done: done, total: total)
            case .synced(let report, _, _):
                line?.clear()
                if json { say(JSONLine.encode(report)) } else if report.uploaded + report.downloaded + report.deleted > 0 {
                    say(SyncCommand.sentence(report))
                }
            case .cloudReset:
                line?.clear()
                reset.withLock { $0 = true }
                stop.set()
                wake.signal()
            case .offline(let reason, _):
                line?.clear()
                warn(SyncError.offline(reason).description)
            case .failed(let message, _):
                line?.clear()
                warn(message)
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

final class StopFlag: Sendable {
    private let stopped = Locked(false)
    func set() { stopped.withLock { $0 = true } }
    var isSet: Bool { stopped.withLock { $0 } }
}

/// "importing 12000 of 40000 records" (or "sending …" for a long upload) on stderr, rewritten in
/// place at most ten times a second and wiped when the sync ends, so the summary prints on a
/// clean line.
final class ProgressLine: Sendable {
    enum Action: String { case importing, sending }

    private let shown = Locked(false)
    private let throttle = SyncService.Throttle()

    func show(_ action: Action, done: Int, total: Int?) {
        if throttle.due(done: done, total: total) { draw(action, done: done, total: total) }
    }

    /// The line now, for progress already throttled (`SyncService`'s events).
    func draw(_ action: Action, done: Int, total: Int?) {
        shown.withLock { shown in
            shown = true
            let text = "\(action.rawValue) \(done)" + (total.map { " of \($0)" } ?? "") + " records"
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        }
    }

    func clear() {
        shown.withLock { shown in
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }
}
