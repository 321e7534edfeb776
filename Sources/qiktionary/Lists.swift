import App
import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore

struct Games: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Games in progress, newest first (never their words).")
    @OptionGroup var list: ListOptions

    func run() throws {
        try list.print({ try $0.games.gamesInProgress() }, as: GameJSON.init,
                       empty: "No games in progress. Start one with 'qiktionary play'.", text: ListText.games)
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
            try list.print({ try $0.games.history() }, as: HistoryEntryJSON.init, empty: "No finished games yet.", text: ListText.history)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One finished game with its review: each guess against the best one, skill and luck."
        )
        @OptionGroup var finished: FinishedGameArguments
        @Flag(help: "Print a JSON object.") var json = false

        func run() throws {
            let review = ReviewJSON(try finished.open().games.reviewedGame(idOrPrefix: finished.gameID))
            if json { return printJSON(review) }
            say(ReviewText.render(review))
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one finished game.")
        @OptionGroup var finished: FinishedGameArguments
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let setup = try finished.open()
            let game = try setup.games.finishedGame(idOrPrefix: finished.gameID, for: .deletion)
            try AskFirst.require("Delete the game on \(game.game.secret.uppercased()) (\(game.game.status.rawValue))?",
                                     yes: yes, refusal: "game \(game.id) not deleted")
            try setup.games.deleteGame(id: game.id)
            say("Deleted game \(game.id) (\(game.game.secret)).")
        }
    }

    /// The game `history show` and `history delete` take, which must be finished.
    struct FinishedGameArguments: ParsableArguments {
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The game's id, or its start (see 'qiktionary history').", valueName: "game-id")) var gameID: String

        /// Opens the data, after a quiet sync (the game may have been played on another machine).
        func open() throws -> Setup {
            let setup = try Setup.open(shared)
            setup.sync.inPassing()
            return setup
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
                setup.sync.inPassing()
                let (facts, titles) = try setup.games.readingListWithTitles()
                return say(ReadingListMarkdown.render(facts, packTitles: titles))
            }
            try list.print({ try $0.games.readingList() }, as: BookmarkJSON.init,
                           empty: "Your reading list is empty. Bookmark a fact when a game ends.", text: ListText.readingList)
        }
    }

    struct Add: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "Bookmark the fact of a word you have played.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: "The word.") var word: String

        func run() throws {
            let bookmark = try Setup.open(shared).games.addBookmark(word: word)
            say("\(bookmark.word.uppercased()) is on your reading list.")
        }
    }

    struct Remove: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "Take a word off the reading list.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: "The word.") var word: String

        func run() throws {
            try Setup.open(shared).games.removeBookmark(word: word)
            say("\(word.lowercased().uppercased()) is off your reading list.")
        }
    }
}

struct Packs: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Word packs with your progress.")
    @OptionGroup var list: ListOptions

    func run() throws {
        try list.print({ try $0.games.packs() }, as: { $0 }, text: ListText.packs)
    }
}

struct Stats: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(abstract: "Games played and won, streaks and guess distribution.")
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        let setup = try Setup.open(shared)
        // What the other machine played counts: a quiet sync first, as every list does.
        setup.sync.inPassing()
        let summary = try setup.games.statsSummary()
        if json { return printJSON(StatsJSON(summary.statistics, achievements: summary.achievements, dailyStreak: summary.dailyStreak)) }
        StatsText.lines(summary.statistics, achievements: summary.achievements, dailyStreak: summary.dailyStreak, today: setup.dailyClock).forEach(say)
    }
}
