import Foundation
import GRDB
import TextSafety
import QiktionaryCore

/// A player's games, guesses, notepad marks, reading list and the settings that matter, as one
/// JSON document (`qiktionary export`), and its way back in (`qiktionary import`).
///
/// The document is read as it is written: every value is text, a number or a list, and nothing
/// in it is trusted until `validated` has checked all of it. Importing merges by ids in one
/// transaction, queueing what it adds as a local write would, so an imported game syncs like one
/// played here and importing twice, or on the other machine, duplicates nothing.
public struct ExportDocument: Codable, Sendable, Equatable {
    public static let formatName = "qiktionary-export"
    public static let currentVersion = 1

    /// Always "qiktionary-export".
    public var format: String
    /// 1. A later version is refused by this one.
    public var version: Int
    public var exportedAt: String
    /// Why it was written: "export", "backup before --reset-local", "unsynced games saved from a damaged database"…
    public var reason: String?
    /// Whose games these are; an export imports only into the same player.
    public var player: String
    public var settings: Settings
    public var games: [Game]
    /// Newest first, as `reading-list` shows it.
    public var readingList: [Bookmark]

    public struct Settings: Codable, Sendable, Equatable {
        /// This machine's name.
        public var device: String?
        /// The shared folder for sync.
        public var cloudDir: String?
        /// This machine's secret signing key (base64), only in an export asked for with it
        /// (`export --with-key`): importing it makes the data dir sign as this machine.
        public var signingKey: String?

        public init(device: String?, cloudDir: String?, signingKey: String? = nil) {
            self.device = device
            self.cloudDir = cloudDir
            self.signingKey = signingKey
        }
    }

    public struct Guess: Codable, Sendable, Equatable {
        public var word: String
        /// 1 for the first guess (two machines that guessed at once share a position).
        public var position: Int
        public var common: Int?
        public var inPlace: Int?
        public var inWord: Int?
        public var playedAt: String
        public var playedOn: String
    }

    public struct Mark: Codable, Sendable, Equatable {
        public var letter: String
        /// "in" or "out".
        public var state: String
        public var markedAt: String
    }

    public struct Bookmark: Codable, Sendable, Equatable {
        public var word: String
        public var pack: String
        public var fact: String
        public var addedAt: String
    }

    /// Pretty-printed, keys sorted: the same data gives the same bytes.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value is a string, a number, a bool or a list of them: encoding cannot fail. The
        // file may be printed (to standard output, or later with cat): no character in it is one
        // a terminal would obey (`TerminalText.jsonSafe`), and it reads back the same.
        let data = (try? encoder.encode(self)) ?? Data()
        return Data(TerminalText.jsonSafe(String(decoding: data, as: UTF8.self)).utf8)
    }
}

/// Times in an export: UTC, to the millisecond, as "2026-11-22T23:15:00.123Z" (the seconds'
/// fraction may be left out when reading), by Foundation's ISO 8601 formatter.
public enum ExportDate {
    public static func text(_ date: Date) -> String {
        // The time as the database keeps it, whole milliseconds, which the formatter writes as they are.
        let kept = AppDatabase.time(AppDatabase.millis(date))
        return formatted { $0.milliseconds.string(from: kept) }
    }

    /// The time, stamped as the database keeps it; nil for anything else, or outside 1970 to 2100.
    public static func parse(_ text: String) -> Date? {
        time(text).map(AppDatabase.stamp)
    }

    /// The time to the millisecond, a hair above it so it is written as that millisecond;
    /// `AppDatabase.stamp` makes it equal to the time read back (the merge compares those).
    /// Only the form the formatter writes is read: a day that does not exist (February 30th),
    /// which the formatter would read as another, is refused.
    static func time(_ text: String) -> Date? {
        let count = text.utf8.count
        guard count == 24 || count == 20, text.utf8.first.map({ (0x31...0x32).contains($0) }) == true else { return nil }
        let date: Date? = formatted { formatters in
            let formatter = count == 24 ? formatters.milliseconds : formatters.seconds
            return formatter.date(from: text).flatMap { formatter.string(from: $0) == text ? $0 : nil }
        }
        guard let date else { return nil }
        let total = (date.timeIntervalSince1970 * 1000).rounded()
        guard Limits.seconds.contains(total / 1000) else { return nil }
        return Date(timeIntervalSince1970: (total + 0.01) / 1_000)
    }

    /// One pair of formatters, used one call at a time (an export may be written while another
    /// thread reads one).
    private static func formatted<T>(_ body: (Formatters) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(formatters)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static let formatters = Formatters()

    private struct Formatters {
        let milliseconds = ISO8601DateFormatter()
        let seconds = ISO8601DateFormatter()

        init() {
            milliseconds.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            seconds.formatOptions = [.withInternetDateTime]
        }
    }
}

extension ExportDocument {
    /// A document from rows as the database keeps them.
    init(player: String, device: String?, cloudDir: String?, reason: String?, now: Date,
         games: [(GameRecord, [GuessRecord], [MarkRecord])], bookmarks: [BookmarkRecord]) {
        self.init(
            format: Self.formatName, version: Self.currentVersion, exportedAt: ExportDate.text(now), reason: reason, player: player,
            settings: Settings(device: device, cloudDir: cloudDir),
            games: games.map { Game(record: $0.0, guesses: $0.1, marks: $0.2) },
            readingList: bookmarks.map { Bookmark(word: $0.word, pack: $0.packId, fact: $0.fact, addedAt: ExportDate.text($0.addedAt)) })
    }
}

// MARK: Export

extension PlayerDatabase {
    /// Everything of the player's: games with their guesses and marks, the reading list, and
    /// this machine's name and cloud folder.
    public func exportDocument(cloudDir: String?, reason: String? = nil, now: Date? = nil) throws(StorageError) -> ExportDocument {
        let now = now ?? clock()
        return try read { db in
            let player = profile.playerID
            let games = try GameRecord.filter(GameRecord.Columns.playerId == player).order(GameRecord.Columns.startedAt, GameRecord.Columns.id).fetchAll(db)
            let guesses = Dictionary(grouping: try GuessRecord.fetchAll(db, sql: """
                SELECT u.* FROM guess u JOIN game g ON g.id = u.gameId WHERE g.playerId = ? ORDER BY u.gameId, u.position, u.word
                """, arguments: [player]), by: \.gameId)
            let marks = Dictionary(grouping: try MarkRecord.fetchAll(db, sql: """
                SELECT m.* FROM mark m JOIN game g ON g.id = m.gameId WHERE g.playerId = ? ORDER BY m.gameId, m.letter
                """, arguments: [player]), by: \.gameId)
            let bookmarks = try BookmarkRecord.filter(BookmarkRecord.Columns.playerId == player)
                .order(BookmarkRecord.Columns.addedAt.desc, BookmarkRecord.Columns.word).fetchAll(db)
            return ExportDocument(
                player: player, device: profile.device.name, cloudDir: cloudDir, reason: reason, now: now,
                games: games.map { ($0, guesses[$0.id] ?? [], marks[$0.id] ?? []) }, bookmarks: bookmarks)
        }
    }
}
