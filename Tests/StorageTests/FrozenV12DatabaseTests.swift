import Foundation
import GRDB
@testable import Storage
import Sync
import Testing

/// A database made by a build of schema v12 (`Fixtures/before-v13/make-v12-fixture.py`, run once
/// with the release build of commit 4c67bfb): a laptop with games in every state, two players,
/// games fetched from another machine, marks, bookmarks, the cloud's system fields, a synced game
/// deleted (its deletions queued) and changes still waiting to be sent. Migration v13 keeps each
/// record's name once; after it, every row reads the same, the queue holds the same changes and
/// each player's export is the one that build wrote.
@Suite struct FrozenV12DatabaseTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/before-v13")

    /// A copy of the frozen file in a folder of its own, so the test never changes the fixture.
    static func copy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qk-v12-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture.appendingPathComponent(AppDatabase.fileName),
                                         to: folder.appendingPathComponent(AppDatabase.fileName))
        return folder
    }

    /// Every row of `table` in a fixed order (of the settings, all but the one opening a file
    /// writes: which file passed its check).
    static func rows(_ db: Database, _ table: String) throws -> [Row] {
        let names = try db.columns(in: table).map(\.name).joined(separator: ", ")
        let skipped = table == "setting" ? "WHERE key != '\(Damage.checkedKey)'" : ""
        return try Row.fetchAll(db, sql: "SELECT * FROM \(table) \(skipped) ORDER BY \(names)")
    }

    /// Tables v13 leaves as they were.
    static let untouched = ["setting", "device", "player", "pack", "packWord", "mark", "bookmark", "gameChange", "markChange",
                            "bookmarkChange", "recordDeletion", "syncState", "zoneToken", "orphanRecord"]

    static let gameColumns = "id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, finishedAt, startedOn, lastChangedOn, hard, hints, daily, assist"
    static let guessColumns = "gameId, word, position, common, inPlace, inWord, playedAt, playedOn"

    @Test func everyGameGuessQueuedChangeAndRemoteRecordReadsTheSameAfterV13() throws {
        let folder = try Self.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(AppDatabase.fileName).path

        // What the v12 file holds, read as it is.
        struct Before {
            var tables: [String: [Row]] = [:]
            var games: [Row] = []
            var gamesUploaded: [String: Bool] = [:]
            /// Each uploaded game's system fields, as its row in `remoteRecord` kept them.
            var gameFields: [String: Data] = [:]
            /// The rest of `remoteRecord`: marks' and bookmarks'.
            var otherRemoteRecords: [Row] = []
            var guesses: [Row] = []
            var guessesUploaded: [String] = []
            var unsentGuesses = 0
            var deletions: [String] = []
        }
        let before = try DatabaseQueue(path: path).read { db in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").last == "v12: a game's help level")
            var before = Before()
            for table in Self.untouched { before.tables[table] = try Self.rows(db, table) }
            before.games = try Row.fetchAll(db, sql: "SELECT \(Self.gameColumns) FROM game ORDER BY id")
            for row in try Row.fetchAll(db, sql: "SELECT id, remoteRecordName FROM game") {
                before.gamesUploaded[row["id"]] = (row["remoteRecordName"] as String?) != nil
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT g.id, r.systemFields FROM game g JOIN remoteRecord r ON r.playerId = g.playerId AND r.recordName = g.remoteRecordName
                """) {
                before.gameFields[row["id"]] = row["systemFields"]
            }
            before.otherRemoteRecords = try Row.fetchAll(db, sql: """
                SELECT * FROM remoteRecord r WHERE NOT EXISTS (SELECT 1 FROM game g WHERE g.playerId = r.playerId AND g.remoteRecordName = r.recordName)
                ORDER BY playerId, recordName
                """)
            before.guesses = try Row.fetchAll(db, sql: "SELECT \(Self.guessColumns) FROM guess ORDER BY gameId, word")
            before.guessesUploaded = try String.fetchAll(db, sql: "SELECT remoteRecordName FROM guess WHERE remoteRecordName IS NOT NULL ORDER BY 1")
            before.unsentGuesses = try Int.fetchOne(db, sql: "SELECT count(*) FROM guess WHERE remoteRecordName IS NULL") ?? 0
            before.deletions = try String.fetchAll(db, sql: "SELECT recordName FROM recordDeletion ORDER BY recordName")
            return before
        }
        // The history the fixture was made to hold, so the comparisons below compare something.
        #expect(Set(before.games.map { $0["status"] as String }) == ["in-progress", "won", "lost", "gave-up"])
        #expect(before.gamesUploaded.values.contains(true) && before.gamesUploaded.values.contains(false))
        #expect(!before.guessesUploaded.isEmpty && before.unsentGuesses > 0 && !before.deletions.isEmpty)
        #expect(!before.gameFields.isEmpty && !before.otherRemoteRecords.isEmpty && !(before.tables["gameChange"] ?? []).isEmpty)
        #expect(!(before.tables["markChange"] ?? []).isEmpty && !(before.tables["bookmarkChange"] ?? []).isEmpty)

        let database = try AppDatabase.open(dataDir: folder)
        try database.writer.read { db in
            for table in Self.untouched { #expect(try Self.rows(db, table) == before.tables[table], "\(table)") }
            #expect(try Row.fetchAll(db, sql: "SELECT \(Self.gameColumns) FROM game ORDER BY id") == before.games)
            // A game's system fields are in its row: those kept before, NULL for a game never uploaded.
            for row in try Row.fetchAll(db, sql: "SELECT id, systemFields FROM game") {
                let id: String = row["id"], fields: Data? = row["systemFields"]
                #expect(fields == (before.gamesUploaded[id] == true ? before.gameFields[id] ?? Data() : nil), "game \(id)")
            }
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM remoteRecord ORDER BY playerId, recordName") == before.otherRemoteRecords)
            #expect(try Row.fetchAll(db, sql: "SELECT \(Self.guessColumns) FROM guess ORDER BY gameId, word") == before.guesses)
            let uploaded = try Row.fetchAll(db, sql: "SELECT gameId, word FROM guess WHERE uploaded").map { CloudSchema().guess(gameID: $0[0], word: $0[1]) }
            #expect(uploaded.sorted() == before.guessesUploaded)
            #expect(try db.foreignKeyViolations().next() == nil)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }

        for player in ["player", "sam"] {
            let device = try #require(try database.writer.read { db in try DeviceRecord.filter(Column("isLocal") == true).fetchOne(db) })
            let games = database.player(Profile(playerID: player, device: device))
            // Each player's games and reading list as that build exported them.
            let exported = try JSONDecoder().decode(ExportDocument.self, from: Data(contentsOf: Self.fixture.appendingPathComponent("export-\(player).json")))
            let now = try games.exportDocument(cloudDir: nil)
            #expect(now.games == exported.games, "\(player)'s games")
            #expect(now.readingList == exported.readingList, "\(player)'s reading list")
        }

        // The queue holds what it held: the same deletions by name, the guesses never sent.
        let device = try #require(try database.writer.read { db in try DeviceRecord.filter(Column("isLocal") == true).fetchOne(db) })
        let player = database.player(Profile(playerID: "player", device: device))
        let queue = try player.outgoingChanges(naming: CloudSchema())
        let sam = try database.player(Profile(playerID: "sam", device: device)).outgoingChanges(naming: CloudSchema())
        #expect((queue.deletions + sam.deletions).map(\.recordName).sorted() == before.deletions)
        #expect(queue.guesses.count + sam.guesses.count == before.unsentGuesses)
        #expect(!queue.games.isEmpty && queue.games.allSatisfy { game in
            !game.isNew || before.gamesUploaded[game.game.id] == false
        })
    }

    /// After v13 a synced game deleted queues the deletion of every record the cloud has of it,
    /// its guesses named from their game and word, as v12 queued them by the names it kept.
    @Test func aSyncedGameDeletedAfterV13QueuesTheSameNamesAsBefore() throws {
        let folder = try Self.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(AppDatabase.fileName).path
        let (game, names) = try DatabaseQueue(path: path).read { db in
            let game = try #require(try String.fetchOne(db, sql: """
                SELECT id FROM game WHERE playerId = 'player' AND status != 'in-progress' AND remoteRecordName IS NOT NULL
                  AND EXISTS (SELECT 1 FROM guess WHERE gameId = game.id AND remoteRecordName IS NOT NULL) ORDER BY id LIMIT 1
                """))
            let names = try String.fetchAll(db, sql: """
                SELECT recordName FROM remoteRecord WHERE playerId = 'player' AND gameId = ?
                UNION SELECT remoteRecordName FROM guess WHERE gameId = ? AND remoteRecordName IS NOT NULL
                """, arguments: [game, game])
            return (game, names)
        }
        let database = try AppDatabase.open(dataDir: folder)
        let device = try #require(try database.writer.read { db in try DeviceRecord.filter(Column("isLocal") == true).fetchOne(db) })
        let player = database.player(Profile(playerID: "player", device: device))
        let queued = Set(try player.outgoingChanges(naming: CloudSchema()).deletions.map(\.recordName))
        try player.deleteGame(id: game)
        let after = Set(try player.outgoingChanges(naming: CloudSchema()).deletions.map(\.recordName))
        #expect(after.subtracting(queued) == Set(names).subtracting(queued))
        #expect(names.count > 1)
    }
}
