@testable import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
@testable import Sync
import Testing
import App

/// Well-formed files anyone can write (the format is public, a checksum is no secret), planted
/// in a player's own store (`Games`, `ReadingList`, `Shared`) and in another player's shared
/// zone: every record type of the game, each with a field at an extreme of its type or of the
/// game's values, stamped with clocks at the ends of their range (issue 35). The player's whole
/// round (sync, the shared zones' exchange) and a guess and round after it must neither crash,
/// nor throw, nor take long; every warning is one safe line.
@Suite struct PlantedRecordFuzzTests {
    static let batches = 2
    static let casesPerBatch = Fuzz.count(150)

    static let extremes: [FieldValue] = [
        .int(.max), .int(.min), .int(0), .int(-1), .int(1 << 31), .int(31), .string(""), .string(String(repeating: "é", count: 3_000)),
        .string("٣"), .string("６+０"), .string("qqqqqq"), .string("zzzzz"), .string("\u{0}"), .string("2999-01-01 won 1 0 proven"),
        .date(.distantPast), .date(.distantFuture), .date(Date(timeIntervalSince1970: -1)), .double(.greatestFiniteMagnitude),
        .double(-0.0), .bool(true), .strings(Array(repeating: "2999-01-01 won 1 0 proven", count: 90)),
        .strings((0..<10_000).map { "\($0)" }), .bytes(Data(repeating: 0xFF, count: 4_096)),
    ]

    static func clocks(_ now: Date) -> [HLCTimestamp] {
        let wall = Int64(now.timeIntervalSince1970 * 1000)
        return [HLCTimestamp(millis: .max, counter: .max), HLCTimestamp(millis: .min, counter: 0), .zero,
                HLCTimestamp(millis: wall + 10 * 365 * 86_400_000, counter: .max), HLCTimestamp(millis: HLCTimestamp.latestReadable, counter: .max),
                HLCTimestamp(millis: wall, counter: .max), HLCTimestamp(millis: wall + 1, counter: 0)]
    }

