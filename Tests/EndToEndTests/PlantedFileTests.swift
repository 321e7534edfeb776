@testable import CloudStore
import Foundation
import TestSupport
import Testing

/// A file anyone who can write the folder can make (the format is public), planted in a
/// player's own folders, through the real binary (issue 35): the player's commands go on, exit
/// 0, and say what was refused in one line.
@Suite(.serialized) struct PlantedFileTests {
    /// A segment of a device folder `evil` in `player`'s store, well formed and checksummed,
    /// holding one record stamped with `clock`.
    func plant(in cloud: URL, player: String, zone: String, clock: HLCTimestamp, record: CloudRecord) throws {
        let generations = cloud.appendingPathComponent("players/\(player)")
        let generation = try #require(try FileManager.default.contentsOfDirectory(atPath: generations.path).first { $0.hasPrefix("g") })
        let evil = DeviceID(validated: "evil")
        let entry = RecordEntry(name: record.recordName, type: record.recordType, seq: 1, hlc: clock, deleted: false, fields: record.fields,
                                createdBy: evil, createdAt: clock)
        let body = SegmentBody(generation: try CloudGeneration(generation), device: evil, zone: ZoneID(validated: zone), seq: 1, hlc: clock,
                               entries: [entry])
        let file = generations.appendingPathComponent("\(generation)/devices/evil/zones/\(zone)/000000000001.seg")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try CloudFileFormat.encode(body, kind: .segment).write(to: file)
    }

