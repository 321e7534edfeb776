import ArgumentParser
import CloudStore
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
        if let line { engine.progress = { @Sendable done, total in line.show(done: done, total: total) } }
        if watch { return try Watch(setup: setup, engine: engine, json: json).run() }
        defer { line?.clear() }
        let report = try adoptReset.map { try engine.adoptReset($0) } ?? engine.sync()
        line?.clear()
        print(json ? JSONLine.encode(report) : Self.sentence(report))
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

/// `sync --watch`: syncs when the cloud folder changes (inotify, and polling for file systems
/// that send no events) and when this machine has changes queued, until SIGINT or SIGTERM.
struct Watch {
    let setup: Setup
    let engine: SyncEngine
    let json: Bool

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
        let watch = CloudFolderWatch(folder: cloudDir, player: setup.profile.playerID) { wake.signal() }
        defer { watch.stop() }

        var failures = 0
        var due = true
        while !stop.isSet {
            let queued = (try? setup.database.pendingChangeCount(profile: setup.profile)) ?? 0
            if due || queued > 0 {
                do {
                    let report = try engine.sync()
                    failures = 0
                    if json { print(JSONLine.encode(report)) } else if report.uploaded + report.downloaded + report.deleted > 0 {
                        print(SyncCommand.sentence(report))
                    }
                } catch .cloudReset {
                    throw SyncError.cloudReset
                } catch {
                    failures += 1
                    warn("\(error)")
                }
            }
            // After a failure wait longer each time (up to half a minute); otherwise a second,
            // so changes queued by players on this machine go out promptly.
            let wait = failures == 0 ? 1.0 : min(30, pow(2, Double(failures)))
            due = wake.wait(timeout: .now() + wait) == .success
        }
    }
}

/// Tells when another machine writes to the cloud folder: inotify and polling of the heads
/// together (NFS sends no events for remote writes), or polling alone where inotify cannot start.
final class CloudFolderWatch: Sendable {
    private let combined: CombinedChangeWatcher
    private let polling: PollingChangeWatcher

    /// `quiet` for the full-screen game, where a line on stderr would land on the board.
    init(folder: URL, player: String, quiet: Bool = false, onChange: @escaping @Sendable () -> Void) {
        let fingerprint = FingerprintSource(folder: folder, player: player)
        combined = CombinedChangeWatcher(root: folder, pollInterval: 2, fingerprint: { fingerprint.current() })
        polling = PollingChangeWatcher(interval: 2, fingerprint: { fingerprint.current() })
        do {
            try combined.start(onChange: onChange)
        } catch {
            if !quiet { warn("cannot watch \(folder.path) for changes (\(error)); checking it every 2 s instead") }
            try? polling.start(onChange: onChange)
        }
    }

    func stop() {
        combined.stop()
        polling.stop()
    }
}

/// Cheap summary of the cloud folder for the polling watcher: the heads and generations.
final class FingerprintSource: @unchecked Sendable {
    private let store: FolderCloudDatabase?

    init(folder: URL, player: String) {
        store = try? FolderCloudDatabase.onDisk(root: folder, player: player, device: DeviceID(validated: "watcher"))
    }

    func current() -> String { store?.changeFingerprint() ?? "" }
}

final class StopFlag: @unchecked Sendable {
    private var stopped = false
    private let lock = NSLock()
    func set() { lock.withLock { stopped = true } }
    var isSet: Bool { lock.withLock { stopped } }
}

/// "importing 12000 of 40000 records" on stderr, rewritten in place at most ten times a second
/// and wiped when the sync ends, so the summary prints on a clean line.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let throttle = Throttle()
    private var shown = false

    /// At most ten times a second, and always the last.
    final class Throttle: @unchecked Sendable {
        private let lock = NSLock()
        private var last = Date.distantPast

        func due(done: Int, total: Int?) -> Bool {
            lock.withLock {
                let now = Date()
                guard now.timeIntervalSince(last) >= 0.1 || done == total else { return false }
                last = now
                return true
            }
        }
    }

    func show(done: Int, total: Int?) {
        guard throttle.due(done: done, total: total) else { return }
        lock.withLock {
            shown = true
            let text = "importing \(done)" + (total.map { " of \($0)" } ?? "") + " records"
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        }
    }

    func clear() {
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }
}
