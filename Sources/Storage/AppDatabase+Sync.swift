import Foundation
import GRDB
import QiktionaryCore

/// The storage half of sync: what to send, acknowledging what was sent, applying what came
/// back (without tracking it), and the tokens and state in between.
extension AppDatabase {
    // MARK: Sending

    /// A game `g` worth sending: finished, or with a guess. A game opened and never played is
    /// kept here (it is resumed next time) but not sent, so opening the game on two machines
    /// leaves no empty games on either; its first guess sends it with everything it has.
    static let worthSending = "(g.status != 'in-progress' OR EXISTS (SELECT 1 FROM guess e WHERE e.gameId = g.id))"

    /// Whether the machine still holds the mark as it was sent.
    fileprivate static func holds(_ mark: SyncMark, _ db: Database) throws -> Bool {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT state, markedAt FROM mark WHERE gameId = ? AND letter = ?"),
                                         arguments: [mark.gameID, mark.letter]) else { return mark.state == nil }
        return row["state"] == mark.state?.rawValue && row["markedAt"] == Self.millis(mark.markedAt)
    }

    /// Whether the machine still holds the bookmark (or its absence) as it was sent.
    fileprivate static func holds(_ bookmark: SyncBookmark, player: String, _ db: Database) throws -> Bool {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT packId, fact, addedAt FROM bookmark WHERE playerId = ? AND word = ?"),
                                         arguments: [player, bookmark.word]) else { return !bookmark.isBookmarked }
        return bookmark.isBookmarked && row["packId"] == bookmark.packID && row["fact"] == bookmark.fact && row["addedAt"] == Self.millis(bookmark.addedAt)
    }

    // MARK: Devices

    /// Other machines seen in the cloud, most recent first.
    public func devicesSeen() throws(StorageError) -> [DeviceRecord] {
        try read { db in try DeviceRecord.filter(DeviceRecord.Columns.isLocal == false).order(DeviceRecord.Columns.lastSeenAt.desc).fetchAll(db) }
    }

    // MARK: Resets (the reset flags, README)

    /// Drops the stored packs so the next start loads them afresh from the pack files.
    public func forgetPacks() throws(StorageError) {
        try write { db in try db.cachedStatement(sql: "DELETE FROM pack").execute() }
    }

    static func forgetSyncMetadata(_ player: String, newGeneration: String?, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM remoteRecord WHERE playerId = ?").execute(arguments: [player])
        try db.cachedStatement(sql: "DELETE FROM zoneToken WHERE playerId = ?").execute(arguments: [player])
        try db.cachedStatement(sql: "DELETE FROM orphanRecord WHERE playerId = ?").execute(arguments: [player])
        try db.cachedStatement(sql: "UPDATE game SET systemFields = NULL WHERE playerId = ?").execute(arguments: [player])
        try db.cachedStatement(sql: "UPDATE guess SET uploaded = 0 WHERE gameId IN (SELECT id FROM game WHERE playerId = ?)").execute(arguments: [player])
        // Marks and bookmarks have no "never uploaded" flag: queue every one, so the next sync
        // sends them all and the cloud keeps the latest by causal order.
        try db.cachedStatement(sql: """
            INSERT INTO markChange (gameId, letter) SELECT m.gameId, m.letter FROM mark m JOIN game g ON g.id = m.gameId
            WHERE g.playerId = ? ON CONFLICT DO NOTHING
            """).execute(arguments: [player])
        try db.execute(sql: "INSERT INTO bookmarkChange (playerId, word) SELECT playerId, word FROM bookmark WHERE playerId = ? ON CONFLICT DO NOTHING",
                       arguments: [player])
        if let newGeneration {
            try db.cachedStatement(sql: "DELETE FROM recordDeletion WHERE playerId = ?").execute(arguments: [player])
            try db.cachedStatement(sql: "DELETE FROM deletionByGame WHERE playerId = ?").execute(arguments: [player])
            try db.cachedStatement(sql: "DELETE FROM syncState WHERE playerId = ?").execute(arguments: [player])
            try SyncStateRecord(playerId: player, generation: newGeneration, databaseToken: nil, incompleteZones: "",
                                lastSyncAt: nil, state: "never", message: nil).insert(db)
        } else {
            try db.cachedStatement(sql: "UPDATE syncState SET databaseToken = NULL, incompleteZones = '' WHERE playerId = ?").execute(arguments: [player])
        }
    }

    /// A game deleted here while another process of this machine was sending it (or a guess
    /// of it): that send put the records back in the cloud after the deletion was decided (or
    /// sent), so their deletion is queued again, by game and word. Not after the player's data
    /// here was erased (`--reset-local`, which leaves no sync state): those games were not deleted.
    static func deleteAgain(_ records: [(game: String, word: String)], player: String, _ db: Database) throws {
        guard !records.isEmpty, try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM syncState WHERE playerId = ?"), arguments: [player]).isTrue else { return }
        for (game, word) in records where try !Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM game WHERE id = ?"), arguments: [game]).isTrue {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO deletionByGame (playerId, gameId, word) VALUES (?, ?, ?)").execute(arguments: [player, game, word])
        }
    }

    /// A queued deletion sent or dropped: by its name, or by its game and word.
    static func clear(_ deletion: OutgoingChanges.Deletion, player: String, _ db: Database) throws {
        if let game = deletion.gameID, let word = deletion.word {
            try db.cachedStatement(sql: "DELETE FROM deletionByGame WHERE playerId = ? AND gameId = ? AND word = ?").execute(arguments: [player, game, word])
        } else {
            try db.cachedStatement(sql: "DELETE FROM recordDeletion WHERE playerId = ? AND recordName = ?").execute(arguments: [player, deletion.recordName])
        }
    }

    /// Whether the cloud has acknowledged any record of the player's whose system fields are
    /// kept apart from its row (marks, bookmarks, records of other versions): on a new machine,
    /// and through a first upload's first page, none.
    static func keepsRemoteRecords(_ player: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM remoteRecord WHERE playerId = ? LIMIT 1"), arguments: [player]).isTrue
    }

    static func systemFields(_ player: String, _ name: String, _ db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT systemFields FROM remoteRecord WHERE playerId = ? AND recordName = ?"), arguments: [player, name])
    }
}

