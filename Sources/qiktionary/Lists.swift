import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore
import Storage

struct Games: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Games in progress, newest first (never their words).")
    @OptionGroup var list: ListOptions

    func run() throws {
        try list.print({ try $0.player.gamesInProgress() }, as: GameJSON.init,
                       empty: "No games in progress. Start one with 'qiktionary play'.") {
            columns([["GAME", "PACK", "RULES", "GUESSES", "CHANGED", "ON"]] + $0.map {
                [$0.id, $0.game.packID, $0.game.rules.rawValue, "\($0.game.guesses.count)/\($0.game.maxGuesses)",
                 shortDate($0.updatedAt), $0.lastChangedOn]
            })
        }
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Finished games, newest first.",
        subcommands: [List.self, Show.self, Delete.self], defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List finished games.")
        @OptionGroup var list: ListOptions

        func run() throws {
            try list.print({ try $0.player.history() }, as: HistoryEntryJSON.init, empty: "No finished games yet.") {
                columns([["WORD", "RESULT", "GUESSES", "HARD", "HELP", "HINTS", "DAILY", "FINISHED", "ON", "PACK", "GAME"]] + $0.map {
                    [($0.bookmarked ? "★ " : "  ") + $0.game.secret, $0.game.status.rawValue, "\($0.game.guesses.count)",
                     $0.game.hard ? "hard" : "", $0.game.assist.rawValue, $0.hints.isEmpty ? "" : "\($0.hints.count)", dailyLabel($0.daily),
                     shortDate($0.finishedAt), $0.lastChangedOn, $0.game.packID, $0.id]
                })
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One finished game with its review: each guess against the best one, skill and luck."
        )
        @OptionGroup var finished: FinishedGameArguments
        @Flag(help: "Print a JSON object.") var json = false

        func run() throws {
            let (setup, saved) = try finished.open(else: StorageError.notFinishedForReview)
            let coach = try setup.database.coach(for: saved.game, lexicon: setup.lexicon())
            var review = ReviewJSON(saved, review: coach.review(of: saved.game))
            review.challenge = try setup.database.challengeCode(for: saved.game, lexicon: setup.lexicon())
            if json { return printJSON(review) }
            say(ReviewText.render(review))
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one finished game.")
        @OptionGroup var finished: FinishedGameArguments
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let (setup, game) = try finished.open(else: StorageError.gameInProgress)
            try AskFirst.require("Delete the game on \(game.game.secret.uppercased()) (\(game.game.status.rawValue))?",
                                     yes: yes, refusal: "game \(game.id) not deleted")
            try setup.player.deleteGame(id: game.id)
            say("Deleted game \(game.id) (\(game.game.secret)).")
        }
    }

    /// The game `history show` and `history delete` take, which must be finished.
    struct FinishedGameArguments: ParsableArguments {
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The game's id, or its start (see 'qiktionary history').", valueName: "game-id")) var gameID: String

        /// Opens the data and reads the game; one still in play is refused with `refusal`.
        func open(else refusal: (String) -> StorageError) throws -> (Setup, SavedGame) {
            let setup = try Setup.open(shared)
            setup.syncInPassing()
            let saved = try setup.player.game(idOrPrefix: gameID)
            guard saved.game.isFinished else { throw Failure(refusal(saved.id)) }
            return (setup, saved)
        }
    }
}

struct ReadingList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reading-list",
        abstract: "Bookmarked facts, newest first.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the reading list.")
        @OptionGroup var list: ListOptions
        @Flag(help: "Print a Markdown document, to keep or share.") var markdown = false

        func validate() throws {
            if list.json && markdown { throw ValidationError("choose one of --json and --markdown") }
        }

        func run() throws {
            if markdown {
                let setup = try Setup.open(list.shared)
                setup.syncInPassing()
                let facts = try setup.player.readingList()
                let titles = Dictionary(try setup.player.packs().map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
                return say(ReadingListMarkdown.render(facts, packTitles: titles))
            }
            try list.print({ try $0.player.readingList() }, as: BookmarkJSON.init,
                           empty: "Your reading list is empty. Bookmark a fact when a game ends.") {
                $0.map { "\($0.word.uppercased())  (\($0.packID), \(shortDate($0.addedAt)))\n  \($0.fact)" }.joined(separator: "\n\n")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bookmark the fact of a word you have played.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: "The word.") var word: String

        func run() throws {
            let bookmark = try Setup.open(shared).player.addBookmark(word: word)
            say("\(bookmark.word.uppercased()) is on your reading list.")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a word off the reading list.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: "The word.") var word: String

        func run() throws {
            try Setup.open(shared).player.removeBookmark(word: word)
            say("\(word.lowercased().uppercased()) is off your reading list.")
        }
    }
}

struct Packs: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Word packs with your progress.")
    @OptionGroup var list: ListOptions

    func run() throws {
        try list.print({ try $0.player.packs() }, as: { $0 }) {
            columns([["PACK", "TITLE", "LETTERS", "RULES", "SOLVED"]] + $0.map {
                [$0.id, $0.title, "\($0.length)", $0.rules.rawValue, "\($0.solved)/\($0.words)"]
            })
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Games played and won, streaks and guess distribution.")
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        let setup = try Setup.open(shared)
        let stats = try setup.player.statistics()
        let achievements = try setup.player.achievements()
        let daily = Achievements.dailyStreaks(games: try setup.player.playedGames())
        let today = setup.dailyClock
        if json { return printJSON(StatsJSON(stats, achievements: achievements, dailyStreak: daily)) }
        say("Played \(stats.played), won \(stats.won) (\(Int((stats.winRate * 100).rounded()))%), "
              + "streak \(stats.currentStreak), best streak \(stats.maxStreak)")
        if stats.hardPlayed > 0 { say("Hard mode: played \(stats.hardPlayed), won \(stats.hardWon)") }
        if stats.coachPlayed > 0 { say("With the coach: played \(stats.coachPlayed), won \(stats.coachWon)") }
        if stats.hintsTaken > 0 { say("Hints taken: \(stats.hintsTaken), in \(stats.gamesWithHints) \(stats.gamesWithHints == 1 ? "game" : "games")") }
        let number = DailyWord.number(day: today.day).map { "#\($0) " } ?? ""
        say("Daily word: today's is \(number)(\(today.date)), the next in \(today.untilNextDayText)"
              + (daily.best > 0 ? "; streak \(daily.current), best streak \(daily.best)" : ""))
        let earned = achievements.filter { $0.earnedAt != nil }
        say("Achievements: \(earned.count) of \(achievements.count)")
        for achievement in achievements {
            let when = achievement.earnedAt.map { "earned \(shortDate($0))" } ?? "not yet"
            say("  \(achievement.earnedAt == nil ? " " : "★") \(achievement.title): \(achievement.detail) (\(when))")
        }
        let top = stats.distribution.values.max() ?? 0
        for guesses in (stats.distribution.keys.sorted()) {
            let count = stats.distribution[guesses] ?? 0
            let bar = String(repeating: "█", count: top == 0 ? 0 : max(1, count * 30 / top))
            say(String(format: "%3d  %@ %d", guesses, bar, count))
        }
    }
}

/// A daily game's number and date for a list, "#4 2026-11-25"; empty for any other game.
func dailyLabel(_ date: String?) -> String {
    guard let date else { return "" }
    return DailyWord.number(date: date).map { "#\($0) \(date)" } ?? date
}
