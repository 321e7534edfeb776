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
        try Migrations.migrator.migrate(database)
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
}
