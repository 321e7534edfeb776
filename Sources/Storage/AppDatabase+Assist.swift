import Foundation
import GRDB
import QiktionaryCore

/// The player's help level (`Assist`): the one a new game takes when none is asked for.
///
/// It reaches the player's other machines through their games: every game carries the level it
/// was started at, and games sync. A machine takes the level of the player's most recently
/// started game, wherever it was started, unless the level was chosen here after that game
/// started. So choosing `--assist coach` on the laptop and starting a game there makes the
/// desktop's next game a coached one too, and nothing but games needs syncing.
extension PlayerDatabase {
    public func assistLevel() throws(StorageError) -> Assist {
        try read { db in try AppDatabase.assist(profile.playerID, db) }
    }

    /// Remembers a level chosen here, for this player's next games.
    public func chooseAssist(_ level: Assist, now: Date? = nil) throws(StorageError) {
        let now = AppDatabase.stamp(now ?? clock())
        try write { db in
            try SettingRecord(key: AppDatabase.assistKey(profile.playerID), value: "\(level.rawValue) \(AppDatabase.millis(now))").upsert(db)
        }
    }
}

extension AppDatabase {
    static func assistKey(_ player: String) -> String { "assist \(player)" }

    static func assist(_ player: String, _ db: Database) throws -> Assist {
        let latest = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT assist, startedAt FROM game INDEXED BY game_player_started WHERE playerId = ? ORDER BY startedAt DESC LIMIT 1
            """), arguments: [player])
        let chosen = try SettingRecord.fetchOne(db, key: assistKey(player)).flatMap { record -> (Assist, Int64)? in
            let parts = record.value.split(separator: " ")
            guard parts.count == 2, let level = Assist(rawValue: String(parts[0])), let at = Int64(parts[1]) else { return nil }
            return (level, at)
        }
        let played = latest.flatMap { row -> (Assist, Int64)? in
            guard let level = Assist(rawValue: row["assist"]) else { return nil }
            return (level, row["startedAt"])
        }
        switch (chosen, played) {
        case let (chosen?, played?): return chosen.1 >= played.1 ? chosen.0 : played.0
        case let (chosen?, nil): return chosen.0
        case let (nil, played?): return played.0
        case (nil, nil): return .standard
        }
    }
}
