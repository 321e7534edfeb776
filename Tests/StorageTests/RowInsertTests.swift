import Foundation
import GRDB
import GRDBSQLite
import Storage
import Testing

/// Rows bound through SQLite's own calls read back as GRDB would have stored them, and a refused
/// row fails as a GRDB execute fails, leaving the statement ready for the next row.
@Suite struct RowInsertTests {
    /// No scratch; one with room for every value; one too small for the long ones (those are
    /// then copied by SQLite as without a scratch).
    @Test(arguments: [nil, 16 * 1024, 40])
    func everyKindOfValueReadsBackAsBound(scratchSize: Int?) throws {
        let database = try DatabaseQueue()
        let scratch = scratchSize.map { RowInsert.Scratch(capacity: $0) }
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, text TEXT, maybe TEXT, number INTEGER, blob BLOB, real REAL)")
            let statement = try db.makeStatement(sql: "INSERT INTO t (n, text, maybe, number, blob, real) VALUES (?, ?, ?, ?, ?, ?)")
            let texts = ["", "plain", "é😀 and \u{0} inside", String(repeating: "long ", count: 500)]
            for (n, text) in texts.enumerated() {
                var insert = RowInsert(statement, scratch: scratch)
                insert.bind(n)
                insert.bind(text)
                insert.bind(n % 2 == 0 ? nil : text as String?)
                insert.bind(n % 2 == 0 ? Int.min + n : nil as Int?)
                insert.bind(Data(text.utf8))
                insert.bind(DatabaseValue(value: Double(n) / 3)!)
                try insert.run(db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT text, maybe, number, blob, real, typeof(text), length(CAST(text AS BLOB)) FROM t ORDER BY n")
            #expect(rows.count == texts.count)
            for (n, row) in rows.enumerated() {
                // Text as GRDB itself would store it: up to a NUL byte.
                let stored = String(texts[n].prefix { $0 != "\u{0}" })
                #expect(row[0] as String == stored)
                #expect(row[6] as Int == stored.utf8.count)
                #expect(row[1] as String? == (n % 2 == 0 ? nil : stored))
                #expect(row[2] as Int? == (n % 2 == 0 ? Int.min + n : nil))
                #expect(row[3] as Data == Data(texts[n].utf8))
                #expect(row[4] as Double == Double(n) / 3)
                #expect(row[5] as String == "text")
            }
            // An empty blob and an empty text are values, not NULL.
            #expect(try String.fetchOne(db, sql: "SELECT typeof(blob) FROM t WHERE n = 0") == "blob")
        }
    }

    /// Once a row bound from the scratch is in, the statement points into it no more: run
    /// again as it is, it inserts NULLs, not whatever the scratch holds by then.
    @Test func aRowFromTheScratchLeavesNoBindingBehind() throws {
        let database = try DatabaseQueue()
        let scratch = RowInsert.Scratch()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (text TEXT, blob BLOB)")
            let statement = try db.makeStatement(sql: "INSERT INTO t (text, blob) VALUES (?, ?)")
            var insert = RowInsert(statement, scratch: scratch)
            insert.bind("a text long enough to be kept apart from the string")
            insert.bind(Data("some bytes".utf8))
            try insert.run(db)
            #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_DONE)
            sqlite3_reset(statement.sqliteStatement)
            let rows = try Row.fetchAll(db, sql: "SELECT text, blob FROM t ORDER BY rowid")
            #expect(rows.count == 2)
            #expect(rows[0][0] as String? == "a text long enough to be kept apart from the string")
            #expect(rows[0][1] as Data? == Data("some bytes".utf8))
            #expect(rows[1][0] as String? == nil)
            #expect(rows[1][1] as Data? == nil)
        }
    }

    /// One cached statement serves GRDB and this type alike: after GRDB ran it with arguments
    /// (leaving it at its end, its bindings cleared), a row bound here runs with its own values,
    /// not as `id = NULL` (the simulation's seed 8563: a fetched game deletion deleted nothing).
    @Test func aStatementGRDBRanLastTakesTheRowBoundHere() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT, player TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('a', 'ann'), ('b', 'ann'), ('c', 'bob')")
            let sql = "DELETE FROM t WHERE id = ? AND player = ?"
            try db.cachedStatement(sql: sql).execute(arguments: ["a", "ann"])
            #expect(db.changesCount == 1)
            var delete = RowInsert(try db.cachedStatement(sql: sql))
            delete.bind("b")
            delete.bind("ann")
            try delete.run(db)
            #expect(db.changesCount == 1)
            #expect(try String.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") == ["c"])
        }
    }

    @Test func textIsStoredExactlyAsGRDBStoresIt() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (source TEXT, text TEXT)")
            var insert = RowInsert(try db.makeStatement(sql: "INSERT INTO t (source, text) VALUES ('fast', ?)"))
            for text in ["", "a", "é😀", "nul\u{0}after", "\u{0}", "tab\there"] {
                insert.bind(text)
                try insert.run(db)
                try db.execute(sql: "INSERT INTO t (source, text) VALUES ('grdb', ?)", arguments: [text])
                let stored = try Row.fetchAll(db, sql: "SELECT CAST(text AS BLOB), typeof(text) FROM t WHERE rowid > (SELECT max(rowid) - 2 FROM t)")
                #expect(stored[0][0] as Data == stored[1][0] as Data, "\(text.debugDescription)")
                #expect(stored[0][1] as String == stored[1][1] as String)
            }
        }
    }

    @Test func aRefusedRowThrowsTheConstraintAndTheNextRowGoesIn() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, size INTEGER CHECK (size > 0))")
            var insert = RowInsert(try db.makeStatement(sql: "INSERT INTO t (id, size) VALUES (?, ?)"))
            insert.bind("a")
            insert.bind(1)
            try insert.run(db)
            insert.bind("a")
            insert.bind(2)
            let duplicate = #expect(throws: DatabaseError.self) { try insert.run(db) }
            #expect(duplicate?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            insert.bind("b")
            insert.bind(0)
            let unchecked = #expect(throws: DatabaseError.self) { try insert.run(db) }
            #expect(unchecked?.resultCode == .SQLITE_CONSTRAINT)
            insert.bind("b")
            insert.bind(3)
            try insert.run(db)
            #expect(try Int.fetchOne(db, sql: "SELECT sum(size) FROM t") == 4)
        }
    }
}
