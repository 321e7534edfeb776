import Foundation
import GRDB
import GRDBSQLite
import QiktionaryCore

/// The game's local database. Every write is named for what it does and runs in one
/// transaction, so a crash leaves either the old state or the new one.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    /// The wall clock every write is stamped with; tests and the skew hook move it.
    let clock: @Sendable () -> Date

    /// Takes a connection (a pool on disk, or a queue in memory for tests) and migrates it.
    public init(_ writer: any DatabaseWriter, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.init(migrated: writer, clock: clock)
        try Migrations.migrator.migrate(writer)
    }

    private init(migrated writer: any DatabaseWriter, clock: @escaping @Sendable () -> Date) {
        self.writer = writer
        self.clock = clock
    }

    public static let fileName = "qiktionary.sqlite"

    /// Why a folder cannot be made at `folder`, in the player's words: it, or a folder it would
    /// be in, is a file; or the nearest folder there is cannot be written. Nil when neither.
    static func whyNoFolder(at folder: URL) -> String? {
        let manager = FileManager.default
        var current = folder.standardizedFileURL
        while true {
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: current.path, isDirectory: &isFolder) {
                if !isFolder.boolValue {
                    return current.path == folder.standardizedFileURL.path ? "it is a file, not a folder" : "\(current.path) is a file, not a folder"
                }
                return manager.isWritableFile(atPath: current.path) ? nil : "\(current.path) is not writable"
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Opens (creating if needed) the database in `dataDir`. WAL lets another process read
    /// while this one writes; the busy timeout lets two writers take turns instead of failing.
    /// A damaged file is `StorageError.damaged` (see `Damage` for what is checked, and when).
    public static func open(dataDir: URL, clock: @escaping @Sendable () -> Date = { Date() }) throws(StorageError) -> AppDatabase {
        let path = dataDir.appendingPathComponent(fileName).path
        do {
            try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        } catch {
            if let why = whyNoFolder(at: dataDir) { throw .dataDirUnusable(dataDir.path, reason: why) }
            if StorageError.isDiskFull(error, folder: dataDir.path) { throw .diskFull(dataDir.path) }
            throw .dataDirUnusable(dataDir.path, reason: StorageError.describe(error))
        }
        guard FileManager.default.isWritableFile(atPath: dataDir.path) else {
            throw .dataDirUnusable(dataDir.path, reason: "it is not writable")
        }
        if let problem = Damage.headerProblem(atPath: path) { throw .damaged(path, reason: problem) }
        func failure(_ error: any Error) -> StorageError {
            if StorageError.isCorruption(error) { return .damaged(path, reason: StorageError.describe(error)) }
            if StorageError.isDiskFull(error, folder: dataDir.path) { return .diskFull(dataDir.path) }
            return .dataDirUnusable(dataDir.path, reason: StorageError.describe(error))
        }
        let checked = try Damage.checkIfNew(path: path)
        let database: AppDatabase
        do {
            // Two processes opening a new or older database at once would both run a migration
            // (the migrator reads what is applied outside its transactions): one waits here.
            database = try whileMigrationLocked(path) {
                try AppDatabase(DatabasePool(path: path, configuration: makeConfiguration()), clock: clock)
            }
        } catch where StorageError.isDiskFull(error, folder: dataDir.path) && (Damage.fileSize(path) ?? 0) > 0 {
            // Opening a pool writes (GRDB starts an empty log with a transaction of its own): on
            // a full disk what is saved is read through a read-only pool instead.
            do {
                database = try readOnly(path: path, clock: clock) ?? { throw StorageError.diskFull(dataDir.path) }()
            } catch { throw failure(error) }
        } catch { throw failure(error) }
        // Only a note that spares the next check: on a full disk it waits for a run with room.
        if checked {
            do { try database.rememberChecked(path: path) } catch where error.isDiskFull {}
        }
        return database
    }

    /// The database opened read-only, or nil when it lacks a migration (which would need room).
    private static func readOnly(path: String, clock: @escaping @Sendable () -> Date) throws -> AppDatabase? {
        var configuration = makeConfiguration()
        configuration.readonly = true
        let pool = try DatabasePool(path: path, configuration: configuration)
        guard try pool.read(Migrations.migrator.hasCompletedMigrations) else { return nil }
        return AppDatabase(migrated: pool, clock: clock)
    }

    /// Runs `body` holding an exclusive `flock` of `<database>.lock`, which only opening takes
    /// (SQLite's own locks are on the database file, and `flock` never meets them). Without
    /// the lock file (a read-only folder), `body` runs unlocked and its own errors speak.
    static func whileMigrationLocked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let descriptor = Foundation.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return try body() }
        defer { Foundation.close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// An empty database in memory, for tests and previews.
    public static func inMemory(clock: @escaping @Sendable () -> Date = { Date() }) throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: makeConfiguration()), clock: clock)
    }

    /// How long a write waits for another process's write before it fails, in seconds.
    static let busyTimeout = 15

    /// The write-ahead log is folded into the database file (a passive checkpoint) by the
    /// commit that takes it past this many pages (256 KiB of 4 KiB pages; SQLite's default is
    /// 1,000, 4 MiB, which a plain session of 100 guesses filled at 40 KiB a guess)…
    static let checkpointPages = 64
    /// …and a log that was folded is cut back to this many bytes when it starts again, so a
    /// long session's log stays under about 300 KiB instead of keeping its largest size.
    static let logLimitBytes = 256 << 10

    static func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(TimeInterval(busyTimeout))
        config.prepareDatabase { db in
            // In WAL mode NORMAL still survives a killed process (a commit is in the WAL before it
            // returns); only a power cut can lose the last commits. It spares an fsync per write.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(logLimitBytes)")
            // The log and its index (-wal, -shm) stay when the last connection closes (the log
            // emptied): reading a database on a full disk needs its index file, which could not
            // be made again there.
            var persist: CInt = 1
            _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        return config
    }

    /// A time as the database keeps it: whole milliseconds since 1970 (UTC), so a value returned
    /// from a write equals the same value read back later, and a time that went through the
    /// cloud (whole milliseconds too) comes back equal.
    public static func stamp(_ date: Date) -> Date { time(millis(date)) }

    /// The integer the database keeps for a time (migration v8).
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The time a kept integer stands for.
    static func time(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// Runs a read with the database's own errors turned into `StorageError`.
    func read<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try writer.read(body) } catch { throw failure(error) }
    }

    /// Runs a write transaction with the database's own errors turned into `StorageError`.
    /// On a full disk the log is folded into the file and emptied (the room it frees may be
    /// what the write needs) and the transaction, rolled back whole, runs once more.
    func write<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try writer.write(body) } catch where StorageError.isDiskFull(error, folder: folder) {
            try? checkpoint()
            do { return try writer.write(body) } catch { throw failure(error) }
        } catch { throw failure(error) }
    }

    /// Folds the write-ahead log into the database file and empties it (a TRUNCATE checkpoint):
    /// after every sync and at the end of every run, so the log takes no room between them.
    /// Another process's reads or write are waited for a moment only; then as much as can be
    /// is folded without waiting (PASSIVE) and the rest is left to the next checkpoint.
    public func checkpoint() throws(StorageError) {
        guard filePath != nil else { return }
        do {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA busy_timeout = 200")
                defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Self.busyTimeout * 1000)") }
                do { _ = try db.checkpoint(.truncate) } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {}
            }
        } catch { throw failure(error) }
    }

    /// The folder of the database's file (a full disk is named by it).
    var folder: String { (writer.path as NSString).deletingLastPathComponent }

    /// An error of the database as storage says it: a full disk names the data dir.
    func failure(_ error: any Error) -> StorageError {
        if !(error is StorageError), StorageError.isDiskFull(error, folder: folder) { return .diskFull(folder) }
        return StorageError(error)
    }
}
