import App
import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
import TestSupport
@testable import Sync

/// A round's reading of the other players' shared zones, kept between the rounds of one engine:
/// a store where nothing changed opens no file, a change is read at once, and what a stamp
/// cannot see (a segment before its head, a file announced but not arrived, a reset store) is
/// still read.
@Suite struct SharedZoneReadersTests {
    let root = temporaryFolder("qk-shared-readers")
    let clock = TestClock()
    /// The readers' monotonic clock, moved by hand.
    let uptime = Locked<UInt64>(1)

    /// One machine of a player on the folder on disk.
    struct Player {
        let database: AppDatabase
        let profile: Profile
        var player: PlayerDatabase { database.player(profile) }
        let cloud: FolderCloudDatabase
        let faults = CloudFaults()

        init(_ name: String, device: String, root: URL, clock: TestClock) throws {
            database = try AppDatabase.inMemory()
            _ = try database.importPacks(from: Content.packFiles, lexicon: { Content.lexicon })
            profile = try database.profile(player: name, device: device, hostName: device)
            cloud = try FolderCloudDatabase.onDisk(root: root, player: name, device: DeviceID(device),
                                                   options: CloudStoreOptions(now: { clock.now }, faults: faults))
        }

        var zone: SharedZone { SharedZone(player: player, cloud: cloud) }
        func publish(_ records: [SharedRecord]) throws { try zone.publish(records) }
    }

    func readers(rereadAfter: TimeInterval = 60) -> SharedZone.Readers {
        SharedZone.Readers(rereadAfter: rereadAfter) { [uptime] in uptime.withLock { $0 } }
    }

    func wait(_ seconds: Double) { uptime.withLock { $0 += UInt64(seconds * 1e9) } }

    func line(games: Int) -> Standing {
        Standing(tallies: [.proven: .init(games: games, wins: games, winGuesses: games * 4)])
    }

    /// The files of `player`'s segments of the shared zone, newest last.
    func sharedSegments(of player: String) throws -> [URL] {
        let files = FileManager.default.enumerator(at: root.appendingPathComponent("players/\(player)"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "seg" && $0.path.contains("/zones/\(CloudSchema.sharedZone.name)/") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func aRoundWhereNothingChangedOpensNoFileAndAChangeIsReadAtOnce() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let ana = try Player("ana", device: "laptop", root: root, clock: clock)
        let ben = try Player("ben", device: "pc", root: root, clock: clock)
        let cy = try Player("cy", device: "tablet", root: root, clock: clock)
        try ben.publish([.player(name: "ben", joinedAt: clock.now), .standing(device: "pc", line(games: 3))])
        try cy.publish([.player(name: "cy", joinedAt: clock.now)])
        let readers = readers()
        #expect(try ana.zone.read(using: readers).arrived == 3)
        #expect(try ana.player.friends() == ["ben", "cy"])
        // A stamp is taken before a read and needs what a read found: the second round keeps one.
        #expect(try ana.zone.read(using: readers) == SharedZone.Reading())

        let before = ana.cloud.folder.statistics
        #expect(try ana.zone.read(using: readers) == SharedZone.Reading())
        let after = ana.cloud.folder.statistics
        #expect(after.filesRead == before.filesRead)
        #expect(after.existenceChecks == before.existenceChecks)
        #expect(after.listings == before.listings + 1, "only the players' folder is listed")
        #expect(after.stamps > before.stamps)

        // Ben plays on: read in the next round, no waiting for the reread.
        try ben.publish([.standing(device: "pc", line(games: 4))])
        #expect(try ana.zone.read(using: readers).arrived == 1)
        #expect(try ana.player.standings()["ben"]?.tallies[.proven]?.games == 4)
        // A new player in the folder is read at once too.
        let dee = try Player("dee", device: "phone", root: root, clock: clock)
        try dee.publish([.player(name: "dee", joinedAt: clock.now)])
        #expect(try ana.zone.read(using: readers).arrived == 1)
        #expect(try ana.player.friends() == ["ben", "cy", "dee"])
    }

    @Test func aSegmentWrittenBeforeItsHeadIsReadWhenTheStoreIsNextReadAnyway() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let ana = try Player("ana", device: "laptop", root: root, clock: clock)
        let ben = try Player("ben", device: "pc", root: root, clock: clock)
        try ben.publish([.player(name: "ben", joinedAt: clock.now)])
        let readers = readers(rereadAfter: 10)
        #expect(try ana.zone.read(using: readers).arrived == 1)
        try ana.zone.read(using: readers)

        // Ben's machine stops between the segment and its head: no stamp shows the segment.
        ben.faults.crash(at: CrashPoint(file: .head, step: .writeTemporary, timing: .before))
        #expect(throws: CloudStoreError.self) { try ben.publish([.standing(device: "pc", line(games: 2))]) }
        #expect(try sharedSegments(of: "ben").count == 2)
        #expect(try ana.zone.read(using: readers).arrived == 0, "the stamp is unchanged")
        wait(9)
        #expect(try ana.zone.read(using: readers).arrived == 0)
        // Past the longest a store goes unread, it is read, and the segment is found.
        wait(2)
        #expect(try ana.zone.read(using: readers).arrived == 1)
        #expect(try ana.player.standings()["ben"]?.tallies[.proven]?.games == 2)
    }

    @Test func aFileAnnouncedButNotArrivedKeepsTheStoreReadEveryRound() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let ana = try Player("ana", device: "laptop", root: root, clock: clock)
        let ben = try Player("ben", device: "pc", root: root, clock: clock)
        try ben.publish([.player(name: "ben", joinedAt: clock.now)])
        let readers = readers()
        #expect(try ana.zone.read(using: readers).arrived == 1)
        try ana.zone.read(using: readers)

        // Ben's head announces a segment a replicator has not delivered yet.
        try ben.publish([.standing(device: "pc", line(games: 5))])
        let segment = try #require(try sharedSegments(of: "ben").last)
        let away = root.appendingPathComponent("in-transit.seg")
        try FileManager.default.moveItem(at: segment, to: away)
        #expect(try ana.zone.read(using: readers).arrived == 0)
        #expect(try ana.zone.read(using: readers).arrived == 0)
        // It arrives; the head is as it was, yet the next round reads it.
        try FileManager.default.moveItem(at: away, to: segment)
        #expect(try ana.zone.read(using: readers).arrived == 1)
        #expect(try ana.player.standings()["ben"]?.tallies[.proven]?.games == 5)
    }