/// How the queue of changes to send is read: the queries, and rows read column by column (a first
/// upload reads every game and guess of a long history).
private enum Queue {
    /// The ids of the games waiting to be sent: never uploaded, or changed since (worth sending
    /// only; the player is bound twice). Both halves use a small table or a partial index.
    static let queuedGameIDs = """
        SELECT g.id FROM game g INDEXED BY game_unsynced WHERE g.playerId = ? AND g.systemFields IS NULL AND \(AppDatabase.worthSending)
        UNION SELECT c.gameId FROM gameChange c CROSS JOIN game g ON g.id = c.gameId WHERE g.playerId = ? AND \(AppDatabase.worthSending)
        """

    static func gamesSQL(where condition: String) -> String {
        """
        SELECT \(GameRecord.columnList("g.")), c.changedFields, c.version
        FROM game g LEFT JOIN gameChange c ON c.gameId = g.id WHERE \(condition) ORDER BY g.startedAt, g.id
        """
    }

    static func guessesSQL(where condition: String) -> String {
        """
        SELECT u.gameId, u.word, u.position, u.common, u.inPlace, u.inWord, u.playedAt, u.playedOn
        FROM guess u INDEXED BY guess_unsynced CROSS JOIN game g ON g.id = u.gameId
        WHERE u.uploaded = 0 AND g.playerId = ? AND \(condition) ORDER BY g.startedAt, u.gameId, u.playedAt
        """
    }

    static func marksSQL(where condition: String) -> String {
        """
        SELECT c.gameId, c.letter, c.version, m.state, m.markedAt FROM markChange c
        CROSS JOIN game g ON g.id = c.gameId LEFT JOIN mark m ON m.gameId = c.gameId AND m.letter = c.letter
        WHERE g.playerId = ? AND \(AppDatabase.worthSending) AND \(condition) ORDER BY c.gameId, c.letter
        """
    }