    @Test(arguments: 0..<batches)
    func plantedRecordsAtTheirExtremesNeitherCrashNorStopARound(batch: Int) throws {
        let seed = Fuzz.seed(kind: 35, batch: batch)
        let start = Date()
        defer { Fuzz.report("planted", batch: batch, cases: Self.casesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        let folder = MemoryFolder()
        let player = try Fuzz.anasLaptop()
        let profile = player.profile
        let store = try FolderCloudDatabase.inMemory(folder, player: "ana", device: DeviceID(profile.device.id),
                                                     options: CloudStoreOptions(warnings: { _ in }))
        let games = PlayerGames(player: player, lexicon: { Fuzz.lexicon })
        let warnings = LockedLines()
        var engine = SyncEngine(player: player, cloud: store, pause: { _ in })
        engine.warnings = { warnings.append($0.description) }
        engine.afterRound = { cloud, report in
            try games.exchangeShared(cloud: cloud, warnings: { warnings.append($0.description) }, round: report)
        }

        // Ana's honest records, of every private type, and a match Ben made against her.
        let game = try player.startGame(GameRequest(word: "tiger"))
        _ = try player.submitGuess("crane", gameID: game.id, lexicon: Fuzz.lexicon)
        _ = try player.mark("e", as: .out, gameID: game.id)
        _ = try player.addBookmark(word: "tiger")
        try games.join()
        let ben = try FolderCloudDatabase.inMemory(folder, player: "ben", device: DeviceID("pc"))
        try ben.createZone(CloudSchema.sharedZone)
        let pack = try #require(try player.storedPacks().first { $0.words.count >= 3 })
        var generator = SeededGenerator(seed: seed)
        let match = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: Date(), lexicon: Fuzz.lexicon, using: &generator)
        let shared: [SharedRecord] = [
            .player(name: "ben", joinedAt: Date()), .match(match),
            .play(MatchPlay.Fields(match: match.id, player: "ben", game: 1, status: "won", guesses: 2, hints: 0, assist: "proven",
                                   grid: match.rules == .classic ? "2,\(match.length)" : "1+2,\(match.length)+0")),
            .decline(matchID: match.id),
            .standing(device: "pc", Standing(tallies: [.proven: .init(games: 3, wins: 2, winGuesses: 7)])),
        ]
        _ = try ben.modifyRecords(in: CloudSchema.sharedZone, saving: shared.prefix(2).map { CloudSchema.record($0, device: "pc") },
                                  deleting: [], policy: .overwrite)
        try engine.sync()

        // Templates: each private record as Ana's machine wrote it, each shared one as the schema writes it.
        let reader = try FolderCloudDatabase.reader(of: "ana", in: folder)
        var templates: [(zone: ZoneID, record: CloudRecord)] = []
        for zone in SyncZone.allCases.map(CloudSchema.zone) {
            for record in try reader.fetchZoneChanges(zone, since: nil).changedRecords { templates.append((zone, record)) }
        }
        #expect(Set(templates.map(\.record.recordType)).count >= 4, "\(templates.map(\.record.recordType))")
        for record in shared { templates.append((CloudSchema.sharedZone, CloudSchema.record(record, device: "evil"))) }

        let generation = try store.operation { (state: inout FolderCloudDatabase.State) throws(CloudStoreError) in
            try store.requireGeneration(&state)
        }
        let benGeneration = try ben.operation { (state: inout FolderCloudDatabase.State) throws(CloudStoreError) in
            try ben.requireGeneration(&state)
        }
        var seqs: [String: Int] = [:]
        for index in 0..<Self.casesPerBatch {
            let label = Fuzz.label(seed, index)
            let (zone, template) = rng.pick(templates)
            var record = template
            for _ in 0..<rng.int(1...3) {
                let key = record.fields.keys.sorted().isEmpty ? "x" : rng.pick(record.fields.keys.sorted())
                record.fields[key] = rng.pick(Self.extremes)
            }
            if rng.chance(0.2) { record.recordName = rng.pick([record.recordName + "-2", "game-" + UUID().uuidString.lowercased()]) }
            // In Ana's own store, or (for a shared record) in Ben's shared zone.
            let owner = zone == CloudSchema.sharedZone && rng.chance(0.5) ? "ben" : "ana"
            let key = "\(owner)/\(zone.name)"
            let seq = seqs[key, default: 0] + 1
            seqs[key] = seq
            let clock = rng.pick(Self.clocks(Date()))
            let evil = DeviceID(validated: "evil")
            let entry = RecordEntry(name: record.recordName, type: record.recordType, seq: seq, hlc: clock, deleted: rng.chance(0.1),
                                    fields: record.fields, createdBy: evil, createdAt: rng.pick(Self.clocks(Date())))
            let body = SegmentBody(generation: owner == "ana" ? generation : benGeneration, device: evil, zone: zone, seq: seq, hlc: clock,
                                   entries: [entry])
            let layout = CloudLayout(player: owner)
            folder.place(CloudFileFormat.encode(body, kind: .segment),
                         at: layout.segment(owner == "ana" ? generation : benGeneration, evil, zone, seq).components)
            do {
                try Fuzz.bounded("\(label) round") { try engine.sync() }
                let next = try player.startGame(GameRequest())
                _ = try? player.submitGuess("crane", gameID: next.id, lexicon: Fuzz.lexicon)
                try Fuzz.bounded("\(label) round after a guess") { try engine.sync() }
                _ = try games.matches()
                _ = try games.leaderboards(day: "2026-11-28")
                _ = try player.history()
            } catch {
                Issue.record("\(label) \(record.recordType) in \(owner)'s \(zone.name) stamped \(clock): \(error)")
            }
        }
        for line in warnings.all {
            #expect(!Fuzz.spansLines(line) && !Fuzz.commandsTheTerminal(line), "a bad warning: \(line.debugDescription)")
        }
    }
}
