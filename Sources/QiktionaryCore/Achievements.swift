import Foundation

/// One finished game as the achievements see it.
public struct PlayedGame: Sendable, Equatable {
    /// The game's id; with `finishedAt` it fixes the order games are considered in.
    public var id: String
    /// The pack the secret came from, or `Achievements.practicePackID` for a word of no pack.
    public var packID: String
    public var secret: String
    public var rules: Rules
    public var hard: Bool
    /// Hints taken during the game.
    public var hints: Int
    /// Finished games only: `.won`, `.lost` or `.gaveUp`. A game `.inProgress` is ignored.
    public var status: GameStatus
    public var guessesUsed: Int
    public var maxGuesses: Int
    public var finishedAt: Date
    /// The date ("2026-11-22", the local date it was started on) of a daily game, nil for any other game.
    public var daily: String?

    public init(
        id: String, packID: String, secret: String, rules: Rules, hard: Bool, hints: Int,
        status: GameStatus, guessesUsed: Int, maxGuesses: Int, finishedAt: Date, daily: String?
    ) {
        self.id = id
        self.packID = packID
        self.secret = secret
        self.rules = rules
        self.hard = hard
        self.hints = hints
        self.status = status
        self.guessesUsed = guessesUsed
        self.maxGuesses = maxGuesses
        self.finishedAt = finishedAt
        self.daily = daily
    }
}

/// One achievement, earned or not.
public struct Achievement: Sendable, Equatable {
    /// Stable kebab-case id, e.g. "first-win".
    public var id: String
    /// Short title, e.g. "First win".
    public var title: String
    /// One line saying how it is earned, e.g. "Win a game."
    public var detail: String
    /// The `finishedAt` of the game with which it was first earned; nil while not earned.
    public var earnedAt: Date?

    public init(id: String, title: String, detail: String, earnedAt: Date? = nil) {
        self.id = id
        self.title = title
        self.detail = detail
        self.earnedAt = earnedAt
    }
}

/// Achievements derived from a player's history alone, so two machines holding the same
/// history show the same list with the same dates.
///
/// Games are considered one at a time in the order they finished, sorted by
/// (`finishedAt`, `id`) whatever order they are given in; games `.inProgress` are ignored.
/// An achievement is earned by the first game after which its condition holds, and its
/// `earnedAt` is that game's `finishedAt`; once earned it stays earned.
public enum Achievements {
    /// The `packID` of a game on a word of no pack. Such games never count toward the pack
    /// achievements, and an entry of `packs` under this id is ignored.
    public static let practicePackID = Pack.practiceID

    /// The achievements in their fixed order, none earned.
    public static let catalogue: [Achievement] = [
        .init(id: "first-win", title: "First win", detail: "Win a game."),
        .init(id: "quick-win", title: "Quick thinker", detail: "Win a game in 3 guesses or fewer."),
        .init(id: "first-guess", title: "Straight in", detail: "Win a game with your first guess."),
        .init(id: "last-guess", title: "Just in time", detail: "Win a game with the last guess it allows."),
        .init(id: "hard-win", title: "Hard as nails", detail: "Win a game in hard mode."),
        .init(id: "no-hint-hard-win", title: "On your own", detail: "Win a game in hard mode without taking a hint."),
        .init(id: "both-rules", title: "Both ways", detail: "Win a game under classic rules and one under mastermind rules."),
        .init(id: "win-streak-5", title: "On a roll", detail: "Win 5 games in a row."),
        .init(id: "pack-finished", title: "Pack complete", detail: "Win every word of a pack."),
        .init(id: "every-pack", title: "Explorer", detail: "Finish a game from every installed pack."),
        .init(id: "daily-7", title: "Week of words", detail: "Win the daily game 7 days in a row."),
        .init(id: "games-10", title: "Regular", detail: "Finish 10 games."),
        .init(id: "games-100", title: "Centurion", detail: "Finish 100 games."),
        .init(id: "practice-win", title: "Free play", detail: "Win a practice game."),
    ]

    /// Every achievement in the fixed order of `catalogue`, earned or not.
    ///
    /// `packs` maps each installed pack's id to its secret words. "pack-finished" needs every
    /// word currently in `packs[id]` won in some game of that pack (a pack with no words never
    /// completes); "every-pack" needs a finished game, any result, from each pack of `packs`
    /// (practice games don't count, and an empty `packs` never earns it).
    public static func all(games: [PlayedGame], packs: [String: Set<String>]) -> [Achievement] {
        let dates = earnedDates(games: games, packs: packs)
        return catalogue.map { achievement in
            var achievement = achievement
            achievement.earnedAt = dates[achievement.id]
            return achievement
        }
    }

