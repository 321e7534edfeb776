import Foundation
import GRDB
import QiktionaryCore

/// A damaged database file: finding it cheaply, and saving what can still be read of it.
///
/// On every open: the file's header is read (100 bytes: is it SQLite at all, and is it as long
/// as it says), and SQLite's own errors (SQLITE_CORRUPT, SQLITE_NOTADB) become
/// `StorageError.damaged` wherever they happen, on open or on any later read or write.
/// `PRAGMA quick_check` reads every page (0.1 to 0.3 s at 10,000 games, against 30 ms for a
/// whole start), so it runs only when the file is new to this data dir: the first open of a
/// file copied, restored or moved in (a new inode), or of a data dir never checked. Damage that
/// happens to a file in place is found when a read reaches it.
public enum Damage {
    /// The setting that remembers which file (device and inode) passed its last full check.
    static let checkedKey = "checkedFile"

    /// What is wrong with the file's header, or nil when it looks like an SQLite database (or
    /// there is no file yet).
    static func headerProblem(atPath path: String) -> String? {
        // Another process's checkpoint writes the first page (with the new page count) before
        // the pages that lengthen the file, then removes the -wal: a read between sees a file
        // shorter than its header says. A file truly cut short is still short a moment later.
        guard let problem = headerProblemOnce(atPath: path) else { return nil }
        Thread.sleep(forTimeInterval: 0.2)
        return headerProblemOnce(atPath: path) == nil ? nil : problem
    }

    private static func headerProblemOnce(atPath path: String) -> String? {
        guard let size = fileSize(path), size > 0, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        guard header.count == 100 else { return "it is \(size) bytes, too short to be a database" }
        let bytes = [UInt8](header)
        guard bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) else { return "it is not an SQLite database" }
        func integer(_ offset: Int, _ length: Int) -> Int { bytes[offset..<offset + length].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = integer(16, 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return "its header is damaged" }
        // The header's page count holds when its "valid for" number matches the change counter.
        let pages = integer(28, 4), changeCounter = integer(24, 4), validFor = integer(92, 4)
        let walHasFrames = (fileSize(path + "-wal") ?? 0) > 32
        if pages > 0, changeCounter == validFor, !walHasFrames, size < pages * pageSize {
            return "it is cut short: \(size) of \(pages * pageSize) bytes"
        }
        return nil
    }

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }

    /// Which file this is, on which file system: a copy or a restored file is another one.
    static func identity(ofFileAt path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }

    /// The first line of `quick_check`'s answer that names a problem, as one short line.
    static func describe(check lines: [String]) -> String {
        let all = lines.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
        let problem = all.first { !$0.hasPrefix("***") && $0 != "ok" } ?? all.first ?? "the check failed"
        return Text.oneLine(problem)
    }
}

extension Damage {
    /// A file this data dir has not checked yet gets `PRAGMA quick_check` once, on a read-only
    /// connection of its own, before anything writes to it (opening a pool writes to an empty
    /// WAL; a migration writes). Returns whether to remember the file's identity once it is
    /// open: true for a file that passed, or a new one.
    static func checkIfNew(path: String) throws(StorageError) -> Bool {
        guard (fileSize(path) ?? 0) > 0 else { return true }
        guard let identity = identity(ofFileAt: path) else { return false }
        var config = Configuration()
        config.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            return try queue.read { db in
                let known = try db.tableExists("setting")
                    ? String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [checkedKey]) : nil
                if known == identity { return false }
                let lines = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
                guard lines == ["ok"] else { throw StorageError.damaged(path, reason: describe(check: lines)) }
                return true
            }
        } catch let error as StorageError {
            throw error
        } catch {
            if StorageError.isCorruption(error) { throw .damaged(path, reason: StorageError.describe(error)) }
            // Not readable this way (permissions, a lock): the pool's own open says what is wrong.
            return false
        }
    }
}