    @Test func aClockAtTheEndOfItsRangeInHerSharedZoneNeitherCrashesNorStopsHerGame() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = pair.peer("laptop")
        let joined = try ann.run(["friends", "--join", "--player", "ann"])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try ann.run(["sync", "--player", "ann"]).status == 0)
        let top = HLCTimestamp(millis: .max, counter: .max)
        try plant(in: pair.cloud, player: "ann", zone: "Shared", clock: top,
                  record: CloudRecord(recordType: "Player", recordName: "player-ann", fields: ["name": .string("ann"), "joinedAt": .date(Date())]))
        try plant(in: pair.cloud, player: "ann", zone: "Games", clock: top,
                  record: CloudRecord(recordType: "Game", recordName: "game-x", fields: ["secret": .string("qqqqq")]))
        for _ in 0..<2 {
            let synced = try ann.run(["sync", "--player", "ann"])
            #expect(synced.status == 0, "sync: \(synced.stderr)")
            let lines = synced.stderr.split(separator: "\n").filter { $0.contains("evil") }
            // Refused before it is read: the folder is not one of her machines' (docs/trust.md).
            #expect(lines.count <= 2 && lines.allSatisfy { $0.contains("year 3000") || $0.contains("not a machine of ann") }, "\(synced.stderr)")
        }
        let played = try ann.run(["play", "--plain", "--json", "--player", "ann", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(played.status == 0, "play: \(played.stderr)")
        #expect(played.events.contains { $0["event"] as? String == "ended" })
    }

    /// Records a friend writes into `player`'s shared zone under a device folder of their own,
    /// as the game's writer would write them (the field names are in the public format).
    func forge(in cloud: URL, player: String, _ records: [CloudRecord]) throws {
        let evil = try FolderCloudDatabase.onDisk(root: cloud, player: player, device: DeviceID("evil"))
        let shared = ZoneID(validated: "Shared")
        try evil.createZone(shared)
        _ = try evil.modifyRecords(in: shared, saving: records, deleting: [], policy: .overwrite)
    }

    func play(_ match: String, _ player: String, game: Int, _ status: String, guesses: Int, hints: Int, grid: String) -> CloudRecord {
        CloudRecord(recordType: "MatchPlay", recordName: "play-\(match)-\(player)-\(game)", fields: [
            "match": .string(match), "player": .string(player), "game": .int(Int64(game)), "status": .string(status),
            "guesses": .int(Int64(guesses)), "hints": .int(Int64(hints)), "assist": .string("proven"), "grid": .string(grid),
            "device": .string("evil"),
        ])
    }

    @Test func aFriendsFilesInHerSharedZoneChangeNothingOfHers_andHerMachinePublishesNoneOfThem() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        #expect(try ana.run(["friends", "--join"]).status == 0)
        #expect(try ben.run(["friends", "--join"]).status == 0)
        let made = try #require(try ben.json(["match", "new", "--against", "ana", "--seed", "7"]) as? [String: Any])
        let id = try #require(made["id"] as? String)
        let mastermind = made["rules"] as? String == "mastermind"
        // Ana gives game 1 up.
        _ = try #require(endedWord(try ana.playMatch(id, ["give-up"])))
        try ben.sync()

        // As Ben, with file edits alone: a win in one for Ana's game 1, a loss of a game she never
        // started, a decline after her play, ten million games on her line, and a Player record
        // for Cat, who never joined.
        let packs = try #require(try ana.json(["packs"]) as? [[String: Any]])
        let pack = try #require(packs.first { $0["id"] as? String == made["pack"] as? String })
        let length = try #require(pack["length"] as? Int), limit = try #require(pack["maxGuesses"] as? Int)
        let full = mastermind ? "\(length)+0" : "\(length)"
        try forge(in: pair.cloud, player: "ana", [
            play(id, "ana", game: 1, "won", guesses: 1, hints: 0, grid: full),
            play(id, "ana", game: 2, "lost", guesses: limit, hints: 0,
                 grid: Array(repeating: mastermind ? "0+0" : "0", count: limit).joined(separator: ",")),
            CloudRecord(recordType: "MatchDecline", recordName: "decline-\(id)", fields: ["match": .string(id), "device": .string("evil")]),
            CloudRecord(recordType: "Standing", recordName: "standing-evil", fields: [
                "games-proven": .int(10_000_000), "wins-proven": .int(5), "winGuesses-proven": .int(10), "bestDailyStreak": .int(0),
                "matchesWon": .int(0), "days": .strings([]), "device": .string("evil"),
            ]),
        ])
        try forge(in: pair.cloud, player: "cat", [
            CloudRecord(recordType: "Player", recordName: "player", fields: ["name": .string("cat"), "joinedAt": .date(Date()), "device": .string("evil")]),
        ])
        let cat = Friend("cat", device: "tablet", in: pair)
        let catSync = try cat.run(["sync"])
        #expect(catSync.status == 0, "\(catSync.stderr)")

        let synced = try ana.run(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let after = try #require(try ana.json(["match", "show", id, "--no-sync"]) as? [String: Any])
        #expect(after["status"] as? String == "playing", "\(after)")
        let game1 = try #require((after["games"] as? [[String: Any]])?.first)
        #expect(((game1["results"] as? [String: Any])?["ana"] as? [String: Any])?["status"] as? String == "gave-up", "\(game1)")
        // Her next game is game 2, which she plays.
        let next = try ana.playMatch(id, ["give-up"])
        #expect(endedWord(next) != nil)
        let board = try #require(try ana.json(["leaderboard", "--no-sync"]) as? [String: Any])
        let rows = ((board["allTime"] as? [[String: Any]])?.flatMap { ($0["rows"] as? [[String: Any]]) ?? [] }) ?? []
        #expect(rows.contains { $0["player"] as? String == "ana" } && !rows.contains { ($0["games"] as? Int ?? 0) > 100 }, "\(rows)")

        // The planted folders gone, nothing of them is left in Ana's name, and Cat is nobody's.
        for player in ["ana", "cat"] {
            let devices = pair.cloud.appendingPathComponent("players/\(player)")
            for generation in (try? FileManager.default.contentsOfDirectory(atPath: devices.path)) ?? [] {
                try? FileManager.default.removeItem(at: devices.appendingPathComponent("\(generation)/devices/evil"))
            }
        }
        try ana.sync()
        let fresh = Friend("ben", device: "desk", in: pair)
        try fresh.pair(with: ben)
        try fresh.sync()
        let seen = try #require(try fresh.json(["match", "show", id, "--no-sync"]) as? [String: Any])
        #expect(seen["status"] as? String == "playing", "\(seen)")
        let seenGame1 = try #require((seen["games"] as? [[String: Any]])?.first)
        #expect(((seenGame1["results"] as? [String: Any])?["ana"] as? [String: Any])?["status"] as? String == "gave-up", "\(seenGame1)")
        let friends = try #require(try fresh.json(["friends", "--no-sync"]) as? [String: Any])
        #expect(!((friends["players"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "cat" }, "\(friends)")
    }
}
