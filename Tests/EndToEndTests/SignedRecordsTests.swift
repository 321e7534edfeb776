@testable import CloudStore
import Foundation
import TestSupport
import Testing

/// Only a player's own machines speak for them (docs/trust.md): what a friend who can write the
/// folder forges in another player's name, with nothing but file edits, through the real binary.
/// Each forgery is refused with one warning naming the folder, and changes nothing on either
/// player's machines.
@Suite(.serialized) struct SignedRecordsTests {
    /// The signing key a machine keeps in its data dir.
    static func key(of peer: Peer) throws -> DeviceKey {
        try #require(try DeviceKey.load(peer.dataDir.appendingPathComponent("device-key")))
    }

    /// A store that writes `player`'s folder as device `device`, signing with `key` (a friend's
    /// own key: well signed, by the wrong machine) or, without one, not signing at all.
    static func forger(_ cloud: URL, player: String, device: String, key: DeviceKey?) throws -> FolderCloudDatabase {
        let disk = DiskFolder(root: cloud)
        let folder: any CloudFolder = key.map { key in
            // The forger's own store trusts its own key, as if it were one of the player's machines.
            let book = TrustBook(player: player, device: DeviceID(validated: device), key: key, file: nil)
            book.pin(player, members: [key.publicKey.id: .init(device: device, key: key.publicKey)], removed: [])
            return TrustedFolder(disk, book: book)
        } ?? disk
        return try FolderCloudDatabase(folder: folder, player: player, device: DeviceID(validated: device))
    }

    /// Every record of `player`'s zone `zone`, read as a stranger to the folder reads it (their
    /// machines pinned on first sight).
    static func records(_ cloud: URL, player: String, zone: String) throws -> [CloudRecord] {
        let book = TrustBook(player: "onlooker", device: DeviceID(validated: "onlooker"), key: DeviceKey(), file: nil)
        let reader = try FolderCloudDatabase.reader(of: player, in: TrustedFolder(DiskFolder(root: cloud), book: book))
        do {
            return try reader.fetchZoneChanges(ZoneID(validated: zone), since: nil).changedRecords
        } catch .zoneNotFound {
            return []
        }
    }

    static func forge(_ store: FolderCloudDatabase, zone: String, saving: [CloudRecord], deleting: [String] = []) throws {
        let id = ZoneID(validated: zone)
        try store.createZone(id)
        _ = try store.modifyRecords(in: id, saving: saving, deleting: deleting, policy: .overwrite)
    }