    /// Runs `sql`, bound by `bind`, calling `row` for each row. A query of listed games is not
    /// cached: its text changes with the length of the list.
    private static func each(_ db: Database, _ sql: String, listed: Bool, bind: (inout RowInsert) -> Void, _ row: (RowInsert) throws -> Void) throws {
        var query = RowInsert(try listed ? db.makeStatement(sql: sql) : db.cachedStatement(sql: sql))
        bind(&query)
        while try query.step(db) { try row(query) }
    }

    /// Where `gamesSQL` reads each of the game table's columns.
    private static let gameColumns = Dictionary(uniqueKeysWithValues: GameRecord.columns.enumerated().map { ($1.name, CInt($0)) })

    static func games(_ db: Database, _ sql: String, player: String, ids: [String] = []) throws -> [OutgoingChanges.Game] {
        var games: [OutgoingChanges.Game] = []
        try each(db, sql, listed: !ids.isEmpty, bind: { query in
            if ids.isEmpty { query.bind(player); query.bind(player) }
            for id in ids { query.bind(id) }
            if !ids.isEmpty { query.bind(player) }
        }) { row in
            // A column the query does not list (one only an older file has) reads as NULL.
            guard let record = GameRecord.read({ gameColumns[$0].map(row.value) ?? .null }) else {
                throw StorageError.database("game \(row.text(0)) has rules, a status or a help level this version does not know")
            }
            let change = CInt(GameRecord.columns.count)
            games.append(.init(game: record.game, isNew: !record.uploaded, changedFields: AppDatabase.fields(row.text(change)),
                               version: Int(row.integer(change + 1)), systemFields: record.systemFields.flatMap { $0.isEmpty ? nil : $0 }))
        }
        return games
    }

    static func guesses(_ db: Database, _ sql: String, player: String, ids: [String] = []) throws -> [SyncGuess] {
        var guesses: [SyncGuess] = []
        try each(db, sql, listed: !ids.isEmpty, bind: { query in
            query.bind(player)
            for id in ids { query.bind(id) }
        }) { row in
            func count(_ column: CInt) -> Int? { row.isNull(column) ? nil : Int(row.integer(column)) }
            guesses.append(SyncGuess(gameID: row.text(0), word: row.text(1), position: Int(row.integer(2)),
                                     feedback: Feedback(common: count(3), inPlace: count(4), inWord: count(5)),
                                     playedAt: AppDatabase.time(row.integer(6)), playedOn: row.text(7)))
        }
        return guesses
    }

    /// The cloud's system fields of each mark and bookmark to send, as last seen here: looked up
    /// one by one (a queue holds few of them once a first upload is done), and not at all while
    /// the cloud has acknowledged none of the player's records (a first upload's marks).
    static func keptVersions(of out: inout OutgoingChanges, player: String, naming: some RecordNaming, _ db: Database) throws {
        guard !out.marks.isEmpty || !out.bookmarks.isEmpty, try AppDatabase.keepsRemoteRecords(player, db) else { return }
        for index in out.marks.indices {
            let mark = out.marks[index].mark
            out.marks[index].systemFields = try AppDatabase.systemFields(player, naming.mark(gameID: mark.gameID, letter: mark.letter), db)
        }
        for index in out.bookmarks.indices {
            out.bookmarks[index].systemFields = try AppDatabase.systemFields(player, naming.bookmark(word: out.bookmarks[index].bookmark.word), db)
        }
    }

    static func marks(_ db: Database, _ sql: String, player: String, ids: [String] = []) throws -> [OutgoingChanges.Mark] {
        var marks: [OutgoingChanges.Mark] = []
        try each(db, sql, listed: !ids.isEmpty, bind: { query in
            query.bind(player)
            for id in ids { query.bind(id) }
        }) { row in
            let state = row.isNull(3) ? nil : LetterMark(rawValue: row.text(3))
            marks.append(OutgoingChanges.Mark(mark: SyncMark(gameID: row.text(0), letter: row.text(1), state: state,
                                                             markedAt: AppDatabase.time(row.isNull(4) ? 0 : row.integer(4))),
                                              version: Int(row.integer(2))))
        }
        return marks
    }
}

extension SyncGuess {
    init(_ record: GuessRecord) {
        self.init(gameID: record.gameId, word: record.word, position: record.position, feedback: record.feedback,
                  playedAt: record.playedAt, playedOn: record.playedOn)
    }
}

