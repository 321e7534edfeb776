@testable import App
import Concurrency
import Foundation
import Sync
import Testing

/// App's one sync policy (`Syncing`): when a command syncs, what one round and an adopted
/// reset give `sync`, whether the full-screen game gets background rounds, and what its header
/// shows of each event.
@Suite struct SyncingTests {
    static let at = Date(timeIntervalSince1970: 1_795_000_000)

    /// A setup on a fresh data dir (removed at the end of the test by `cleanUp`), with the
    /// cloud folder given and the warnings kept.
    struct Opened {
        let setup: Setup
        let warnings = Locked<[String]>([])
        let folders: [URL]

        init(cloud: (URL) -> URL?, noSync: Bool = false) throws {
            let top = FileManager.default.temporaryDirectory.appendingPathComponent("syncing-\(UUID().uuidString)")
            let dataDir = top.appendingPathComponent("data")
            let cloudDir = cloud(top)
            folders = [top]
            let warnings = warnings
            let voice = Voice(say: { _ in }, warn: { line in warnings.withLock { $0.append(line) } }, note: { _ in },
                              stop: { failure in fatalError(failure.message) })
            setup = try Setup.open(Setup.Options(dataDir: dataDir.path, cloudDir: cloudDir?.path, player: "ana", device: "laptop",
                                                 noSync: noSync), voice: voice, environment: [:])
        }

        func cleanUp() {
            setup.finish(succeeded: true)
            folders.forEach { try? FileManager.default.removeItem(at: $0) }
        }
    }

    @Test func withSyncOffNothingSyncsAndSyncSaysWhy() throws {
        let opened = try Opened(cloud: { _ in nil })
        defer { opened.cleanUp() }
        let sync = opened.setup.sync
        sync.inPassing()
        #expect(sync.around(publishing: true) { 7 } == 7)
        #expect(opened.warnings.withLock { $0 }.isEmpty, "no folder, no round, nothing to warn of")
        #expect(sync.background { _ in } == nil)
        let refusal = #expect(throws: Failure.self) { try sync.once() }
        #expect(refusal?.message.hasPrefix("sync is off: give the shared folder once with --cloud-dir") == true)
        let forbidden = try Opened(cloud: { $0.appendingPathComponent("cloud") }, noSync: true)
        defer { forbidden.cleanUp() }
        #expect(forbidden.setup.sync.background { _ in } == nil)
        #expect(throws: Failure.self) { try forbidden.setup.sync.once() }
    }

    @Test func aRoundInPassingThatCannotReachTheFolderIsAWarningAndAroundSyncsBeforeAndAfterPublishing() throws {
        // A folder whose parent is not there is not made: every round finds it offline.
        let opened = try Opened(cloud: { $0.appendingPathComponent("unmounted/share/cloud") })
        defer { opened.cleanUp() }
        let sync = opened.setup.sync
        let seen = sync.around(publishing: false) { opened.warnings.withLock { $0.count } }
        #expect(seen == 1, "one round before the action")
        #expect(opened.warnings.withLock { $0.count } == 1, "none after an action that publishes nothing")
        let seenPublishing = sync.around(publishing: true) { opened.warnings.withLock { $0.count } }
        #expect(seenPublishing == 2 && opened.warnings.withLock { $0.count } == 3, "one round before and one after")
        for warning in opened.warnings.withLock({ $0 }) {
            #expect(warning.hasPrefix("sync: "), "\(warning)")
        }
        #expect(throws: SyncError.self) { try sync.once() }
    }

    @Test func oneRoundWithAFolderSendsTheGamesAndWipesItsProgressLine() throws {
        let opened = try Opened(cloud: { $0.appendingPathComponent("cloud") })
        defer { opened.cleanUp() }
        let game = try opened.setup.games.begin(GameOptions(pack: "animals", word: "tiger")).game
        _ = try opened.setup.games.submitGuess("crane", gameID: game.id)
        #expect(try opened.setup.games.lastSynced() == nil, "never synced: the header says 'not synced yet'")
        let written = Locked<[String]>([])
        let line = ProgressLine { text in written.withLock { $0.append(text) } }
        line.draw(.importing, done: 1, total: 2)
        let before = opened.setup.clock()
        let report = try opened.setup.sync.once(progress: line)
        let synced = try #require(try opened.setup.games.lastSynced(), "the round is the machine's last sync")
        #expect(synced >= before.addingTimeInterval(-0.001) && synced <= opened.setup.clock().addingTimeInterval(0.001), "\(synced)")
        #expect(report.uploaded > 0 && report.movedRecords, "\(report)")
        #expect(written.withLock { $0 }.last == "\r\u{1B}[K", "the line is wiped when the round ends")
        let again = try opened.setup.sync.once()
        #expect(again.uploaded == 0 && !again.movedRecords, "nothing more to send: \(again)")
        #expect(opened.setup.sync.background { _ in } != nil)
        #expect(opened.warnings.withLock { $0 }.isEmpty, "\(opened.warnings.withLock { $0 })")
    }

    @Test func theHeaderShowsEachEventWithItsNoteWhetherAnErrorAndWhetherToReload() {
        #expect(SyncHeadline(.watching(.inotifyAndPolling)) == nil, "the watch starting is not shown")
        for event: SyncService.Event in [.syncing, .importing(done: 3, total: 9), .sending(done: 3, total: 9), .cloudReset] {
            #expect(SyncHeadline(event) == SyncHeadline(event: event, note: nil, isError: false, changedHere: false))
        }
        let quiet = SyncReport()
        let nothing = SyncService.Event.synced(quiet, at: Self.at, manual: false)
        #expect(SyncHeadline(nothing) == SyncHeadline(event: nothing, note: nil, isError: false, changedHere: false))
        var sent = SyncReport()
        sent.uploaded = 4
        #expect(SyncHeadline(.synced(sent, at: Self.at, manual: false))?.changedHere == false, "what was sent changes nothing here")
        var shared = SyncReport()
        shared.shared = 1
        #expect(SyncHeadline(.synced(shared, at: Self.at, manual: false))?.changedHere == true, "a match arrived")
        var arrived = SyncReport()
        arrived.deleted = 1
        let asked = SyncService.Event.synced(arrived, at: Self.at, manual: true)
        #expect(SyncHeadline(asked) == SyncHeadline(event: asked, note: Wording.sentence(arrived), isError: false, changedHere: true))
        let adopted = SyncService.Event.adopted(arrived, at: Self.at)
        #expect(SyncHeadline(adopted) == SyncHeadline(event: adopted, note: "Joined the new cloud: 0 sent, 0 received.", isError: false, changedHere: true))
        let quietOffline = SyncService.Event.offline(reason: "gone", manual: false)
        #expect(SyncHeadline(quietOffline) == SyncHeadline(event: quietOffline, note: nil, isError: false, changedHere: false))
        let offline = SyncService.Event.offline(reason: "gone", manual: true)
        #expect(SyncHeadline(offline) == SyncHeadline(event: offline, note: "Offline: gone. Your moves are kept and sent later.", isError: true, changedHere: false))
        let failed = SyncService.Event.failed("it broke", manual: false)
        #expect(SyncHeadline(failed) == SyncHeadline(event: failed, note: "it broke", isError: true, changedHere: false))
    }
}