    /// The lines of `stderr` that speak of device folder `name`.
    static func warnings(_ stderr: String, about name: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains("devices/\(name)") }
    }

    @Test func gamesGuessesBookmarksAndADeletionForgedInHerPrivateZonesChangeNothing() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = Friend("ann", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        _ = try ann.run(["play", "--plain", "--json", "--word", "tiger"], input: "crane\ntiger\nbookmark\n")
        let daily = try ann.run(["play", "--plain", "--json", "--daily"], input: "give-up\n")
        #expect(daily.status == 0, "\(daily.stderr)")
        _ = try ben.run(["play", "--plain", "--json", "--word", "zebra"], input: "zebra\nbookmark\n")
        let before = try ann.run(["history", "--json", "--no-sync"]).stdout
        let listBefore = try ann.run(["reading-list", "--json", "--no-sync"]).stdout
        let statsBefore = try ann.run(["stats", "--json", "--no-sync"]).stdout
        let dailyID = try #require(gameID(daily.events))

        // Ben's own real records (a won game, its guesses, a bookmark), put in Ann's zones under
        // device folders of his making: signed with his key, and not signed at all.
        let games = try Self.records(pair.cloud, player: "ben", zone: "Games")
        let bookmarks = try Self.records(pair.cloud, player: "ben", zone: "ReadingList")
        #expect(!games.isEmpty && !bookmarks.isEmpty)
        for (device, key) in [("pc2", try Self.key(of: ben.peer)), ("evil", nil)] {
            let forger = try Self.forger(pair.cloud, player: "ann", device: device, key: key)
            try Self.forge(forger, zone: "Games", saving: games, deleting: [dailyID])
            try Self.forge(forger, zone: "ReadingList", saving: bookmarks)
        }

        let synced = try ann.run(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(Self.warnings(synced.stderr, about: "pc2").count == 1, "\(synced.stderr)")
        #expect(Self.warnings(synced.stderr, about: "evil").count == 1, "\(synced.stderr)")
        #expect(try ann.run(["history", "--json", "--no-sync"]).stdout == before)
        #expect(try ann.run(["reading-list", "--json", "--no-sync"]).stdout == listBefore)
        #expect(try ann.run(["stats", "--json", "--no-sync"]).stdout == statsBefore)
        // A second sync says nothing new and still changes nothing.
        let again = try ann.run(["sync"])
        #expect(again.status == 0 && Self.warnings(again.stderr, about: "evil").count <= 1, "\(again.stderr)")
        #expect(try ann.run(["history", "--json", "--no-sync"]).stdout == before)
    }

    @Test func aResultADeclineAndAStandingForgedInHerSharedZoneChangeNothingOnEitherMachine() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = Friend("ann", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        #expect(try ann.run(["friends", "--join"]).status == 0)
        #expect(try ben.run(["friends", "--join"]).status == 0)
        let made = try #require(try ben.json(["match", "new", "--against", "ann", "--seed", "7"]) as? [String: Any])
        let id = try #require(made["id"] as? String)
        _ = try #require(endedWord(try ann.playMatch(id, ["give-up"])))
        try ben.sync()
        let showAnn = try canonical(try ann.json(["match", "show", id, "--no-sync"]))
        let showBen = try canonical(try ben.json(["match", "show", id, "--no-sync"]))
        let boardBen = try canonical(try ben.json(["leaderboard", "--no-sync"]))

        // Ben's edits in Ann's shared zone: a win in one for her game 1, a loss of a game she
        // never started, a decline after her play, and a standing of ten million games.
        let mastermind = made["rules"] as? String == "mastermind"
        let packs = try #require(try ann.json(["packs"]) as? [[String: Any]])
        let pack = try #require(packs.first { $0["id"] as? String == made["pack"] as? String })
        let length = try #require(pack["length"] as? Int), limit = try #require(pack["maxGuesses"] as? Int)
        func play(_ game: Int, _ status: String, guesses: Int, grid: String) -> CloudRecord {
            CloudRecord(recordType: "MatchPlay", recordName: "play-\(id)-ann-\(game)", fields: [
                "match": .string(id), "player": .string("ann"), "game": .int(Int64(game)), "status": .string(status),
                "guesses": .int(Int64(guesses)), "hints": .int(0), "assist": .string("proven"), "grid": .string(grid), "device": .string("pc2"),
            ])
        }
        let forged = [
            play(1, "won", guesses: 1, grid: mastermind ? "\(length)+0" : "\(length)"),
            play(2, "lost", guesses: limit, grid: Array(repeating: mastermind ? "0+0" : "0", count: limit).joined(separator: ",")),
            CloudRecord(recordType: "MatchDecline", recordName: "decline-\(id)", fields: ["match": .string(id), "device": .string("pc2")]),
            CloudRecord(recordType: "Standing", recordName: "standing-pc2", fields: [
                "games-proven": .int(10_000_000), "wins-proven": .int(0), "winGuesses-proven": .int(0), "bestDailyStreak": .int(0),
                "matchesWon": .int(0), "days": .strings([]), "device": .string("pc2"),
            ]),
        ]
        try Self.forge(try Self.forger(pair.cloud, player: "ann", device: "pc2", key: try Self.key(of: ben.peer)), zone: "Shared", saving: forged)

        for friend in [ben, ann] {
            let synced = try friend.run(["sync"])
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(Self.warnings(synced.stderr, about: "pc2").count == 1, "\(friend.name): \(synced.stderr)")
        }
        #expect(try canonical(try ann.json(["match", "show", id, "--no-sync"])) == showAnn)
        #expect(try canonical(try ben.json(["match", "show", id, "--no-sync"])) == showBen)
        #expect(try canonical(try ben.json(["leaderboard", "--no-sync"])) == boardBen)
    }

    @Test func aPlayerRecordUnderAPlayerWhoNeverJoinedListsNobody() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = Friend("ann", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        #expect(try ann.run(["friends", "--join"]).status == 0)
        let player = CloudRecord(recordType: "Player", recordName: "player", fields: ["name": .string("cat"), "joinedAt": .date(Date()), "device": .string("evil")])
        try Self.forge(try Self.forger(pair.cloud, player: "cat", device: "evil", key: try Self.key(of: ann.peer)), zone: "Shared", saving: [player])
        try Self.forge(try Self.forger(pair.cloud, player: "cat", device: "evil2", key: nil), zone: "Shared", saving: [player])
        for friend in [ann, ben] {
            let players = try #require(try friend.json(["friends"]) as? [String: Any])
            let names = ((players["players"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(!names.contains("cat"), "\(friend.name) sees \(names)")
        }
        // Cat's own machine, which never joined, publishes no Player record for her.
        let cat = Friend("cat", device: "tablet", in: pair)
        #expect(try cat.run(["sync"]).status == 0)
        #expect(try !Self.records(pair.cloud, player: "cat", zone: "Shared").contains { $0.recordType == "Player" })
    }

    @Test func aKeyPlantedInHerKeysFolderLetsNoMachineIn_andASignedFileCopiedElsewhereIsRefused() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = Friend("ann", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        _ = try ann.run(["play", "--plain", "--json", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(try ann.run(["friends", "--join"]).status == 0)
        _ = try ben.run(["play", "--plain", "--json", "--word", "zebra"], input: "zebra\n")
        let before = try ann.run(["history", "--json", "--no-sync"]).stdout

        // Ben writes a key file of his own in Ann's keys, as a second founder and as added by her
        // laptop (the grant his own signature), then a device folder signed with that key.
        let benKey = try Self.key(of: ben.peer)
        let keys = pair.cloud.appendingPathComponent("players/ann/keys")
        let annKeyID = try #require(try FileManager.default.contentsOfDirectory(atPath: keys.path).first { $0.hasSuffix(".key") }).dropLast(4)
        let added = KeyFileBody(player: "ann", device: "pc9", key: benKey.publicKey, label: "pc9", how: .added, by: String(annKeyID), invite: nil,
                                grant: benKey.sign(KeyFileBody.grantMessage(player: "ann", key: benKey.publicKey)), at: Date())
        let path = KeyFolder.keyPath("ann", benKey.publicKey.id)
        try KeyFolder.encode(added, path: path, key: benKey).write(to: pair.cloud.appendingPathComponent(path.description))
        let games = try Self.records(pair.cloud, player: "ben", zone: "Games")
        try Self.forge(try Self.forger(pair.cloud, player: "ann", device: "pc9", key: benKey), zone: "Games", saving: games)

        // And a copy of Ann's own signed folder under another device name.
        let generation = try #require(try FileManager.default.contentsOfDirectory(atPath: pair.cloud.appendingPathComponent("players/ann").path)
            .first { $0.hasPrefix("g") })
        let devices = pair.cloud.appendingPathComponent("players/ann/\(generation)/devices")
        let laptop = try #require(try FileManager.default.contentsOfDirectory(atPath: devices.path).first)
        try FileManager.default.copyItem(at: devices.appendingPathComponent(laptop), to: devices.appendingPathComponent("copy"))

        let second = Friend("ann", peer: pair.peer("desktop"))
        for reader in [ann, ben] {
            let synced = try reader.run(["sync"])
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(Self.warnings(synced.stderr, about: "pc9").count <= 1 && Self.warnings(synced.stderr, about: "copy").count <= 1, "\(synced.stderr)")
        }
        #expect(try ann.run(["history", "--json", "--no-sync"]).stdout == before)
        // A machine that was never paired is not let in by any of it.
        let stranger = try second.run(["sync"])
        #expect(stranger.status == 77 && stranger.stderr.contains("devices join"), "\(stranger.stderr)")
    }
}
