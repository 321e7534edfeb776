import CloudStore
import Foundation
import QiktionaryCore
import Storage
import TestSupport
import Testing
@testable import Sync

/// The folder going bad in the middle of a sync, on a real disk folder.
@Suite struct FolderGoingBadMidSyncTests {
    @Test func aFolderThatGoesAwayMidSyncLosesNothingAndDuplicatesNothing() throws {
        let root = temporaryFolder("qk-midsync")
        defer { try? FileManager.default.removeItem(at: root) }
        let cloud = root.appendingPathComponent("cloud"), away = root.appendingPathComponent("away")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let clock = TestClock()
        let a = try Machine("laptop", folder: MemoryFolder(), shared: clock)
        let faults = CloudFaults()
        faults.slowIO(0.01)
        let store = try FolderCloudDatabase.onDisk(root: cloud, player: "player", device: DeviceID(a.profile.device.id),
                                                   options: CloudStoreOptions(now: { clock.now }, faults: faults))
        let engine = SyncEngine(player: a.player, cloud: store, now: { clock.now }, pause: { _ in })
        var expected: [String: Int] = [:]
        for (index, word) in ["tiger", "zebra", "camel", "horse", "mouse", "snake", "comet", "orbit"].enumerated() {
            let game = try a.start(word)
            let guesses = Words.fiveLetterGuesses(avoiding: word).prefix(1 + index % 4)
            for guess in guesses { try a.guess(guess, in: game.id) }
            expected[game.id] = guesses.count
        }
        // The folder is moved away while the sync is writing.
        let mover = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            try? FileManager.default.moveItem(at: cloud, to: away)
        }
        mover.start()
        #expect(throws: SyncError.self) { try engine.sync() }
        while FileManager.default.fileExists(atPath: cloud.path) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try a.player.pendingChangeCount() > 0, "what did not reach the folder is still queued")
        try FileManager.default.moveItem(at: away, to: cloud)
        faults.slowIO(0)
        try engine.sync()
        #expect(try a.player.pendingChangeCount() == 0)

        let b = try Machine("desktop", folder: MemoryFolder(), shared: clock)
        let reader = try FolderCloudDatabase.onDisk(root: cloud, player: "player", device: DeviceID(b.profile.device.id))
        try SyncEngine(player: b.player, cloud: reader, pause: { _ in }).sync()
        let games = try b.player.gamesInProgress()
        #expect(Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0.game.guesses.count) }) == expected)
    }
}
