import Foundation
import GRDB

/// Step 1 of docs/sync.md: every local change records what sync must send, in the same transaction
/// as the change itself. Changes applied from the cloud never come through here.
extension AppDatabase {
    /// Merges fields into the game's pending change and bumps its version.
    static func trackGameChange(_ gameID: String, fields: Set<GameField>, _ db: Database) throws {
        guard !fields.isEmpty else { return }
        if var change = try GameChangeRecord.fetchOne(db, key: gameID) {
            change.changedFields = Self.joined(Self.fields(change.changedFields).union(fields))
            change.version += 1
            try change.update(db)
        } else {
            try GameChangeRecord(gameId: gameID, changedFields: Self.joined(fields), version: 1).insert(db)
        }
    }

    static func trackMarkChange(_ gameID: String, letter: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO markChange (gameId, letter, version) VALUES (?, ?, 1)
            ON CONFLICT (gameId, letter) DO UPDATE SET version = version + 1
            """).execute(arguments: [gameID, letter])
    }

    static func trackBookmarkChange(_ playerID: String, word: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO bookmarkChange (playerId, word, version) VALUES (?, ?, 1)
            ON CONFLICT (playerId, word) DO UPDATE SET version = version + 1
            """).execute(arguments: [playerID, word])
    }

    /// Before a game is deleted: queue the deletion of the records the cloud has of it (the
    /// game, its guesses and its marks), so other machines drop them too.
    static func trackGameDeletion(_ record: GameRecord, _ db: Database) throws {
        // Its marks by the names the cloud gave, kept with their system fields.
        let names = try String.fetchAll(db.cachedStatement(sql: "SELECT recordName FROM remoteRecord WHERE playerId = ? AND gameId = ?"),
                                        arguments: [record.playerId, record.id])
        for name in names {
            try db.execute(sql: "INSERT OR IGNORE INTO recordDeletion (playerId, recordName, zone) VALUES (?, ?, ?)",
                           arguments: [record.playerId, name, SyncZone.games.rawValue])
        }
        // The game itself (the word '') and the guesses the cloud has, by game and word: named
        // when the queue is read. Once this machine syncs, a game or guess never acknowledged
        // may be in the cloud all the same (a commit that landed though the process sending it
        // was killed or crashed before it heard so): its deletion goes too, at the cost of a
        // deletion the cloud may not need.
        let maybeSent = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM syncState WHERE playerId = ?"), arguments: [record.playerId]) ?? false
        if record.uploaded || maybeSent {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO deletionByGame (playerId, gameId, word) VALUES (?, ?, '')").execute(arguments: [record.playerId, record.id])
        }
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO deletionByGame (playerId, gameId, word) SELECT ?, gameId, word FROM guess WHERE gameId = ? AND (uploaded OR ?)
            """).execute(arguments: [record.playerId, record.id, maybeSent])
    }

    /// The fields of a game row that differ between two versions of it: the columns that are
    /// sent on their own (`GameField`, named as its column) whose values differ.
    static func changedFields(_ old: GameRecord, _ new: GameRecord) -> Set<GameField> {
        Set(GameRecord.columns.compactMap { column in
            GameField(rawValue: column.name).flatMap { column.value(old) != column.value(new) ? $0 : nil }
        })
    }

    /// `gameChange.changedFields`: the fields' raw values, sorted, joined by commas.
    static func joined(_ fields: Set<GameField>) -> String { fields.sorted().map(\.rawValue).joined(separator: ",") }

    /// The fields a stored list names (one this version does not know is dropped).
    static func fields(_ stored: String) -> Set<GameField> { Set(stored.split(separator: ",").compactMap { GameField(rawValue: String($0)) }) }
}
