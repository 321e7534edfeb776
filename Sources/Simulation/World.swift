import App
import CloudStore
import Concurrency
import Foundation
import GRDB
import GRDBSQLite
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// The shipped dictionary, and a database with the shipped packs imported once: every machine
/// of every seed starts as a copy of it (importing the packs again would cost more than a run).
enum Content {
    static let lexicon = try! BundledContent.lexicon()
    static let template: DatabaseQueue = {
        let queue = try! DatabaseQueue()
        let database = try! AppDatabase(queue)
        _ = try! database.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { lexicon })
        return queue
    }()

    /// The `choice`th word of `length` letters (counting round, spread over the dictionary).
    static func words(ofLength length: Int, choice: Int) -> String {
        let words = lexicon.words(ofLength: length)
        return words.isEmpty ? "" : words[(choice &* 7_919) % words.count]
    }

    /// A machine's database: its pool, opened and migrated once (the migrator's check makes GRDB
    /// forget every statement compiled on the writer), and the clock its writes are stamped by,
    /// which each run sets to its own.
    final class Slot: Sendable {
        let pool: DatabasePool
        let database: AppDatabase
        let clock = Locked<@Sendable () -> Date>({ Date() })

        init(pool: DatabasePool) throws {
            self.pool = pool
            let clock = clock
            database = try AppDatabase(pool, clock: { clock.withLock { $0 }() })
        }
    }

    /// Databases of finished runs, kept for the next.
    private static let spare = Locked<[Slot]>([])

    /// Where the machines' database files are: a folder of this process's own, in memory where
    /// the system has one (/dev/shm), removed when the process ends.
    static let folder: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        // Those a killed run left (its process gone) go first.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? [] where name.hasPrefix("qiktionary-sim-") {
            if let pid = Int32(name.dropFirst("qiktionary-sim-".count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
            }
        }
        let folder = base.appendingPathComponent("qiktionary-sim-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Content.folder) }
        return folder
    }()
    private static let made = Locked(0)

    /// The template's tables that hold rows (the packs, their words, the migrations done) and
    /// how many rows each holds with its highest rowid; every other table of it is empty.
    private static let filled: [String: [Int64]]? = try? template.read { db in
        var filled: [String: [Int64]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            let name: String = row["name"], sql = (row["sql"] as String?)?.uppercased() ?? ""
            // A virtual table, and the copy is always made whole.
            if sql.contains("VIRTUAL") { return nil }
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted(name)))") == true else { continue }
            // A filled table is told by its rowids: one without, and the copy is always made whole.
            if sql.contains("WITHOUT ROWID") { return nil }
            filled[name] = try size(of: name, db)
        }
        return filled
    }

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    private static func size(of table: String, _ db: Database) throws -> [Int64] {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT count(*), coalesce(max(rowid), 0) FROM \(quoted(table))"))
        return [row?[0] ?? 0, row?[1] ?? 0]
    }

    /// A database holding a copy of the template, on a pool of connections as the program opens
    /// its own (a writer, and readers that never change how they read). A kept database whose
    /// filled tables still hold as many rows as the template's (a run writes only the player's
    /// tables: the packs are written by their import alone, which a run never calls) has every
    /// other table emptied, in one transaction: the schema is not touched, so the statements
    /// compiled on its connections stay compiled (a copy over it, even of the same schema, makes
    /// SQLite compile each again). Otherwise the template is copied over it whole.
    static func copyOfTemplate() throws -> Slot {
        if let slot = spare.withLock({ $0.popLast() }) {
            if let filled, try slot.pool.writeWithoutTransaction({ db in try emptied(db, keeping: filled) }) { return slot }
            try copyTemplate(into: slot.pool)
            return slot
        }
        let number = made.withLock { value -> Int in
            value += 1
            return value
        }
        let pool = try DatabasePool(path: folder.appendingPathComponent("machine-\(number).sqlite").path)
        try copyTemplate(into: pool)
        return try Slot(pool: pool)
    }

    /// Empties every table but the filled ones, when those hold what the template's do.
    private static func emptied(_ db: Database, keeping filled: [String: [Int64]]) throws -> Bool {
        for (table, shape) in filled where try size(of: table, db) != shape { return false }
        let tables = try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        try db.inTransaction {
            for table in tables where filled[table] == nil {
                try db.cachedStatement(sql: "DELETE FROM \(quoted(table))").execute()
            }
            return .commit
        }
        return true
    }

    private static func copyTemplate(into pool: DatabasePool) throws {
        try template.writeWithoutTransaction { source in
            try pool.writeWithoutTransaction { destination in
                guard let backup = sqlite3_backup_init(destination.sqliteConnection, "main", source.sqliteConnection, "main") else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_errcode(destination.sqliteConnection)), message: "the template could not be copied")
                }
                let step = sqlite3_backup_step(backup, -1)
                let finish = sqlite3_backup_finish(backup)
                guard step == SQLITE_DONE, finish == SQLITE_OK else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: step == SQLITE_DONE ? finish : step), message: "the template could not be copied")
                }
            }
        }
    }

    /// A run's connections, given back once no round of it is under way.
    static func giveBack(_ slots: [Slot]) {
        spare.withLock { $0.append(contentsOf: slots) }
    }
}

