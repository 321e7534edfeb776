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
    private let setup: Setup

    init(setup: Setup, inbox: Inbox) {
        self.setup = setup
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

    /// `devices join CODE`, from the pairing screen: the line that says it joined.
    func join(code: String) throws -> String {
        let machines = try setup.joinDevices(code: code).map(\.name)
        return "Joined \(setup.profile.playerID)'s machines (\(machines.joined(separator: ", "))): your games sync now."
    }

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
        case .synced(let report, let at, _):
            let arrived = report.downloaded + report.deleted > 0
            return .syncUpdate(SyncNews(state: .synced(at: at), note: Wording.note(for: event), changedHere: arrived || report.shared > 0))
        case .adopted(_, let at):
            return .syncUpdate(SyncNews(state: .synced(at: at), note: Wording.note(for: event), changedHere: true))
        case .cloudReset:
            return .cloudWasReset
        case .notPaired:
            return .syncUpdate(SyncNews(state: .notPaired))
        case .offline(_, let manual):
            return .syncUpdate(SyncNews(state: .offline, note: Wording.note(for: event), isError: manual))
        case .failed:
            return .syncUpdate(SyncNews(state: .failed, note: Wording.note(for: event), isError: true))
        }
    }
}
