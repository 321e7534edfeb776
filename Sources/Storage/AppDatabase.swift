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

    /// Opens (creating if needed) the database in `dataDir`. WAL lets another process read
    /// while this one writes; the busy timeout lets two writers take turns instead of failing.
    /// A damaged file is `StorageError.damaged` (see `Damage` for what is checked, and when).
    public static func open(dataDir: URL, clock: @escaping @Sendable () -> Date = { Date() }) throws(StorageError) -> AppDatabase {
        let path = dataDir.appendingPathComponent(fileName).path
        do {
            try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        } catch {
            throw .dataDirUnusable(dataDir.path, reason: StorageError.describe(error))
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
        do { database = try AppDatabase(DatabasePool(path: path, configuration: makeConfiguration()), clock: clock) } catch { throw failure(error) }
        if checked { try database.rememberChecked(path: path) }
        return database
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

    /// A time as the database keeps it (text to the millisecond), so a value returned from a
    /// write equals the same value read back later, and a time that went through the cloud
    /// (whole milliseconds) comes back equal. The nudge keeps a value a hair below a millisecond
    /// from being cut to the one before when it is formatted.
    public static func stamp(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let nudged = Date(timeIntervalSince1970: (milliseconds + 0.01) / 1000)
        return Date.fromDatabaseValue(nudged.databaseValue) ?? date
    }

    /// The text the database keeps for a stamped time (or a time from the cloud, in whole
    /// milliseconds, which stamps to the same text), "yyyy-MM-dd HH:mm:ss.SSS" in UTC, built
    /// by arithmetic: the same text GRDB's date formatter writes (a test holds them equal over
    /// the years the game uses), at a small fraction of the cost. A full fetch binds 100,000.
    static func storedText(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, dayMillis) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millis) = dayMillis < 0 ? (days - 1, dayMillis + 86_400_000) : (days, dayMillis)
        let (year, month, dayOfMonth) = CivilDate.date(days: Int(day))
        // Written into 23 bytes: the years the game stores have four digits.
        guard (0...9_999).contains(year) else { return String.fromDatabaseValue(stamp(date).databaseValue) ?? "" }
        return String(unsafeUninitializedCapacity: 23) { text in
            var at = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8?) {
                var value = value
                for offset in (0..<width).reversed() {
                    text[at + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                at += width
                if let separator { text[at] = separator; at += 1 }
            }
            put(Int64(year), 4, then: UInt8(ascii: "-"))
            put(Int64(month), 2, then: UInt8(ascii: "-"))
            put(Int64(dayOfMonth), 2, then: UInt8(ascii: " "))
            put(millis / 3_600_000, 2, then: UInt8(ascii: ":"))
            put(millis / 60_000 % 60, 2, then: UInt8(ascii: ":"))
            put(millis / 1_000 % 60, 2, then: UInt8(ascii: "."))
            put(millis % 1_000, 3, then: nil)
            return at
        }
    }

    /// Runs a read with the database's own errors turned into `StorageError`.
    func read<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try writer.read(body) } catch { throw StorageError(error) }
    }

    /// Runs a write transaction with the database's own errors turned into `StorageError`.
    func write<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try writer.write(body) } catch { throw StorageError(error) }
    }
}
