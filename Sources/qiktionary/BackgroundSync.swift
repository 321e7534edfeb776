import App
import Concurrency
import Foundation
import GameUI
import Sync

/// Messages posted from other threads for the event loop to pick up.
typealias Inbox = Mailbox<Message>

/// The full-screen game's sync: `SyncService` (rounds off the interface's thread, asked for by
/// F5, by every change made here and by the folder watch), its events told to the interface as
/// messages through the inbox.
final class BackgroundSync: Sendable {
    private let service: SyncService

    init(setup: Setup, inbox: Inbox) {
        service = SyncService(openEngine: { try setup.syncEngine() },
                              watch: setup.cloudDir.map { SyncService.Watch(folder: $0, player: setup.profile.playerID) },
                              now: setup.clock) { event in
            if let message = Self.message(for: event) { inbox.post(message) }
        }
    }

    func start() { service.start() }
    func stop() { service.stop() }
    func request(manual: Bool) { service.request(manual: manual) }
    func adoptReset(keepLocal: Bool) { service.adoptReset(keepLocal: keepLocal) }
    func waitForFirstRound(seconds: Double) { service.waitForFirstRound(seconds: seconds) }

    /// What the header and the status line show of an event.
    static func message(for event: SyncService.Event) -> Message? {
        switch event {
        case .watching:
            return nil
        case .syncing:
            return .syncUpdate(SyncNews(state: .syncing))
        case .importing(let done, let total):
            return .syncUpdate(SyncNews(state: .importing(done: done, total: total)))
        case .sending(let done, let total):
            return .syncUpdate(SyncNews(state: .sending(done: done, total: total)))
        case .synced(let report, let at, let manual):
            let arrived = report.downloaded + report.deleted > 0
            let note: String? = manual ? Wording.sentence(report) : arrived ? "Changes from another machine arrived." : nil
            return .syncUpdate(SyncNews(state: .synced(at: at), note: note, changedHere: arrived || report.shared > 0))
        case .adopted(let report, let at):
            return .syncUpdate(SyncNews(state: .synced(at: at),
                                        note: "Joined the new cloud: \(report.uploaded) sent, \(report.downloaded) received.",
                                        changedHere: true))
        case .cloudReset:
            return .cloudWasReset
        case .offline(let reason, let manual):
            return .syncUpdate(SyncNews(state: .offline, note: manual ? "Offline: \(reason). Your moves are kept and sent later." : nil, isError: manual))
        case .failed(let message, _):
            return .syncUpdate(SyncNews(state: .failed, note: message, isError: true))
        }
    }
}
