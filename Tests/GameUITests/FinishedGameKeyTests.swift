import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// Keys meant for a guess never act on a finished game: a game ended by another machine while
/// this one types, a double Enter on the winning word, Ctrl-H, a refused guess.
@Suite struct FinishedGameKeyTests {
    /// Tiger in play on desktop, four guesses played there.
    static func inPlay() -> AppState {
        var state = Fixtures.state(.guess)
        state.device = "desktop"
        state.board.game?.guessDevices = Array(repeating: "desktop", count: 4)
        return state
    }

    /// The same game won on laptop with a fifth guess, as a sync brings it.
    static var wonOnLaptop: SavedGame {
        var won = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "tiger"], status: .won, finished: 90)
        won.guessDevices = ["desktop", "desktop", "desktop", "desktop", "laptop"]
        return won
    }

    @Test func aWinFromAnotherMachineDropsTheTypingAndTheCardWaitsForEnterOrEsc() {
        var state = Self.inPlay()
        for c in "bri" { _ = update(&state, .key(.character(c))) }
        #expect(state.board.input == "bri")
        _ = update(&state, .gameLoaded(Self.wonOnLaptop))
        #expect(state.board.input.isEmpty, "the letters typed are dropped")
        #expect(state.board.notice == "Found on laptop while you were typing")
        #expect(state.status?.text == "You found TIGER on laptop in 5 guesses. Score 11.")
        // The rest of "brick", and more: none reaches the card's one-key commands.
        for key: Key in [.character("c"), .character("k"), .character("b"), .character("r"), .character("s"), .character("n"), .character("h")] {
            let effects = update(&state, .key(key))
            #expect(effects.isEmpty, "\(key) acted on the finished game")
            #expect(state.codeEntry == nil && state.review == nil && !state.thinking)
        }
        #expect(state.board.notice != nil)
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("Found on laptop while you were typing"), "\(screen)")
        // The letters typed during the notice were swallowed: Enter closes it, as it asked, and
        // says the letters dropped when it came were not played.
        #expect(update(&state, .key(.enter)).isEmpty)
        #expect(state.board.notice == nil)
        #expect(state.status?.text == "BRI was not played. You found TIGER on laptop in 5 guesses. Score 11.")
        // Only then do the card's keys act.
        #expect(update(&state, .key(.character("b"))) == [.bookmark(gameID: "g1")])
    }

    /// Letters typed while the notice is up never make a guess line: the next Enter closes it.
    @Test func theNoticeSwallowsLettersUntilEnterOrEsc() {
        var state = Self.inPlay()
        _ = update(&state, .gameLoaded(Self.wonOnLaptop))
        for c in "brick" { #expect(update(&state, .key(.character(c))).isEmpty) }
        #expect(state.board.input.isEmpty && state.board.noticeTyped.isEmpty)
        #expect(state.status?.text == "This game is over: Enter or Esc to go on.")
        _ = update(&state, .key(.enter))
        #expect(state.board.notice == nil, "the Enter closed the notice")
        #expect(state.status?.text == "You found TIGER on laptop in 5 guesses. Score 11.")
    }

    /// The win arrives before the guess that won it (the game's record first): the notice still
    /// names the machine, from the record's last change.
    @Test func theNoticeNamesTheMachineBeforeTheWinningGuessArrives() {
        var state = Self.inPlay()
        var won = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe"], status: .won, finished: 90, device: "laptop")
        won.guessDevices = Array(repeating: "desktop", count: 4)
        _ = update(&state, .gameLoaded(won))
        #expect(state.board.notice == "Found on laptop")
    }

    @Test func escapeClosesTheNoticeToo() {
        var state = Self.inPlay()
        _ = update(&state, .gameLoaded(Self.wonOnLaptop))
        #expect(state.board.notice == "Found on laptop")
        #expect(update(&state, .key(.enter)).isEmpty)
        #expect(state.board.notice == nil)
        var other = Self.inPlay()
        _ = update(&other, .gameLoaded(Self.wonOnLaptop))
        _ = update(&other, .key(.escape))
        #expect(other.board.notice == nil && other.pane == .guess)
    }

    @Test func aGuessPlayedAsTheOtherMachineWonShowsTheNotice() {
        var state = Self.inPlay()
        var won = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "tiger", "brick"], status: .won, finished: 90)
        won.guessDevices = ["desktop", "desktop", "desktop", "desktop", "laptop", "desktop"]
        let brick = won.game.guesses[5]
        _ = update(&state, .guessPlayed(PlayedGuess(guess: brick, number: 6, game: won)))
        #expect(state.board.notice == "Found on laptop while you were typing")
        #expect(update(&state, .key(.character("r"))).isEmpty)
    }

    @Test func aGiveUpHereIsNoNews() {
        var state = Self.inPlay()
        _ = update(&state, .key(.control("g")))
        #expect(update(&state, .key(.character("y"))) == [.giveUp(gameID: "g1")])
        var gaveUp = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe"], status: .gaveUp, finished: 90, device: "desktop")
        gaveUp.guessDevices = Array(repeating: "desktop", count: 4)
        _ = update(&state, .gameLoaded(gaveUp))
        #expect(state.board.notice == nil)
        #expect(update(&state, .key(.character("b"))) == [.bookmark(gameID: "g1")])
    }

    @Test func aGiveUpOnAnotherMachineIsNoticed() {
        var state = Self.inPlay()
        let gaveUp = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe"], status: .gaveUp, finished: 90, device: "laptop")
        _ = update(&state, .gameLoaded(gaveUp))
        #expect(state.board.notice == "Given up on laptop")
    }

    @Test func theEndMessageNamesTheMachineTheWordWasFoundOn() {
        var state = Self.inPlay()
        state.device = "laptop"
        var alone = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "tiger"], status: .won, finished: 90)
        alone.guessDevices = ["laptop", "laptop"]
        #expect(endLine(alone, here: "laptop") == "You found TIGER in 2 guesses. Score 14.")
        #expect(endLine(alone, here: "desktop") == "You found TIGER on laptop in 2 guesses. Score 14.")
        _ = update(&state, .gameLoaded(alone))
        state.device = "desktop"
        _ = update(&state, .gameLoaded(alone))
        #expect(state.status?.text == "You found TIGER on laptop in 2 guesses. Score 14.")
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("You found TIGER on laptop in 2 guesses."))
    }

    // MARK: The fact card after a win

    @Test func aSecondEnterWithinAMomentOfTheWinningEnterKeepsTheCard() {
        var state = Self.inPlay()
        for c in "tiger" { _ = update(&state, .pressed(.character(c), at: 100)) }
        #expect(update(&state, .pressed(.enter, at: 100.0)) == [.guess("tiger", gameID: "g1")])
        var won = Self.wonOnLaptop
        won.guessDevices = Array(repeating: "desktop", count: 5)
        _ = update(&state, .guessPlayed(PlayedGuess(guess: won.game.guesses[4], number: 5, game: won)))
        #expect(state.board.notice == nil)
        #expect(update(&state, .pressed(.enter, at: 100.3)).isEmpty, "the double press does not leave the card")
        #expect(update(&state, .pressed(.character("n"), at: 100.5)).isEmpty)
        #expect(state.board.game?.id == "g1")
        #expect(update(&state, .pressed(.enter, at: 101.2)) == [.newGame(packID: "animals")], "a deliberate Enter does")
    }

    // MARK: Ctrl-H and refused guesses

    @Test func ctrlHDeletesALetterAndNeverAsksForAHint() {
        var state = Self.inPlay()
        _ = update(&state, .key(.character("x")))
        let effects = update(&state, .key(.control("h")))
        #expect(effects.isEmpty && state.board.input.isEmpty && !state.thinking)
        #expect(update(&state, .key(.function(2))) == [.hint(gameID: "g1")])
    }

    @Test func aRefusedGuessStaysEditableAndIsNotSentAgain() {
        var state = Self.inPlay()
        for c in "moist" { _ = update(&state, .key(.character(c))) }
        #expect(update(&state, .key(.enter)) == [.guess("moist", gameID: "g1")])
        _ = update(&state, .guessRefused(input: "moist", reason: "hard mode: every guess must fit the feedback so far"))
        #expect(state.board.input == "moist")
        #expect(update(&state, .key(.enter)).isEmpty, "the refused word is not sent again")
        #expect(state.status?.isError == true)
        for c in "tiger" { _ = update(&state, .key(.character(c))) }
        #expect(state.board.input == "tiger", "typing starts a new word")
        #expect(update(&state, .key(.enter)) == [.guess("tiger", gameID: "g1")])
        // Backspace edits the refused word instead.
        _ = update(&state, .guessRefused(input: "tiger", reason: "already guessed"))
        _ = update(&state, .key(.backspace))
        _ = update(&state, .key(.character("s")))
        #expect(state.board.input == "tiges")
    }

    // MARK: Small mends

    @Test func sOnTwoGamesKeepsBothSummaries() {
        var state = Fixtures.state(.guess, game: Fixtures.won)
        _ = update(&state, .shareReady("Qiktionary TIGER summary"))
        _ = update(&state, .shareReady("Qiktionary ZEBRA summary"))
        _ = update(&state, .shareReady("Qiktionary ZEBRA summary"))
        #expect(state.shares == ["Qiktionary TIGER summary", "Qiktionary ZEBRA summary"])
        #expect(state.status?.text.hasPrefix("The 2 summaries print") == true)
    }

    @Test func aClassicAnagramSaysWhyAllLettersDidNotWin() {
        var state = Self.inPlay()
        let game = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "tigre"].filter { $0 != "tigre" } + ["rigte"])
        _ = update(&state, .guessPlayed(PlayedGuess(guess: game.game.guesses.last!, number: 5, game: game)))
        #expect(state.status?.text == "RIGTE: 5 common: all letters, wrong order.")
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("5 common  (all letters, wrong order)"))
    }

    @Test func theStatsFooterSaysWhereOneGoes() {
        let footer = view(Fixtures.state(.stats), size: Size(width: 100, height: 30)).text.split(separator: "\n").last ?? ""
        #expect(footer.contains("1 back to the game"))
    }

    /// A letter proven in play keeps its brackets once the game is won, the player's mark on it
    /// or not; the win's proofs are shown too, and a mark nothing proves stays the player's.
    @Test func theNotepadKeepsItsProvenMarksOnceWon() {
        // JUMPY scored 0: J, U, M, P, Y proven out in play; the player marked J out too, and Z, E, G.
        let marks: [Character: LetterMark] = ["j": .out, "e": .in, "z": .out, "g": .out]
        let inPlay = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "jumpy"], marks: marks, assist: .proven)
        let won = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "jumpy", "tiger"], status: .won, marks: marks, finished: 90, assist: .proven)
        let before = view(Fixtures.state(.guess, game: inPlay), size: Size(width: 100, height: 30)).text
        let after = view(Fixtures.state(.guess, game: won), size: Size(width: 100, height: 30)).text
        for mark in ["[J✗]", "[U✗]", " E✓ ", " Z✗ ", " G✗ "] { #expect(before.contains(mark), "in play: \(mark)\n\(before)") }
        // After the win: the proven marks stay, and TIGER proves its letters in and CRANE's others out.
        for mark in ["[J✗]", "[U✗]", "[E✓]", "[G✓]", "[C✗]", " Z✗ "] { #expect(after.contains(mark), "won: \(mark)\n\(after)") }
    }
}
