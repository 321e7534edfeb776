@testable import CloudStore
import Foundation
import TestSupport
import Testing

/// Issue 37's forgeries, as `SignedRecordsTests` plays them, written for the tree before signing
/// (eb8690c): the same edits of a friend who can write the folder, each as a device folder of
/// his making, unsigned (that tree signs nothing). `scripts/before-signing/run` copies this file
/// into a worktree of that tree and runs it: every test here is expected to FAIL there, each
/// failure being a forgery that worked. On today's tree `SignedRecordsTests` holds them.
@Suite(.serialized) struct ForgeriesBeforeSigning {
    static func forger(_ cloud: URL, player: String, device: String) throws -> FolderCloudDatabase {
        try FolderCloudDatabase(folder: DiskFolder(root: cloud), player: player, device: DeviceID(validated: device))
    }

    static func records(_ cloud: URL, player: String, zone: String) throws -> [CloudRecord] {
        let reader = try FolderCloudDatabase.reader(of: player, in: DiskFolder(root: cloud))
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

        let games = try Self.records(pair.cloud, player: "ben", zone: "Games")
        let bookmarks = try Self.records(pair.cloud, player: "ben", zone: "ReadingList")
        #expect(!games.isEmpty && !bookmarks.isEmpty)
        let forger = try Self.forger(pair.cloud, player: "ann", device: "evil")
        try Self.forge(forger, zone: "Games", saving: games, deleting: [dailyID])
        try Self.forge(forger, zone: "ReadingList", saving: bookmarks)

        let synced = try ann.run(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try ann.run(["history", "--json", "--no-sync"]).stdout == before, "history changed")
        #expect(try ann.run(["reading-list", "--json", "--no-sync"]).stdout == listBefore, "reading list changed")
        #expect(try ann.run(["stats", "--json", "--no-sync"]).stdout == statsBefore, "stats changed")
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
        _ = try ben.run(["sync"])
        let showAnn = try canonical(try ann.json(["match", "show", id, "--no-sync"]))
        let showBen = try canonical(try ben.json(["match", "show", id, "--no-sync"]))
        let boardBen = try canonical(try ben.json(["leaderboard", "--no-sync"]))

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
        try Self.forge(try Self.forger(pair.cloud, player: "ann", device: "pc2"), zone: "Shared", saving: forged)

        for friend in [ben, ann] {
            let synced = try friend.run(["sync"])
            #expect(synced.status == 0, "\(synced.stderr)")
        }
        #expect(try canonical(try ann.json(["match", "show", id, "--no-sync"])) == showAnn, "ann's match changed")
        #expect(try canonical(try ben.json(["match", "show", id, "--no-sync"])) == showBen, "ben's match changed")
        #expect(try canonical(try ben.json(["leaderboard", "--no-sync"])) == boardBen, "ben's leaderboard changed")
    }

    @Test func aPlayerRecordUnderAPlayerWhoNeverJoinedListsNobody() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = Friend("ann", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        #expect(try ann.run(["friends", "--join"]).status == 0)
        let player = CloudRecord(recordType: "Player", recordName: "player", fields: ["name": .string("cat"), "joinedAt": .date(Date()), "device": .string("evil")])
        try Self.forge(try Self.forger(pair.cloud, player: "cat", device: "evil"), zone: "Shared", saving: [player])
        for friend in [ann, ben] {
            let players = try #require(try friend.json(["friends"]) as? [String: Any])
            let names = ((players["players"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(!names.contains("cat"), "\(friend.name) sees \(names)")
        }
        let cat = Friend("cat", device: "tablet", in: pair)
        #expect(try cat.run(["sync"]).status == 0)
        #expect(try !Self.records(pair.cloud, player: "cat", zone: "Shared").contains { $0.recordType == "Player" }, "cat's machine published her line")
    }
}
