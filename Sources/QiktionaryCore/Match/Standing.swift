import Foundation

/// One finished game of a player's history as the leaderboard reads it: the statistics' view
/// of it (`FinishedGame`) and the date of a daily game.
public struct HistoryGame: Sendable, Equatable {
    public var game: FinishedGame
    /// The date of a daily game ("2026-11-25"); nil for any other game.
    public var daily: String?

    public init(_ game: FinishedGame, daily: String? = nil) {
        self.game = game
        self.daily = daily
    }

    /// A stored game, when it is finished.
    public init?(_ saved: SavedGame) {
        let game = saved.game
        guard game.isFinished else { return nil }
        self.init(FinishedGame(status: game.status, guessesUsed: game.guessesUsed, hard: game.hard, hints: saved.hints.count,
                               assist: game.assist), daily: saved.daily)
    }
}

/// A daily game's result as a player publishes it for the day's leaderboard.
public struct DailyResult: Sendable, Equatable {
    /// Won, lost or gave up.
    public var status: GameStatus
    public var guesses: Int
    public var hard: Bool
    public var hints: Int
    public var assist: Assist

    /// The result as it travels, one line a date: "2026-11-25 won 4 1 proven hard" (status,
    /// guesses, hints, help level, and "hard" for a hard game).
    public func line(date: String) -> String {
        "\(date) \(status.rawValue) \(guesses) \(hints) \(assist.rawValue)" + (hard ? " hard" : "")
    }

    /// A line read back, or why it is refused.
    public static func parse(_ line: String) throws(MatchRefusal) -> (date: String, result: DailyResult) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard line.utf8.count <= 60, (5...6).contains(fields.count), DailyWord.isDate(fields[0]),
              let guesses = Int(fields[2]), let hints = Int(fields[3]), fields.count == 5 || fields[5] == "hard" else {
            throw .badDay(line)
        }
        guard let status = GameStatus(rawValue: fields[1]), status.isFinished else { throw .badStatus(fields[1]) }
        guard let assist = Assist(rawValue: fields[4]) else { throw .badAssist(fields[4]) }
        let result = DailyResult(status: status, guesses: guesses, hard: fields.count == 6, hints: hints, assist: assist)
        try result.check()
        return (fields[0], result)
    }

    /// Refused when no game could end so: a win in no guesses, more than 30 guesses (the
    /// highest limit), a loss with none, more hints than guesses allow.
    func check() throws(MatchRefusal) {
        guard guesses >= 0 else { throw .negative("guesses", guesses) }
        guard hints >= 0 else { throw .negative("hints", hints) }
        guard guesses <= Pack.guessLimits.upperBound else { throw .tooManyGuesses(guesses, limit: Pack.guessLimits.upperBound) }
        if status == .won && guesses == 0 { throw .winInNoGuesses }
        if status == .lost && guesses == 0 { throw .lossBeforeLimit(0, limit: Pack.guessLimits.lowerBound) }
        // A hint before each guess, and after the last only when the game was given up (as a play's hints).
        guard hints <= guesses + (status == .gaveUp ? 1 : 0) else { throw .tooManyHints(hints, guesses: guesses) }
    }

    /// Two versions of one day's result: the one further on, by a total order (status, then
    /// guesses, hints, help level, hard), as the game's own merge moves (status only up, hints
    /// united, the higher help level, hard when either).
    static func merge(_ a: DailyResult, _ b: DailyResult) -> DailyResult {
        (a.status, a.guesses, a.hints, a.assist, a.hard ? 1 : 0) < (b.status, b.guesses, b.hints, b.assist, b.hard ? 1 : 0) ? b : a
    }
}

/// A player's leaderboard line: what their machines publish, worked out from the whole synced
/// history. All time, by help level (games played with more help are ranked apart): games,
/// wins and the guesses of the wins; the best daily streak; matches won; and the results of
/// the latest daily games, by date.
///
/// Every number only grows as a history grows (games are added, a status only moves up), so a
/// machine that has seen part of the history works out a line no higher than the whole one in
/// any field. Lines merge by taking the higher of each (`merge`): a new machine's line merged
/// with the line already published is never lower, and two machines' lines merge the same
/// either way round, on every machine (docs/multiplayer.md).
public struct Standing: Sendable, Equatable {
    public struct Tally: Sendable, Equatable {
        public var games = 0
        public var wins = 0
        /// The guesses of all wins together (each counted up to 30, the highest limit).
        public var winGuesses = 0
        /// The longest run of days whose daily word was won at this level: a day won with the
        /// coach is not a day of the proven line's streak (it breaks it).
        public var bestDailyStreak = 0

