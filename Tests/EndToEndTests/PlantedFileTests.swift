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
            #expect(lines.count <= 2 && lines.allSatisfy { $0.contains("year 3000") }, "\(synced.stderr)")
        }
        let played = try ann.run(["play", "--plain", "--json", "--player", "ann", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(played.status == 0, "play: \(played.stderr)")
        #expect(played.events.contains { $0["event"] as? String == "ended" })
    }
}
