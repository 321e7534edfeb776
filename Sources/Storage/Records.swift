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

/// A game's row: the game as it travels between machines (Core's `SyncGame`), whose it is, and
/// whether the cloud has it. The game's fields read as the row's own (`record.status`).
@dynamicMemberLookup
struct GameRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "game"
    var game: SyncGame
    var playerId: String
    /// The cloud's system fields of the game (under the name `RecordNaming.game` gives its
    /// id), kept once the cloud has it; nil marks a game never uploaded, and an empty value
    /// one uploaded whose fields were not kept (before v13).
    var systemFields: Data?

    var uploaded: Bool { systemFields != nil }

    subscript<Value>(dynamicMember field: WritableKeyPath<SyncGame, Value>) -> Value {
        get { game[keyPath: field] }
        set { game[keyPath: field] = newValue }
    }

    init(game: SyncGame, playerId: String, systemFields: Data?) {
        self.game = game
        self.playerId = playerId
        self.systemFields = systemFields
    }

    init(row: Row) throws {
        guard let record = Self.read({ row.hasColumn($0) ? row[$0] : .null }) else {
            throw StorageError.database("game \(String(describing: row["id"] as String?)) has rules, a status or a help level this version does not know")
        }
        self = record
    }

    func encode(to container: inout PersistenceContainer) {
        for column in Self.columns { container[column.name] = column.value(self) }
    }
}

/// A guess's row, keyed by its game and word (what makes it unique, and what the cloud names it by).
struct GuessRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "guess"
    var gameId: String
    var position: Int
    var word: String
    var common: Int?
    var inPlace: Int?
    var inWord: Int?
    var playedAt: Date
    var playedOn: String
    /// Set once the cloud has the guess (under the name `RecordNaming.guess` gives its game and
    /// word); false marks a guess never uploaded.
    var uploaded: Bool

    var feedback: Feedback { Feedback(common: common, inPlace: inPlace, inWord: inWord) }

    init(gameId: String, position: Int, guess: Guess, playedAt: Date, playedOn: String, uploaded: Bool = false) {
        self.gameId = gameId
        self.position = position
        self.word = guess.word
        (common, inPlace, inWord) = guess.feedback.counts
        self.playedAt = playedAt
        self.playedOn = playedOn
        self.uploaded = uploaded
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

extension AppDatabase {
    /// A time as any version kept it: integer milliseconds (v8 on), or GRDB's text before.
    static func keptTime(_ stored: DatabaseValue) -> Date? {
        if case .int64(let millis) = stored.storage { return time(millis) }
        return Date.fromDatabaseValue(stored).map(stamp)
    }
}
