/// One finished game as the statistics see it.
public struct FinishedGame: Sendable, Equatable {
    public var status: GameStatus
    public var guessesUsed: Int
    public var hard: Bool
    /// Hints taken during the game.
    public var hints: Int
    public var assist: Assist

    public init(status: GameStatus, guessesUsed: Int, hard: Bool = false, hints: Int = 0, assist: Assist = .standard) {
        self.status = status
        self.guessesUsed = guessesUsed
        self.hard = hard
        self.hints = hints
        self.assist = assist
    }
}

/// Played, won, streaks and the guess distribution of a player's finished games.
public struct Statistics: Sendable, Equatable {
    public var played = 0
    public var won = 0
    public var currentStreak = 0
    public var maxStreak = 0
    /// Won games by the number of guesses they took.
    public var distribution: [Int: Int] = [:]
    /// Hard-mode games, counted apart as well as in the totals above.
    public var hardPlayed = 0
    public var hardWon = 0
    /// Hints taken over all finished games, and how many games took at least one.
    public var hintsTaken = 0
    public var gamesWithHints = 0
    /// Games played with the coach on (`Assist.coach`), counted apart as well as in the totals.
    public var coachPlayed = 0
    public var coachWon = 0

    /// `games` in the order they finished, oldest first.
    public init<S: Sequence>(games: S) where S.Element == FinishedGame {
        var streak = 0
        for game in games where game.status.isFinished {
            played += 1
            hintsTaken += game.hints
            if game.hints > 0 { gamesWithHints += 1 }
            if game.assist == .coach {
                coachPlayed += 1
                if game.status == .won { coachWon += 1 }
            }
            if game.hard {
                hardPlayed += 1
                if game.status == .won { hardWon += 1 }
            }
            if game.status == .won {
                won += 1
                streak += 1
                maxStreak = max(maxStreak, streak)
                distribution[game.guessesUsed, default: 0] += 1
            } else {
                streak = 0
            }
        }
        currentStreak = streak
    }

    /// Won games as a fraction (0 to 1) of games played, 0 when none were played.
    public var winRate: Double { played == 0 ? 0 : Double(won) / Double(played) }

    /// Average guesses of the games won, 0 when none were won.
    public var averageGuesses: Double {
        won == 0 ? 0 : Double(distribution.reduce(0) { $0 + $1.key * $1.value }) / Double(won)
    }
}
