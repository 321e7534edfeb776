import Foundation
import GRDB
import QiktionaryCore

extension AppDatabase {
    // MARK: Starting and resuming

    // MARK: Playing

    /// The secret words of the game's pack allowed under its rules: the answers it can have (the
    /// coach's, which the application builds: `App.PlayerGames`).
    /// Nil when the pack is not here or no longer holds the secret (the caller then takes the
    /// dictionary's words of the game's length).
    public func answers(for game: Game) throws(StorageError) -> [String]? {
        try read { db in
            let words = try String.fetchAll(db.cachedStatement(sql: "SELECT word FROM packWord WHERE packId = ? ORDER BY position"),
                                            arguments: [game.packID]).filter { $0.count == game.length && game.rules.allows($0) }
            return words.contains(game.secret) ? words : nil
        }
    }

    // MARK: Lists

    /// A status as the statements compare it: Core's raw value (what the game table keeps), quoted.
    static func sql(_ status: GameStatus) -> String { "'\(status.rawValue)'" }

    /// The guesses a finished game `g` counts (`Game.guessesUsed`): up to its winning guess in
    /// the played order, all of them when it was not won. Core's rule is the definition; this
    /// restates it so the statistics need not load every guess, and `GuessesUsedAgreementTests`
    /// holds the two to the same counts over random games.
    static let guessesUsedSQL = """
        CASE WHEN g.status = \(AppDatabase.sql(.won)) AND EXISTS (SELECT 1 FROM guess w WHERE w.gameId = g.id AND w.word = g.secret)
          THEN (SELECT count(*) FROM guess u JOIN guess w ON w.gameId = u.gameId AND w.word = g.secret
                WHERE u.gameId = g.id AND (u.position < w.position OR (u.position = w.position AND u.word = w.word)))
          ELSE (SELECT count(*) FROM guess WHERE gameId = g.id) END
        """

    // MARK: Helpers inside a transaction

    static func gameRecord(_ id: String, _ profile: Profile, _ db: Database) throws -> GameRecord {
        guard let record = try GameRecord.fetchOne(db, key: id), record.playerId == profile.playerID else {
            throw StorageError.noGame(id)
        }
        return record
    }

    /// Stamps a change on the game: who made it, when, and the status it reached.
    static func recordChange(_ record: inout GameRecord, status: GameStatus, profile: Profile, now: Date, _ db: Database) throws {
        let old = record
        if status.isFinished && !record.status.isFinished { record.finishedAt = now }
        record.status = status
        record.updatedAt = now
        record.lastChangedOn = profile.device.name
        try record.update(db)
        try trackGameChange(record.id, fields: changedFields(old, record), db)
    }