        public init(games: Int = 0, wins: Int = 0, winGuesses: Int = 0, bestDailyStreak: Int = 0) {
            self.games = games
            self.wins = wins
            self.winGuesses = winGuesses
            self.bestDailyStreak = bestDailyStreak
        }

        /// Wins as a fraction (0 to 1) of games, 0 with no games.
        public var winRate: Double { games == 0 ? 0 : Double(wins) / Double(games) }
        /// Mean guesses of a win, 0 with no wins.
        public var meanGuesses: Double { wins == 0 ? 0 : Double(winGuesses) / Double(wins) }
        /// The mean as every screen and command writes it: one decimal, half away from zero
        /// (3.25 is 3.3 everywhere); nil with no wins.
        public var meanGuessesText: String? { wins == 0 ? nil : Hint.oneDecimal(meanGuesses) }

        static func merge(_ a: Tally, _ b: Tally) -> Tally {
            Tally(games: max(a.games, b.games), wins: max(a.wins, b.wins), winGuesses: max(a.winGuesses, b.winGuesses),
                  bestDailyStreak: max(a.bestDailyStreak, b.bestDailyStreak))
        }
    }

    /// How many of the latest dates the line keeps daily results for: the day's leaderboard of
    /// an older date has no one on it.
    public static let dayWindow = 90

    /// By the help level the games were played at; a level with no game is left out.
    public var tallies: [Assist: Tally]
    /// The longest run of daily words won at any level (what a line published before the
    /// levels had streaks of their own says; each level's is its tally's).
    public var bestDailyStreak: Int
    public var matchesWon: Int
    /// Daily results by date, the latest `dayWindow` dates.
    public var days: [String: DailyResult]

    public init(tallies: [Assist: Tally] = [:], bestDailyStreak: Int = 0, matchesWon: Int = 0, days: [String: DailyResult] = [:]) {
        self.tallies = tallies
        self.bestDailyStreak = bestDailyStreak
        self.matchesWon = matchesWon
        self.days = Standing.latest(days)
    }

    /// The line of a player's history (their finished games in any order) and the matches they
    /// have won (`MatchState.winner`).
    public init<S: Sequence>(history: S, matchesWon: Int) where S.Element == HistoryGame {
        var tallies: [Assist: Tally] = [:]
        var days: [String: DailyResult] = [:]
        var daysWon = Set<Int>()
        var daysWonAt: [Assist: Set<Int>] = [:]
        for entry in history where entry.game.status.isFinished {
            let game = entry.game
            let won = game.status == .won
            let guesses = min(game.guessesUsed, Pack.guessLimits.upperBound)
            tallies[game.assist, default: Tally()].games += 1
            if won {
                tallies[game.assist, default: Tally()].wins += 1
                tallies[game.assist, default: Tally()].winGuesses += guesses
            }
            guard let date = entry.daily, let day = DailyWord.day(of: date) else { continue }
            if won {
                daysWon.insert(day)
                daysWonAt[game.assist, default: []].insert(day)
            }
            let hints = min(game.hints, guesses + (game.status == .gaveUp ? 1 : 0))
            let result = DailyResult(status: game.status, guesses: won ? max(guesses, 1) : guesses, hard: game.hard, hints: hints,
                                     assist: game.assist)
            days[date] = days[date].map { DailyResult.merge($0, result) } ?? result
        }
        for (level, days) in daysWonAt { tallies[level, default: Tally()].bestDailyStreak = Standing.longestRun(days) }
        self.init(tallies: tallies, bestDailyStreak: Standing.longestRun(daysWon), matchesWon: matchesWon, days: days)
    }

    /// All levels together.
    public var total: Tally {
        tallies.values.reduce(Tally()) { Tally(games: $0.games + $1.games, wins: $0.wins + $1.wins, winGuesses: $0.winGuesses + $1.winGuesses) }
    }

