import Foundation
import GameUI
import Sync

/// Messages posted from other threads for the event loop to pick up.
final class Inbox: @unchecked Sendable {
    private var messages: [Message] = []
    private let lock = NSLock()

    func post(_ message: Message) { lock.withLock { messages.append(message) } }
    func take() -> [Message] { lock.withLock { defer { messages = [] }; return messages } }
}

/// Sync off the interface's thread: one round at a time on a queue of its own, asked for by F5,
/// by every change made here, and by the folder watcher when another machine writes; requests
/// that come while a round runs fold into one more round. Results go to the inbox.
final class BackgroundSync: @unchecked Sendable {
    private let setup: Setup
    private let inbox: Inbox
    private let queue = DispatchQueue(label: "qiktionary.sync")
    private let lock = NSLock()
    private var engine: SyncEngine?
    private var pending = false
    private var manual = false
    private var watch: CloudFolderWatch?
    private var stopped = false

    init(setup: Setup, inbox: Inbox) {
        self.setup = setup
        self.inbox = inbox
    }

    func start() {
        request(manual: false)
        guard let folder = setup.cloudDir else { return }
        watch = CloudFolderWatch(folder: folder, player: setup.profile.playerID, quiet: true) { [weak self] in self?.request(manual: false) }
    }

    func stop() {
        lock.withLock { stopped = true }
        watch?.stop()
        queue.sync {}
    }

    /// Asks for a round; a round already waiting absorbs the request.
    func request(manual: Bool) {
        let schedule: Bool = lock.withLock {
            if stopped { return false }
            self.manual = self.manual || manual
            if pending { return false }
            pending = true
            return true
        }
        if schedule { queue.async { self.round() } }
    }

    func adoptReset(keepLocal: Bool) {
        queue.async {
            self.inbox.post(.syncUpdate(SyncNews(state: .syncing)))
            do {
                let report = try self.openEngine().adoptReset(keepLocal ? .upload : .erase)
                self.inbox.post(.syncUpdate(SyncNews(state: .synced(at: self.setup.clock()),
                                                     note: "Joined the new cloud: \(report.uploaded) sent, \(report.downloaded) received.",
                                                     changedHere: true)))
            } catch {
                self.report(error, manual: true)
            }
        }
    }

    /// Signalled once the first round has ended, however it ended.
    private let firstRound = DispatchSemaphore(value: 0)
    private var firstRoundDone = false

    /// Waits for the first round, at most `seconds`: the game picks what to resume after it, so a
    /// game started on the other machine is the one on the board.
    func waitForFirstRound(seconds: Double) {
        if lock.withLock({ firstRoundDone }) { return }
        if firstRound.wait(timeout: .now() + seconds) == .success { firstRound.signal() }
    }

    private func round() {
        let manual: Bool = lock.withLock {
            pending = false
            defer { self.manual = false }
            return self.manual
        }
        defer {
            let first: Bool = lock.withLock { defer { firstRoundDone = true }; return !firstRoundDone }
            if first { firstRound.signal() }
        }
        inbox.post(.syncUpdate(SyncNews(state: .syncing)))
        do {
            var engine = try openEngine()
            // A long fetch shows in the header, about ten times a second.
            let inbox = self.inbox, throttle = ProgressLine.Throttle()
            engine.progress = { done, total in
                if throttle.due(done: done, total: total) { inbox.post(.syncUpdate(SyncNews(state: .importing(done: done, total: total)))) }
            }
            let report = try engine.sync()
            let arrived = report.downloaded + report.deleted > 0
            let note: String? = manual ? SyncCommand.sentence(report) : arrived ? "Changes from another machine arrived." : nil
            inbox.post(.syncUpdate(SyncNews(state: .synced(at: setup.clock()), note: note, changedHere: arrived)))
        } catch {
            report(error, manual: manual)
        }
    }

    private func report(_ error: any Error, manual: Bool) {
        switch error {
        case SyncError.cloudReset:
            inbox.post(.cloudWasReset)
        case SyncError.offline(let reason):
            inbox.post(.syncUpdate(SyncNews(state: .offline, note: manual ? "Offline: \(reason). Your moves are kept and sent later." : nil, isError: manual)))
        default:
            inbox.post(.syncUpdate(SyncNews(state: .failed, note: "\(error)", isError: true)))
        }
    }

    private func openEngine() throws -> SyncEngine {
        if let engine { return engine }
        let opened = try setup.syncEngine()
        engine = opened
        return opened
    }
}
