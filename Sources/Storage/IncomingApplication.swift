import Foundation
import GRDB
import QiktionaryCore

/// Applies a fetch's records inside one transaction, by the game's conflict rules: no guess is
/// ever lost, a game's status only moves up, and a mark or bookmark with a change still waiting
/// to be sent keeps the local value (it is sent next and wins by causal order). A record the
/// game's rules refuse (`check`: a game no start could have made, a guess no game could have
/// been given, a bookmark nothing here backs) changes nothing and is told in the report.
struct IncomingApplication {
    let db: Database
    let player: String
    /// The cloud's names for the rows applied here.
    let naming: any RecordNaming
    var report = ApplyReport()
    /// Games whose guesses or status may need settling: those of the batch being applied.
    /// Each batch settles its games but the last (whose records may go on in the next one),
    /// so what is kept here stays a batch's worth however long the history.
    private var touched = Set<String>()
    /// The player's games this batch applied or found, so their guesses and marks need no
    /// lookup (a fetch gives records by name: a game, then its guesses and marks).
    private var recent = Set<String>()
    /// What settling needs of each game applied here, as it was left: a won game needs no
    /// settling, and the others need not be read again.
    private var known: [String: Settling] = [:]
    /// Whether any mark or bookmark change waits to be sent. Usually not (always on a new
    /// machine), and then no fetched mark or bookmark needs a look at the queue.
    private let marksPending: Bool
    private let bookmarksPending: Bool
    /// Whether any game's deletion waits to be sent (usually not): a game deleted here is not
    /// put back by a version fetched (or met in a conflict) before the deletion goes up.
    private let deletionsPending: Bool
    /// Whether this machine keeps the cloud's system fields of any mark or bookmark (not on a
    /// new machine, whose first fetch then needs no look at them).
    private let versionsKept: Bool
    /// Whether any record of the player's waits for its game: usually none (always on a new
    /// machine), and then a deletion needs no look there. Set again when one is stashed.
    private var orphansWaiting: Bool
    /// The cloud's versions met by a commit (`FetchStart.conflict`): merged into the games
    /// here, never bringing back one that is gone.
    private let mergeOnly: Bool
    /// What each inserted row reuses from the one before.
    private let reuse = InsertReuse()
    /// The game of the guess applied last in this batch: found, and touched. A game's guesses
    /// come one after the other, so most guesses need neither a lookup nor a set insert.
    private var lastGuessGame: String?
    /// That game, as a guess of it is checked (`Game.playedProblem`), and whether it is a daily game.
    private var lastGuessRules: (game: Game, daily: Bool)?
    /// The dictionary, read the first time a record needs it (most syncs bring a guess, and a
    /// process reads it once); nil when the caller gave none (then words are not looked up).
    private let lexicon: (() -> Lexicon)?
    private var words: Lexicon??
    /// Whether a guess of a finished game was applied (`AppDatabase.noteFinishedGameGuessed`).
    private var finishedGameGuessed = false
    /// Games of this fetch refused and not here: their guesses and marks are refused too.
    private var refusedGames = Set<String>()
    /// The facts of the player's games by their words, read the first time a bookmark needs them.
    private var gameFacts: [String: Set<String>]?

    /// A game's row as settling reads it, and as its guesses are checked.
    fileprivate struct Settling {
        var status: GameStatus
        var secret: String
        var maxGuesses: Int
        var finishedAt: Date?
        var rules: Rules
        var daily: Bool
    }