    static func savedGame(_ record: GameRecord, _ db: Database) throws -> SavedGame {
        let guesses = try Self.orderedGuesses(record, db)
        // Fixed texts through cached statements: a list of thousands of games runs these per game.
        let marks = try MarkRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM mark WHERE gameId = ?"), arguments: [record.id])
        let bookmarked = try record.status.isFinished
            && Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM bookmark WHERE playerId = ? AND word = ?"),
                             arguments: [record.playerId, record.secret]).isTrue
        return SavedGame(record.game, guesses: guesses.map { Guess(word: $0.word, feedback: $0.feedback) },
                         marks: Dictionary(marks.compactMap { m in m.letter.first.map { ($0, m.state) } }, uniquingKeysWith: { a, _ in a }),
                         bookmarked: bookmarked, guessDevices: guesses.map(\.playedOn))
    }

    /// A game's guesses in the order they were played, the same on every machine whatever
    /// their clocks say: by position (a guess's position is one more than the guesses its
    /// machine had seen, so a guess made after seeing another comes after it); guesses two
    /// machines made at once share a position and go winning guess first, then by word.
    static func orderedGuesses(_ game: GameRecord, _ db: Database) throws -> [GuessRecord] {
        try GuessRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM guess WHERE gameId = ? \(playOrder)"),
                                 arguments: [game.id, game.secret])
    }

    /// Inserts a new game of the player's on the word chosen (`SyncGame.started`: solo, daily,
    /// challenge and match play alike), the help level the player's own unless asked.
    static func insertNewGame(id: String, request: GameRequest, choice: SecretChoice, maxGuesses: Int,
                              profile: Profile, now: Date, _ db: Database) throws -> SavedGame {
        let game = SyncGame.started(
            id: id, packID: choice.pack.id, secret: choice.word, fact: choice.fact, rules: choice.rules, maxGuesses: maxGuesses,
            hard: request.hard, assist: try request.assist ?? assist(profile.playerID, db), daily: request.daily,
            at: now, on: profile.device.name)
        let record = GameRecord(game: game, playerId: profile.playerID, systemFields: nil)
        try record.insert(db)
        return try savedGame(record, db)
    }

    /// Notes that a finished game of the player's gained or moved a guess here from elsewhere
    /// (a fetch or an import): what the game counts (`Game.guessesUsed`, the order of its
    /// guesses) may have changed though nothing of its row did, so the history's fingerprint
    /// (`historyFingerprint`) must change too, and the player's leaderboard line is worked out
    /// and published again (simulation seed 32277).
    static func noteFinishedGameGuessed(player: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO setting (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
            """).execute(arguments: [finishedGuessedKey(player)])
    }

    static func finishedGuessedKey(_ player: String) -> String { "finished games guessed " + player }

    /// That order as SQL, its one argument the game's secret.
    static let playOrder = "ORDER BY position, word = ? DESC, word"

    /// The choice of a new game's secret (Core's `SecretChoice`), asked of the packs and games
    /// here inside the transaction `db` is of.
    static func chooseSecret(_ request: GameRequest, drawing: SecretChoice.Drawing = .usualPack, playerID: String,
                             lexicon: (() -> Lexicon)?, _ db: Database) throws -> SecretChoice {
        try SecretChoice.choose(request, on: StoredShelf(db: db, playerID: playerID, lexicon: lexicon), drawing: drawing)
    }
}

/// The packs here and the player's games, as `SecretChoice` asks of them.
struct StoredShelf: PackShelf {
    let db: Database
    let playerID: String
    let lexicon: (() -> Lexicon)?

    func pack(_ id: String) throws -> PackHeading? { try PackRecord.fetchOne(db, key: id)?.heading }

    func firstPack() throws -> PackHeading? {
        try PackRecord.order(PackRecord.Columns.length, PackRecord.Columns.title).fetchOne(db)?.heading
    }

    func latestPlayedPack() throws -> PackHeading? {
        try String.fetchOne(db.cachedStatement(sql: """
            SELECT g.packId FROM game g JOIN pack p ON p.id = g.packId
            WHERE g.playerId = ? ORDER BY g.startedAt DESC LIMIT 1
            """), arguments: [playerID]).flatMap(pack)
    }

    func entry(_ word: String, in pack: String?) throws -> (pack: String, entry: Pack.Entry)? {
        var query = PackWordRecord.filter(PackWordRecord.Columns.word == word)
        if let pack { query = query.filter(PackWordRecord.Columns.packId == pack) }
        return try query.order(PackWordRecord.Columns.packId).fetchOne(db).map { ($0.packId, Pack.Entry(word: $0.word, fact: $0.fact)) }
    }

    func entries(of pack: String?) throws -> [(pack: String, entry: Pack.Entry)] {
        try PackWordRecord.inOrder(of: pack).fetchAll(db).map { ($0.packId, Pack.Entry(word: $0.word, fact: $0.fact)) }
    }

    /// One index probe per word of the pack, however many games were played.
    func played(in pack: String) throws -> Set<String> {
        try Set(String.fetchAll(db.cachedStatement(sql: """
            SELECT w.word FROM packWord w
            WHERE w.packId = ? AND EXISTS (SELECT 1 FROM game g WHERE g.playerId = ? AND g.packId = w.packId AND g.secret = w.word)
            """), arguments: [pack, playerID]))
    }

    func isDictionaryWord(_ word: String) -> Bool { lexicon?().contains(word) ?? false }

    static func refusing(_ refusal: SecretRefusal) -> any Error {
        switch refusal {
        case .unknownPack(let id): StorageError.unknownPack(id)
        case .wordNotInPack(let word, let pack): StorageError.wordNotInPack(word: word, pack: pack)
        case .unknownWord(let word): StorageError.unknownWord(word)
        case .noPacks: StorageError.packEmpty("(none installed)")
        case .packEmpty(let id): StorageError.packEmpty(id)
        case .rulesForbidWord(let word): StorageError.rulesForbidWord(word)
        }
    }
}

extension PackRecord {
    var heading: PackHeading { PackHeading(id: id, version: version, rules: rules, maxGuesses: maxGuesses) }
}

extension PackWordRecord {
    /// The words of one pack (nil: of every pack, by pack id), each pack's in its own order.
    static func inOrder(of pack: String?) -> QueryInterfaceRequest<PackWordRecord> {
        let all = PackWordRecord.order(Columns.packId, Columns.position)
        return pack.map { all.filter(Columns.packId == $0) } ?? all
    }
}

extension PlayerDatabase {
    /// Checks a request as `startGame` would and writes nothing: an unknown pack or word, or a
    /// word the rules forbid, is refused here (before the full screen opens).
    public func check(_ request: GameRequest, lexicon: (() -> Lexicon)? = nil) throws(StorageError) {
        _ = try chooseSecret(request, lexicon: lexicon)
    }

    /// The secret, pack and rules a new game on `request` would have (`SecretChoice`), writing
    /// nothing: a challenge's, drawn from every pack (`.everyPack`), or a check of a request.
    public func chooseSecret(_ request: GameRequest, drawing: SecretChoice.Drawing = .usualPack,
                             lexicon: (() -> Lexicon)? = nil) throws(StorageError) -> SecretChoice {
        try read { db in try AppDatabase.chooseSecret(request, drawing: drawing, playerID: profile.playerID, lexicon: lexicon, db) }
    }

    /// Starts a new game for the player. The word is the one asked for, or one drawn from the
    /// pack (seeded when a seed is given), preferring words the player has not had yet.
    public func startGame(_ request: GameRequest, lexicon: (() -> Lexicon)? = nil,
                          now: Date? = nil) throws(StorageError) -> SavedGame {
        let now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            // A daily game has one id per player and date: played already (here or, once synced,
            // on the other machine), it is resumed, never started twice.
            let id = request.daily.map { DailyWord.gameID(player: profile.playerID, date: $0) } ?? UUID().uuidString.lowercased()
            if request.daily != nil, let existing = try GameRecord.fetchOne(db, key: id) {
                guard existing.playerId == profile.playerID else { throw StorageError.noGame(id) }
                return try AppDatabase.savedGame(existing, db)
            }
            let choice = try AppDatabase.chooseSecret(request, playerID: profile.playerID, lexicon: lexicon, db)
            return try AppDatabase.insertNewGame(id: id, request: request, choice: choice, maxGuesses: choice.maxGuesses,
                                                 profile: profile, now: now, db)
        }
    }

    /// The game a start that names nothing resumes, by Core's rule (`Resumption.latest`).
    public func latestGameInProgress() throws(StorageError) -> SavedGame? {
        Resumption.latest(try inProgressGames())
    }

    /// Every game of the player still in progress, in no particular order: what the rules of
    /// resuming (`Resumption`) choose from.
    public func inProgressGames() throws(StorageError) -> [SavedGame] {
        try read { db in
            try GameRecord.fetchAll(db, sql: """
                SELECT g.* FROM game g INDEXED BY game_player_status WHERE g.playerId = ? AND g.status = \(AppDatabase.sql(.inProgress))
                """, arguments: [profile.playerID])
                .map { try AppDatabase.savedGame($0, db) }
        }
    }

    /// One of the player's games by its id or the start of it (as short as is unambiguous):
    /// an id that starts none of the player's games, or several, is refused.
    public func game(idOrPrefix typed: String) throws(StorageError) -> SavedGame {
        let typed = typed.lowercased()
        return try read { db in
            if let exact = try GameRecord.fetchOne(db, key: typed), exact.playerId == profile.playerID {
                return try AppDatabase.savedGame(exact, db)
            }
            // Core's one rule for a short id (`IDPrefix`), asked of the table.
            guard let prefix = IDPrefix.normalized(typed) else { throw StorageError.noGame(typed) }
            let found = try GameRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM game WHERE playerId = ? AND substr(id, 1, ?) = ? LIMIT 3"),
                                                arguments: [profile.playerID, prefix.count, prefix])
            if found.count > 1 {
                let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM game WHERE playerId = ? AND substr(id, 1, ?) = ?"),
                                             arguments: [profile.playerID, prefix.count, prefix]) ?? found.count
                throw StorageError.ambiguousGame(prefix, count: count)
            }
            guard let only = found.first else { throw StorageError.noGame(prefix) }
            return try AppDatabase.savedGame(only, db)
        }
    }

    /// One of the player's games.
    public func game(id: String) throws(StorageError) -> SavedGame {
        try read { db in try AppDatabase.savedGame(AppDatabase.gameRecord(id, profile, db), db) }
    }

    /// Checks a guess against the rules and saves it with its feedback in one transaction,
    /// so the guess is on disk before anyone is told how it scored.
    public func submitGuess(_ input: String, gameID: String, lexicon: Lexicon, now: Date? = nil) throws(StorageError) -> PlayedGuess {
        let now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            var record = try AppDatabase.gameRecord(gameID, profile, db)
            var game = try AppDatabase.savedGame(record, db).game
            let guess = try game.submit(input, lexicon: lexicon)
            try GuessRecord(
                gameId: gameID, position: game.guesses.count,
                guess: guess, playedAt: now, playedOn: profile.device.name
            ).insert(db)
            try AppDatabase.recordChange(&record, status: game.status, profile: profile, now: now, db)
            return PlayedGuess(guess: guess, number: game.guesses.count, game: try AppDatabase.savedGame(record, db))
        }
    }

    public func giveUp(gameID: String, now: Date? = nil) throws(StorageError) -> SavedGame {
        let now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            var record = try AppDatabase.gameRecord(gameID, profile, db)
            var game = try AppDatabase.savedGame(record, db).game
            try game.giveUp()
            try AppDatabase.recordChange(&record, status: game.status, profile: profile, now: now, db)
            return try AppDatabase.savedGame(record, db)
        }
    }

    /// Sets or clears (nil) the player's mark on one letter of the notepad.
    public func mark(_ letter: Character, as mark: LetterMark?, gameID: String, now: Date? = nil) throws(StorageError) -> SavedGame {
        let now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            var record = try AppDatabase.gameRecord(gameID, profile, db)
            let key = String(letter).lowercased()
            if let mark {
                try MarkRecord(gameId: gameID, letter: key, state: mark, markedAt: now).upsert(db)
            } else {
                try MarkRecord.filter(MarkRecord.Columns.gameId == gameID && MarkRecord.Columns.letter == key).deleteAll(db)
            }
            try AppDatabase.trackMarkChange(gameID, letter: key, db)
            try AppDatabase.recordChange(&record, status: record.status, profile: profile, now: now, db)
            return try AppDatabase.savedGame(record, db)
        }
    }

    /// Notes that the player was shown a hint now, before guess `guesses.count + 1`. Showing
    /// the same hint again at the same point counts once. Refused once the game is over.
    public func recordHint(gameID: String, now: Date? = nil) throws(StorageError) -> SavedGame {
        let now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            var record = try AppDatabase.gameRecord(gameID, profile, db)
            let saved = try AppDatabase.savedGame(record, db)
            if saved.game.isFinished { throw StorageError.rejected(.gameOver) }
            let hints = HintLog.text(saved.hints + [saved.game.guesses.count])
            guard hints != record.hints else { return saved }
            record.hints = hints
            try AppDatabase.recordChange(&record, status: record.status, profile: profile, now: now, db)
            try AppDatabase.trackGameChange(record.id, fields: [.hints], db)
            return try AppDatabase.savedGame(record, db)
        }
    }

    /// Keeps the result this machine is about to publish of a game of a match, the further on
    /// of it and the one the game kept (`MatchResult.furthest`), and queues it to go up with
    /// the game, so the player's other machines publish no less. Nothing else of the game
    /// changes (not its time of change: no move of the player's). Returns what the game keeps.
    @discardableResult
    public func keepMatchResult(gameID: String, _ result: String) throws(StorageError) -> String? {
        try write { db in
            var record = try AppDatabase.gameRecord(gameID, profile, db)
            let kept = MatchResult.furthest(record.matchResult, result)
            guard kept != record.matchResult else { return kept }
            record.matchResult = kept
            try record.update(db)
            try AppDatabase.trackGameChange(record.id, fields: [.matchResult], db)
            return kept
        }
    }

    /// The games in progress a list shows, by Core's rule (`Resumption.listed`).
    public func gamesInProgress() throws(StorageError) -> [SavedGame] {
        Resumption.listed(try inProgressGames())
    }

    /// Finished games, newest first.
    public func history(limit: Int? = nil) throws(StorageError) -> [SavedGame] {
        try read { db in
            try GameRecord
                .filter(GameRecord.Columns.playerId == profile.playerID && GameRecord.Columns.status != GameStatus.inProgress.rawValue)
                .order(GameRecord.Columns.finishedAt.desc, GameRecord.Columns.id)
                .limit(limit ?? -1)
                .fetchAll(db)
                .map { try AppDatabase.savedGame($0, db) }
        }
    }

    /// Deletes one finished game with its guesses and marks.
    public func deleteGame(id: String) throws(StorageError) {
        try write { db in
            let record = try AppDatabase.gameRecord(id, profile, db)
            if record.status == .inProgress { throw StorageError.gameInProgress(id) }
            try AppDatabase.trackGameDeletion(record, db)
            try record.delete(db)
        }
    }

    public func statistics() throws(StorageError) -> Statistics {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT g.status, g.hard, g.hints, g.assist, \(AppDatabase.guessesUsedSQL) AS used
                FROM game g WHERE g.playerId = ? AND g.status != \(AppDatabase.sql(.inProgress))
                ORDER BY g.finishedAt, g.id
                """, arguments: [profile.playerID])
            return Statistics(games: rows.compactMap { row in
                GameStatus(rawValue: row["status"]).map {
                    FinishedGame(status: $0, guessesUsed: row["used"], hard: row["hard"],
                                 hints: HintLog.parse(row["hints"] as String)?.count ?? 0,
                                 assist: Assist(rawValue: row["assist"]) ?? .before)
                }
            })
        }
    }

    public func packs() throws(StorageError) -> [PackProgress] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.*, (SELECT count(*) FROM packWord w WHERE w.packId = p.id) AS words,
                  (SELECT count(*) FROM packWord w WHERE w.packId = p.id AND EXISTS (
                     SELECT 1 FROM game g WHERE g.playerId = ? AND g.packId = p.id AND g.secret = w.word AND g.status = \(AppDatabase.sql(.won)))) AS solved
                FROM pack p ORDER BY p.length, p.title
                """, arguments: [profile.playerID]).map { row in
                PackProgress(
                    id: row["id"], title: row["title"], description: row["description"], length: row["length"],
                    rules: Rules(rawValue: row["rules"]) ?? .classic,
                    maxGuesses: row["maxGuesses"] ?? Game.defaultMaxGuesses, words: row["words"], solved: row["solved"]
                )
            }
        }
    }
}
