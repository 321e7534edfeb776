import App
import Foundation
import TextSafety
import QiktionaryCore

// The JSON shapes of the command-line contract (README, Commands). Keys are camelCase; optional keys are
// left out when empty, so the secret never appears while a game is in progress. `packs --json`
// prints Core's `PackProgress` as it is.

public struct GuessJSON: Encodable, Equatable {
    public var word: String
    public var common: Int?
    public var inPlace: Int?
    public var inWord: Int?
    /// The machine that played it, when more than one machine played the game.
    public var device: String?

    public init(_ guess: Guess, device: String? = nil) {
        word = guess.word
        (common, inPlace, inWord) = guess.feedback.counts
        self.device = device
    }

    public var feedback: Feedback { Feedback(common: common, inPlace: inPlace, inWord: inWord) }
}

public struct GameJSON: Encodable, Equatable {
    public var id: String
    public var pack: String
    public var length: Int
    public var rules: Rules
    public var status: GameStatus
    public var maxGuesses: Int
    public var guessesLeft: Int
    public var hard: Bool
    /// The help level the game is played at: "none", "proven" or "coach".
    public var assist: Assist
    /// Hints taken so far.
    public var hints: Int
    /// The date of a daily game (the player's local date when it started).
    public var daily: String?
    /// A daily game's number: days since the first daily (2026-11-22 is #1).
    public var dailyNumber: Int?
    public var guesses: [GuessJSON]
    /// Letters the player marked, e.g. {"e": "in", "x": "out"}.
    public var marks: [String: LetterMark]
    public var startedAt: Date
    public var updatedAt: Date
    public var startedOn: String
    public var lastChangedOn: String
    /// Only once the game is over.
    public var word: String?
    public var finishedAt: Date?
    public var score: Int?

    /// The game's fields from the value it travels as (`SavedGame.synced`), the rest from its play.
    public init(_ saved: SavedGame) {
        let game = saved.game, value = saved.synced
        id = value.id
        pack = value.packID
        length = game.length
        rules = value.rules
        status = value.status
        maxGuesses = value.maxGuesses
        guessesLeft = game.guessesLeft
        hard = value.hard
        assist = value.assist
        hints = saved.hints.count
        daily = value.daily
        dailyNumber = value.daily.flatMap(DailyWord.number(date:))
        let devices = saved.playedOnSeveralDevices ? saved.guessDevices : []
        guesses = game.guesses.enumerated().map { GuessJSON($1, device: devices.indices.contains($0) ? devices[$0] : nil) }
        marks = Dictionary(uniqueKeysWithValues: game.marks.map { (String($0.key), $0.value) })
        startedAt = value.startedAt
        updatedAt = value.updatedAt
        startedOn = value.startedOn
        lastChangedOn = value.lastChangedOn
        if game.isFinished {
            word = value.secret
            finishedAt = value.finishedAt
            score = game.score
        }
    }
}

public struct HistoryEntryJSON: Encodable, Equatable {
    public var id: String
    public var pack: String
    public var word: String
    public var rules: Rules
    public var hard: Bool
    /// The help level the game was played at: "none", "proven" or "coach".
    public var assist: Assist
    /// Hints taken during the game.
    public var hints: Int
    public var daily: String?
    /// A daily game's number (#1 is 2026-11-22).
    public var dailyNumber: Int?
    public var result: GameStatus
    /// Guesses that count: up to the winning one (a guess played after the win on another
    /// machine at the same time is listed in `guessed` but not counted).
    public var guesses: Int
    /// The words guessed, in the order they were played.
    public var guessed: [String]
    /// The machine that played each of them, when more than one machine played the game.
    public var guessedOn: [String]?
    public var score: Int
    public var finishedAt: Date?
    public var device: String
    public var fact: String
    public var bookmarked: Bool

    /// The game's fields from the value it travels as (`SavedGame.synced`), the rest from its play.
    public init(_ saved: SavedGame) {
        let value = saved.synced
        id = value.id
        pack = value.packID
        word = value.secret
        rules = value.rules
        hard = value.hard
        assist = value.assist
        hints = saved.hints.count
        daily = value.daily
        dailyNumber = value.daily.flatMap(DailyWord.number(date:))
        result = value.status
        guesses = saved.game.guessesUsed
        guessed = saved.game.guesses.map(\.word)
        guessedOn = saved.playedOnSeveralDevices ? saved.guessDevices : nil
        score = saved.game.score
        finishedAt = value.finishedAt
        device = value.lastChangedOn
        fact = value.fact
        bookmarked = saved.bookmarked
    }
}

public struct BookmarkJSON: Encodable, Equatable {
    public var word: String
    public var pack: String
    public var fact: String
    public var addedAt: Date

    public init(_ bookmark: Bookmark) {
        word = bookmark.word
        pack = bookmark.packID
        fact = bookmark.fact
        addedAt = bookmark.addedAt
    }
}

