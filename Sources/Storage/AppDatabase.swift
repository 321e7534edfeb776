import Foundation
import GRDB
import QiktionaryCore

/// The game's local database. Every write is named for what it does and runs in one
/// transaction, so a crash leaves either the old state or the new one.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    /// The wall clock every write is stamped with; tests and the skew hook move it.
    let clock: @Sendable () -> Date

    /// Takes a connection (a pool on disk, or a queue in memory for tests) and migrates it.
    public init(_ writer: any DatabaseWriter, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.writer = writer
        self.clock = clock
        try Migrations.migrator.migrate(writer)
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
            throw .dataDirUnusable(dataDir.path, reason: whyNoFolder(at: dataDir) ?? StorageError.describe(error))
        }
        guard FileManager.default.isWritableFile(atPath: dataDir.path) else {
            throw .dataDirUnusable(dataDir.path, reason: "it is not writable")
        }
        if let problem = Damage.headerProblem(atPath: path) { throw .damaged(path, reason: problem) }
        func failure(_ error: any Error) -> StorageError {
            StorageError.isCorruption(error) ? .damaged(path, reason: StorageError.describe(error))
                : .dataDirUnusable(dataDir.path, reason: StorageError.describe(error))
        }
        let checked = try Damage.checkIfNew(path: path)
        let database: AppDatabase
        do {
            // Two processes opening a new or older database at once would both run a migration
            // (the migrator reads what is applied outside its transactions): one waits here.
            database = try whileMigrationLocked(path) {
                try AppDatabase(DatabasePool(path: path, configuration: makeConfiguration()), clock: clock)
            }
        } catch { throw failure(error) }
        if checked { try database.rememberChecked(path: path) }
        return database
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

    static func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(15)
        // In WAL mode NORMAL still survives a killed process (a commit is in the WAL before it
        // returns); only a power cut can lose the last commits. It spares an fsync per write.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
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
        do { return try writer.read(body) } catch { throw StorageError(error) }
    }

    /// Runs a write transaction with the database's own errors turned into `StorageError`.
    func write<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try writer.write(body) } catch { throw StorageError(error) }
    }
}
