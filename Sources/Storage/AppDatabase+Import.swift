import Foundation
import GRDB
import TextSafety
import QiktionaryCore

// An export's way back in (`qiktionary import`): reading the file, checking every value with
// Core's `Limits`, and merging it by the game's rules (`ExportDocument` is the document).

/// How much an import reads before refusing: beyond any real player's data, short of what
/// would exhaust memory or time.
public enum ExportLimits {
    /// 256 MiB: about 200,000 games.
    public static let bytes = 256 << 20
    /// The document is four levels deep; anything far deeper is not an export.
    public static let depth = 16
    public static let games = 1_000_000
    /// Positions and merged guesses as sync allows them.
    public static let guessesPerGame = Limits.positions.upperBound
    public static let bookmarks = 100_000
    public static let pathLength = 4_096
}

/// What an import did.
public struct ImportReport: Sendable, Equatable, Encodable {
    public var gamesAdded = 0
    /// Games already here that gained guesses, marks, hints or a later status.
    public var gamesUpdated = 0
    public var guessesAdded = 0
    public var marksChanged = 0
    public var bookmarksAdded = 0
    /// Games and bookmarks in the file.
    public var gamesInFile = 0
    public var bookmarksInFile = 0

    public init() {}

    public var changedAnything: Bool { gamesAdded + gamesUpdated + guessesAdded + marksChanged + bookmarksAdded > 0 }
}

// MARK: Reading a file

extension ExportDocument {
    /// Reads an export: JSON of the right shape, of this format and a version this game reads.
    /// Values are not checked yet (see `validated`).
    public static func decode(_ data: Data) throws(StorageError) -> ExportDocument {
        guard data.count <= ExportLimits.bytes else {
            throw .badExport("it is \(data.count / (1 << 20)) MiB, more than the \(ExportLimits.bytes >> 20) MiB an export can be")
        }
        if let problem = JSONShape.problem(in: data) { throw .badExport(problem) }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw .badExport("it is not valid JSON (cut short or damaged?)")
        }
        guard header.format == formatName else {
            throw .badExport("it is not a qiktionary export (it has no \"format\": \"\(formatName)\")")
        }
        guard let version = header.version else { throw .badExport("it has no \"version\" number") }
        guard version <= currentVersion else {
            throw .badExport("it is version \(version), made by a newer qiktionary; this one reads version \(currentVersion): update the game")
        }
        guard version >= 1 else { throw .badExport("version \(version) is not a version of the format") }
        do {
            return try decoder.decode(ExportDocument.self, from: data)
        } catch let error as DecodingError {
            throw .badExport(Self.describe(error))
        } catch {
            throw .badExport("it could not be read (\(Text.oneLine("\(error)")))")
        }
    }

    /// The two fields that say what the document is, read leniently so a foreign document
    /// gets "not an export" rather than a complaint about its first field.
    private struct Header: Decodable {
        var format: String?
        var version: Int?

        enum CodingKeys: String, CodingKey { case format, version }

        init(from decoder: any Decoder) throws {
            // Any JSON value is read (a list, a number, another object); only JSON itself may fail.
            guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
                _ = try decoder.singleValueContainer()
                return
            }
            format = try? container.decode(String.self, forKey: .format)
            version = try? container.decode(Int.self, forKey: .version)
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + Text.quoted(key.stringValue, limit: 40, quotes: false) }
            }
            return text.isEmpty ? "the document" : text
        }
        func kind(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "text"
            case is Int.Type: "a whole number"
            case is Bool.Type: "true or false"
            case is [Any].Type, is [Game].Type, is [Guess].Type, is [Mark].Type, is [Bookmark].Type, is [Int].Type: "a list"
            default: "an object"
            }
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) should be \(kind(type))"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)) is null; it should be \(kind(type))"
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            // The header was read, so the JSON itself is sound: a number too large for its field.
            if context.codingPath.isEmpty { return "a value in it is malformed or out of range (a number too large?)" }
            return "\(path(context.codingPath)) is out of range or malformed"
        @unknown default: return "it is not a qiktionary export"
        }
    }
}

/// A look at the raw bytes before any parser does: how deep the nesting goes.
enum JSONShape {
    static func problem(in data: Data) -> String? {
        var depth = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > ExportLimits.depth { return "it is nested more than \(ExportLimits.depth) levels deep, which no export is" }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }
}

// MARK: Checking every value

/// An export that passed every check, as rows ready to merge.
struct ValidatedExport {
    struct Game {
        var record: GameRecord
        var guesses: [GuessRecord]
        var marks: [MarkRecord]
    }

    var games: [Game]
    var bookmarks: [BookmarkRecord]
}

