import Foundation
import GRDB
import QiktionaryCore

// One record type per table. Column names match the properties. Times are kept as integer
// milliseconds (`StoredTimes`). The columns the query interface filters and orders by are each
// record's `Columns`, made from its coding keys (the game's, from its table, `GameRecord.columns`),
// so no statement of the query interface spells a column.

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

    public enum Columns {
        static let isLocal = Column(CodingKeys.isLocal), lastSeenAt = Column(CodingKeys.lastSeenAt)
    }
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

    enum Columns {
        static let length = Column(CodingKeys.length), title = Column(CodingKeys.title)
    }
}

struct PackWordRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "packWord"
    var packId: String
    var word: String
    var fact: String
    var position: Int

    enum Columns {
        static let packId = Column(CodingKeys.packId), word = Column(CodingKeys.word), position = Column(CodingKeys.position)
    }
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

// MARK: The game table as the code reads and writes it
// Not frozen, unlike Migrations.swift: it follows the latest migration. A synced field of the
// game (`SyncGame`) is a column here, beside the record, and a migration adds it.

/// A column of the game table: its name, and what a row keeps in it.
struct GameColumn: Sendable {
    let name: String
    let value: @Sendable (GameRecord) -> DatabaseValue

    init(_ name: String, _ value: @escaping @Sendable (GameRecord) -> DatabaseValue) {
        self.name = name
        self.value = value
    }

    /// The column as the query interface names it.
    var column: Column { Column(name) }
}

extension GameRecord {
    /// The game table's columns, in the order every statement that lists them lists and binds
    /// them (a row's insert and update, the queue's read, a damaged file's read); `read` takes
    /// them back. A field of `SyncGame` goes here and in `read`, and a migration adds its column.
    static let columns: [GameColumn] = [
        GameColumn("id") { $0.id.databaseValue },
        GameColumn("playerId") { $0.playerId.databaseValue },
        GameColumn("packId") { $0.packID.databaseValue },
        GameColumn("secret") { $0.secret.databaseValue },
        GameColumn("fact") { $0.fact.databaseValue },
        GameColumn("rules") { $0.rules.rawValue.databaseValue },
        GameColumn("maxGuesses") { $0.maxGuesses.databaseValue },
        GameColumn("status") { $0.status.rawValue.databaseValue },
        GameColumn("startedAt") { AppDatabase.millis($0.startedAt).databaseValue },
        GameColumn("updatedAt") { AppDatabase.millis($0.updatedAt).databaseValue },
        GameColumn("finishedAt") { $0.finishedAt.map(AppDatabase.millis).databaseValue },
        GameColumn("startedOn") { $0.startedOn.databaseValue },
        GameColumn("lastChangedOn") { $0.lastChangedOn.databaseValue },
        GameColumn("systemFields") { $0.systemFields.databaseValue },
        GameColumn("hard") { $0.hard.databaseValue },
        GameColumn("hints") { $0.hints.databaseValue },
        GameColumn("daily") { $0.daily.databaseValue },
        GameColumn("assist") { $0.assist.rawValue.databaseValue },
        GameColumn("matchResult") { $0.matchResult.databaseValue },
    ]

    /// The columns the query interface filters and orders by, each found in the table above.
    enum Columns {
        static let id = named("id"), playerId = named("playerId"), secret = named("secret"), fact = named("fact")
        static let status = named("status"), startedAt = named("startedAt"), finishedAt = named("finishedAt")

        private static func named(_ name: String) -> Column {
            guard let column = GameRecord.columns.first(where: { $0.name == name }) else { preconditionFailure("the game table has no \(name)") }
            return column.column
        }
    }

    /// The columns' names, as a statement lists them, each after `prefix` ("g.").
    static func columnList(_ prefix: String = "") -> String { columns.map { prefix + $0.name }.joined(separator: ", ") }

