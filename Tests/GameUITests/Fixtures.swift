import Foundation
@testable import QiktionaryCore
import Screen
@testable import GameUI

/// A player's data made by hand, with fixed dates, so rendered screens never change.
enum Fixtures {
    static let day = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 10:13 UTC

    static func at(_ minutes: Int) -> Date { day.addingTimeInterval(Double(minutes) * 60) }

    static let tigerFact = "A tiger's stripes are not only in its fur: the skin underneath is striped too. No two tigers share the same pattern, so researchers can identify individuals from camera-trap photos."

    static func game(_ id: String, secret: String, pack: String = "animals", rules: Rules = .classic, guesses: [String],
                     status: GameStatus = .inProgress, marks: [Character: LetterMark] = [:],
                     fact: String = tigerFact, finished: Int? = nil, device: String = "laptop", bookmarked: Bool = false,
                     assist: Assist = .coach) -> SavedGame {
        let played = guesses.map { Guess(word: $0, feedback: rules.feedback(for: $0, against: secret)) }
        let game = Game(id: id, packID: pack, secret: secret, rules: rules, assist: assist, guesses: played, status: status, marks: marks)
        return saved(game, fact: fact, updatedAt: at(finished ?? 30), finishedAt: finished.map(at), startedOn: "desktop",
                     lastChangedOn: device, bookmarked: bookmarked)
    }

    /// A stored game from the rules' view of it, started at `at(0)` unless told.
    static func saved(_ game: Game, fact: String, startedAt: Date = at(0), updatedAt: Date, finishedAt: Date?, startedOn: String,
                      lastChangedOn: String, bookmarked: Bool, daily: String? = nil) -> SavedGame {
        var synced = SyncGame.started(id: game.id, packID: game.packID, secret: game.secret, fact: fact, rules: game.rules,
                                      maxGuesses: game.maxGuesses, hard: game.hard, assist: game.assist, daily: daily,
                                      at: startedAt, on: startedOn)
        synced.status = game.status
        synced.updatedAt = updatedAt
        synced.finishedAt = finishedAt
        synced.lastChangedOn = lastChangedOn
        return SavedGame(synced, guesses: game.guesses, marks: game.marks, bookmarked: bookmarked, guessDevices: [])
    }

    /// Tiger in play: jumpy scored 0 (its letters proven out), tribe scored 4; the player marked C out and E in.
    static let inPlay = game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe"], marks: ["c": .out, "e": .in])
    static let won = game("g2", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "tiger"], status: .won, finished: 90)

    static let packs = [
        PackProgress(id: "kitchen", title: "Kitchen", description: "Things you cook with and eat.", length: 4, rules: .classic, maxGuesses: 15, words: 40, solved: 40),
        PackProgress(id: "animals", title: "Animals", description: "Creatures of land, sea and sky.", length: 5, rules: .classic, maxGuesses: 15, words: 36, solved: 12),
        PackProgress(id: "music", title: "Music", description: "Instruments, notes and the words of song.", length: 5, rules: .mastermind, maxGuesses: 12, words: 45, solved: 3),
        PackProgress(id: "origins", title: "Word origins", description: "Everyday words with surprising pasts.", length: 6, rules: .classic, maxGuesses: 15, words: 50, solved: 0),
    ]

    static let inProgress = [
        inPlay,
        game("g3", secret: "flute", pack: "music", rules: .mastermind, guesses: ["notes", "chord"], device: "desktop"),
    ]

    static let history = [
        won,
        game("g4", secret: "zebra", guesses: Array(["crane", "moist", "jumpy", "tribe", "blaze", "fight", "vocal", "dwelt", "shrug", "pinky", "wacky", "flung", "earth", "hover", "quilt"]),
             status: .lost, fact: "Why zebras have stripes is an old puzzle.", finished: 60, device: "desktop", bookmarked: true),
        game("g5", secret: "whale", guesses: ["crane"], status: .gaveUp, fact: "Whales are mammals.", finished: 20),
    ]

    static let readingList = [
        Bookmark(word: "zebra", packID: "animals", fact: "Why zebras have stripes is an old puzzle. In experiments, biting horseflies struggled to land on horses wearing striped coats.", addedAt: at(70)),
        Bookmark(word: "flour", packID: "kitchen", fact: "Flour and flower were once the same word: the flower of the wheat was its finest part.", addedAt: at(10)),
    ]

    static let stats = Statistics(games: [
        FinishedGame(status: .won, guessesUsed: 6), FinishedGame(status: .won, guessesUsed: 4),
        FinishedGame(status: .lost, guessesUsed: 15), FinishedGame(status: .won, guessesUsed: 5),
        FinishedGame(status: .won, guessesUsed: 5), FinishedGame(status: .won, guessesUsed: 7),
        FinishedGame(status: .won, guessesUsed: 5),
    ])

    /// Everything loaded, on the given pane, a game on the board.
    static func state(_ pane: Pane = .guess, game: SavedGame = inPlay, glyphs: Glyphs = .unicode) -> AppState {
        var state = AppState(glyphs: glyphs)
        state.pane = pane
        state.board.game = game
        state.board.waitingForGame = false
        state.packs.items = packs
        state.inProgress.items = inProgress
        state.history.items = history
        state.readingList.items = readingList
        state.stats = stats
        return state
    }
}