extension ExportDocument {
    /// Checks everything before anything is written: the player, then every game, guess, mark
    /// and bookmark, each against the rules the game itself keeps. The first problem is thrown,
    /// with where it is in the file.
    func validated(player current: String, lexicon: Lexicon, knownSecrets: Set<String>) throws(StorageError) -> ValidatedExport {
        guard AppDatabase.isValidPlayerName(player) else { throw .badExport("player \(Text.quoted(player)) is not a player name") }
        guard player == current else { throw .exportOfAnotherPlayer(player, current: current) }
        guard ExportDate.time(exportedAt) != nil else { throw .badExport("exportedAt \(Text.quoted(exportedAt)) is not a time") }
        if let reason, reason.count > 200 { throw .badExport("reason is longer than 200 characters") }
        if let reason, let problem = TerminalText.problem(reason, field: "reason") { throw .badExport(problem) }
        if let device = settings.device, !AppDatabase.isValidDeviceName(device) {
            throw .badExport("settings.device \(Text.quoted(device)) is not a device name")
        }
        if let dir = settings.cloudDir, !Self.isFolderPath(dir) {
            throw .badExport("settings.cloudDir \(Text.quoted(dir)) is not a folder path")
        }
        guard games.count <= ExportLimits.games else { throw .badExport("it has \(games.count) games, more than \(ExportLimits.games)") }
        guard readingList.count <= ExportLimits.bookmarks else {
            throw .badExport("readingList has \(readingList.count) entries, more than \(ExportLimits.bookmarks)")
        }
        var ids = Set<String>()
        var valid = ValidatedExport(games: [], bookmarks: [])
        valid.games.reserveCapacity(games.count)
        for (index, game) in games.enumerated() {
            let checked: ValidatedExport.Game
            do { checked = try game.validated(player: player, lexicon: lexicon, knownSecrets: knownSecrets) } catch {
                throw .badExport("games[\(index)]\(Self.idNote(game.id)): \(error.problem)")
            }
            guard ids.insert(game.id).inserted else { throw .badExport("games[\(index)]: the id \(game.id) is there twice") }
            valid.games.append(checked)
        }
        var words = Set<String>()
        for (index, bookmark) in readingList.enumerated() {
            let checked: BookmarkRecord
            do { checked = try bookmark.validated(player: player, lexicon: lexicon, knownSecrets: knownSecrets) } catch {
                throw .badExport("readingList[\(index)]: \(error.problem)")
            }
            guard words.insert(checked.word).inserted else { throw .badExport("readingList[\(index)]: '\(checked.word)' is there twice") }
            valid.bookmarks.append(checked)
        }
        return valid
    }

    private static func idNote(_ id: String) -> String {
        Limits.isGameID(id) ? " (\(id))" : ""
    }

    static func isFolderPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.count <= ExportLimits.pathLength
            && TerminalText.isSafe(path)
    }
}

/// A value that failed a check, said as the player reads it.
struct ExportProblem: Error {
    var problem: String
    init(_ problem: String) { self.problem = problem }
}

extension ExportDocument.Bookmark {
    func validated(player: String, lexicon: Lexicon, knownSecrets: Set<String>) throws(ExportProblem) -> BookmarkRecord {
        guard Limits.isWord(word), lexicon.contains(word) || knownSecrets.contains(word) else {
            throw ExportProblem("word \(Text.quoted(word)) is not a word of the dictionary")
        }
        guard Limits.isPackID(pack) else { throw ExportProblem("pack \(Text.quoted(pack)) is not a pack id") }
        try ExportCheck.fact(fact, name: "fact", required: true)
        return BookmarkRecord(playerId: player, word: word, packId: pack, fact: fact, addedAt: try ExportCheck.date(addedAt, "addedAt"))
    }
}

enum ExportCheck {
    /// The fact rule of every gate (`Limits.factProblem`).
    static func fact(_ text: String, name: String, required: Bool) throws(ExportProblem) {
        if let problem = Limits.factProblem(text, field: name, required: required) { throw ExportProblem(problem) }
    }

    static func device(_ name: String, _ field: String) throws(ExportProblem) {
        guard AppDatabase.isValidDeviceName(name) else { throw ExportProblem("\(field) \(Text.quoted(name)) is not a device name") }
    }

    static func date(_ text: String, _ field: String, problem: (String) -> ExportProblem = { ExportProblem($0) }) throws(ExportProblem) -> Date {
        guard let date = ExportDate.time(text) else { throw problem("\(field) \(Text.quoted(text)) is not a time from 1970 to 2100") }
        return date
    }

    static func describe(_ guess: ExportDocument.Guess) -> String {
        if let common = guess.common, guess.inPlace == nil, guess.inWord == nil { return "\(common) in common" }
        if guess.common == nil, let p = guess.inPlace, let w = guess.inWord { return "\(p) in place, \(w) in word" }
        return "neither one count in common nor in place and in word"
    }
}

/// Text from a file, made safe to put in a one-line message: control characters shown as
/// visible escapes (`TextSafety.oneLine`), cut at a length.
enum Text {
    static func quoted(_ text: String, limit: Int = 40, quotes: Bool = true) -> String {
        var cleaned = TextSafety.oneLine(text)
        if cleaned.count > limit { cleaned = String(cleaned.prefix(limit)) + "…" }
        return quotes ? "'\(cleaned)'" : cleaned
    }

    static func oneLine(_ text: String) -> String {
        quoted(text, limit: 200, quotes: false)
    }
}