    @Test func aPlayerWhoResetsTheirStoreIsReadInItsNewGeneration() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let ana = try Player("ana", device: "laptop", root: root, clock: clock)
        let ben = try Player("ben", device: "pc", root: root, clock: clock)
        try ben.publish([.player(name: "ben", joinedAt: clock.now), .standing(device: "pc", line(games: 1))])
        let readers = readers()
        #expect(try ana.zone.read(using: readers).arrived == 2)

        _ = try ben.cloud.resetCloud()
        try ben.zone.player.forgetPublished()
        try ben.publish([.player(name: "ben", joinedAt: clock.now), .standing(device: "pc", line(games: 7))])
        #expect(try ana.zone.read(using: readers).arrived == 2)
        #expect(try ana.player.standings()["ben"]?.tallies[.proven]?.games == 7)
    }

    /// The history's fingerprint is kept between rounds of one engine: a game finished here, or
    /// on another machine of the player, still changes the published line at the next round.
    @Test func theLeaderboardLineFollowsGamesFinishedBetweenRoundsOfOneEngine() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let ana = try Player("ana", device: "laptop", root: root, clock: clock)
        let desk = try Player("ana", device: "desk", root: root, clock: clock)
        let ben = try Player("ben", device: "pc", root: root, clock: clock)
        let games = PlayerGames(player: ana.player, lexicon: { Content.lexicon })
        try games.join(now: clock.now)
        let memory = SharedExchange()
        var engine = SyncEngine(player: ana.player, cloud: ana.cloud, now: { [clock] in clock.now }, pause: { _ in })
        engine.afterRound = { cloud, report in try games.exchangeShared(cloud: cloud, warnings: nil, round: report, memory: memory) }
        try engine.sync()
        func bensView() throws -> Int? {
            try ben.zone.read()
            return try ben.player.standings()["ana"]?.tallies.values.map(\.games).reduce(0, +)
        }
        #expect(try bensView() == 0)
        try engine.sync()

        // Finished here, between two rounds.
        clock.advance(1)
        let here = try ana.player.startGame(GameRequest(word: "tiger"), now: clock.now)
        _ = try ana.player.submitGuess("tiger", gameID: here.id, lexicon: Content.lexicon, now: clock.now)
        try engine.sync()
        #expect(try bensView() == 1)

        // Finished on the desk, arriving in a round.
        let deskEngine = SyncEngine(player: desk.player, cloud: desk.cloud, now: { [clock] in clock.now }, pause: { _ in })
        try deskEngine.sync()
        clock.advance(1)
        let there = try desk.player.startGame(GameRequest(word: "crane"), now: clock.now)
        _ = try desk.player.submitGuess("crane", gameID: there.id, lexicon: Content.lexicon, now: clock.now)
        try deskEngine.sync()
        try engine.sync()
        #expect(try bensView() == 2)
    }
}
