import Foundation
import GRDB
import QiktionaryCore

// One record type per table. Column names match the properties. Times are kept as integer
// milliseconds (`StoredTimes`).

/// Records with times: each is kept as whole milliseconds since 1970 (`AppDatabase.millis`).
protocol StoredTimes: FetchableRecord, EncodableRecord {}

extension StoredTimes {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .custom { AppDatabase.millis($0) } }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
}

struct SettingRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "setting"
    var key: String
    var value: String
}

public struct DeviceRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "device"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .custom { AppDatabase.millis($0) } }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
    public var id: String
    public var name: String
    public var isLocal: Bool
    public var lastSeenAt: Date?
}

struct PlayerRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "player"
    var id: String
    var createdAt: Date
}

struct PackRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pack"
    var id: String
    var version: Int
    var title: String
    var description: String
    var length: Int
    var rules: Rules
    var maxGuesses: Int?
}

struct PackWordRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "packWord"
    var packId: String
    var word: String
    var fact: String
    var position: Int
}

struct GameRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "game"
    var id: String
    var playerId: String
    var packId: String
    var secret: String
    var fact: String
    var rules: Rules
    var maxGuesses: Int
    var status: GameStatus
    var startedAt: Date
    var updatedAt: Date
    var finishedAt: Date?
    var startedOn: String
    var lastChangedOn: String
    /// Set once the cloud has the game; nil marks a game never uploaded.
    var remoteRecordName: String?
    var hard: Bool = false
    /// The help level the game is played at (`Assist`).
    var assist: Assist = .before
    /// The guess counts at which hints were taken, sorted, comma-separated (`HintLog`).
    var hints: String = ""
    /// The date ("2026-11-22", the local date it was started on) of a daily game; nil for any other game.
    var daily: String?
}

struct GuessRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "guess"
    var id: String
    var gameId: String
    var position: Int
    var word: String
    var common: Int?
    var inPlace: Int?
    var inWord: Int?
    var playedAt: Date
    var playedOn: String
    /// Set once the cloud has the guess; nil marks a guess never uploaded.
    var remoteRecordName: String?

    var feedback: Feedback { Feedback(common: common, inPlace: inPlace, inWord: inWord) }

    init(id: String, gameId: String, position: Int, guess: Guess, playedAt: Date, playedOn: String, remoteRecordName: String? = nil) {
        self.id = id
        self.gameId = gameId
        self.position = position
        self.word = guess.word
        (common, inPlace, inWord) = guess.feedback.counts
        self.playedAt = playedAt
        self.playedOn = playedOn
        self.remoteRecordName = remoteRecordName
    }
}

struct MarkRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "mark"
    var gameId: String
    var letter: String
    var state: LetterMark
    var markedAt: Date
}

struct BookmarkRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "bookmark"
    var playerId: String
    var word: String
    var packId: String
    var fact: String
    var addedAt: Date
}

struct GameChangeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "gameChange"
    var gameId: String
    /// Sorted field names, comma-separated.
    var changedFields: String
    var version: Int
}

struct RemoteRecordRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "remoteRecord"
    var playerId: String
    var recordName: String
    var zone: String
    var systemFields: Data
}

struct SyncStateRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "syncState"
    var playerId: String
    var generation: String?
    var databaseToken: Data?
    var incompleteZones: String
    var lastSyncAt: Date?
    var state: String
    var message: String?
    /// The zone whose first upload was being written as a snapshot (nil: none).
    var snapshotUpload: String? = nil
}
