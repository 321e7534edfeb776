import Foundation
import GRDB
import QiktionaryCore

/// What this player's machines know of the shared folder's players: matches, plays, declines,
/// the players seen and their leaderboard lines (migration v14, docs/multiplayer.md). Every
/// row belongs to the player looking; nothing here reads or writes another player's games.
/// The values are Core's, already checked by whoever read them off the folder.
extension PlayerDatabase {
    private var viewer: String { profile.playerID }

    // MARK: Matches

    /// Keeps a match; a match already kept stays as it is (a match never changes). Returns the
    /// version kept before, if any, for the caller to compare. `madeHere`: this machine made
    /// it (only such a match is published by this machine). The plays that waited for it
    /// wait no more.
    @discardableResult
    public func keepMatch(_ match: Match, madeHere: Bool = false) throws(StorageError) -> Match? {
        try write { db in
            if let kept = try Self.match(match.id, viewer: viewer, db) { return kept }
            try db.cachedStatement(sql: """
                INSERT INTO matchRecord (viewer, id, players, createdBy, pack, packVersion, rules, hard, length, maxGuesses,
                  createdAt, codes, wordCheck, madeHere, assist) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [viewer, match.id, match.players.joined(separator: ","), match.createdBy, match.pack, match.packVersion,
                                 match.rules.rawValue, match.hard, match.length, match.maxGuesses,
                                 AppDatabase.millis(match.createdAt), match.codes.joined(separator: ","), match.wordCheck, madeHere,
                                 match.assist?.rawValue])
            try db.cachedStatement(sql: "UPDATE matchPlay SET waitingSince = 0 WHERE viewer = ? AND matchId = ?").execute(arguments: [viewer, match.id])
            return nil
        }
    }

    /// The ids of the matches this machine made.
    public func matchesMadeHere() throws(StorageError) -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM matchRecord WHERE viewer = ? AND madeHere"), arguments: [viewer]))
        }
    }

    public func match(id: String) throws(StorageError) -> Match? {
        try read { db in try Self.match(id, viewer: viewer, db) }
    }

    /// Every match kept, newest first.
    public func keptMatches() throws(StorageError) -> [Match] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM matchRecord WHERE viewer = ? ORDER BY createdAt DESC, id"), arguments: [viewer])
                .compactMap(Self.match(row:))
        }
    }

    private static func match(_ id: String, viewer: String, _ db: Database) throws -> Match? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM matchRecord WHERE viewer = ? AND id = ?"), arguments: [viewer, id]).flatMap(match(row:))
    }

    private static func match(row: Row) -> Match? {
        guard let rules = Rules(rawValue: row["rules"]) else { return nil }
        let assist = (row["assist"] as String?).map(Assist.init(rawValue:))
        if assist == .some(nil) { return nil }
        let players: String = row["players"], codes: String = row["codes"]
        return Match(id: row["id"], players: players.split(separator: ",").map(String.init), createdBy: row["createdBy"],
                     pack: row["pack"], packVersion: row["packVersion"], rules: rules, hard: row["hard"], length: row["length"],
                     maxGuesses: row["maxGuesses"], createdAt: AppDatabase.time(row["createdAt"]),
                     codes: codes.split(separator: ",").map(String.init), wordCheck: row["wordCheck"], assist: assist ?? nil)
    }

    // MARK: Plays

    /// Keeps a play as read (checked against its match when the match was here, waiting
    /// otherwise, `waitingSince` then the time it was read), merged with the version kept: a
    /// play never goes back.
    public func keepPlay(_ fields: MatchPlay.Fields, waitingSince: Date? = nil,
                         merge: (MatchPlay.Fields, MatchPlay.Fields) -> MatchPlay.Fields) throws(StorageError) {
        try write { db in
            var kept = fields
            var since = waitingSince.map(AppDatabase.millis) ?? 0
            if let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT * FROM matchPlay WHERE viewer = ? AND matchId = ? AND player = ? AND gameIndex = ?
                """), arguments: [viewer, fields.match, fields.player, fields.game]) {
                kept = merge(Self.fields(row), fields)
                let was: Int64 = row["waitingSince"]
                if was > 0, since > 0 { since = min(was, since) }
            }
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO matchPlay (viewer, matchId, player, gameIndex, status, guesses, hints, assist, grid, waitingSince)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [viewer, kept.match, kept.player, kept.game, kept.status, kept.guesses, kept.hints, kept.assist, kept.grid,
                                 since])
        }
    }

    /// How many plays of each player wait for a match not here.
    public func waitingPlays() throws(StorageError) -> [String: Int] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db.cachedStatement(sql: """
                SELECT player, count(*) AS n FROM matchPlay WHERE viewer = ? AND waitingSince > 0 GROUP BY player
                """), arguments: [viewer]).map { ($0["player"] as String, $0["n"] as Int) })
        }
    }

    /// What a round of the shared zones starts from, in one read: the tokens of every player's
    /// shared zone, the players seen, and when the play waiting longest for its match was read.
    public func sharedRoundStart() throws(StorageError) -> (tokens: [String: String], friends: [String], oldestWaiting: Date?) {
        try read { db in
            let tokens = Dictionary(try Row.fetchAll(db.cachedStatement(sql: "SELECT player, token FROM sharedToken WHERE viewer = ?"), arguments: [viewer])
                .map { ($0["player"] as String, $0["token"] as String) }, uniquingKeysWith: { a, _ in a })
            let friends = try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM friend WHERE viewer = ? ORDER BY name"), arguments: [viewer])
            let oldest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(waitingSince) FROM matchPlay WHERE viewer = ? AND waitingSince > 0"),
                                            arguments: [viewer]).map(AppDatabase.time)
            return (tokens, friends, oldest)
        }
    }

    /// When the play waiting longest for its match was read (nil: none waits).
    public func oldestWaitingPlay() throws(StorageError) -> Date? {
        try read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(waitingSince) FROM matchPlay WHERE viewer = ? AND waitingSince > 0"), arguments: [viewer])
                .map(AppDatabase.time)
        }
    }

    /// Drops the plays that waited for their match since before `cutoff`, and every play of
    /// `matches` (another pair's, which this player never sees); returns how many of each player.
    @discardableResult
    public func dropWaitingPlays(before cutoff: Date, ofMatches matches: [String] = []) throws(StorageError) -> [String: Int] {
        try write { db in
            var dropped: [String: Int] = [:]
            let stale = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT player, count(*) AS n FROM matchPlay WHERE viewer = ? AND waitingSince > 0 AND waitingSince < ? GROUP BY player
                """), arguments: [viewer, AppDatabase.millis(cutoff)])
            for row in stale { dropped[row["player"], default: 0] += row["n"] as Int }
            try db.execute(sql: "DELETE FROM matchPlay WHERE viewer = ? AND waitingSince > 0 AND waitingSince < ?",
                           arguments: [viewer, AppDatabase.millis(cutoff)])
            for id in matches {
                try db.cachedStatement(sql: "DELETE FROM matchPlay WHERE viewer = ? AND matchId = ?").execute(arguments: [viewer, id])
                try db.cachedStatement(sql: "DELETE FROM matchDecline WHERE viewer = ? AND matchId = ?").execute(arguments: [viewer, id])
            }
            return dropped
        }
    }

    /// The plays kept of a match, as they were read.
    public func plays(ofMatch id: String) throws(StorageError) -> [MatchPlay.Fields] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM matchPlay WHERE viewer = ? AND matchId = ? ORDER BY player, gameIndex"),
                             arguments: [viewer, id]).map(Self.fields)
        }
    }

    private static func fields(_ row: Row) -> MatchPlay.Fields {
        MatchPlay.Fields(match: row["matchId"], player: row["player"], game: row["gameIndex"], status: row["status"], guesses: row["guesses"],
                         hints: row["hints"], assist: row["assist"], grid: row["grid"])
    }

    // MARK: Declines

    /// Keeps a decline of a match by `player` (checked against the match when it was here);
    /// `madeHere`: this machine's player declined here (only such a decline is published).
    public func keepDecline(matchID: String, by player: String, madeHere: Bool = false) throws(StorageError) {
        try write { db in
            try db.cachedStatement(sql: """
                INSERT INTO matchDecline (viewer, matchId, player, madeHere) VALUES (?, ?, ?, ?)
                ON CONFLICT (viewer, matchId, player) DO UPDATE SET madeHere = max(madeHere, excluded.madeHere)
                """).execute(arguments: [viewer, matchID, player, madeHere])
        }
    }

    /// The ids of the matches this machine's player declined here.
    public func declinesMadeHere() throws(StorageError) -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db.cachedStatement(sql: "SELECT matchId FROM matchDecline WHERE viewer = ? AND player = ? AND madeHere"),
                                    arguments: [viewer, viewer]))
        }
    }

    /// Who declined each match, as kept.
    public func declines() throws(StorageError) -> [String: Set<String>] {
        try read { db in
            var declines: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT matchId, player FROM matchDecline WHERE viewer = ?"), arguments: [viewer]) {
                declines[row["matchId"], default: []].insert(row["player"])
            }
            return declines
        }
    }

    // MARK: Players

    /// Notes a player seen in the folder (`joinedAt`: when this player asked to be visible;
    /// the first time is kept).
    public func keepFriend(_ name: String, joinedAt: Date? = nil) throws(StorageError) {
        try write { db in
            try db.cachedStatement(sql: """
                INSERT INTO friend (viewer, name, joined) VALUES (?, ?, ?)
                ON CONFLICT (viewer, name) DO UPDATE SET joined = CASE WHEN joined = 0 THEN excluded.joined ELSE joined END
                """).execute(arguments: [viewer, name, joinedAt.map { AppDatabase.millis(AppDatabase.stamp($0)) } ?? 0])
        }
    }

    /// Forgets one player seen (their Player record was taken away); never this player.
    public func forgetFriend(_ name: String) throws(StorageError) {
        guard name != viewer else { return }
        try write { db in try db.cachedStatement(sql: "DELETE FROM friend WHERE viewer = ? AND name = ?").execute(arguments: [viewer, name]) }
    }

    /// Forgets the players seen whose folder is no longer in the shared folder (this player stays).
    public func keepOnlyFriends(_ present: Set<String>) throws(StorageError) {
        let gone = try friends().filter { $0 != viewer && !present.contains($0) }
        guard !gone.isEmpty else { return }
        try write { db in
            for name in gone { try db.cachedStatement(sql: "DELETE FROM friend WHERE viewer = ? AND name = ?").execute(arguments: [viewer, name]) }
        }
    }

    /// The players seen, by name.
    public func friends() throws(StorageError) -> [String] {
        try read { db in try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM friend WHERE viewer = ? ORDER BY name"), arguments: [viewer]) }
    }

    /// When this player joined, as far as this machine knows (nil: not joined).
    public func joinedAt() throws(StorageError) -> Date? {
        try read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT joined FROM friend WHERE viewer = ? AND name = ? AND joined > 0"),
                               arguments: [viewer, viewer]).map(AppDatabase.time)
        }
    }

    // MARK: Leaderboard lines

    /// Keeps a device's line of a player, in place of the one kept: a device's newer line is
    /// that device's word (its numbers only grow as its history does), never merged with what
    /// was claimed before under its name.
    public func keepStanding(_ standing: Standing, player: String, device: String) throws(StorageError) {
        try write { db in
            let line = standing
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO standing (viewer, player, device, tallies, bestDailyStreak, matchesWon, days)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [viewer, player, device, Self.talliesText(line.tallies), line.bestDailyStreak, line.matchesWon,
                                 line.dayLines.joined(separator: "\n")])
        }
    }

    /// Each player's line: the merge of their devices' lines.
    public func standings() throws(StorageError) -> [String: Standing] {
        try read { db in
            var lines: [String: Standing] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM standing WHERE viewer = ?"), arguments: [viewer]) {
                guard let line = Self.standing(row) else { continue }
                let player: String = row["player"]
                lines[player] = lines[player].map { Standing.merge($0, line) } ?? line
            }
            return lines
        }
    }

    private static func talliesText(_ tallies: [Assist: Standing.Tally]) -> String {
        tallies.sorted { $0.key < $1.key }.map {
            "\($0.key.rawValue) \($0.value.games) \($0.value.wins) \($0.value.winGuesses) \($0.value.bestDailyStreak)"
        }
            .joined(separator: ",")
    }

    private static func standing(_ row: Row) -> Standing? {
        var tallies: [Assist: Standing.Tally] = [:]
        let text: String = row["tallies"], daysText: String = row["days"]
        let streak: Int = row["bestDailyStreak"]
        for part in text.split(separator: ",") {
            let items = part.split(separator: " ")
            guard (4...5).contains(items.count), let assist = Assist(rawValue: String(items[0])),
                  let games = Int(items[1]), let wins = Int(items[2]), let guesses = Int(items[3]) else { return nil }
            // A line kept before each level had its streak: the whole one, as far as this level's wins allow.
            let levelStreak = items.count == 5 ? Int(items[4]) : min(streak, wins)
            guard let levelStreak else { return nil }
            tallies[assist] = Standing.Tally(games: games, wins: wins, winGuesses: guesses, bestDailyStreak: levelStreak)
        }
        guard let days = try? Standing.days(lines: daysText.split(separator: "\n").map(String.init)) else { return nil }
        return Standing(tallies: tallies, bestDailyStreak: streak, matchesWon: row["matchesWon"], days: days)
    }

    // MARK: Reading and publishing

    /// The token of every player's shared zone read here, by player.
    public func sharedTokens() throws(StorageError) -> [String: String] {
        try texts(in: "sharedToken", key: "player", value: "token")
    }

    /// Keeps several players' tokens in one transaction.
    public func saveSharedTokens(_ tokens: [String: String]) throws(StorageError) {
        try keepTexts(tokens, in: "sharedToken", key: "player", value: "token")
    }

    /// What this device last published under each record name (a text the publisher compares).
    public func published() throws(StorageError) -> [String: String] {
        try texts(in: "sharedPublished", key: "recordName", value: "content")
    }

    public func notePublished(_ contents: [String: String]) throws(StorageError) {
        try keepTexts(contents, in: "sharedPublished", key: "recordName", value: "content")
    }

    /// A table of texts by key, this player's rows (`viewer`): read whole, or some kept (each
    /// replacing the one under its key) in one transaction. The names are this file's own.
    private func texts(in table: String, key: String, value: String) throws(StorageError) -> [String: String] {
        try read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT \(key), \(value) FROM \(table) WHERE viewer = ?", arguments: [viewer])
                .map { ($0[key], $0[value]) }, uniquingKeysWith: { a, _ in a })
        }
    }

    private func keepTexts(_ texts: [String: String], in table: String, key: String, value: String) throws(StorageError) {
        try write { db in
            for (name, text) in texts {
                try db.execute(sql: "INSERT OR REPLACE INTO \(table) (viewer, \(key), \(value)) VALUES (?, ?, ?)",
                               arguments: [viewer, name, text])
            }
        }
    }

    /// A text that changes whenever anything a leaderboard line is worked out from may have
    /// changed: the player's finished games, their results, times, hints, hard mode, help and dates.
    public func historyFingerprint() throws(StorageError) -> String {
        try read { db in
            try String.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) || ' ' || ifnull(max(updatedAt), 0) || ' ' || total(status = 'won') || ' ' || total(length(hints))
                  || ' ' || total(hard) || ' ' || total(assist = 'none') || ' ' || total(assist = 'coach') || ' ' || count(daily)
                  || ' ' || ifnull((SELECT value FROM setting WHERE key = ?), 0)
                FROM game WHERE playerId = ? AND status != 'in-progress'
                """), arguments: [AppDatabase.finishedGuessedKey(profile.playerID), profile.playerID]) ?? ""
        }
    }

    /// Forgets what was published (the cloud was reset or the folder changed): all is sent again.
    /// Forgets what was published under these names, before they are written again: a write
    /// the cloud took but this machine never noted (the process stopped between the two) is
    /// then published again whatever it holds, never passed over as what was published before
    /// (simulation seed 37485).
    public func forgetPublished(_ names: [String]) throws(StorageError) {
        guard !names.isEmpty else { return }
        try write { db in
            try db.cachedStatement(sql: "DELETE FROM sharedPublished WHERE viewer = ? AND recordName IN (SELECT value FROM json_each(?))")
                .execute(arguments: [viewer, String(decoding: try JSONEncoder().encode(names), as: UTF8.self)])
        }
    }

    public func forgetPublished() throws(StorageError) {
        try write { db in try db.cachedStatement(sql: "DELETE FROM sharedPublished WHERE viewer = ?").execute(arguments: [viewer]) }
    }

    // MARK: Match games

    /// Which of these game ids are the player's games here (one query, however many).
    public func gamesHere(_ ids: [String]) throws(StorageError) -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM game WHERE playerId = ? AND id IN (SELECT value FROM json_each(?))"),
                                    arguments: [profile.playerID, String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)]))
        }
    }

    /// A stored pack's word length and guess limit, what a match of it read from the folder is
    /// held to (nil: no such pack here), without reading every pack's words as `storedPacks` does.
    public func packLimits(of id: String) throws(StorageError) -> (length: Int, guessLimit: Int)? {
        try read { db in
            try PackRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM pack WHERE id = ?"), arguments: [id])
                .map { ($0.length, $0.maxGuesses ?? Game.defaultMaxGuesses) }
        }
    }

    /// Every pack stored, with its words in order: what a match is drawn from.
    public func storedPacks() throws(StorageError) -> [Pack] {
        try read { db in
            let words = Dictionary(grouping: try PackWordRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM packWord ORDER BY packId, position")),
                                   by: \.packId)
            return try PackRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM pack ORDER BY id")).map { pack in
                Pack(id: pack.id, version: pack.version, title: pack.title, description: pack.description, length: pack.length,
                     rules: pack.rules, maxGuesses: pack.maxGuesses,
                     words: (words[pack.id] ?? []).map { Pack.Entry(word: $0.word, fact: $0.fact) })
            }
        }
    }

    /// Starts the player's game of a match (its id given), or returns it when it is here already.
    public func startMatchGame(id: String, request: GameRequest, maxGuesses: Int, lexicon: (() -> Lexicon)? = nil,
                               now: Date? = nil) throws(StorageError) -> SavedGame {
        let now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            if let existing = try GameRecord.fetchOne(db, key: id) {
                guard existing.playerId == profile.playerID else { throw StorageError.noGame(id) }
                return try AppDatabase.savedGame(existing, db)
            }
            let choice = try AppDatabase.chooseSecret(request, playerID: profile.playerID, lexicon: lexicon, db)
            var request = request
            request.daily = nil
            return try AppDatabase.insertNewGame(id: id, request: request, choice: choice, maxGuesses: maxGuesses,
                                                 profile: profile, now: now, db)
        }
    }
}