/// The wall clock of every machine: one time that moves a few milliseconds a step, and each
/// machine's offset from it, which a step may jump.
final class SimClock: Sendable {
    private let state: Locked<(base: Date, offsets: [TimeInterval])>

    init(machines: Int) { state = Locked((Date(timeIntervalSince1970: 1_790_000_000), Array(repeating: 0, count: machines))) }

    func now(_ machine: Int) -> Date { state.withLock { $0.base + $0.offsets[machine] } }
    func tick(_ seconds: TimeInterval = 0.003) { state.withLock { $0.base += seconds } }
    func jump(_ machine: Int, by seconds: TimeInterval) { state.withLock { $0.offsets[machine] += seconds } }
    /// A clock that only moves forward (the base's, in nanoseconds), for what real code reads
    /// from the machine's uptime: how long ago another player's store was last read.
    func uptime() -> UInt64 { state.withLock { UInt64($0.base.timeIntervalSince1970 * 1e9) } }
}

/// A process of a machine: its own store opened on the machine's folder (its own clock
/// readings, cached view and faults, as a separate process has), and the sync it is running.
final class SimProcess {
    var store: FolderCloudDatabase
    var faults: CloudFaults
    var running: SteppedSync?
    /// What this process's rounds keep between them of the shared zones, as a running program's
    /// engine does (the readers' stamps go by the simulation's clock).
    let exchange: SharedExchange

    init(store: FolderCloudDatabase, faults: CloudFaults, exchange: SharedExchange) {
        self.store = store
        self.faults = faults
        self.exchange = exchange
    }
}

/// One machine: its database (shared by its processes, as the data dir is), its device, and
/// the folder it sees (the shared one, or its own replica).
final class SimMachine {
    let index: Int
    let slot: Content.Slot
    let database: AppDatabase
    let profile: Profile
    /// The machine's player's use cases: matches and leaderboards.
    let games: PlayerGames
    let folder: MemoryFolder
    var processes: [SimProcess] = []
    /// The games started here, by id, in order.
    var started: [String] = []

    var player: PlayerDatabase { database.player(profile) }
    var name: String { profile.device.name }

    init(index: Int, player: String, folder: MemoryFolder, clock: SimClock) throws {
        self.index = index
        self.folder = folder
        slot = try Content.copyOfTemplate()
        slot.clock.withLock { $0 = { clock.now(index) } }
        // A fixed device id, so the order of two versions stamped alike is the same every run.
        try slot.pool.write { db in
            try db.cachedStatement(sql: "INSERT INTO device (id, name, isLocal, lastSeenAt) VALUES (?, ?, 1, NULL)")
                .execute(arguments: ["device-\(index)", "machine\(index)"])
        }
        database = slot.database
        profile = try database.profile(player: player, device: "machine\(index)", hostName: "machine\(index)")
        games = PlayerGames(player: database.player(profile), lexicon: { Content.lexicon })
    }
}

/// Moves one machine's files to another machine's replica of the folder, as a replicator does:
/// only when told, a few at a time, in any order, sometimes half-arrived first.
struct Copier {
    let from: SimMachine
    let to: SimMachine
    /// What differs at the destination, by path: the latest content seen at the source.
    var pending: [String: Data] = [:]

    /// Queues every file of the source machine's device (and the generation markers) that
    /// differs at the destination. Temporary files are never carried.
    mutating func scan() {
        let own = "/devices/\(from.profile.device.id)/"
        for path in from.folder.allFiles where path.contains(own) || path.contains("/generations/") {
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            guard let data = from.folder.contents(of: path) else { continue }
            if to.folder.contents(of: path) != data { pending[path] = data } else { pending[path] = nil }
        }
    }

    /// Delivers up to `count` of the waiting files in an order drawn from `seed`; with
    /// `damage`, one in six first arrives cut short (the rest of it comes with a later delivery).
    mutating func deliver(_ count: Int, seed: UInt64, damage: Bool) {
        var generator = SeededGenerator(seed: seed)
        let chosen = pending.keys.sorted().shuffled(using: &generator).prefix(count)
        for path in chosen {
            guard let data = pending[path] else { continue }
            let components = path.split(separator: "/").map(String.init)
            if damage, data.count > 8, Int.random(in: 0..<6, using: &generator) == 0 {
                to.folder.place(data.prefix(data.count / 2), at: components)
            } else {
                to.folder.place(data, at: components)
                pending[path] = nil
            }
        }
    }

    /// Everything, whole.
    mutating func drain() {
        scan()
        deliver(pending.count, seed: 0, damage: false)
    }
}