public struct StatsJSON: Encodable, Equatable {
    public var played: Int
    public var won: Int
    /// A fraction from 0 to 1.
    public var winRate: Double
    public var currentStreak: Int
    public var maxStreak: Int
    public var averageGuesses: Double
    /// Won games by guesses used, "1" up to the default guess limit (or further if needed).
    public var distribution: [String: Int]
    /// Hard-mode games apart: {"played","won","winRate"}.
    public var hard: ApartStatsJSON
    /// Games played with the coach on (`--assist coach`) apart, the same way.
    public var coach: ApartStatsJSON
    public var hintsTaken: Int
    public var gamesWithHints: Int
    /// Runs of consecutive days with the daily game won.
    public var dailyStreak: DailyStreakJSON
    /// Today's daily: its number, its date (the player's local date) and the seconds to the
    /// next one (local midnight). Only when asked for (`today`): `stats --json` is the history's
    /// alone, the same on every machine at any hour.
    public var dailyNumber: Int?
    public var dailyDate: String?
    public var nextDailyInSeconds: Int?
    /// The achievements earned, in the order earned.
    public var achievements: [AchievementJSON]

    public struct DailyStreakJSON: Encodable, Equatable {
        public var current: Int
        public var best: Int
    }

    public struct AchievementJSON: Encodable, Equatable {
        public var id: String
        public var title: String
        public var earnedAt: Date
    }

    /// Games counted apart (hard mode, the coach): played, won, and the rate to four places.
    public struct ApartStatsJSON: Encodable, Equatable {
        public var played: Int
        public var won: Int
        public var winRate: Double

        init(played: Int, won: Int) {
            self.played = played
            self.won = won
            winRate = played == 0 ? 0 : (Double(won) / Double(played) * 10_000).rounded() / 10_000
        }
    }

    public init(_ stats: Statistics, achievements: [Achievement] = [], dailyStreak: (current: Int, best: Int) = (0, 0),
                today: DailyClock? = nil) {
        self.dailyStreak = DailyStreakJSON(current: dailyStreak.current, best: dailyStreak.best)
        if let today {
            dailyNumber = DailyWord.number(day: today.day)
            dailyDate = today.date
            nextDailyInSeconds = today.secondsToNextDay
        }
        // In the order earned; the achievements' own order settles a tie.
        self.achievements = achievements.enumerated()
            .compactMap { index, a in a.earnedAt.map { (index, AchievementJSON(id: a.id, title: a.title, earnedAt: $0)) } }
            .sorted { ($0.1.earnedAt, $0.0) < ($1.1.earnedAt, $1.0) }.map(\.1)
        played = stats.played
        won = stats.won
        winRate = (stats.winRate * 10_000).rounded() / 10_000
        currentStreak = stats.currentStreak
        maxStreak = stats.maxStreak
        averageGuesses = (stats.averageGuesses * 100).rounded() / 100
        let top = max(Game.defaultMaxGuesses, stats.distribution.keys.max() ?? 0)
        distribution = Dictionary(uniqueKeysWithValues: (1...top).map { (String($0), stats.distribution[$0] ?? 0) })
        hard = ApartStatsJSON(played: stats.hardPlayed, won: stats.hardWon)
        coach = ApartStatsJSON(played: stats.coachPlayed, won: stats.coachWon)
        hintsTaken = stats.hintsTaken
        gamesWithHints = stats.gamesWithHints
    }
}

/// `history show GAME_ID --json`: one finished game (as history lists it) and its review
/// (docs/coach.md): the steps as `guesses`, then `skill` and `luck`.
public struct ReviewJSON: Encodable, Equatable {
    public var game: HistoryEntryJSON
    public var guesses: [Review.Step]
    public var skill: Int
    public var luck: Double
    /// The code that passes this game on to a friend.
    public var challenge: String?

    public init(_ saved: SavedGame, review: Review) {
        game = HistoryEntryJSON(saved)
        guesses = review.steps
        skill = review.skill
        luck = (review.luck * 100).rounded() / 100
    }

    /// `history show`'s: the game, its review and its challenge code.
    public init(_ reviewed: PlayerGames.ReviewedGame) {
        self.init(reviewed.saved, review: reviewed.review)
        challenge = reviewed.challenge
    }
}

extension Review.Step: Encodable {
    private enum Key: String, CodingKey { case word, candidatesBefore, candidatesAfter, best, bestExpected, expected }

    /// Expected counts to two decimals, as people read them.
    public func encode(to encoder: any Encoder) throws {
        func rounded(_ x: Double) -> Double { (x * 100).rounded() / 100 }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(word, forKey: .word)
        try c.encode(candidatesBefore, forKey: .candidatesBefore)
        try c.encode(candidatesAfter, forKey: .candidatesAfter)
        try c.encode(best, forKey: .best)
        try c.encode(rounded(bestExpected), forKey: .bestExpected)
        try c.encode(rounded(expected), forKey: .expected)
    }
}

public enum JSONLine {
    /// One compact JSON object with ISO 8601 UTC dates and keys in a stable order, with every
    /// character a terminal would obey escaped (`TerminalText.jsonSafe`): the same JSON value.
    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return #"{"event":"error","message":"could not encode output"}"#
        }
        return TerminalText.jsonSafe(text)
    }
}