    /// Only the earned achievements, in the order earned: by `earnedAt`, then the fixed order.
    public static func earned(games: [PlayedGame], packs: [String: Set<String>]) -> [Achievement] {
        all(games: games, packs: packs).enumerated()
            .compactMap { index, achievement in achievement.earnedAt.map { (date: $0, index: index, achievement) } }
            .sorted { ($0.date, $0.index) < ($1.date, $1.index) }
            .map(\.2)
    }

    /// Runs of consecutive days (daily dates) with a won daily game.
    ///
    /// Only finished games whose `daily` is a valid "yyyy-MM-dd" date count (any other value is
    /// ignored, as are games in progress). A day is *won* when at least one daily game of that
    /// date was won; several games of one date count as one day. Order of `games` is irrelevant.
    ///
    /// - `best`: the longest run of consecutive won days (0 when no daily game was won).
    /// - `current`: let the latest day be the most recent `daily` date among all finished daily
    ///   games, whatever their result. If that day is won, `current` is the length of the run
    ///   of won days ending on it; if it is not (its daily games were all lost or given up),
    ///   `current` is 0. It is 0 when there are no daily games. The clock is not consulted: days
    ///   after the latest daily game, played or not, do not break the current run.
    public static func dailyStreaks(games: [PlayedGame]) -> (current: Int, best: Int) {
        var wonDays = Set<Int>()
        var latest: Int?
        for game in games where game.status.isFinished {
            guard let day = game.daily.flatMap(dayNumber) else { continue }
            latest = max(latest ?? day, day)
            if game.status == .won { wonDays.insert(day) }
        }
        var best = 0
        for day in wonDays where !wonDays.contains(day - 1) {
            var length = 1
            while wonDays.contains(day + length) { length += 1 }
            best = max(best, length)
        }
        var current = 0
        if let latest {
            while wonDays.contains(latest - current) { current += 1 }
        }
        return (current, best)
    }

    // MARK: - Computing

    /// The date each earned achievement was earned, by id.
    static func earnedDates(games: [PlayedGame], packs: [String: Set<String>]) -> [String: Date] {
        let ordered = games.filter(\.status.isFinished)
            .sorted { ($0.finishedAt, $0.id) < ($1.finishedAt, $1.id) }
        let packWords = packs.filter { $0.key != practicePackID }

        var dates: [String: Date] = [:]
        var finished = 0
        var streak = 0
        var rulesWon = Set<Rules>()
        var wonWords: [String: Set<String>] = [:]
        var packsPlayed = Set<String>()
        var wonDays = Set<Int>()

        for game in ordered {
            func earn(_ id: String, when condition: Bool) {
                if condition, dates[id] == nil { dates[id] = game.finishedAt }
            }
            let won = game.status == .won
            let inPack = game.packID != practicePackID ? packWords[game.packID] : nil

            finished += 1
            streak = won ? streak + 1 : 0
            if won { rulesWon.insert(game.rules) }
            if inPack != nil { packsPlayed.insert(game.packID) }

            earn("first-win", when: won)
            earn("quick-win", when: won && game.guessesUsed <= 3)
            earn("first-guess", when: won && game.guessesUsed == 1)
            earn("last-guess", when: won && game.guessesUsed == game.maxGuesses)
            earn("hard-win", when: won && game.hard)
            earn("no-hint-hard-win", when: won && game.hard && game.hints == 0)
            earn("both-rules", when: rulesWon.count == Rules.allCases.count)
            earn("win-streak-5", when: streak >= 5)
            if won, let words = inPack, words.contains(game.secret) {
                wonWords[game.packID, default: []].insert(game.secret)
                earn("pack-finished", when: wonWords[game.packID]!.count == words.count)
            }
            earn("every-pack", when: !packWords.isEmpty && packsPlayed.count == packWords.count)
            if won, let day = game.daily.flatMap(dayNumber) {
                wonDays.insert(day)
                earn("daily-7", when: runLength(through: day, in: wonDays) >= 7)
            }
            earn("games-10", when: finished >= 10)
            earn("games-100", when: finished >= 100)
            earn("practice-win", when: won && game.packID == practicePackID)
        }
        return dates
    }

    /// The length of the run of consecutive days of `days` that contains `day`.
    static func runLength(through day: Int, in days: Set<Int>) -> Int {
        guard days.contains(day) else { return 0 }
        var before = 0, after = 0
        while days.contains(day - before - 1) { before += 1 }
        while days.contains(day + after + 1) { after += 1 }
        return before + 1 + after
    }

    /// A daily game's date as a day number (`DailyWord`).
    static func dayNumber(_ text: String) -> Int? { DailyWord.day(of: text) }
}
