import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// The shared zones as a round uses them: reading writes nothing anywhere, another player's
/// games are never read, and a reset cloud gets this player's records again.
@Suite struct SharedZoneTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    @Test func readingEveryPlayersSharedZoneWritesNothingAndLeavesTheirGamesAlone() throws {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let ben = try Machine("pc", folder: folder, player: "ben", shared: clock)
        let game = try ben.start("tiger")
        try ben.guess("crane", in: game.id)
        try ben.sync()
        try SharedZone(player: ben.player, cloud: ben.cloud).publish([.player(name: "ben", joinedAt: clock.now)])
        try ana.sync()
        let written = folder.statistics.bytesWritten
        #expect(try SharedZone(player: ana.player, cloud: ana.cloud).read().refused == 0)
        #expect(folder.statistics.bytesWritten == written)
        #expect(try ana.player.friends() == ["ben"])
        #expect(try ana.player.history().isEmpty && ana.player.gamesInProgress().isEmpty)
    }

    /// A player is listed only while their own Player record is in the folder: a leaderboard
    /// line of theirs does not list them, and their Player record taken away unlists them.
    @Test func aPlayerIsListedByTheirPlayerRecordAlone() throws {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let ben = try Machine("pc", folder: folder, player: "ben", shared: clock)
        let line = Standing(tallies: [.proven: .init(games: 1, wins: 1, winGuesses: 3)])
        let benZone = SharedZone(player: ben.player, cloud: ben.cloud)
        try benZone.publish([.standing(device: "pc", line)])
        try SharedZone(player: ana.player, cloud: ana.cloud).read()
        #expect(try ana.player.friends() == [], "a leaderboard line alone lists nobody")
        #expect(try ana.player.standings()["ben"] != nil, "the line itself is kept")
        try benZone.publish([.player(name: "ben", joinedAt: clock.now)])
        try SharedZone(player: ana.player, cloud: ana.cloud).read()
        #expect(try ana.player.friends() == ["ben"])
        _ = try ben.cloud.modifyRecords(in: CloudSchema.sharedZone, saving: [], deleting: ["player"], policy: .overwrite)
        try SharedZone(player: ana.player, cloud: ana.cloud).read()
        #expect(try ana.player.friends() == [], "ben's Player record is gone")
    }

    /// A line written to the folder by a process stopped before it noted the write, then back
    /// to the line noted before (the game it counted was deleted): the line goes up again, and
    /// the folder ends with it (simulation seed 37485, where the other player kept a deleted
    /// game in this player's line for good).
    @Test func aWriteNeverNotedIsPublishedAgainWhenTheValueGoesBack() throws {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let watched = WatchedCloud(ana.cloud)
        let zone = SharedZone(player: ana.player, cloud: watched, folder: ana.cloud.folder)
        let before = Standing(tallies: [:]), played = Standing(tallies: [.proven: .init(games: 1, wins: 1, winGuesses: 1)])
        #expect(try zone.publish([.standing(device: "laptop", before)]) == 1)
        watched.killAfterCommit = .notWritable(reason: "the process was killed")
        #expect(throws: CloudStoreError.self) { try zone.publish([.standing(device: "laptop", played)]) }
        #expect(try zone.publish([.standing(device: "laptop", before)]) == 1, "the line in the folder is not the one noted")
        let reader = try FolderCloudDatabase.reader(of: "ana", in: folder)
        let line = try #require(try reader.fetchZoneChanges(CloudSchema.sharedZone, since: nil).changedRecords.first)
        #expect(CloudSchema.shared(line).map { if case .standing(_, let kept) = $0 { kept == before } else { false } } == .success(true))
    }

    @Test func aResetCloudGetsThePlayersRecordsAgain() throws {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let zone = SharedZone(player: ana.player, cloud: ana.cloud)
        let joined = SharedRecord.player(name: "ana", joinedAt: clock.now)
        #expect(try zone.publish([joined]) == 1)
        #expect(try zone.publish([joined]) == 0)
        _ = try ana.cloud.resetCloud()
        #expect(try zone.publish([joined]) == 1)
        let reader = try FolderCloudDatabase.reader(of: "ana", in: folder)
        #expect(try reader.fetchZoneChanges(CloudSchema.sharedZone, since: nil).changedRecords.map(\.recordName) == ["player"])
    }
}
