import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// The one value a game travels as (`SyncGame`): every field of it makes the whole trip, through
/// the database, a cloud record, an export and its import, a damaged file's salvage, and a
/// merge, whichever way in.
@Suite struct GameValueTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    static func at(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// Every field set, none to the value a blank game has, no two alike: a field dropped or
    /// swapped anywhere comes back as another value.
    static let full = SyncGame(
        id: DailyWord.gameID(player: "player", date: "2026-11-23"), packID: "animals", secret: "tiger", fact: "Stripes are skin deep.",
        rules: .mastermind, maxGuesses: 9, status: .won, startedAt: at(1_790_000_100_123), updatedAt: at(1_790_000_200_456),
        finishedAt: at(1_790_000_150_789), startedOn: "laptop", lastChangedOn: "desktop", hard: true, assist: .proven,
        hints: "0,2", daily: "2026-11-23", matchResult: "won 3 1 proven 1+2,0+3,5+0")

    /// What a game is before anything is said of it.
    static let blank = SyncGame(
        id: "", packID: "", secret: "", fact: "", rules: .classic, maxGuesses: 0, status: .inProgress, startedAt: at(0), updatedAt: at(0),
        finishedAt: nil, startedOn: "", lastChangedOn: "", hard: false, assist: .before, hints: "", daily: nil,
        matchResult: nil)

    /// The same game as a machine that saw less of it holds it: every field a merge settles at
    /// what the full copy beats.
    static let older: SyncGame = {
        var game = full
        game.status = .inProgress
        game.finishedAt = nil
        game.updatedAt = at(1_790_000_100_500)
        game.lastChangedOn = "laptop"
        game.hard = false
        game.assist = .noHelp
        game.hints = "0"
        game.daily = nil
        game.matchResult = "won 2 0 none 0+1,5+0"
        return game
    }()

    /// What makes the game, fixed when it starts and taken from the first copy by a merge; every
    /// other field is settled by a rule of its own, and is sent on its own when it changes.
    static let fixedAtStart: Set = ["id", "packID", "secret", "fact", "rules", "maxGuesses", "startedAt", "startedOn"]

    static func fields(_ game: SyncGame) -> [(label: String, value: String)] {
        Mirror(reflecting: game).children.map { ($0.label ?? "?", String(describing: $0.value)) }
    }

    static let systemFields: Data = {
        let device = DeviceID(validated: "cloud"), stamp = HLCTimestamp(millis: 1_790_000_000_000, counter: 0)
        return SystemFields(changeTag: "t", createdBy: device, createdAt: stamp, modifiedBy: device, modifiedAt: stamp).encoded
    }()

    func cloudCopy(_ game: SyncGame, into machine: Machine) throws {
        var incoming = IncomingChanges()
        incoming.games = [(game, Self.systemFields)]
        try machine.player.applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
    }

    @Test func everyFieldOfTheGameMakesTheWholeTrip() throws {
        let full = Self.full
        // The sample names every field of the value, each set apart from a blank game and from the others.
        let fields = Self.fields(full), blank = Self.fields(Self.blank)
        #expect(fields.map(\.label) == blank.map(\.label))
        for (field, empty) in zip(fields, blank) { #expect(field.value != empty.value, "\(field.label) is left as a blank game has it") }
        #expect(Set(fields.map(\.value)).count == fields.count, "two fields hold the same value: a swap would go unseen")
        // The copy that saw less differs from the full one in every field a merge settles: one
        // left alike would let a wrong merge rule pass. Each of those is a column sent on its own
        // when it changes (`GameField`), so a change of it reaches the other machines.
        for (field, less) in zip(fields, Self.fields(Self.older)) where !Self.fixedAtStart.contains(field.label) {
            #expect(field.value != less.value, "the older copy has \(field.label) as the full one has it: its merge goes untested")
        }
        #expect(Set(fields.map(\.label)).subtracting(Self.fixedAtStart) == Set(GameField.allCases.map(\.rawValue)),
                "the fields a merge settles are the fields sent on their own")

        // A cloud record and back.
        let record = CloudSchema.record(full, fields: nil, device: "desktop", systemFields: nil)
        #expect(CloudSchema.syncGame(record) == full)

        // Fetched into a database (the insert of a first sync), and read back as a row.
        let a = try Machine("laptop", folder: folder, shared: clock)
        try cloudCopy(full, into: a)
        #expect(try a.player.syncGame(id: full.id) == full)

        // Exported, and imported into another machine, which queues it as its own.
        let document = try a.player.exportDocument(cloudDir: nil)
        let decoded = try ExportDocument.decode(document.encoded())
        let b = try Machine("desktop", folder: folder, shared: clock)
        _ = try b.player.importDocument(decoded, lexicon: Content.lexicon)
        #expect(try b.player.syncGame(id: full.id) == full)
        let queued = try b.player.outgoingChanges(naming: CloudSchema())
        #expect(queued.games.map(\.game) == [full])
        #expect(try b.player.outgoingChanges(ofGames: [full.id], naming: CloudSchema()).games.map(\.game) == [full])

        // Saved from a damaged file: a database on disk that holds the game unsynced gives it
        // back as the same export entry.
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("qiktionary-value-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let onDisk = try AppDatabase.open(dataDir: dataDir)
        _ = try onDisk.player(onDisk.profile(player: "player", device: "laptop", hostName: "laptop")).importDocument(decoded, lexicon: Content.lexicon)
        try onDisk.close()
        let salvage = Damage.salvage(file: dataDir.appendingPathComponent(AppDatabase.fileName), player: "player", lexicon: Content.lexicon,
                                     now: Self.at(1_790_000_300_000))
        #expect(salvage.exports.first?.games == decoded.games)

        // Merged: with itself, and with a copy that saw less, either way round, in Core and as
        // sync and import write a merge back (a row updated in place).
        #expect(GameMerge.merge(full, full) == full)
        #expect(GameMerge.merge(Self.older, full) == full && GameMerge.merge(full, Self.older) == full)
        let c = try Machine("phone", folder: folder, shared: clock), d = try Machine("tablet", folder: folder, shared: clock)
        try cloudCopy(Self.older, into: c)
        try cloudCopy(full, into: c)
        #expect(try c.player.syncGame(id: full.id) == full)
        try cloudCopy(Self.older, into: d)
        _ = try d.player.importDocument(decoded, lexicon: Content.lexicon)
        #expect(try d.player.syncGame(id: full.id) == full)
    }

    /// Hard mode and the daily date, fixed when a game starts, survive a merge whichever copy
    /// has them: from the cloud, from an import into a machine that already holds the game, and
    /// kept (and sent back up) when the cloud's copy lacks them.
    @Test func aMergeKeepsHardModeAndTheDailyDate() throws {
        func kept(_ game: SyncGame?) -> Bool { game?.hard == true && game?.daily == "2026-11-23" }

        // Both ways in GameMerge.
        #expect(kept(GameMerge.merge(Self.older, Self.full)) && kept(GameMerge.merge(Self.full, Self.older)))

        // A machine that holds the copy without them fetches the one with them.
        let a = try Machine("laptop", folder: folder, shared: clock)
        try cloudCopy(Self.older, into: a)
        try cloudCopy(Self.full, into: a)
        #expect(kept(try a.player.syncGame(id: Self.full.id)))

        // A machine that holds the copy without them imports the one with them.
        let exporter = try Machine("desktop", folder: folder, shared: clock)
        try cloudCopy(Self.full, into: exporter)
        let document = try exporter.player.exportDocument(cloudDir: nil)
        let b = try Machine("phone", folder: folder, shared: clock)
        try cloudCopy(Self.older, into: b)
        let report = try b.player.importDocument(document, lexicon: Content.lexicon)
        #expect(report.gamesUpdated == 1)
        #expect(kept(try b.player.syncGame(id: Self.full.id)))
        let sent = try #require(try b.player.outgoingChanges(naming: CloudSchema()).games.first)
        #expect(sent.changedFields == Set(GameField.allCases), "what the import added goes up, every field the older copy lacked")

        // A machine that holds the copy with them fetches the one without: they stay, and go back up.
        let c = try Machine("tablet", folder: folder, shared: clock)
        try cloudCopy(Self.full, into: c)
        try cloudCopy(Self.older, into: c)
        #expect(try c.player.syncGame(id: Self.full.id) == Self.full)
        let back = try #require(try c.player.outgoingChanges(naming: CloudSchema()).games.first)
        #expect(back.changedFields.isSuperset(of: [.hard, .daily]))
    }
}