    init(db: Database, player: String, naming: any RecordNaming, lexicon: (() -> Lexicon)? = nil, mergeOnly: Bool = false) throws {
        self.db = db
        self.player = player
        self.mergeOnly = mergeOnly
        self.naming = naming
        self.lexicon = lexicon
        // Applying never queues a mark or bookmark, so what is read here holds for the whole fetch.
        marksPending = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM markChange LIMIT 1")).isTrue
        bookmarksPending = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM bookmarkChange WHERE playerId = ? LIMIT 1"), arguments: [player]).isTrue
        orphansWaiting = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM orphanRecord WHERE playerId = ? LIMIT 1"), arguments: [player]).isTrue
        deletionsPending = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM deletionByGame WHERE playerId = ? AND word = '' LIMIT 1"),
                                             arguments: [player]).isTrue
        versionsKept = try AppDatabase.keepsRemoteRecords(player, db)
    }

    mutating func run(_ changes: IncomingChanges) throws {
        try apply(changes)
        try finish()
    }

    /// One batch of a fetch: its games first, so their guesses and marks find them. A fetch
    /// applied in several batches (a streamed one) ends with one `finish`.
    mutating func apply(_ changes: IncomingChanges) throws {
        for (game, fields) in changes.games { try apply(game, fields) }
        for guess in changes.guesses { try apply(guess) }
        for (mark, fields) in changes.marks { try apply(mark, fields) }
        for (bookmark, fields) in changes.bookmarks {
            if let problem = try check(bookmark) {
                refuse(.bookmark, naming.bookmark(word: bookmark.word), problem)
                continue
            }
            try apply(bookmark, fields)
        }
        for deletion in changes.deletions { try delete(deletion) }
        lastGuessGame = nil
        // Every game of the batch but the last by name has all its records of this fetch's
        // order in: settle them now. A record that comes later (out of order, or waiting for
        // its game) touches its game again, and settling again only moves its status up.
        let last = touched.max()
        try settle(touched.filter { $0 != last })
        touched = last.map { [$0] } ?? []
        recent = recent.intersection(touched)
    }

    /// Once everything is in: records that waited for their game, then each touched game's status.
    mutating func finish() throws {
        try adoptOrphans()
        try settle(touched)
        touched = []
        if finishedGameGuessed {
            try AppDatabase.noteFinishedGameGuessed(player: player, db)
            finishedGameGuessed = false
        }
        report.waiting = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM orphanRecord WHERE playerId = ?"), arguments: [player]) ?? 0
    }

    private mutating func settle(_ gameIDs: Set<String>) throws {
        for gameID in gameIDs.sorted() where known[gameID]?.status != .won { try settle(gameID) }
        for gameID in gameIDs { known[gameID] = nil }
    }

    // MARK: Records

    private mutating func apply(_ remote: SyncGame, _ fields: Data) throws {
        // A game new here, or under another word, starts on a word a game can have; a game here
        // on its word was already taken (its word not in this dictionary only when another
        // version started it), and its record may still change it.
        if let problem = Game.secretProblem(remote.secret, rules: remote.rules, lexicon: dictionary()), try !isHere(remote) {
            return try refuse(remote, problem)
        }
        // The game's system fields are kept in its own row.
        // Deleted here, its deletion not sent yet: it goes up next and wins (deletion wins).
        if try deletedHere(remote.id) {
            report.applied += 1
            return
        }
        if mergeOnly, try !gameExists(remote.id) { return }
        touched.insert(remote.id)
        // A game new here is inserted at once (most of a first sync); otherwise it is merged,
        // unless another player has that id (then it is not ours).
        let row = GameRecord(remote, player: player, systemFields: fields)
        if try row.insertByStatement(db, unlessPresent: true, reuse: reuse) {
            report.applied += 1
            recent.insert(remote.id)
            known[remote.id] = Settling(row)
            return
        }
        guard var local = try GameRecord.fetchOne(db, key: remote.id), local.playerId == player else { return }
        if local.secret != remote.secret {
            // Only a daily game's id is made alike on two machines (`DailyWord.gameID`): any
            // other game with another word under its id is no copy of the game here.
            guard local.daily != nil && remote.daily != nil else { return try refuse(remote, "its word is not the word of the game here") }
            report.applied += 1
            return try takeTheCloudsWord(row)
        }
        report.applied += 1
        recent.insert(remote.id)
        let before = local
        let remote = local.merge(remote)
        local.systemFields = fields
        try local.update(db)
        known[remote.id] = Settling(local)
        // What the merge kept that the cloud lacks goes back up, so both sides converge.
        let ahead = AppDatabase.changedFields(GameRecord(remote, player: player, systemFields: fields), local)
        if !ahead.isEmpty {
            report.merged += 1
            try AppDatabase.trackGameChange(local.id, fields: ahead, db)
        } else if before.status != local.status || before.finishedAt != local.finishedAt {
            report.merged += 1
        }
    }

    /// One game id with two words: a daily game started on two machines whose schedules named
    /// different words for its date, before either had synced. The copy in the cloud (the one
    /// sent first) is the game on every machine: this machine's copy goes with its guesses and
    /// marks, which were scored against the other word and are never merged into this one.
    private mutating func takeTheCloudsWord(_ row: GameRecord) throws {
        // The guesses, marks and queued changes go with the game row (ON DELETE CASCADE).
        try db.cachedStatement(sql: "DELETE FROM game WHERE id = ? AND playerId = ?").execute(arguments: [row.id, player])
        try row.insert(db)
        recent.insert(row.id)
        known[row.id] = Settling(row)
        if lastGuessGame == row.id { lastGuessGame = nil }
        report.merged += 1
    }

    private mutating func apply(_ remote: SyncGuess) throws {
        let name = naming.guess(gameID: remote.gameID, word: remote.word)
        if remote.gameID != lastGuessGame {
            if refusedGames.contains(remote.gameID) { return refuse(.guess, name, Self.gameRefused) }
            guard let game = try guessedGame(remote.gameID) else { return try stash(name, remote.gameID, Orphan(guess: remote, fields: Data())) }
            touched.insert(remote.gameID)
            if game.status.isFinished { finishedGameGuessed = true }
            lastGuessGame = remote.gameID
            lastGuessRules = (Game(id: remote.gameID, packID: "", secret: game.secret, rules: game.rules, maxGuesses: game.maxGuesses), game.daily)
        }
        // Held to the rules the game is played by here: a word the game takes, within its limit,
        // scored as its secret scores it.
        if let (game, daily) = lastGuessRules,
           let problem = game.playedProblem(remote.word, feedback: remote.feedback, position: remote.position, lexicon: dictionary()) {
            // A daily game's guess scored against another word than the game's (its other copy
            // lost to this one, `takeTheCloudsWord`) is that copy's guess, not this game's: it is
            // left out without a word, as it always was.
            if daily && problem == .wrongScore { return }
            return refuse(.guess, name, problem.reason)
        }
        // A guess never changes once played, so its system fields are never sent back: the
        // guess row's `uploaded` is all this machine keeps of the cloud's copy.
        report.applied += 1
        // The same guess made here already is the same record: it only learns the cloud has it.
        _ = try GuessRecord(gameId: remote.gameID, position: remote.position, guess: Guess(word: remote.word, feedback: remote.feedback),
                            playedAt: remote.playedAt, playedOn: remote.playedOn, uploaded: true).insertByStatement(db, reuse: reuse)
    }

    private mutating func apply(_ remote: SyncMark, _ fields: Data) throws {
        let name = naming.mark(gameID: remote.gameID, letter: remote.letter)
        if refusedGames.contains(remote.gameID) { return refuse(.mark, name, Self.gameRefused) }
        guard try gameExists(remote.gameID) else { return try stash(name, remote.gameID, Orphan(mark: remote, fields: fields)) }
        if try olderThanKept(name, fields) { return }
        try remember(name, .games, game: remote.gameID, fields)
        report.applied += 1
        if marksPending, try exists(Self.pendingMark, remote.gameID, remote.letter) { return try execute(Self.resendMark, remote.gameID, remote.letter) }
        if let state = remote.state {
            var upsert = RowInsert(try db.cachedStatement(sql: Self.upsertMark))
            upsert.bind(remote.gameID)
            upsert.bind(remote.letter)
            upsert.bind(state.rawValue)
            upsert.bind(AppDatabase.millis(remote.markedAt))
            try upsert.run(db)
        } else {
            try execute(Self.deleteMark, remote.gameID, remote.letter)
        }
    }

    private mutating func apply(_ remote: SyncBookmark, _ fields: Data) throws {
        let name = naming.bookmark(word: remote.word)
        if try olderThanKept(name, fields) { return }
        try remember(name, .readingList, game: nil, fields)
        report.applied += 1
        if bookmarksPending, try exists(Self.pendingBookmark, player, remote.word) { return try execute(Self.resendBookmark, player, remote.word) }
        if remote.isBookmarked {
            var upsert = RowInsert(try db.cachedStatement(sql: Self.upsertBookmark))
            upsert.bind(player)
            upsert.bind(remote.word)
            upsert.bind(remote.packID)
            upsert.bind(remote.fact)
            upsert.bind(AppDatabase.millis(remote.addedAt))
            try upsert.run(db)
        } else {
            try execute(Self.deleteBookmark, player, remote.word)
        }
    }

    private mutating func delete(_ deletion: IncomingDeletion) throws {
        let name = deletion.name
        // A game's system fields are in its row and a guess keeps none (a first sync of a
        // history with deleted games meets tens of thousands of these).
        switch deletion.kind {
        case .game, .guess: break
        case .bookmark, .other: try execute("DELETE FROM remoteRecord WHERE playerId = ? AND recordName = ?", player, name)
        }
        if orphansWaiting { try execute("DELETE FROM orphanRecord WHERE playerId = ? AND recordName = ?", player, name) }
        let removed: Int
        switch deletion.kind {
        case .game(let id):
            if orphansWaiting { try execute("DELETE FROM orphanRecord WHERE playerId = ? AND gameId = ?", player, id) }
            try execute("DELETE FROM game WHERE id = ? AND playerId = ?", id, player)
            removed = db.changesCount
            recent.remove(id)
            known[id] = nil
        case .guess(let game, let word):
            var statement = RowInsert(try db.cachedStatement(sql: Self.deleteGuess))
            statement.bind(game)
            statement.bind(word)
            statement.bind(player)
            try statement.run(db)
            removed = db.changesCount
        case .bookmark(let word):
            try execute(Self.deleteBookmark, player, word)
            removed = db.changesCount
        case .other:
            removed = 0
        }
        report.deleted += removed
    }

    // MARK: Settling

    /// After a merge the game's status is what its guesses prove (a guess of the secret wins;
    /// a full board loses), never lower than it was: the same on every machine.
    ///
    /// As `settle(_:guesses:)` on the game's row and `AppDatabase.orderedGuesses`, through fixed
    /// statements: a first sync settles every game not won, thousands of them.
    private func settle(_ gameID: String) throws {
        guard let game = try known[gameID] ?? storedGame(gameID), game.status != .won else { return }
        var guesses: [(word: String, playedAt: Date)] = []
        var query = RowInsert(try db.cachedStatement(sql: Self.orderedGuesses))
        query.bind(gameID)
        query.bind(game.secret)
        while try query.step(db) { guesses.append((query.text(0), AppDatabase.time(query.integer(1)))) }
        let settled = GameMerge.settle(status: game.status, finishedAt: game.finishedAt, secret: game.secret, maxGuesses: game.maxGuesses,
                                       guesses: guesses)
        // Only the status moves the finish time (as `settle(_:guesses:)`); nothing else of the row changes.
        guard settled.status != game.status else { return }
        var update = RowInsert(try db.cachedStatement(sql: "UPDATE game SET status = ?, finishedAt = ? WHERE id = ?"))
        update.bind(settled.status.rawValue)
        update.bind(settled.finishedAt.map(AppDatabase.millis))
        update.bind(gameID)
        try update.run(db)
    }

    /// A game's row as settling reads it, for a game no record of this fetch named (its guesses did).
    private func storedGame(_ gameID: String) throws -> Settling? {
        var query = RowInsert(try db.cachedStatement(sql: Self.gameRow))
        query.bind(gameID)
        query.bind(player)
        guard try query.step(db) else { return nil }
        defer { query.reset() }
        guard let status = GameStatus(rawValue: query.text(0)), let rules = Rules(rawValue: query.text(4)) else {
            throw StorageError.database("a game has a status or rules this version does not know")
        }
        return Settling(status: status, secret: query.text(1), maxGuesses: Int(query.integer(2)),
                        finishedAt: query.isNull(3) ? nil : AppDatabase.time(query.integer(3)), rules: rules, daily: !query.isNull(5))
    }

    /// What a game's guesses prove, in their played order: a guess of the secret wins, a full
    /// board loses; never a lower status than the game had. Shared by sync and import.
    static func settle(_ game: inout GameRecord, guesses: [GuessRecord]) {
        let settled = GameMerge.settle(status: game.status, finishedAt: game.finishedAt, secret: game.secret, maxGuesses: game.maxGuesses,
                                       guesses: guesses.map { ($0.word, $0.playedAt) })
        if settled.status != game.status {
            game.status = settled.status
            game.finishedAt = settled.finishedAt.map(AppDatabase.stamp)
        }
    }

    // MARK: Records that arrive before their game

    private struct Orphan: Codable {
        var guess: SyncGuess?
        var mark: SyncMark?
        var fields: Data
    }

    private mutating func stash(_ name: String, _ gameID: String, _ orphan: Orphan) throws {
        // A record of a game deleted here waits for nothing: the game is not coming back.
        if mergeOnly { return }
        if try deletedHere(gameID) { return }
        orphansWaiting = true
        try db.cachedStatement(sql: """
            INSERT INTO orphanRecord (playerId, recordName, gameId, payload) VALUES (?, ?, ?, ?)
            ON CONFLICT (playerId, recordName) DO UPDATE SET payload = excluded.payload
            """).execute(arguments: [player, name, gameID, try JSONEncoder().encode(orphan)])
    }

    private mutating func adoptOrphans() throws {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT o.recordName, o.payload FROM orphanRecord o JOIN game g ON g.id = o.gameId
            WHERE o.playerId = ? AND g.playerId = ?
            """), arguments: [player, player])
        for row in rows {
            try db.cachedStatement(sql: "DELETE FROM orphanRecord WHERE playerId = ? AND recordName = ?").execute(arguments: [player, row["recordName"] as String])
            guard let orphan = try? JSONDecoder().decode(Orphan.self, from: row["payload"] as Data) else { continue }
            if let guess = orphan.guess { try apply(guess) }
            if let mark = orphan.mark { try apply(mark, orphan.fields) }
        }
    }

    // MARK: Helpers

    /// The player's game a guess names, as its guesses are checked: one this fetch applied, or
    /// the row here (one lookup, as finding it would cost); nil when it has not arrived.
    private mutating func guessedGame(_ id: String) throws -> Settling? {
        if let game = known[id] { return game }
        guard let game = try storedGame(id) else { return nil }
        recent.insert(id)
        return game
    }

    // MARK: The game's rules

    /// The dictionary, read once when first asked for; nil when none was given.
    private mutating func dictionary() -> Lexicon? {
        if let words { return words }
        let loaded = lexicon?()
        words = .some(loaded)
        return loaded
    }

    static let gameRefused = "its game was refused"

    private mutating func refuse(_ kind: IncomingRefusal.Kind, _ name: String, _ reason: String) {
        report.refused.append(IncomingRefusal(kind: kind, name: name, reason: reason))
    }

    /// Refuses a game: nothing of it is applied, and when it is not here its guesses and marks
    /// in this fetch are refused with it (a game here keeps taking its own).
    private mutating func refuse(_ game: SyncGame, _ reason: String) throws {
        refuse(.game, naming.game(game.id), reason)
        if try !gameExists(game.id) { refusedGames.insert(game.id) }
    }

    /// What is wrong with a bookmark: its word must be a word of the dictionary, and when the
    /// pack it names holds the word here, its fact must be that entry's or a game's of the
    /// player on that word (where a bookmark takes its fact from, `addBookmark`). A pack not
    /// here, or one whose version here no longer holds the word, gives nothing to hold it to.
    /// A removal is not checked: it adds nothing.
    private mutating func check(_ bookmark: SyncBookmark) throws -> String? {
        guard bookmark.isBookmarked else { return nil }
        if let words = dictionary(), !words.contains(bookmark.word) { return "its word is not a word of the dictionary" }
        var query = RowInsert(try db.cachedStatement(sql: "SELECT fact FROM packWord WHERE packId = ? AND word = ?"))
        query.bind(bookmark.packID)
        query.bind(bookmark.word)
        guard try query.step(db) else { return nil }
        let entry = query.text(0)
        query.reset()
        if entry == bookmark.fact { return nil }
        if gameFacts == nil {
            var facts: [String: Set<String>] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT secret, fact FROM game WHERE playerId = ? AND fact != ''", arguments: [player])
            while let row = try rows.next() { facts[row[0] as String, default: []].insert(row[1] as String) }
            gameFacts = facts
        }
        if gameFacts?[bookmark.word]?.contains(bookmark.fact) == true { return nil }
        return "its fact is not its word's fact in its pack here, nor that of a game of yours on that word"
    }

    /// Whether the game is the player's here, on the same word.
    private func isHere(_ game: SyncGame) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM game WHERE id = ? AND playerId = ? AND secret = ?"), arguments: [game.id, player, game.secret]).isTrue
    }

    private func deletedHere(_ gameID: String) throws -> Bool {
        guard deletionsPending else { return false }
        return try exists("SELECT 1 FROM deletionByGame WHERE playerId = ? AND gameId = ? AND word = ''", player, gameID)
    }

    private mutating func gameExists(_ id: String) throws -> Bool {
        if recent.contains(id) { return true }
        var query = RowInsert(try db.cachedStatement(sql: "SELECT 1 FROM game WHERE id = ? AND playerId = ?"))
        query.bind(id)
        query.bind(player)
        defer { query.reset() }
        guard try query.step(db) else { return false }
        recent.insert(id)
        return true
    }

    // Fixed texts, so each is compiled once per connection and found again by its text.
    private static let gameRow = "SELECT status, secret, maxGuesses, finishedAt, rules, daily FROM game WHERE id = ? AND playerId = ?"
    private static let orderedGuesses = "SELECT word, playedAt FROM guess WHERE gameId = ? \(AppDatabase.playOrder)"
    private static let keptFields = "SELECT systemFields FROM remoteRecord WHERE playerId = ? AND recordName = ?"
    private static let pendingMark = "SELECT 1 FROM markChange WHERE gameId = ? AND letter = ?"
    private static let pendingBookmark = "SELECT 1 FROM bookmarkChange WHERE playerId = ? AND word = ?"
    /// A local change kept over a fetched version must go up after it, to win everywhere: its
    /// version moves on, so a send of it already under way (another process's, committed before
    /// the fetched version and not yet acknowledged) does not clear it.
    private static let resendMark = "UPDATE markChange SET version = version + 1 WHERE gameId = ? AND letter = ?"
    private static let resendBookmark = "UPDATE bookmarkChange SET version = version + 1 WHERE playerId = ? AND word = ?"
    private static let upsertMark = """
        INSERT INTO mark (gameId, letter, state, markedAt) VALUES (?, ?, ?, ?)
        ON CONFLICT (gameId, letter) DO UPDATE SET state = excluded.state, markedAt = excluded.markedAt
        """
    private static let deleteMark = "DELETE FROM mark WHERE gameId = ? AND letter = ?"
    private static let deleteGuess = "DELETE FROM guess WHERE gameId = ? AND word = ? AND uploaded AND gameId IN (SELECT id FROM game WHERE playerId = ?)"
    private static let upsertBookmark = """
        INSERT INTO bookmark (playerId, word, packId, fact, addedAt) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (playerId, word) DO UPDATE SET packId = excluded.packId, fact = excluded.fact, addedAt = excluded.addedAt
        """
    private static let deleteBookmark = "DELETE FROM bookmark WHERE playerId = ? AND word = ?"

    /// Runs a statement of two text arguments through its cached statement.
    private func execute(_ sql: String, _ first: String, _ second: String) throws {
        var statement = RowInsert(try db.cachedStatement(sql: sql))
        statement.bind(first)
        statement.bind(second)
        try statement.run(db)
    }

    /// Whether a query of two text arguments finds a row.
    private func exists(_ sql: String, _ first: String, _ second: String) throws -> Bool {
        var query = RowInsert(try db.cachedStatement(sql: sql))
        query.bind(first)
        query.bind(second)
        guard try query.step(db) else { return false }
        query.reset()
        return true
    }

    /// Whether a fetched mark or bookmark is older than the version of it this machine keeps: a
    /// fetch read the cloud, and before it was applied another process of this machine sent a
    /// newer value and cleared it (found by the simulation, seed 5268). The older one is not
    /// applied: the cloud keeps the newer, every other machine takes it, and nothing here
    /// would ever send it again.
    private func olderThanKept(_ name: String, _ fields: Data) throws -> Bool {
        guard versionsKept else { return false }
        var query = RowInsert(try db.cachedStatement(sql: Self.keptFields))
        query.bind(player)
        query.bind(name)
        guard try query.step(db) else { return false }
        defer { query.reset() }
        return naming.isOlder(fields, than: query.blob(0))
    }

    private func remember(_ name: String, _ zone: SyncZone, game: String?, _ fields: Data) throws {
        try Self.remember(name, zone, game: game, fields, player: player, db, reuse: reuse)
    }

    private static let rememberSQL = """
        INSERT INTO remoteRecord (playerId, recordName, zone, systemFields, gameId) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (playerId, recordName) DO UPDATE SET systemFields = excluded.systemFields
        """

    /// Keeps the cloud's system fields of a record, as a fetch or an acknowledged save brings
    /// them, with the game it belongs to (so deleting the game can name it).
    static func remember(_ name: String, _ zone: SyncZone, game: String?, _ fields: Data, player: String, _ db: Database,
                         reuse: InsertReuse? = nil) throws {
        var insert = try InsertReuse.row(reuse, \.remember, db, sql: rememberSQL)
        insert.bind(player)
        insert.bind(name)
        insert.bind(zone.rawValue)
        insert.bind(fields)
        insert.bind(game)
        try insert.run(db)
    }
}

/// What the inserts of one fetch reuse from row to row: each statement, looked up by its text
/// once (hashing a statement's text for every row cost about a twentieth of a first sync's
/// storing), and the room for each row's values (`RowInsert.Scratch`). One fetch, one thread.
final class InsertReuse {
    let scratch = RowInsert.Scratch()
    fileprivate var guessHere: Statement?
    fileprivate var guessFromCloud: Statement?
    fileprivate var game: Statement?
    fileprivate var gameUnlessPresent: Statement?
    fileprivate var remember: Statement?

    /// A row for the statement of `sql`: the one kept in `slot` when there is a reuse, else
    /// the connection's cached one.
    fileprivate static func row(_ reuse: InsertReuse?, _ slot: ReferenceWritableKeyPath<InsertReuse, Statement?>,
                                _ db: Database, sql: String) throws -> RowInsert {
        guard let reuse else { return RowInsert(try db.cachedStatement(sql: sql)) }
        if let statement = reuse[keyPath: slot] { return RowInsert(statement, scratch: reuse.scratch) }
        let statement = try db.cachedStatement(sql: sql)
        reuse[keyPath: slot] = statement
        return RowInsert(statement, scratch: reuse.scratch)
    }
}

extension GuessRecord {
    private static let insertColumns = """
        INSERT INTO guess (gameId, position, word, common, inPlace, inWord, playedAt, playedOn, uploaded)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (gameId, word)
        """
    // Fixed texts: a first sync inserts tens of thousands, each looking its statement up by its text.
    private static let insertHere = insertColumns + " DO NOTHING"
    private static let insertFromCloud = insertColumns
        + " DO UPDATE SET uploaded = 1, position = excluded.position, playedAt = excluded.playedAt, playedOn = excluded.playedOn"

    /// Inserts the row through one cached statement; whether it was new. A guess from the cloud
    /// (`uploaded`) that this machine made too learns the cloud has it, and takes the cloud's
    /// version of it: one word played on two machines is one record with two versions (two
    /// positions, times and devices), and every machine must list it at the same place (found
    /// by the simulation, seed 4080). One made or imported here is kept as it is if the game
    /// has it already.
    func insertByStatement(_ db: Database, reuse: InsertReuse? = nil) throws -> Bool {
        var insert = try !uploaded
            ? InsertReuse.row(reuse, \.guessHere, db, sql: Self.insertHere)
            : InsertReuse.row(reuse, \.guessFromCloud, db, sql: Self.insertFromCloud)
        insert.bind(gameId)
        insert.bind(position)
        insert.bind(word)
        insert.bind(common)
        insert.bind(inPlace)
        insert.bind(inWord)
        insert.bind(AppDatabase.millis(playedAt))
        insert.bind(playedOn)
        insert.bind(uploaded ? 1 : 0)
        try insert.run(db)
        return db.changesCount > 0
    }
}

extension GameRecord {
    /// Merges another copy of the game into this row by the game's rules (`GameMerge`) and
    /// takes the whole merged value: sync and import write a merge back through this alone.
    /// The other copy's times are taken as the database gives them back, so the merge compares
    /// like with like; that copy, so stamped, is returned.
    mutating func merge(_ other: SyncGame) -> SyncGame {
        var other = other
        other.startedAt = AppDatabase.stamp(other.startedAt)
        other.updatedAt = AppDatabase.stamp(other.updatedAt)
        other.finishedAt = other.finishedAt.map(AppDatabase.stamp)
        game = GameMerge.merge(game, other)
        return other
    }

    private static let insert = """
        INSERT INTO game (\(columnList())) VALUES (\(databaseQuestionMarks(count: columns.count)))
        """
    private static let insertUnlessPresent = insert + " ON CONFLICT (id) DO NOTHING"

    /// Inserts the row through one cached statement, bound by SQLite's own calls: a full fetch
    /// or an import inserts thousands, where a record insert each would cost several times more.
    /// With `unlessPresent`, a game whose id is already there is left as it is, and false
    /// returned; otherwise such a game is an error, as for any insert.
    @discardableResult
    func insertByStatement(_ db: Database, unlessPresent: Bool = false, reuse: InsertReuse? = nil) throws -> Bool {
        var insert = try unlessPresent
            ? InsertReuse.row(reuse, \.gameUnlessPresent, db, sql: Self.insertUnlessPresent)
            : InsertReuse.row(reuse, \.game, db, sql: Self.insert)
        for column in Self.columns { insert.bind(column.value(self)) }
        try insert.run(db)
        return db.changesCount > 0
    }

    /// A game from the cloud, with the system fields it has there.
    init(_ game: SyncGame, player: String, systemFields: Data) {
        var game = game
        game.finishedAt = game.status.isFinished ? game.finishedAt ?? game.updatedAt : nil
        self.init(game: game, playerId: player, systemFields: systemFields)
    }
}

extension Optional where Wrapped == Bool {
    var isTrue: Bool { self ?? false }
}

extension IncomingApplication.Settling {
    init(_ game: GameRecord) {
        self.init(status: game.status, secret: game.secret, maxGuesses: game.maxGuesses, finishedAt: game.finishedAt, rules: game.rules,
                  daily: game.daily != nil)
    }
}
