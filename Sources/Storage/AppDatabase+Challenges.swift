import Foundation
import GRDB
import QiktionaryCore

/// The day's word and challenge codes, as requests for `startGame`.
extension AppDatabase {
    /// The daily game of a date (a day since 1970-01-01, the player's local date): the word the
    /// shipped schedule names for it, under its pack's rules. A daily game of that date already
    /// here (played on this machine, or synced from another whose schedule may differ) is
    /// resumed with its own word by `startGame`, whatever this schedule says.
    public func dailyRequest(day: Int, schedule: DailySchedule) throws(StorageError) -> GameRequest {
        guard let entry = schedule.entry(day: day) else { throw .packEmpty("(the daily schedule is empty)") }
        return GameRequest(packID: entry.pack, word: entry.word, daily: DailyWord.date(day: day))
    }

    /// The game a challenge code names: its pack's word when this machine has that pack and
    /// word, else the same word as a practice game.
    public func challengeRequest(code: String, lexicon: Lexicon) throws(StorageError) -> GameRequest {
        let packIDs = try read { db in try String.fetchAll(db, sql: "SELECT id FROM pack") }
        let challenge: Challenge
        do { challenge = try ChallengeCode.decode(code, lexicon: lexicon, packIDs: packIDs) } catch { throw .challenge(error) }
        let inPack = try challenge.pack.map { pack throws(StorageError) in
            try read { db in try PackWordRecord.fetchOne(db, key: ["packId": pack.id, "word": challenge.word]) != nil }
        } ?? false
        return GameRequest(packID: inPack ? challenge.pack?.id : nil, word: challenge.word, rules: challenge.rules, hard: challenge.hard)
    }

    /// The code that passes a game on: its word, pack and version, rules and hard mode. Nil
    /// for a word the code cannot carry.
    public func challengeCode(for game: Game, lexicon: Lexicon) throws(StorageError) -> String? {
        let version = try read { db in try Int.fetchOne(db, sql: "SELECT version FROM pack WHERE id = ?", arguments: [game.packID]) }
        let pack = game.packID == Practice.packID ? nil : version.map { (id: game.packID, version: $0) }
        let challenge = Challenge(pack: pack, word: game.secret, rules: game.rules, hard: game.hard)
        return try? ChallengeCode.encode(challenge, dictionary: lexicon.words(ofLength: game.length))
    }

    /// The spoiler-free summary of a finished game (`ShareText`).
    public func shareText(for saved: SavedGame) throws(StorageError) -> String {
        guard saved.game.isFinished else { throw .noShareYet }
        let title = try read { db in try String.fetchOne(db, sql: "SELECT title FROM pack WHERE id = ?", arguments: [saved.game.packID]) }
        return ShareText.summary(game: saved.game, packTitle: title ?? "Practice", date: saved.daily, hints: saved.hints.count)
    }

    /// A challenge for a friend: the word given (from a pack when one has it, else as practice),
    /// or one drawn from the pack given, or from any pack.
    public func newChallenge(packID: String?, word: String?, rules: Rules?, hard: Bool, lexicon: Lexicon,
                             seed: UInt64? = nil) throws(StorageError) -> String {
        let entry: (pack: String?, word: String) = try read { db in
            if let word = word?.lowercased() {
                if let packID {
                    guard try PackRecord.fetchOne(db, key: packID) != nil else { throw StorageError.unknownPack(packID) }
                    guard try PackWordRecord.fetchOne(db, key: ["packId": packID, "word": word]) != nil else {
                        throw StorageError.wordNotInPack(word: word, pack: packID)
                    }
                    return (packID, word)
                }
                let pack = try String.fetchOne(db, sql: "SELECT packId FROM packWord WHERE word = ? ORDER BY packId", arguments: [word])
                return (pack, word)
            }
            var query = PackWordRecord.order(Column("packId"), Column("position"))
            if let packID {
                guard try PackRecord.fetchOne(db, key: packID) != nil else { throw StorageError.unknownPack(packID) }
                query = query.filter(Column("packId") == packID)
            }
            var entries = try query.fetchAll(db)
            if let rules { entries = entries.filter { rules.allows($0.word) } }
            var random = SeededGenerator(seed: seed ?? UInt64.random(in: .min ... .max))
            guard let chosen = entries.randomElement(using: &random) else { throw StorageError.packEmpty(packID ?? "(none installed)") }
            return (chosen.packId, chosen.word)
        }
        let packRules = try entry.pack.map { id throws(StorageError) in
            try read { db in try PackRecord.fetchOne(db, key: id)?.rules }
        } ?? nil
        let chosenRules = rules ?? packRules ?? (entry.word.hasRepeatedLetters ? .mastermind : .classic)
        if !chosenRules.allows(entry.word) { throw .rulesForbidWord(entry.word) }
        if entry.pack == nil, !(Pack.lengths.contains(entry.word.count) && lexicon.contains(entry.word)) {
            throw .unknownWord(entry.word)
        }
        let version = try entry.pack.map { id throws(StorageError) in
            try read { db in try Int.fetchOne(db, sql: "SELECT version FROM pack WHERE id = ?", arguments: [id]) }
        } ?? nil
        let challenge = Challenge(pack: entry.pack.flatMap { id in version.map { (id: id, version: $0) } }, word: entry.word,
                                  rules: chosenRules, hard: hard)
        do { return try ChallengeCode.encode(challenge, dictionary: lexicon.words(ofLength: entry.word.count)) } catch { throw .challenge(error) }
    }
}

extension PlayerDatabase {
    /// The player's finished games as the achievements see them.
    public func playedGames() throws(StorageError) -> [PlayedGame] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT g.id, g.packId, g.secret, g.rules, g.hard, g.hints, g.status, g.maxGuesses, g.finishedAt, g.daily,
                       \(AppDatabase.guessesUsedSQL) AS used
                FROM game g WHERE g.playerId = ? AND g.status != 'in-progress' AND g.finishedAt IS NOT NULL
                ORDER BY g.finishedAt, g.id
                """, arguments: [profile.playerID]).compactMap { row in
                guard let rules = Rules(rawValue: row["rules"]), let status = GameStatus(rawValue: row["status"]) else { return nil }
                return PlayedGame(id: row["id"], packID: row["packId"], secret: row["secret"], rules: rules, hard: row["hard"],
                                  hints: HintLog.parse(row["hints"] as String)?.count ?? 0, status: status, guessesUsed: row["used"],
                                  maxGuesses: row["maxGuesses"], finishedAt: AppDatabase.time(row["finishedAt"]), daily: row["daily"])
            }
        }
    }

    /// Every achievement, earned or not, from the finished games and the packs installed.
    public func achievements() throws(StorageError) -> [Achievement] {
        let games = try playedGames()
        let packs = try read { db in
            Dictionary(grouping: try Row.fetchAll(db, sql: "SELECT packId, word FROM packWord"), by: { $0["packId"] as String })
                .mapValues { Set($0.map { $0["word"] as String }) }
        }
        return Achievements.all(games: games, packs: packs)
    }
}