    /// A row read column by column, by name, through `value`; nil where a column holds what
    /// no version writes. Times are read as every version kept them (integer milliseconds
    /// since v8, GRDB's text before); the columns later migrations added (`hard` and `hints`
    /// in v5, `daily` in v6, `assist` in v12, `matchResult` in v16) read as the games before them were, for a
    /// damaged file older than they are; a game of a file before v13 is uploaded (with no system
    /// fields) when it kept a `remoteRecordName`.
    static func read(_ value: (String) -> DatabaseValue) -> GameRecord? {
        func text(_ name: String) -> String? { String.fromDatabaseValue(value(name)) }
        func time(_ name: String) -> Date? { AppDatabase.keptTime(value(name)) }
        guard let id = text("id"), let player = text("playerId"), let pack = text("packId"), let secret = text("secret"),
              let fact = text("fact"), let rules = text("rules").flatMap(Rules.init), let maxGuesses = Int.fromDatabaseValue(value("maxGuesses")),
              let status = text("status").flatMap(GameStatus.init), let startedAt = time("startedAt"), let updatedAt = time("updatedAt"),
              let startedOn = text("startedOn"), let lastChangedOn = text("lastChangedOn"),
              let assist = text("assist").map(Assist.init(rawValue:)) ?? Assist.before else { return nil }
        let game = SyncGame(id: id, packID: pack, secret: secret, fact: fact, rules: rules, maxGuesses: maxGuesses, status: status,
                            startedAt: startedAt, updatedAt: updatedAt, finishedAt: time("finishedAt"), startedOn: startedOn,
                            lastChangedOn: lastChangedOn, hard: Bool.fromDatabaseValue(value("hard")) ?? false, assist: assist,
                            hints: text("hints") ?? "", daily: text("daily"), matchResult: text("matchResult"))
        // The cloud's system fields since v13; before, a kept name said the cloud had it.
        let fields = Data.fromDatabaseValue(value("systemFields")) ?? (text("remoteRecordName") != nil ? Data() : nil)
        return GameRecord(game: game, playerId: player, systemFields: fields)
    }
}

/// The game row's columns that change after it starts, and so are sent on their own, each
/// named as its column (`AppDatabase.changedFields` compares the columns so named). The raw
/// values are what `gameChange.changedFields` holds (frozen: rows written by every release
/// carry them).
public enum GameField: String, Sendable, CaseIterable, Comparable {
    case status, finishedAt, updatedAt, lastChangedOn, hints, matchResult
    /// Fixed at the start, but two machines may start one daily game differently (at two help
    /// levels, one in hard mode): what the merge keeps goes back up.
    case assist, hard, daily

    public static func < (a: GameField, b: GameField) -> Bool { a.rawValue < b.rawValue }
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

    enum Columns {
        static let gameId = Column(CodingKeys.gameId), letter = Column(CodingKeys.letter)
    }
}

struct BookmarkRecord: Codable, FetchableRecord, PersistableRecord, StoredTimes {
    static let databaseTableName = "bookmark"
    var playerId: String
    var word: String
    var packId: String
    var fact: String
    var addedAt: Date

    enum Columns {
        static let playerId = Column(CodingKeys.playerId), word = Column(CodingKeys.word), addedAt = Column(CodingKeys.addedAt)
    }
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

    /// The player's row. A sync round reads it several times; building the query anew each time
    /// (GRDB's query interface compiles a new statement and asks which keys are unique) cost more
    /// than the read, so it goes through a statement compiled once per connection.
    static func of(_ player: String, _ db: Database) throws -> SyncStateRecord? {
        try fetchOne(db.cachedStatement(sql: "SELECT * FROM syncState WHERE playerId = ?"), arguments: [player])
    }
}

extension AppDatabase {
    /// A time as any version kept it: integer milliseconds (v8 on), or GRDB's text before.
    static func keptTime(_ stored: DatabaseValue) -> Date? {
        if case .int64(let millis) = stored.storage { return time(millis) }
        return Date.fromDatabaseValue(stored).map(stamp)
    }
}