extension PlayerDatabase {
    /// Every change of the player's that the cloud does not have yet.
    public func outgoingChanges(naming: some RecordNaming) throws(StorageError) -> OutgoingChanges {
        try read { db in
            var out = OutgoingChanges()
            let player = profile.playerID
            out.deletions = try Row.fetchAll(db.cachedStatement(sql: "SELECT recordName, zone FROM recordDeletion WHERE playerId = ? ORDER BY recordName"),
                                             arguments: [player]).map {
                OutgoingChanges.Deletion(recordName: $0["recordName"], zone: SyncZone(rawValue: $0["zone"]) ?? .games)
            }
            // Deleted games and their guesses, queued by game and word: named here, in the same order.
            let byGame = try Row.fetchAll(db.cachedStatement(sql: "SELECT gameId, word FROM deletionByGame WHERE playerId = ?"), arguments: [player])
            if !byGame.isEmpty {
                out.deletions += byGame.map { row in
                    let game: String = row["gameId"], word: String = row["word"]
                    let name = word.isEmpty ? naming.game(game) : naming.guess(gameID: game, word: word)
                    return OutgoingChanges.Deletion(recordName: name, zone: .games, gameID: game, word: word)
                }
                out.deletions.sort { $0.recordName < $1.recordName }
            }
            // Each part uses a small table or a partial index, so an empty queue costs the same
            // whatever the number of games.
            out.games = try Queue.games(db, Queue.gamesSQL(where: "g.id IN (\(Queue.queuedGameIDs))"), player: player)
            out.guesses = try Queue.guesses(db, Queue.guessesSQL(where: "TRUE"), player: player)
            out.marks = try Queue.marks(db, Queue.marksSQL(where: "TRUE"), player: player)
            out.bookmarks = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT c.word, c.version, b.packId, b.fact, b.addedAt FROM bookmarkChange c
                LEFT JOIN bookmark b ON b.playerId = c.playerId AND b.word = c.word
                WHERE c.playerId = ? ORDER BY c.word
                """), arguments: [player]).map { row in
                let packID: String? = row["packId"]
                return OutgoingChanges.Bookmark(
                    bookmark: SyncBookmark(word: row["word"], packID: packID ?? "", fact: row["fact"] ?? "",
                                           addedAt: AppDatabase.time(row["addedAt"] ?? 0), isBookmarked: packID != nil),
                    version: row["version"])
            }
            try Queue.keptVersions(of: &out, player: player, naming: naming, db)
            return out
        }
    }

    /// The games waiting to be sent, in the order `outgoingChanges` lists them, by id: a long
    /// queue (a history played before sync was turned on) is read and sent a page of games at a
    /// time with `outgoingChanges(ofGames:naming:)`, so it is never all in memory at once.
    public func queuedGameIDs() throws(StorageError) -> [String] {
        try read { db in
            var query = RowInsert(try db.cachedStatement(sql: "SELECT g.id FROM game g WHERE g.id IN (\(Queue.queuedGameIDs)) ORDER BY g.id"))
            query.bind(profile.playerID)
            query.bind(profile.playerID)
            var ids: [String] = []
            while try query.step(db) { ids.append(query.text(0)) }
            return ids
        }
    }

    /// The part of the queue that belongs to these games: those still waiting to be sent, their
    /// guesses never sent and their marks waiting, each in the order `outgoingChanges` lists them.
    /// Deletions and bookmarks are not a game's: `outgoingChanges` has them.
    public func outgoingChanges(ofGames ids: [String], naming: some RecordNaming) throws(StorageError) -> OutgoingChanges {
        guard !ids.isEmpty else { return OutgoingChanges() }
        return try read { db in
            let player = profile.playerID
            let listed = "g.id IN (\(databaseQuestionMarks(count: ids.count)))"
            var out = OutgoingChanges()
            // `+g.playerId`: the listed ids pick the rows (one look-up each); the player's index
            // would walk every game of theirs for each page (a first upload's pages: O(n²)).
            out.games = try Queue.games(db, Queue.gamesSQL(where: "\(listed) AND +g.playerId = ? AND (g.systemFields IS NULL OR c.gameId IS NOT NULL) AND \(AppDatabase.worthSending)"),
                                        player: player, ids: ids)
            out.guesses = try Queue.guesses(db, Queue.guessesSQL(where: listed), player: player, ids: ids)
            out.marks = try Queue.marks(db, Queue.marksSQL(where: listed), player: player, ids: ids)
            try Queue.keptVersions(of: &out, player: player, naming: naming, db)
            return out
        }
    }

    /// Whether the cloud has acknowledged any record of the player's (so it is not empty).
    public func knowsRemoteRecords() throws(StorageError) -> Bool {
        try read { db in
            try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM remoteRecord WHERE playerId = ?) OR EXISTS (SELECT 1 FROM game WHERE playerId = ? AND systemFields IS NOT NULL)
                """), arguments: [profile.playerID, profile.playerID]) ?? false
        }
    }

    /// How many changes wait to be sent.
    public func pendingChangeCount() throws(StorageError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM recordDeletion WHERE playerId = :p) + (SELECT count(*) FROM deletionByGame WHERE playerId = :p)
                  + (SELECT count(*) FROM (
                       SELECT g.id FROM game g INDEXED BY game_unsynced WHERE g.playerId = :p AND g.systemFields IS NULL
                         AND \(AppDatabase.worthSending)
                       UNION SELECT g.id FROM gameChange c CROSS JOIN game g ON g.id = c.gameId WHERE g.playerId = :p AND \(AppDatabase.worthSending)))
                  + (SELECT count(*) FROM guess u INDEXED BY guess_unsynced CROSS JOIN game g ON g.id = u.gameId
                     WHERE u.uploaded = 0 AND g.playerId = :p)
                  + (SELECT count(*) FROM markChange c CROSS JOIN game g ON g.id = c.gameId WHERE g.playerId = :p AND \(AppDatabase.worthSending))
                  + (SELECT count(*) FROM bookmarkChange WHERE playerId = :p)
                """, arguments: ["p": profile.playerID]) ?? 0
        }
    }

    /// Records what the cloud accepted. Only what was sent is cleared: a change made while its
    /// batch was in flight has a newer version and stays queued.
    public func acknowledge(_ sent: OutgoingChanges, saved: [String: Data], deleted: Set<String>, naming: some RecordNaming) throws(StorageError) {
        let player = profile.playerID
        try write { db in
            func remember(_ name: String, _ zone: SyncZone, game: String?) throws -> Bool {
                guard let fields = saved[name] else { return false }
                try IncomingApplication.remember(name, zone, game: game, fields, player: player, db)
                return true
            }
            // Bound value by value: a first upload acknowledges every game and guess of a long history.
            // Records of a game deleted here while they were in flight: the cloud has them again.
            var deletedMeanwhile: [(game: String, word: String)] = []
            var uploaded = RowInsert(try db.cachedStatement(sql: "UPDATE game SET systemFields = ? WHERE id = ?"))
            var cleared = RowInsert(try db.cachedStatement(sql: "DELETE FROM gameChange WHERE gameId = ? AND version = ?"))
            for change in sent.games {
                // A game's system fields are kept in its own row.
                guard let fields = saved[naming.game(change.game.id)] else { continue }
                uploaded.bind(fields)
                uploaded.bind(change.game.id)
                try uploaded.run(db)
                if db.changesCount == 0 { deletedMeanwhile.append((change.game.id, "")) }
                cleared.bind(change.game.id)
                cleared.bind(change.version)
                try cleared.run(db)
            }
            // A guess never changes, so nothing of the cloud's copy is kept but that it has it.
            var guessUploaded = RowInsert(try db.cachedStatement(sql: "UPDATE guess SET uploaded = 1 WHERE gameId = ? AND word = ?"))
            for guess in sent.guesses {
                guard saved[naming.guess(gameID: guess.gameID, word: guess.word)] != nil else { continue }
                guessUploaded.bind(guess.gameID)
                guessUploaded.bind(guess.word)
                try guessUploaded.run(db)
                if db.changesCount == 0 { deletedMeanwhile.append((guess.gameID, guess.word)) }
            }
            try AppDatabase.deleteAgain(deletedMeanwhile, player: player, db)
            // A mark or bookmark went over the version last seen here (`OutgoingChanges.Mark`),
            // and the version sent may still be older than the value this machine holds: another
            // process of this machine already sent and cleared a newer value, or the player
            // changed it again after another process cleared it (the change queued anew has its
            // first version again, which the one sent here may have, and clearing it here must
            // not count). Whenever the value held is not the one sent, it is queued again, to go
            // up later and win.
            for change in sent.marks where try remember(naming.mark(gameID: change.mark.gameID, letter: change.mark.letter), .games,
                                                        game: change.mark.gameID) {
                try db.cachedStatement(sql: "DELETE FROM markChange WHERE gameId = ? AND letter = ? AND version = ?").execute(
                    arguments: [change.mark.gameID, change.mark.letter, change.version])
                if try !AppDatabase.holds(change.mark, db),
                   try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM game WHERE id = ?"), arguments: [change.mark.gameID]).isTrue {
                    try AppDatabase.trackMarkChange(change.mark.gameID, letter: change.mark.letter, db)
                }
            }
            for change in sent.bookmarks where try remember(naming.bookmark(word: change.bookmark.word), .readingList, game: nil) {
                try db.cachedStatement(sql: "DELETE FROM bookmarkChange WHERE playerId = ? AND word = ? AND version = ?").execute(
                    arguments: [player, change.bookmark.word, change.version])
                if try !AppDatabase.holds(change.bookmark, player: player, db) {
                    try AppDatabase.trackBookmarkChange(player, word: change.bookmark.word, db)
                }
            }
            for deletion in sent.deletions where deleted.contains(deletion.recordName) {
                try AppDatabase.clear(deletion, player: player, db)
                try db.cachedStatement(sql: "DELETE FROM remoteRecord WHERE playerId = ? AND recordName = ?").execute(arguments: [player, deletion.recordName])
            }
        }
    }

    /// The games this machine knows the cloud had: those it sent or fetched (their system fields
    /// kept). Read before a full fetch of the games, which brings every game the cloud has and no
    /// deletion: a game of these it does not bring was deleted in the cloud (`dropGamesGoneFromCloud`).
    public func gamesKnownInCloud() throws(StorageError) -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM game WHERE playerId = ? AND systemFields IS NOT NULL"), arguments: [profile.playerID]))
        }
    }

    /// After a complete full fetch of the games: each game of `ids` (known in the cloud before
    /// the fetch read it, and not brought by it) was deleted in the cloud, and goes here too,
    /// with its guesses and marks, as a fetched deletion would take it; unless a change of it
    /// waits to be sent (the send then meets the deletion, which wins: `dropDeletedElsewhere`).
    /// A full fetch gives no deletions: without this, a game deleted elsewhere before this
    /// machine had ever fetched its games zone (a machine that only sent into it, found by the
    /// simulation, seed 5137) or across an expired token stayed here for good. How many went.
    @discardableResult
    public func dropGamesGoneFromCloud(_ ids: Set<String>) throws(StorageError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try write { db in
            var dropped = 0
            for id in ids.sorted() {
                try db.cachedStatement(sql: """
                    DELETE FROM game WHERE id = ? AND playerId = ? AND systemFields IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM gameChange WHERE gameId = game.id)
                    AND NOT EXISTS (SELECT 1 FROM guess WHERE gameId = game.id AND uploaded = 0)
                    AND NOT EXISTS (SELECT 1 FROM markChange WHERE gameId = game.id)
                    """).execute(arguments: [id, profile.playerID])
                dropped += db.changesCount
            }
            return dropped
        }
    }

    /// Drops a queued change the cloud can no longer take (its record was deleted elsewhere):
    /// the deletion wins, here as everywhere. A mark or bookmark whose record is gone forgets
    /// the version it was sent over and goes as a new record (as it went before it was checked
    /// against the cloud's version); a mark of a game deleted elsewhere goes with its game when
    /// the deletion is fetched.
    public func dropDeletedElsewhere(recordNames: Set<String>, sent: OutgoingChanges, naming: some RecordNaming) throws(StorageError) {
        try write { db in
            for change in sent.games where recordNames.contains(naming.game(change.game.id)) {
                try db.cachedStatement(sql: "DELETE FROM game WHERE id = ? AND playerId = ?").execute(arguments: [change.game.id, profile.playerID])
            }
            let marks = sent.marks.map { naming.mark(gameID: $0.mark.gameID, letter: $0.mark.letter) }
            for name in marks + sent.bookmarks.map({ naming.bookmark(word: $0.bookmark.word) }) where recordNames.contains(name) {
                try db.cachedStatement(sql: "DELETE FROM remoteRecord WHERE playerId = ? AND recordName = ?").execute(arguments: [profile.playerID, name])
            }
            for deletion in sent.deletions where recordNames.contains(deletion.recordName) {
                try AppDatabase.clear(deletion, player: profile.playerID, db)
            }
        }
    }

    /// Applies one zone's changes and saves its token in the same transaction (docs/sync.md, steps
    /// 5 and 6), so a crash leaves either both or neither. Nothing here is tracked as a local
    /// change, except where a merge keeps something the cloud does not have yet.
    @discardableResult
    public func applyIncoming(_ changes: IncomingChanges, zone: SyncZone, token: Data?, naming: some RecordNaming,
                              lexicon: (() -> Lexicon)? = nil, since: FetchStart = .unchecked) throws(StorageError) -> ApplyReport {
        try applyIncoming(zone: zone, naming: naming, lexicon: lexicon, since: since) { apply in
            try apply(changes)
            return token
        }
    }

    /// As `applyIncoming`, for a fetch that arrives in batches while it is read: `feed` hands
    /// each batch to `apply` and returns the token. All of it is one transaction: an error
    /// thrown by `feed` leaves the database as it was. With a dictionary (`lexicon`, read only
    /// when a record needs it) every word is looked up in it too (`IncomingApplication`).
    ///
    /// `since`: the zone's token the fetch began from. While another process of this machine
    /// fetched the zone further and saved its token, this older fetch is neither applied nor
    /// its token saved (the report says `stale`): saving it would move the token back, and a
    /// record made and deleted between the two tokens would then never be seen deleted here.
    public func applyIncoming(zone: SyncZone, naming: some RecordNaming, lexicon: (() -> Lexicon)? = nil, since: FetchStart = .unchecked,
                              feed: (_ apply: (IncomingChanges) throws -> Void) throws -> Data?) throws(StorageError) -> ApplyReport {
        try write { db in
            if case .token(let start) = since, try Self.zoneToken(zone, profile.playerID, db) != start {
                var stale = ApplyReport()
                stale.stale = true
                return stale
            }
            var application = try IncomingApplication(db: db, player: profile.playerID, naming: naming, lexicon: lexicon,
                                                      mergeOnly: since == .conflict)
            var devices: [String: String] = [:]
            let token = try feed { changes in
                try application.apply(changes)
                devices.merge(changes.devices) { $1 }
            }
            try application.finish()
            if let token {
                try db.cachedStatement(sql: """
                    INSERT INTO zoneToken (playerId, zone, token) VALUES (?, ?, ?)
                    ON CONFLICT (playerId, zone) DO UPDATE SET token = excluded.token
                    """).execute(arguments: [profile.playerID, zone.rawValue, token])
            }
            for (id, name) in devices where id != profile.device.id && AppDatabase.isValidDeviceName(name) {
                try db.cachedStatement(sql: """
                    INSERT INTO device (id, name, isLocal, lastSeenAt) VALUES (?, ?, 0, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, lastSeenAt = excluded.lastSeenAt
                    """).execute(arguments: [id, name, AppDatabase.millis(clock())])
            }
            return application.report
        }
    }

    /// The game as the cloud record would carry it, for a merge after "server record changed".
    public func syncGame(id: String) throws(StorageError) -> SyncGame? {
        try read { db in
            try GameRecord.fetchOne(db, key: id).flatMap { $0.playerId == profile.playerID ? $0.game : nil }
        }
    }

    public func zoneToken(_ zone: SyncZone) throws(StorageError) -> Data? {
        try read { db in try Self.zoneToken(zone, profile.playerID, db) }
    }

    private static func zoneToken(_ zone: SyncZone, _ player: String, _ db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT token FROM zoneToken WHERE playerId = ? AND zone = ?"), arguments: [player, zone.rawValue])
    }

    /// Notes that this machine has written records of this player's into the cloud's
    /// `generation`: from then on, its own files missing from the folder mean someone removed
    /// them (`SyncEngine`'s rewriting of them), not that it never wrote any.
    public func noteSent(generation: String) throws(StorageError) {
        try write { db in
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: ["sent " + profile.playerID, generation])
        }
    }

    /// Whether this machine has written records into the cloud's `generation` (`noteSent`).
    public func hasSent(generation: String) throws(StorageError) -> Bool {
        try read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: ["sent " + profile.playerID]) == generation
        }
    }

    public func syncRecord() throws(StorageError) -> (generation: String?, databaseToken: Data?, incompleteZones: Set<String>) {
        try read { db in
            let row = try SyncStateRecord.of(profile.playerID, db)
            return (row?.generation, row?.databaseToken,
                    Set((row?.incompleteZones ?? "").split(separator: ",").map(String.init)))
        }
    }

    public func saveDatabaseToken(_ token: Data?, generation: String?, incompleteZones: Set<String>) throws(StorageError) {
        try updateSyncState { state in
            state.databaseToken = token
            state.generation = generation
            state.incompleteZones = incompleteZones.sorted().joined(separator: ",")
        }
    }

    /// The zone whose first upload was being written as a snapshot when a sync stopped: its
    /// pages were acknowledged as they were written, before the snapshot was published, so
    /// the next sync asks the cloud whether it was (nil: no upload was under way).
    public func snapshotUploadZone() throws(StorageError) -> SyncZone? {
        try read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT snapshotUpload FROM syncState WHERE playerId = ?"), arguments: [profile.playerID])
                .flatMap(SyncZone.init(rawValue:))
        }
    }

    /// Notes (or, with nil, clears) the zone whose first upload is being written as a snapshot.
    public func noteSnapshotUpload(_ zone: SyncZone?) throws(StorageError) {
        try updateSyncState { $0.snapshotUpload = zone?.rawValue }
    }

    /// Records how the last sync ended, for `status` and the header.
    public func recordSyncOutcome(state: String, message: String?, at date: Date?) throws(StorageError) {
        try updateSyncState { row in
            row.state = state
            row.message = message
            if let date { row.lastSyncAt = AppDatabase.stamp(date) }
        }
    }

    public func syncStatus() throws(StorageError) -> SyncStatus {
        let pending = try pendingChangeCount()
        return try read { db in
            let row = try SyncStateRecord.of(profile.playerID, db)
            return SyncStatus(generation: row?.generation, lastSyncAt: row?.lastSyncAt, state: row?.state ?? "never",
                              message: row?.message, pendingChanges: pending)
        }
    }

    /// Forgets tokens and the cloud's metadata, keeping every game: the next sync uploads and
    /// downloads everything and merges it, which by record names duplicates nothing. With a new
    /// generation (the cloud was reset) queued deletions go too: the new cloud has nothing to delete.
    public func forgetSyncMetadata(newGeneration: String? = nil) throws(StorageError) {
        try write { db in try AppDatabase.forgetSyncMetadata(profile.playerID, newGeneration: newGeneration, db) }
    }

    /// Erases the player's games, guesses, marks, reading list and sync state on this machine.
    public func eraseLocalData(keepingGeneration generation: String? = nil) throws(StorageError) {
        try write { db in
            let player = profile.playerID
            for table in ["game", "bookmark", "bookmarkChange", "recordDeletion", "deletionByGame", "remoteRecord", "zoneToken", "orphanRecord", "syncState"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE playerId = ?", arguments: [player])
            }
            if let generation {
                try SyncStateRecord(playerId: player, generation: generation, databaseToken: nil, incompleteZones: "",
                                    lastSyncAt: nil, state: "never", message: nil).insert(db)
            }
        }
    }

    private func updateSyncState(_ change: @escaping (inout SyncStateRecord) -> Void) throws(StorageError) {
        try write { db in
            var row = try SyncStateRecord.of(profile.playerID, db)
                ?? SyncStateRecord(playerId: profile.playerID, generation: nil, databaseToken: nil, incompleteZones: "",
                                   lastSyncAt: nil, state: "never", message: nil)
            change(&row)
            try row.save(db)
        }
    }
}
