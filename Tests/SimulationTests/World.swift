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

    /// Connections of finished runs, kept for the next. A new connection (or GRDB's own
    /// `backup`, which forgets what the connection knew of the schema) makes GRDB read every
    /// table's keys and columns again before its first statements, which cost a seed more than
    /// the copy itself; SQLite's backup API run directly keeps them, and they stay true, since
    /// the schema is the template's every time (nothing but the migrations changes it).
    private static let spare = Locked<[DatabaseQueue]>([])

    /// A connection holding a copy of the template.
    static func copyOfTemplate() throws -> DatabaseQueue {
        let queue = try spare.withLock { $0.popLast() } ?? DatabaseQueue()
        try template.writeWithoutTransaction { source in
            try queue.writeWithoutTransaction { destination in
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
        return queue
    }

    /// A run's connections, given back once no round of it is under way.
    static func giveBack(_ queues: [DatabaseQueue]) {
        spare.withLock { $0.append(contentsOf: queues) }
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
    let queue: DatabaseQueue
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
        queue = try Content.copyOfTemplate()
        // A fixed device id, so the order of two versions stamped alike is the same every run.
        try queue.write { db in
            try db.execute(sql: "INSERT INTO device (id, name, isLocal, lastSeenAt) VALUES (?, ?, 1, NULL)", arguments: ["device-\(index)", "machine\(index)"])
        }
        database = try AppDatabase(queue, clock: { clock.now(index) })
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
