import Foundation
import GRDB
@testable import Storage
import Testing

/// Each migration upgrades a database an earlier build made, keeping what it holds.
@Suite struct MigrationTests {
    /// v4 rebuilds the system-field table keyed by (player, record name) alone: every row but a
    /// guess's stays as it was, in whatever encoding an earlier build wrote, and the table still
    /// cascades. A guess's row goes: the guess row's `remoteRecordName` is what is kept of it.
    @Test func v4KeepsEveryChangingRecordsSystemFieldsAndDropsGuesses() throws {
        let database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: "PRAGMA foreign_keys = ON") }
        try Migrations.migrator.migrate(database, upTo: "v3: indexes for large histories")
        let json = Data(#"{"changeTag":"1795341135595.00000-a","createdAt":{"counter":0,"millis":1},"createdBy":"a","modifiedAt":{"counter":0,"millis":1795341135595},"modifiedBy":"a"}"#.utf8)
        var rows: [(String, String, String, Data)] = []
        for n in 0..<300 {
            let player = n % 3 == 0 ? "other" : "player", zone = n % 2 == 0 ? "Games" : "ReadingList"
            let fields: Data = n % 5 == 0 ? Data("\(n).00000 a".utf8) : json
            rows.append((player, "record-\(n)", zone, fields))
        }
        try database.write { db in
            for player in ["player", "other"] {
                try db.execute(sql: "INSERT INTO player (id, createdAt) VALUES (?, '2026-11-22 00:00:00.000')", arguments: [player])
            }
            for row in rows {
                try db.execute(sql: "INSERT INTO remoteRecord (playerId, recordName, zone, systemFields) VALUES (?, ?, ?, ?)",
                               arguments: [row.0, row.1, row.2, row.3])
            }
            // A game with an uploaded guess, an unsent one and a mark, each with system fields as an earlier build kept them.
            let game = "00000000-0000-4000-8000-000000000001"
            try db.execute(sql: """
                INSERT INTO game (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, startedOn, lastChangedOn, remoteRecordName)
                VALUES (?, 'player', 'animals', 'tiger', 'fact', 'classic', 15, 'in-progress', '2026-11-22 00:00:00.000', '2026-11-22 00:00:00.000', 'a', 'a', ?)
                """, arguments: [game, game])
            for (word, uploaded) in [("crane", true), ("pilot", false)] {
                let name = "\(game)-\(word)"
                try db.execute(sql: """
                    INSERT INTO guess (id, gameId, position, word, common, playedAt, playedOn, remoteRecordName)
                    VALUES (?, ?, 1, ?, 1, '2026-11-22 00:00:00.000', 'a', ?)
                    """, arguments: [name, game, word, uploaded ? name : nil])
            }
            for name in [game, "\(game)-crane", "\(game)-mark-q"] {
                try db.execute(sql: "INSERT INTO remoteRecord (playerId, recordName, zone, systemFields) VALUES ('player', ?, 'Games', ?)",
                               arguments: [name, json])
            }
            rows.append(("player", game, "Games", json))
            rows.append(("player", "\(game)-mark-q", "Games", json))
        }
        try Migrations.migrator.migrate(database, upTo: "v12: a game's help level")
        try database.write { db in
            let kept = try Row.fetchAll(db, sql: "SELECT playerId, recordName, zone, systemFields FROM remoteRecord ORDER BY playerId, recordName")
            let expected = rows.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            #expect(kept.count == expected.count)
            for (row, want) in zip(kept, expected) {
                let player: String = row[0], name: String = row[1], zone: String = row[2], fields: Data = row[3]
                #expect(player == want.0 && name == want.1 && zone == want.2 && fields == want.3)
            }
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'remoteRecord'") ?? ""
            #expect(sql.contains("WITHOUT ROWID"))
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO remoteRecord (playerId, recordName, zone, systemFields) VALUES ('player', 'record-1', 'Games', x'00')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO remoteRecord (playerId, recordName, zone, systemFields) VALUES ('nobody', 'record-1', 'Games', x'00')")
            }
            try db.execute(sql: "DELETE FROM player WHERE id = 'other'")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM remoteRecord") == rows.filter { $0.0 == "player" }.count)
            #expect(try String.fetchAll(db, sql: "SELECT remoteRecordName FROM guess WHERE remoteRecordName IS NOT NULL") == ["00000000-0000-4000-8000-000000000001-crane"])
            #expect(try db.foreignKeyViolations().next() == nil)
        }
    }

    /// v10 rebuilds the game table with its status checked value by value: every game, with
    /// its guesses, marks and queued changes, is kept as it was, the same statuses are allowed
    /// and no other, deleting a game still takes what belongs to it, and inserting a game no
    /// longer builds a table of the statuses.
    @Test func v10KeepsEveryGameAndChecksItsStatusWithoutATablePerInsert() throws {
        let database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: "PRAGMA foreign_keys = ON") }
        try Migrations.migrator.migrate(database, upTo: "v9: a first upload written as a snapshot, noted while it is made")
        let statuses = ["in-progress", "won", "lost", "gave-up"]
        try database.write { db in
            try db.execute(sql: "INSERT INTO player (id, createdAt) VALUES ('player', 1)")
            for n in 0..<40 {
                let id = String(format: "00000000-0000-4000-8000-%012d", n), status = statuses[n % 4]
                try db.execute(sql: """
                    INSERT INTO game (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, finishedAt,
                                      startedOn, lastChangedOn, remoteRecordName, hard, hints, daily)
                    VALUES (?, 'player', 'animals', 'tiger', ?, ?, ?, ?, ?, ?, ?, 'laptop', 'desk', ?, ?, ?, ?)
                    """, arguments: [id, "fact \(n)", n % 3 == 0 ? "mastermind" : "classic", 6 + n % 10, status, 1_000 * n, 2_000 * n,
                                     status == "in-progress" ? nil : 3_000 * n, n % 2 == 0 ? id : nil, n % 5 == 0, n % 7 == 0 ? "0,2" : "",
                                     n % 6 == 0 ? "2026-11-\(10 + n % 20)" : nil])
                try db.execute(sql: """
                    INSERT INTO guess (id, gameId, position, word, common, playedAt, playedOn, remoteRecordName)
                    VALUES (?, ?, 1, 'crane', 1, ?, 'laptop', NULL)
                    """, arguments: ["\(id)-crane", id, 1_000 * n])
                try db.execute(sql: "INSERT INTO mark (gameId, letter, state, markedAt) VALUES (?, 'q', 'out', 1)", arguments: [id])
                if n % 4 == 1 { try db.execute(sql: "INSERT INTO gameChange (gameId, changedFields) VALUES (?, 'status')", arguments: [id]) }
            }
        }
        let games = "SELECT * FROM game ORDER BY id"
        let before = try database.read { db in try Row.fetchAll(db, sql: games) }
        try Migrations.migrator.migrate(database, upTo: "v10: a game's status checked without a table per insert")
        try database.write { db in
            #expect(try Row.fetchAll(db, sql: games) == before)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM guess") == 40)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM mark") == 40)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM gameChange") == 10)
            #expect(try db.foreignKeyViolations().next() == nil)
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game' AND sql IS NOT NULL ORDER BY name")
            #expect(indexes == ["game_player_daily", "game_player_finished", "game_player_pack_secret", "game_player_started", "game_player_status", "game_unsynced"])
            // The same statuses, and only they.
            let insert = """
                INSERT INTO game (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, finishedAt, startedOn, lastChangedOn)
                VALUES (?, 'player', 'animals', 'tiger', 'fact', 'classic', 6, ?, 1, 1, ?, 'a', 'a')
                """
            for status in statuses {
                try db.execute(sql: insert, arguments: ["new-\(status)", status, status == "in-progress" ? nil : 1])
            }
            for status in ["WON", "drawn", ""] {
                #expect(throws: DatabaseError.self) { try db.execute(sql: insert, arguments: ["bad-\(status)", status, 1]) }
            }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE game SET status = 'paused' WHERE id = 'new-won'") }
            // Deleting a game still takes its guesses, marks and queued change.
            let first = String(format: "00000000-0000-4000-8000-%012d", 1)
            try db.execute(sql: "DELETE FROM game WHERE id = ?", arguments: [first])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM guess WHERE gameId = ?", arguments: [first]) == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM mark WHERE gameId = ?", arguments: [first]) == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM gameChange WHERE gameId = ?", arguments: [first]) == 0)
            // The insert's program compares the status; it opens no table of its own.
            let program = try Row.fetchAll(db, sql: "EXPLAIN " + insert, arguments: ["x", "won", 1]).map { $0["opcode"] as String }
            #expect(program.contains("Insert"))
            #expect(!program.contains("OpenEphemeral"))
        }
    }

    /// v12: games from before help levels are the coach's (its count was on their board), and
    /// each player's next games take the new standard level.
    @Test func v12GivesOldGamesTheCoachAndPlayersTheStandardLevel() throws {
        let database = try DatabaseQueue()
        try Migrations.migrator.migrate(database, upTo: "v11: stored texts a terminal would obey shown as visible escapes")
        try database.write { db in
            try db.execute(sql: "INSERT INTO player (id, createdAt) VALUES ('player', 1), ('sam', 1)")
            try db.execute(sql: """
                INSERT INTO game (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, finishedAt, startedOn, lastChangedOn)
                VALUES ('g', 'player', 'animals', 'tiger', 'fact', 'classic', 15, 'won', 1, 1, 1, 'a', 'a')
                """)
        }
        try Migrations.migrator.migrate(database)
        try database.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "SELECT assist FROM game WHERE id = 'g'") == "coach")
            #expect(try AppDatabase.assist("player", db) == .proven, "the level chosen at the migration is newer than the old game")
            #expect(try AppDatabase.assist("sam", db) == .proven)
            #expect(try AppDatabase.assist("nobody", db) == .standard)
        }
        try database.write { (db: Database) throws in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE game SET assist = 'everything' WHERE id = 'g'") }
        }
    }
}
