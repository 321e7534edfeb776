import Foundation
import GRDB
import QiktionaryCore

/// The day's word, as a request for `startGame`, and what challenge codes and share texts read
/// of the packs (the use cases are the application's, `App.PlayerGames`).
extension AppDatabase {
    /// The daily game of a date (a day since 1970-01-01, the player's local date): the word the
    /// shipped schedule names for it, under its pack's rules. A daily game of that date already
    /// here (played on this machine, or synced from another whose schedule may differ) is
    /// resumed with its own word by `startGame`, whatever this schedule says.
    public func dailyRequest(day: Int, schedule: DailySchedule) throws(StorageError) -> GameRequest {
        guard let entry = schedule.entry(day: day) else { throw .packEmpty("(the daily schedule is empty)") }
        return GameRequest(packID: entry.pack, word: entry.word, daily: DailyWord.date(day: day))
    }

    /// The ids of the packs installed.
    public func packIDs() throws(StorageError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT id FROM pack") }
    }

    /// An installed pack's version, title and rules; nil when it is not installed.
    public func pack(_ id: String) throws(StorageError) -> (version: Int, title: String, rules: Rules)? {
        try read { db in try PackRecord.fetchOne(db, key: id).map { ($0.version, $0.title, $0.rules) } }
    }

    /// Whether a pack holds a word.
    public func packHolds(_ word: String, pack: String) throws(StorageError) -> Bool {
        try read { db in try PackWordRecord.fetchOne(db, key: ["packId": pack, "word": word]) != nil }
    }

    /// One pack's words, in the pack's order.
    public func packWords(of packID: String) throws(StorageError) -> [String] {
        try read { db in try PackWordRecord.inOrder(of: packID).fetchAll(db).map(\.word) }
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