extension AppDatabase {
    /// Remembers the file that passed its check, so later opens skip it.
    func rememberChecked(path: String) throws(StorageError) {
        guard let identity = Damage.identity(ofFileAt: path) else { return }
        try write { db in
            try db.execute(sql: """
                INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, arguments: [Damage.checkedKey, identity])
        }
    }

    /// `PRAGMA quick_check` now, whatever was checked before: for the resets, which must not
    /// carry on over damage that no read has reached yet (0.05 s at 10,000 games).
    public func quickCheck() throws(StorageError) {
        let path = filePath
        do {
            let lines = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
            guard lines == ["ok"] else { throw StorageError.damaged(path, reason: Damage.describe(check: lines)) }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError.isCorruption(error) ? .damaged(path, reason: StorageError.describe(error)) : .database(StorageError.describe(error))
        }
    }

    /// Closes the database's connections, so its files can be moved.
    public func close() throws(StorageError) {
        do { try writer.close() } catch { throw StorageError(error) }
    }

    /// The database's file, or nil for one in memory.
    public var filePath: String? {
        let path = writer.path
        return path.isEmpty || path == ":memory:" ? nil : path
    }
}

// MARK: Saving what can be read

/// What could still be read of a damaged database.
public struct Salvage: Sendable {
    /// The settings it remembered, those that could be read.
    public var settings: [Setting: String] = [:]
    /// One export per player with anything never synced, the given player's first.
    public var exports: [ExportDocument] = []
    /// Stretches of a table that could not be read, and rows that failed the export's checks.
    public var unreadable = 0
    /// False when the change queues could not all be read: then every readable game was saved.
    public var knewWhatWasSynced = true

    public init() {}
}

extension Damage {
    /// The settings a damaged file still gives up (for its error message), read without
    /// changing it; empty when nothing can be read.
    public static func rememberedSettings(file: URL) -> [Setting: String] {
        var config = Configuration()
        config.readonly = true
        guard let queue = try? DatabaseQueue(path: file.path, configuration: config) else { return [:] }
        defer { try? queue.close() }
        return (try? queue.read { db in settings(db).values }) ?? [:]
    }

    /// Reads what it can of a damaged database file (and its -wal), on a copy made in a
    /// temporary folder, so the file itself is never touched: settings, and for every player
    /// the games (with all their guesses and marks) and bookmarks the cloud does not have yet,
    /// as the change queues say. A game that fails the export's checks is left out.
    public static func salvage(file: URL, player given: String?, lexicon: Lexicon, now: Date) -> Salvage {
        var salvage = Salvage()
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("qiktionary-salvage-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("damaged.sqlite")
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            try manager.copyItem(at: file, to: copy)
            let wal = URL(fileURLWithPath: file.path + "-wal")
            if manager.fileExists(atPath: wal.path) { try manager.copyItem(at: wal, to: URL(fileURLWithPath: copy.path + "-wal")) }
            // The copy is ours to mend: a header whose first bytes were overwritten gets them back.
            let magic = Data("SQLite format 3\u{0}".utf8)
            let handle = try FileHandle(forUpdating: copy)
            if try handle.read(upToCount: magic.count) != magic {
                try handle.seek(toOffset: 0)
                try handle.write(contentsOf: magic)
            }
            try handle.close()
        } catch {
            salvage.unreadable += 1
            salvage.knewWhatWasSynced = false
            return salvage
        }
        guard let queue = try? DatabaseQueue(path: copy.path, configuration: Configuration()) else {
            salvage.unreadable += 1
            salvage.knewWhatWasSynced = false
            return salvage
        }
        defer { try? queue.close() }
        queue.inDatabase { db in
            let (values, failures) = settings(db)
            salvage.settings = values
            let reader = TolerantReader(db: db)
            // A database damaged before a migration ran lacks its columns: its games are read without them.
            let known = Set((try? db.columns(in: "game"))?.map(\.name) ?? [])
            // Whether the cloud has a game or guess: `uploaded` since v13, a kept name before.
            let games = reader.rows("game", (GameRecord.columns.map(\.name) + ["remoteRecordName"]).filter { known.isEmpty || known.contains($0) })
                .compactMap(gameRecord)
            let guessColumns = Set((try? db.columns(in: "guess"))?.map(\.name) ?? [])
            let guesses = Dictionary(grouping: reader.rows("guess", ["gameId", "position", "word", "common", "inPlace", "inWord", "playedAt", "playedOn",
                                                                     "uploaded", "remoteRecordName"].filter { guessColumns.contains($0) },
                                                           key: guessColumns.contains("uploaded") ? ["gameId", "word"] : nil)
                .compactMap(guessRecord), by: \.gameId)
            let marks = Dictionary(grouping: reader.rows("mark", ["gameId", "letter", "state", "markedAt"]).compactMap(markRecord), by: \.gameId)
            let bookmarks = reader.rows("bookmark", ["playerId", "word", "packId", "fact", "addedAt"]).compactMap(bookmarkRecord)
            let changedGames = Set(reader.rows("gameChange", ["gameId"]).compactMap { text($0, "gameId") })
            let changedMarks = Set(reader.rows("markChange", ["gameId"]).compactMap { text($0, "gameId") })
            let changedBookmarks = Set(reader.rows("bookmarkChange", ["playerId", "word"]).compactMap { row in
                text(row, "playerId").flatMap { player in text(row, "word").map { "\(player)\u{0}\($0)" } }
            })
            let knownSecrets = Set(reader.rows("packWord", ["word"]).compactMap { text($0, "word") })
            salvage.unreadable += failures + reader.failures
            salvage.knewWhatWasSynced = reader.failed.isDisjoint(with: ["gameChange", "markChange", "bookmarkChange"])
            let everything = !salvage.knewWhatWasSynced

            let player = given ?? salvage.settings[.player] ?? AppDatabase.defaultPlayer
            let players = Set(games.map(\.playerId)).union(bookmarks.map(\.playerId)).union([player])
            for owner in [player] + players.subtracting([player]).sorted() {
                var kept: [(GameRecord, [GuessRecord], [MarkRecord])] = []
                for game in games where game.playerId == owner {
                    let own = guesses[game.id] ?? []
                    let unsynced = !game.uploaded || changedGames.contains(game.id) || changedMarks.contains(game.id)
                        || own.contains { !$0.uploaded }
                    guard everything || unsynced else { continue }
                    let entry = ExportDocument.Game(record: game, guesses: own, marks: marks[game.id] ?? [])
                    guard (try? entry.validated(player: owner, lexicon: lexicon, knownSecrets: knownSecrets)) != nil else {
                        salvage.unreadable += 1
                        continue
                    }
                    kept.append((game, own, marks[game.id] ?? []))
                }
                var keptBookmarks: [BookmarkRecord] = []
                for bookmark in bookmarks where bookmark.playerId == owner
                    && (everything || changedBookmarks.contains("\(owner)\u{0}\(bookmark.word)")) {
                    let entry = ExportDocument.Bookmark(word: bookmark.word, pack: bookmark.packId, fact: bookmark.fact,
                                                        addedAt: ExportDate.text(bookmark.addedAt))
                    guard (try? entry.validated(player: owner, lexicon: lexicon, knownSecrets: knownSecrets)) != nil else {
                        salvage.unreadable += 1
                        continue
                    }
                    keptBookmarks.append(bookmark)
                }
                guard !kept.isEmpty || !keptBookmarks.isEmpty, AppDatabase.isValidPlayerName(owner) else { continue }
                kept.sort { ($0.0.startedAt, $0.0.id) < ($1.0.startedAt, $1.0.id) }
                // Newest first, as the reading list shows them.
                keptBookmarks.sort { $0.addedAt != $1.addedAt ? $0.addedAt > $1.addedAt : $0.word < $1.word }
                salvage.exports.append(ExportDocument(
                    player: owner, device: salvage.settings[.device], cloudDir: salvage.settings[.cloudDir],
                    reason: everything ? "every game that could be read from a damaged database" : "unsynced games saved from a damaged database",
                    now: now, games: kept, bookmarks: keptBookmarks))
            }
        }
        return salvage
    }

    private static func settings(_ db: Database) -> (values: [Setting: String], failures: Int) {
        let reader = TolerantReader(db: db)
        var found: [Setting: String] = [:]
        for row in reader.rows("setting", ["key", "value"]) {
            guard let key = text(row, "key").flatMap(Setting.init(rawValue:)), let value = text(row, "value") else { continue }
            found[key] = value
        }
        return (found, reader.failures)
    }

    // MARK: Rows read without trusting them

    private static func text(_ row: Row, _ column: String) -> String? { String.fromDatabaseValue(row[column] as DatabaseValue) }
    private static func int(_ row: Row, _ column: String) -> Int? { Int.fromDatabaseValue(row[column] as DatabaseValue) }
    private static func date(_ row: Row, _ column: String) -> Date? { AppDatabase.keptTime(row[column] as DatabaseValue) }

    private static func gameRecord(_ row: Row) -> GameRecord? {
        guard let record = GameRecord.read({ row.hasColumn($0) ? row[$0] : .null }),
              record.status.isFinished == (record.finishedAt != nil) else { return nil }
        return record
    }

    private static func guessRecord(_ row: Row) -> GuessRecord? {
        guard let gameId = text(row, "gameId"), let position = int(row, "position"),
              let word = text(row, "word"), let playedAt = date(row, "playedAt"), let playedOn = text(row, "playedOn") else { return nil }
        let common = int(row, "common"), inPlace = int(row, "inPlace"), inWord = int(row, "inWord")
        guard common != nil || (inPlace != nil && inWord != nil) else { return nil }
        let uploaded = Bool.fromDatabaseValue(row["uploaded"] as DatabaseValue) ?? (text(row, "remoteRecordName") != nil)
        return GuessRecord(gameId: gameId, position: position,
                           guess: Guess(word: word, feedback: Feedback(common: common, inPlace: inPlace, inWord: inWord)),
                           playedAt: playedAt, playedOn: playedOn, uploaded: uploaded)
    }

    private static func markRecord(_ row: Row) -> MarkRecord? {
        guard let gameId = text(row, "gameId"), let letter = text(row, "letter"), let state = text(row, "state").flatMap(LetterMark.init),
              let markedAt = date(row, "markedAt") else { return nil }
        return MarkRecord(gameId: gameId, letter: letter, state: state, markedAt: markedAt)
    }

    private static func bookmarkRecord(_ row: Row) -> BookmarkRecord? {
        guard let player = text(row, "playerId"), let word = text(row, "word"), let pack = text(row, "packId"),
              let fact = text(row, "fact"), let addedAt = date(row, "addedAt") else { return nil }
        return BookmarkRecord(playerId: player, word: word, packId: pack, fact: fact, addedAt: addedAt)
    }
}

/// Reads a table of a damaged database row by row, in rowid order, stepping over stretches it
/// cannot read: after a failure it probes further and further rowids until a read starts
/// again, then narrows back to the first rowid that reads, so little beyond the damage is lost.
final class TolerantReader {
    let db: Database
    private(set) var failures = 0
    private(set) var failed = Set<String>()

    init(db: Database) { self.db = db }

    /// A table keyed by `key` with no rowid (the guesses, since v13) is read in key order; after
    /// a failure the read goes on from the next value of the key's first column (the next game).
    func rows(_ table: String, _ columns: [String], key: [String]?) -> [Row] {
        guard let key, key.count == 2 else { return rows(table, columns) }
        let (first, second) = ("\"\(key[0])\"", "\"\(key[1])\"")
        let select = "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"\(table)\""
        var rows: [Row] = []
        var sql = "\(select) ORDER BY \(first), \(second)", arguments: StatementArguments = []
        for _ in 0..<10_000 {
            var last: (DatabaseValue, DatabaseValue)?
            do {
                let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try cursor.next() {
                    rows.append(row.copy())
                    last = (row[key[0]], row[key[1]])
                }
                return rows
            } catch {
                failures += 1
                failed.insert(table)
                guard let last else { return rows }
                sql = "\(select) WHERE \(first) > ? ORDER BY \(first), \(second)"
                arguments = [last.0]
            }
        }
        return rows
    }

    func rows(_ table: String, _ columns: [String]) -> [Row] {
        let sql = "SELECT rowid AS \"_rowid_\", \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"\(table)\" WHERE rowid > ? ORDER BY rowid"
        var rows: [Row] = []
        var after = Int64.min
        for _ in 0..<10_000 {
            do {
                let cursor = try Row.fetchCursor(db, sql: sql, arguments: [after])
                while let row = try cursor.next() {
                    rows.append(row.copy())
                    guard let rowid = Int64.fromDatabaseValue(row["_rowid_"] as DatabaseValue) else { break }
                    after = rowid
                }
                return rows
            } catch {
                failures += 1
                failed.insert(table)
                guard let next = nextReadable(sql, after: after) else { return rows }
                after = next
            }
        }
        return rows
    }

    /// A rowid past `after` from which a read starts: probes after+1, +2, +4… then narrows back.
    private func nextReadable(_ sql: String, after: Int64) -> Int64? {
        func starts(_ start: Int64) -> Bool {
            do {
                _ = try Row.fetchCursor(db, sql: sql, arguments: [start]).next()
                return true
            } catch {
                return false
            }
        }
        var bad = after, step: Int64 = 1
        while true {
            let (probe, overflow) = bad.addingReportingOverflow(step)
            if overflow { return nil }
            if starts(probe) {
                var good = probe
                while good - bad > 1 {
                    let middle = bad + (good - bad) / 2
                    if starts(middle) { good = middle } else { bad = middle }
                }
                return good
            }
            bad = probe
            step = step > Int64.max / 2 ? Int64.max : step * 2
        }
    }
}
