import Foundation
import GRDB
import GRDBSQLite

/// One row for a prepared insert, bound value by value with SQLite's own calls. A full fetch
/// of 10,000 games inserts about 95,000 rows (games, guesses, the games' system fields); building
/// GRDB's argument arrays for each cost more than SQLite's own work (docs/performance.md).
///
/// The statement comes from `Database.cachedStatement` (or `makeStatement`) and runs inside
/// GRDB's transaction. It is reset after each row; its bindings stay until the next row binds
/// every value again. Bind the values in column order with `bind`, then `run`. The benchmark's
/// floor inserts through it too, so both pay the same.
///
/// A query binds the same way and reads its rows with `step` and the column readers: a fetch
/// settles thousands of games, one read each, with no argument array and no `Row` per read.
public struct RowInsert {
    private let statement: Statement
    private var index: CInt = 0
    private let scratch: Scratch?
    /// Where this row's values begin in the scratch, and whether any value is bound from it.
    private let scratchStart: Int
    private var boundFromScratch = false

    /// With a scratch, texts and blobs are bound from a copy in it (see `Scratch`).
    ///
    /// The statement is reset first. A cached statement is shared by every use of its SQL on
    /// the connection, and GRDB leaves one it ran at its end, not reset: SQLite refuses every
    /// binding of it until a reset, and its next step resets it and runs with the bindings it
    /// had (none after GRDB's `execute(arguments:)`). A game deletion fetched by a process that
    /// had once dropped a game through GRDB ran as `id = NULL` and deleted nothing (found by
    /// the simulation, seed 8563, only after the seeds its worker had run before).
    public init(_ statement: Statement, scratch: Scratch? = nil) {
        self.statement = statement
        self.scratch = scratch
        scratchStart = scratch?.used ?? 0
        sqlite3_reset(statement.sqliteStatement)
    }

    /// Room for the texts and blobs of one row at a time, reused row after row. SQLite then
    /// reads a value where it is, where a value it must copy costs it an allocation and a
    /// free each (a first sync binds several hundred thousand: docs/performance.md). A value
    /// that does not fit is copied by SQLite as usual. The statement's bindings are cleared
    /// once the row is in, so SQLite never keeps a pointer into the scratch past the row.
    /// One scratch serves one thread, and one row at a time.
    public final class Scratch {
        private let base: UnsafeMutableRawPointer
        private let capacity: Int
        fileprivate var used = 0

        public init(capacity: Int = 16 * 1024) {
            self.capacity = capacity
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }

        deinit { base.deallocate() }

