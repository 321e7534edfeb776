import CloudStore
import Foundation
import QiktionaryCore
import Storage
@testable import Sync
import TestSupport
import Testing

/// The shared zone's records (Player, Match, MatchPlay, MatchDecline, Standing), fuzzed: valid
/// records of each type with fields changed, dropped, retyped or filled with hostile text, and
/// records of no type, written into another player's shared zone. The reader must not crash,
/// must tell each refusal in one line, and must keep only what Core's checks accept.
@Suite struct SharedRecordFuzzTests {
    static let batches = 2
    static let casesPerBatch = Fuzz.count(300)

    @Test(arguments: 0..<batches)
    func fuzzedSharedRecordsAreRefusedInOneLineOrKeptOnlyWhenPossible(batch: Int) throws {
        let seed = Fuzz.seed(kind: 26, batch: batch)
        let start = Date()
        defer { Fuzz.report("shared", batch: batch, cases: Self.casesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        let folder = MemoryFolder()
        let player = try Fuzz.anasLaptop()
        let profile = player.profile
        let own = try FolderCloudDatabase.inMemory(folder, player: "ana", device: DeviceID(profile.device.id))
        let writer = try FolderCloudDatabase.inMemory(folder, player: "ben", device: DeviceID("mallory"))
        try writer.createZone(CloudSchema.sharedZone)
        let pack = try #require(try player.storedPacks().first { $0.words.count >= 3 })
        var generator = SeededGenerator(seed: seed)
        let match = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                                   lexicon: Fuzz.lexicon, using: &generator)
        let bases: [SharedRecord] = [
            .player(name: "ben", joinedAt: Date(timeIntervalSince1970: 1_800_000_000)),
            .match(match),
            .play(MatchPlay.Fields(match: match.id, player: "ben", game: 1, status: "won", guesses: 2, hints: 0, assist: "proven",
                                   grid: match.rules == .classic ? "2,\(match.length)" : "1+2,\(match.length)+0")),
            .play(MatchPlay.Fields(match: match.id, player: "ben", game: 2, status: "in-progress", guesses: 1)),
            .decline(matchID: match.id),
            .standing(device: "pc", Standing(tallies: [.proven: .init(games: 3, wins: 2, winGuesses: 7)], bestDailyStreak: 1,
                                             days: try Standing.days(lines: [Self.dayLine]))),
        ]
        // The honest match arrives first, so plays are checked against it.
        _ = try writer.modifyRecords(in: CloudSchema.sharedZone, saving: [CloudSchema.record(.match(match), device: "pc")], deleting: [],
                                     policy: .overwrite)
        for index in 0..<Self.casesPerBatch {
            let label = Fuzz.label(seed, index)
            var record = CloudSchema.record(rng.pick(bases), device: "mallory")
            Self.damage(&record, &rng)
            // A record the store itself refuses to write (an empty or huge name) never reaches a reader.
            guard (try? writer.modifyRecords(in: CloudSchema.sharedZone, saving: [record], deleting: [], policy: .overwrite)) != nil else { continue }
            var lines: [String] = []
            let collected = LockedLines()
            var zone = SharedZone(player: player, cloud: own)
            zone.warnings = { collected.append($0.description) }
            try Fuzz.bounded(label) { _ = try zone.read() }
            lines = collected.all
            for line in lines {
                #expect(!Fuzz.spansLines(line) && !Fuzz.commandsTheTerminal(line), "\(label) a bad warning: \(line.debugDescription)")
            }
            // Whatever was kept passes Core's checks.
            for kept in try player.keptMatches() { #expect(kept == match, "\(label) a match changed") }
            for fields in try player.plays(ofMatch: match.id) {
                #expect((try? MatchPlay(checking: fields, in: match, publishedBy: fields.player)) != nil, "\(label) an impossible play kept")
            }
            for (_, line) in try player.standings() { #expect((try? line.check()) != nil, "\(label) an impossible line kept") }
            #expect(try player.history().isEmpty, "\(label) a shared record reached the player's games")
        }
    }

    /// A daily result as it travels.
    static let dayLine = "2026-11-20 won 3 0 proven"

    /// One change to a record: a field dropped, retyped, set to a random number or hostile text;
    /// the record's type or name changed.
    static func damage(_ record: inout CloudRecord, _ rng: inout SeededGenerator) {
        let keys = record.fields.keys.sorted()
        for _ in 0..<rng.int(1...3) {
            let key = rng.pick(keys)
            switch rng.int(0...7) {
            case 0: record.fields[key] = nil
            case 1: record.fields[key] = .int(Int64(rng.int(-1_000...1_000)))
            case 2: record.fields[key] = .int(Int64.random(in: .min ... .max, using: &rng))
            case 3: record.fields[key] = .string(rng.unicodeString(rng.length(upTo: 20, rarely: 400)))
            case 4: record.fields[key] = .string(rng.hostileName())
            case 5: record.fields[key] = .strings((0..<rng.int(0...100)).map { _ in rng.byteString(rng.int(0...12)) })
            case 6: record.recordType = rng.pick([CloudSchema.player, CloudSchema.match, CloudSchema.matchPlay, CloudSchema.matchDecline,
                                                  CloudSchema.standing, "Game", rng.hostileName()])
            default: record.recordName = rng.chance(0.5) ? rng.hostileName() : rng.mutate(record.recordName)
            }
        }
    }
}

/// Warning lines collected from the reader.
final class LockedLines: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

extension Fuzz {
    /// Ana's player on her laptop, in a database of its own holding the shipped packs: the
    /// player whose folders the shared-record fuzz targets write into.
    static func anasLaptop() throws -> PlayerDatabase {
        let database = try AppDatabase.inMemory()
        _ = try database.importPacks(from: Fuzz.packFiles, lexicon: { Fuzz.lexicon })
        return database.player(try database.profile(player: "ana", device: "laptop", hostName: "laptop"))
    }
}
