import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// The engine folds its own log into a snapshot once the log outweighs it: the folder stops
/// growing with the history, and machines that were behind, or new, still get everything.
@Suite struct CompactionTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    func gamesLog(of machine: Machine) -> [String] {
        folder.allFiles.filter { $0.contains("/devices/\(machine.profile.device.id)/zones/Games/") }
    }

    @Test func aLongHistoryIsCompactedAndEveryMachineStillGetsAllOfIt() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), behind = try Machine("desktop", folder: folder, shared: clock)
        let first = try a.start("tiger")
        try a.guess("tiger", in: first.id)
        try a.sync()
        try behind.sync()
        #expect(try behind.player.history().count == 1)

        // One commit per game, as a player who syncs after every game makes them.
        let words = ["zebra", "camel", "horse", "mouse", "snake", "shark", "whale", "hyena", "bison", "sloth", "lemur"]
        var played = 1
        while !gamesLog(of: a).contains(where: { $0.hasSuffix(".snap") }) {
            try #require(played < 400, "no snapshot after \(played) games")
            let game = try a.start(words[played % words.count])
            for word in ["crane", "pilot", "sound"] { _ = try? a.guess(word, in: game.id) }
            try a.guess(words[played % words.count], in: game.id)
            clock.advance(60)
            try a.sync()
            played += 1
        }
        let log = gamesLog(of: a)
        let segments = log.filter { $0.hasSuffix(".seg") }
        #expect(log.filter { $0.hasSuffix(".snap") }.count == 1)
        #expect(segments.count <= FolderCloudDatabase.recentSegmentsKept + 1, "\(segments.count) segments left beside the snapshot")
        #expect(played > FolderCloudDatabase.recentSegmentsKept)

        // The machine that was behind lost its place (its token expired) and refetches in full.
        try behind.sync()
        #expect(try behind.player.history().count == played)
        let newcomer = try Machine("tablet", folder: folder, shared: clock)
        try newcomer.sync()
        #expect(try newcomer.player.history().count == played)
        let someGame = try #require(try a.player.history().last)
        #expect(try newcomer.snapshot(someGame.id) == a.snapshot(someGame.id))
        #expect(try behind.snapshot(someGame.id) == a.snapshot(someGame.id))
    }

    @Test func aShortLogIsLeftAlone() throws {
        let a = try Machine("laptop", folder: folder, shared: clock)
        for word in ["zebra", "camel", "horse"] {
            let game = try a.start(word)
            try a.guess(word, in: game.id)
            try a.sync()
        }
        #expect(!gamesLog(of: a).contains { $0.hasSuffix(".snap") })
        #expect(try a.cloud.compactIfWorthwhile(ZoneID("Games")) == nil)
    }
}