        /// A copy of the bytes kept until the row is in, or nil when they do not fit.
        fileprivate func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
            guard bytes.count <= capacity - used else { return nil }
            let start = base + used
            if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
            used += bytes.count
            return UnsafeRawPointer(start)
        }
    }

    /// SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// SQLite reads the bytes where they are, until the statement is reset and its bindings cleared.
    private static let kept: sqlite3_destructor_type? = nil

    /// Text as GRDB stores it: up to the first NUL byte, if any (GRDB binds C strings).
    public mutating func bind(_ text: String) {
        index += 1
        var text = text
        let code = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty string is text, not NULL: it still needs a pointer.
                guard let start = chars.baseAddress else { return sqlite3_bind_text(statement.sqliteStatement, index, "", 0, Self.transient) }
                let length = memchr(start, 0, chars.count).map { start.distance(to: $0.assumingMemoryBound(to: CChar.self)) } ?? chars.count
                if let copy = keep(UnsafeRawBufferPointer(start: start, count: length)) {
                    return sqlite3_bind_text(statement.sqliteStatement, index, copy.assumingMemoryBound(to: CChar.self), CInt(length), Self.kept)
                }
                return sqlite3_bind_text(statement.sqliteStatement, index, start, CInt(length), Self.transient)
            }
        }
        bound(code)
    }

    public mutating func bind(_ text: String?) {
        guard let text else { return bindNull() }
        bind(text)
    }

    public mutating func bind(_ number: Int) {
        index += 1
        bound(sqlite3_bind_int64(statement.sqliteStatement, index, Int64(number)))
    }

    public mutating func bind(_ number: Int64) { bind(Int(number)) }

    public mutating func bind(_ number: Int64?) {
        guard let number else { return bindNull() }
        bind(number)
    }

    public mutating func bind(_ number: Int?) {
        guard let number else { return bindNull() }
        bind(number)
    }

    public mutating func bind(_ data: Data) {
        index += 1
        let code = data.withUnsafeBytes { bytes in
            if !bytes.isEmpty, let copy = keep(bytes) {
                return sqlite3_bind_blob(statement.sqliteStatement, index, copy, CInt(bytes.count), Self.kept)
            }
            return sqlite3_bind_blob(statement.sqliteStatement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), CInt(bytes.count), Self.transient)
        }
        bound(code)
    }

    /// The bytes copied into the scratch (if there is one and they fit), marked to be cleared.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard let copy = scratch?.keep(bytes) else { return nil }
        boundFromScratch = true
        return copy
    }

    /// After a reset: bindings that point into the scratch are cleared, and its room is free again.
    private mutating func release() {
        index = 0
        guard let scratch else { return }
        if boundFromScratch { sqlite3_clear_bindings(statement.sqliteStatement) }
        boundFromScratch = false
        scratch.used = scratchStart
    }

    /// A value as GRDB read it from a row.
    public mutating func bind(_ value: DatabaseValue) {
        switch value.storage {
        case .null: bindNull()
        case .int64(let number): bind(Int(number))
        case .double(let number):
            index += 1
            bound(sqlite3_bind_double(statement.sqliteStatement, index, number))
        case .string(let text): bind(text)
        case .blob(let data): bind(data)
        }
    }

    private mutating func bindNull() {
        index += 1
        bound(sqlite3_bind_null(statement.sqliteStatement, index))
    }

    /// A binding SQLite refused is this code's mistake (a statement not reset, an index past
    /// its parameters), never the data's: stopped here as GRDB stops, not run with what the
    /// statement held before.
    private func bound(_ code: CInt) {
        precondition(code == SQLITE_OK, "SQLite refused binding \(index) of \(statement.sql) (code \(code))")
    }

    /// For a query: moves to its next row (true) or to its end (false, and the statement is
    /// reset for the next use). Stopping before the end needs `reset`. An error throws GRDB's
    /// `DatabaseError`, as a GRDB fetch would.
    mutating func step(_ db: Database) throws -> Bool {
        let handle = statement.sqliteStatement
        precondition(index == sqlite3_bind_parameter_count(handle), "a query binds every argument")
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        var message: String?, failure = code
        if code != SQLITE_DONE, let connection = db.sqliteConnection {
            failure = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        }
        reset()
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: failure), message: message, sql: statement.sql)
        }
        return false
    }

    /// Ends a query early, so the statement can be bound again.
    mutating func reset() {
        sqlite3_reset(statement.sqliteStatement)
        release()
    }

    /// Column `column` (from 0) of the current row, as an integer (0 for NULL).
    func integer(_ column: CInt) -> Int64 { sqlite3_column_int64(statement.sqliteStatement, column) }

    func isNull(_ column: CInt) -> Bool { sqlite3_column_type(statement.sqliteStatement, column) == SQLITE_NULL }

    /// Column `column` (from 0) of the current row, as text ("" for NULL).
    func text(_ column: CInt) -> String {
        let handle = statement.sqliteStatement
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    /// Column `column` (from 0) of the current row, as GRDB would read it.
    func value(_ column: CInt) -> DatabaseValue {
        switch sqlite3_column_type(statement.sqliteStatement, column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: integer(column).databaseValue
        case SQLITE_FLOAT: sqlite3_column_double(statement.sqliteStatement, column).databaseValue
        case SQLITE_BLOB: blob(column).databaseValue
        default: text(column).databaseValue
        }
    }

    /// Column `column` (from 0) of the current row, as bytes (empty for NULL).
    func blob(_ column: CInt) -> Data {
        let handle = statement.sqliteStatement
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// Inserts the bound row, then clears the statement for the next one. A refused row (a
    /// constraint, a full disk) throws GRDB's `DatabaseError`, as a GRDB execute would.
    public mutating func run(_ db: Database) throws {
        let handle = statement.sqliteStatement
        precondition(index == sqlite3_bind_parameter_count(handle), "a row binds every column of its insert")
        var code = sqlite3_step(handle)
        var message: String?
        if code != SQLITE_DONE, let connection = db.sqliteConnection {
            code = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        }
        // No need to clear the bindings (the next row binds every column again), unless they
        // point into the scratch.
        sqlite3_reset(handle)
        release()
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }
}