/// The merge of an import, inside its transaction. A game not here is inserted as a game
/// started here would be (not `uploaded`: it goes to the cloud as new), with its guesses
/// (likewise) and marks (queued); a game here is merged.
private struct Importer {
    let db: Database
    let player: String
    /// Every game id here, whoever's: most imported games are new, and need no look-up.
    let existing: Set<String>

    init(db: Database, player: String) throws {
        self.db = db
        self.player = player
        existing = try Set(String.fetchAll(db, sql: "SELECT id FROM game"))
    }

    mutating func add(_ game: ValidatedExport.Game, index: Int, report: inout ImportReport) throws {
        if existing.contains(game.record.id) { return try merge(game, index: index, report: &report) }
        var record = game.record
        record.systemFields = nil
        try record.insertByStatement(db)
        for guess in game.guesses { _ = try insertGuess(guess) }
        // Settled once its guesses are in, in their played order, as sync settles a game.
        let played = record
        IncomingApplication.settle(&record, guesses: try AppDatabase.orderedGuesses(record, db))
        if record.status != played.status { try record.update(db) }
        for mark in game.marks { try save(mark) }
        report.gamesAdded += 1
        report.guessesAdded += game.guesses.count
        report.marksChanged += game.marks.count
    }

    /// A game already here: the guesses and marks it lacks, and the fields by sync's merge rules.
    private func merge(_ game: ValidatedExport.Game, index: Int, report: inout ImportReport) throws {
        let id = game.record.id
        guard var local = try GameRecord.fetchOne(db, key: id), local.playerId == player else {
            throw StorageError.badExport("games[\(index)] (\(id)): a game with that id belongs to another player here")
        }
        guard local.secret == game.record.secret, local.rules == game.record.rules else {
            throw StorageError.badExport("games[\(index)] (\(id)): the game with that id here is another game (another word or rules)")
        }
        let before = local
        _ = local.merge(game.record.game)
        var updated = false
        for guess in game.guesses where try insertGuess(guess) {
            report.guessesAdded += 1
            updated = true
        }
        IncomingApplication.settle(&local, guesses: try AppDatabase.orderedGuesses(local, db))
        if updated && before.status.isFinished { try AppDatabase.noteFinishedGameGuessed(player: local.playerId, db) }
        let fields = AppDatabase.changedFields(before, local)
        if !fields.isEmpty {
            try local.update(db)
            try AppDatabase.trackGameChange(id, fields: fields, db)
            updated = true
        }
        for mark in game.marks {
            if let here = try MarkRecord.fetchOne(db, key: ["gameId": id, "letter": mark.letter]) {
                // The later mark wins, as sync's causal order would have it.
                guard here.state != mark.state, AppDatabase.stamp(mark.markedAt) > here.markedAt else { continue }
            }
            try save(mark)
            report.marksChanged += 1
            updated = true
        }
        if updated { report.gamesUpdated += 1 }
    }

    /// Whether the guess was new here; a new one is queued for the cloud as a guess played here.
    private func insertGuess(_ guess: GuessRecord) throws -> Bool {
        var guess = guess
        guess.uploaded = false
        return try guess.insertByStatement(db)
    }

    private func save(_ mark: MarkRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO mark (gameId, letter, state, markedAt) VALUES (?, ?, ?, ?)
            ON CONFLICT (gameId, letter) DO UPDATE SET state = excluded.state, markedAt = excluded.markedAt
            """).execute(arguments: [mark.gameId, mark.letter, mark.state.rawValue, AppDatabase.millis(mark.markedAt)])
        try db.cachedStatement(sql: """
            INSERT INTO markChange (gameId, letter, version) VALUES (?, ?, 1)
            ON CONFLICT (gameId, letter) DO UPDATE SET version = version + 1
            """).execute(arguments: [mark.gameId, mark.letter])
    }
}

// MARK: Import

extension PlayerDatabase {
    /// Checks the whole document, then merges it in one transaction: a game not here is added
    /// (and queued to sync, as a game started here is); a game here gains the guesses and
    /// marks it lacks and the higher status, by the rules sync merges with; a bookmark not
    /// here is added. Anything refused leaves the database as it was.
    public func importDocument(_ document: ExportDocument, lexicon: Lexicon) throws(StorageError) -> ImportReport {
        let knownSecrets = try read { db in try Set(String.fetchAll(db, sql: "SELECT DISTINCT word FROM packWord")) }
        let valid = try document.validated(player: profile.playerID, lexicon: lexicon, knownSecrets: knownSecrets)
        return try write { db in
            var report = ImportReport()
            report.gamesInFile = valid.games.count
            report.bookmarksInFile = valid.bookmarks.count
            var importer = try Importer(db: db, player: profile.playerID)
            for (index, game) in valid.games.enumerated() { try importer.add(game, index: index, report: &report) }
            for bookmark in valid.bookmarks {
                guard try !BookmarkRecord.exists(db, key: ["playerId": bookmark.playerId, "word": bookmark.word]) else { continue }
                try bookmark.insert(db)
                try AppDatabase.trackBookmarkChange(bookmark.playerId, word: bookmark.word, db)
                report.bookmarksAdded += 1
            }
            return report
        }
    }
}
