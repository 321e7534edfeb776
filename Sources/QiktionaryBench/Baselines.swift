import CloudStore
import Foundation
import GRDB
import Storage
import Sync

/// What the token design replaces: every sync lists and reads every record in the cloud and
/// compares each with what the local database last saw of it. It reads with the same store
/// (same files, same decoding), so the difference is the design, not the code.
enum NaiveSync {
    /// Returns how many records differ from the local database (0 when nothing is new).
    static func run(_ machine: Machine, cloud: URL) throws -> Int {
        let store = try FolderCloudDatabase(folder: TrustedFolder(DiskFolder(root: cloud), book: machine.trust), player: machine.profile.playerID,
                                            device: DeviceID(machine.profile.device.id))
        let local = try DatabaseQueue(path: machine.dataDir.appendingPathComponent(AppDatabase.fileName).path, configuration: readOnly)
        let (seen, guesses) = try local.read { db in
            var seen: [String: Data] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT recordName, systemFields FROM remoteRecord WHERE playerId = ?",
                                           arguments: [machine.profile.playerID])
            while let row = try rows.next() { seen[row[0]] = row[1] }
            // A game's system fields are kept in its own row.
            let games = try Row.fetchCursor(db, sql: "SELECT id, systemFields FROM game WHERE playerId = ? AND systemFields IS NOT NULL",
                                            arguments: [machine.profile.playerID])
            while let row = try games.next() { seen[CloudSchema().game(row[0])] = row[1] }
            // Guesses never change: the database keeps only which the cloud has, named by game and word.
            let guesses = try Set(Row.fetchAll(db, sql: """
                SELECT u.gameId, u.word FROM guess u JOIN game g ON g.id = u.gameId WHERE g.playerId = ? AND u.uploaded
                """, arguments: [machine.profile.playerID]).map { CloudSchema().guess(gameID: $0[0], word: $0[1]) })
            return (seen, guesses)
        }
        var differences = 0
        for zone in try store.zones() {
            for record in try store.fetchZoneChanges(zone, since: nil).changedRecords {
                if record.recordType == CloudSchema.guess {
                    if !guesses.contains(record.recordName) { differences += 1 }
                    continue
                }
                let tag = seen[record.recordName].flatMap(SystemFields.init(encoded:))?.changeTag
                if tag != record.systemFields?.changeTag { differences += 1 }
            }
        }
        return differences
    }

    static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }
}

/// The floor for a first sync: read the same bytes from disk and insert the same rows in one
/// SQLite transaction, with nothing else (no parsing, no checks, no merging).
struct Floor {
    struct Table {
        var name: String
        var columns: [String]
        var rows: [[DatabaseValue]]
    }

    /// The rows a first sync wrote on `synced`: its games, guesses, marks, bookmarks and the
    /// cloud's system fields of each.
    let tables: [Table]

    init(rowsOf synced: Machine) throws {
        let source = try DatabaseQueue(path: synced.dataDir.appendingPathComponent(AppDatabase.fileName).path, configuration: NaiveSync.readOnly)
        tables = try source.read { db in
            try ["game", "guess", "mark", "bookmark", "remoteRecord"].map { name in
                let columns = try db.columns(in: name).map(\.name)
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(name)").map { row in columns.map { row[$0] as DatabaseValue } }
                return Table(name: name, columns: columns, rows: rows)
            }
        }
    }

    var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }

    /// Reads every file under `cloud`, then inserts the rows into `target`'s database (which
    /// has the app's schema and packs, and none of these rows). Returns the bytes read.
    func run(cloud: URL, into target: Machine) throws -> Int {
        let bytes = try Self.readEveryFile(under: cloud.path)
        // The app's settings (WAL, synchronous NORMAL, foreign keys), so both pay the same per commit.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let database = try DatabaseQueue(path: target.dataDir.appendingPathComponent(AppDatabase.fileName).path, configuration: configuration)
        try database.write { db in
            for table in tables where !table.rows.isEmpty {
                let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                var insert = RowInsert(try db.makeStatement(sql: "INSERT INTO \(table.name) (\(table.columns.joined(separator: ", "))) VALUES (\(marks))"))
                for row in table.rows {
                    for value in row { insert.bind(value) }
                    try insert.run(db)
                }
            }
        }
        return bytes
    }

    /// Reads every regular file below `directory` with the system's own calls (a folder written
    /// one small sync at a time holds tens of thousands of files: Foundation's enumerator and
    /// `Data(contentsOf:)` cost more per file than the store's reads, which would flatter the
    /// first sync). Returns the bytes read.
    static func readEveryFile(under directory: String) throws -> Int {
        guard let stream = opendir(directory) else { throw BenchFailure("cannot list \(directory)") }
        defer { closedir(stream) }
        var bytes = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let path = directory + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) {
                bytes += try readEveryFile(under: path)
                continue
            }
            guard entry.pointee.d_type == UInt8(DT_REG) else { continue }
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw BenchFailure("cannot open \(path)") }
            defer { close(descriptor) }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += count
            }
        }
        return bytes
    }
}

/// The live data as plain JSON, the yardstick for the cloud folder's size: every live record
/// as `{"fields":{...},"name":...,"type":...}`, values as JSON strings, numbers and booleans.
enum LiveData {
    static func jsonBytes(player: String, cloud: URL) throws -> (bytes: Int, records: Int) {
        // Read as a friend reads it: the player's machines pinned on first sight, every file verified.
        let onlooker = TrustBook(player: "bench-yardstick", device: DeviceID(validated: "bench-yardstick"), key: DeviceKey(), file: nil)
        let store = try FolderCloudDatabase.reader(of: player, in: TrustedFolder(DiskFolder(root: cloud), book: onlooker))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var bytes = 0, records = 0
        for zone in try store.zones() {
            for record in try store.fetchZoneChanges(zone, since: nil).changedRecords {
                bytes += try encoder.encode(PlainRecord(record)).count
                records += 1
            }
        }
        return (bytes, records)
    }

    struct PlainRecord: Encodable {
        var name: String
        var type: String
        var fields: [String: PlainValue]

        init(_ record: CloudRecord) {
            name = record.recordName
            type = record.recordType
            fields = record.fields.mapValues(PlainValue.init)
        }
    }

    struct PlainValue: Encodable {
        let value: FieldValue
        init(_ value: FieldValue) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .string(let s): try container.encode(s)
            case .int(let n): try container.encode(n)
            case .double(let d): try container.encode(d)
            case .bool(let b): try container.encode(b)
            case .date(let d): try container.encode(Int64((d.timeIntervalSince1970 * 1000).rounded()))
            case .bytes(let data): try container.encode(data.base64EncodedString())
            case .strings(let list): try container.encode(list)
            }
        }
    }
}

/// Bytes of every file below `folder`.
func folderSize(_ folder: URL) -> Int {
    var total = 0
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])!
    for case let url as URL in files {
        guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
        total += values.fileSize ?? 0
    }
    return total
}