    /// The higher of each number, the further-on result of each date: the line two machines'
    /// lines (or a line and one published before) come to. Commutative, associative and
    /// idempotent, and never below either.
    public static func merge(_ a: Standing, _ b: Standing) -> Standing {
        Standing(tallies: a.tallies.merging(b.tallies, uniquingKeysWith: Tally.merge),
                 bestDailyStreak: max(a.bestDailyStreak, b.bestDailyStreak), matchesWon: max(a.matchesWon, b.matchesWon),
                 days: a.days.merging(b.days, uniquingKeysWith: DailyResult.merge))
    }

    /// The daily results as they travel: one `DailyResult.line` a date, oldest first.
    public var dayLines: [String] {
        days.sorted { $0.key < $1.key }.map { $0.value.line(date: $0.key) }
    }

    /// Daily results read back from their lines, or why one is refused.
    public static func days(lines: [String]) throws(MatchRefusal) -> [String: DailyResult] {
        guard lines.count <= dayWindow else { throw .badStanding("holds \(lines.count) days, more than \(dayWindow)") }
        var days: [String: DailyResult] = [:]
        for line in lines {
            let (date, result) = try DailyResult.parse(line)
            guard days[date] == nil else { throw .badStanding("holds \(date) twice") }
            days[date] = result
        }
        return days
    }

    /// Refuses a line another player published that no history gives: a negative or enormous
    /// count, more wins than games, wins in no guesses or in more than 30 each, a streak longer
    /// than the wins, an impossible daily result, a day after `latestDay` (a date no one has
    /// played yet: the day after the reader's, which is the latest date anywhere on Earth).
    public func check(latestDay: String = Standing.latestDay()) throws(MatchRefusal) {
        let limit = 10_000_000
        for (assist, tally) in tallies {
            let level = assist.rawValue
            for (field, value) in [("games", tally.games), ("wins", tally.wins), ("win guesses", tally.winGuesses)] {
                guard value >= 0 else { throw .negative("\(field) (\(level))", value) }
                guard value <= limit else { throw .badStanding("counts \(value) \(field) (\(level))") }
            }
            guard tally.wins <= tally.games else { throw .badStanding("has \(tally.wins) wins in \(tally.games) games (\(level))") }
            guard (tally.wins...(tally.wins * Pack.guessLimits.upperBound)).contains(tally.winGuesses) else {
                throw .badStanding("has \(tally.winGuesses) guesses for \(tally.wins) wins (\(level))")
            }
            guard (0...tally.wins).contains(tally.bestDailyStreak) else {
                throw .badStanding("has a daily streak of \(tally.bestDailyStreak) with \(tally.wins) wins (\(level))")
            }
            guard tally.bestDailyStreak <= bestDailyStreak else {
                throw .badStanding("has a daily streak of \(tally.bestDailyStreak) (\(level)), longer than its whole one of \(bestDailyStreak)")
            }
        }
        guard (0...limit).contains(matchesWon) else { throw .badStanding("counts \(matchesWon) matches won") }
        guard (0...total.wins).contains(bestDailyStreak) else {
            throw .badStanding("has a daily streak of \(bestDailyStreak) with \(total.wins) wins")
        }
        guard days.count <= Standing.dayWindow else { throw .badStanding("holds \(days.count) days, more than \(Standing.dayWindow)") }
        for (date, result) in days {
            guard DailyWord.isDate(date) else { throw .badDay(date) }
            guard date <= latestDay else { throw .badStanding("holds \(date), a day not yet played") }
            try result.check()
        }
    }

    /// The latest date a daily result may have, `now` read as the world's clocks read it: the
    /// day after the UTC date (no time zone is more than a day ahead of UTC).
    public static func latestDay(_ now: Date = Date()) -> String {
        let days = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        return DailyWord.date(day: days + 1)
    }

    // MARK: Helpers

    static func latest(_ days: [String: DailyResult]) -> [String: DailyResult] {
        guard days.count > dayWindow else { return days }
        let kept = Set(days.keys.sorted().suffix(dayWindow))
        return days.filter { kept.contains($0.key) }
    }

    /// The longest run of consecutive days.
    static func longestRun(_ days: Set<Int>) -> Int {
        var best = 0, run = 0, previous: Int?
        for day in days.sorted() {
            run = previous == day - 1 ? run + 1 : 1
            best = max(best, run)
            previous = day
        }
        return best
    }
}
