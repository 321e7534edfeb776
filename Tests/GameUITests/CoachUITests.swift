import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// The coach in the full-screen game: hard games, hints, the words still possible and reviews.
@Suite struct CoachUITests {
    static let hint = Hint(word: "tiger", candidates: 3, groups: 3, expectedLeft: 1, isCandidate: true)
    static let review = Review(steps: [
        Review.Step(word: "crane", candidatesBefore: 36, candidatesAfter: 9, best: "slate", bestExpected: 6.5, expected: 8.25),
        Review.Step(word: "tiger", candidatesBefore: 9, candidatesAfter: 1, best: "tiger", bestExpected: 1.4, expected: 1.4),
    ], skill: 89, luck: 0.4)

    @Test func f2AsksForAHintOnceAndSaysItIsThinking() {
        for key in [Key.function(2)] {
            let (state, effects) = press(key, on: Fixtures.state(.guess))
            #expect(effects == [.hint(gameID: "g1")])
            #expect(state.thinking)
            #expect(press(key, on: state).1.isEmpty, "a second press while thinking asks nothing more")
            #expect(view(state, size: Size(width: 100, height: 30)).text.contains("Thinking…"))
        }
    }

    @Test func theHintShowsOnTheBoardUntilTheNextGuessAndIsNotAskedTwice() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .key(.function(2)))
        _ = update(&state, .hintReady(Fixtures.inPlay, Self.hint))
        #expect(!state.thinking && state.board.currentHint == Self.hint)
        #expect(state.status?.text == "Hint: TIGER · it \(Self.hint.reason).")
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("│ Hint: TIGER (1.0 left on average)"))
        // Asked again at the same point: shown again, not worked out (or counted) again.
        let again = press(.function(2), on: state)
        #expect(again.1.isEmpty && again.0.status?.text.hasPrefix("Hint: TIGER") == true)
        // After another guess the hint no longer applies.
        var later = state
        let played = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "liver"])
        _ = update(&later, .guessPlayed(PlayedGuess(guess: played.game.guesses.last!, number: 5, game: played)))
        #expect(later.board.currentHint == nil)
    }

    /// Below the coach a hint says why its word is good without counting the pack's words left:
    /// neither the status line nor the board's hint line gives a number.
    @Test func aHintBelowTheCoachCountsNothing() {
        for level in [Assist.proven, .noHelp] {
            let game = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe"], assist: level)
            var state = Fixtures.state(.guess, game: game)
            _ = update(&state, .key(.function(2)))
            _ = update(&state, .hintReady(game, Self.hint))
            let status = state.status?.text ?? ""
            #expect(status.hasPrefix("Hint: TIGER · it ") && !status.contains { $0.isNumber }, "\(level): \(status)")
            let screen = view(state, size: Size(width: 100, height: 30)).text
            #expect(screen.contains("│ Hint: TIGER ") && !screen.contains("left on average") && !screen.contains("candidates"), "\(level):\n\(screen)")
        }
    }

    @Test func theWordsStillPossibleShowInTheGuessLineAndProveLetters() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .candidatesLoaded(gameID: "g1", guesses: 4, candidates: ["tiger", "tribe"]))
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("Guess 5 of 15 · 2 words still possible"))
        // T, R, I and E are in both words still possible, so certainly in; W is in neither, so certainly out.
        #expect(screen.contains("[W✗]") && screen.contains("[T✓]"))
        // Counted for another game or an older board: not shown.
        var stale = Fixtures.state(.guess)
        _ = update(&stale, .candidatesLoaded(gameID: "g1", guesses: 3, candidates: ["tiger"]))
        #expect(stale.board.currentCandidates == nil)
        #expect(!view(stale, size: Size(width: 100, height: 30)).text.contains("still possible"))
    }

    /// At the standard level (proven) the board shows no count of words still possible, the
    /// legend says the marks are proven by the guesses, and a new game's first screen marks
    /// nothing; at none, not even the marks the guesses prove.
    @Test func belowTheCoachTheBoardCountsNothingAndANewGameMarksNothing() {
        let proven = Fixtures.game("p1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe"], assist: .proven)
        var state = Fixtures.state(.guess, game: proven)
        _ = update(&state, .candidatesLoaded(gameID: "p1", guesses: 4, candidates: ["tiger", "tribe"]))
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(!screen.contains("still possible") && screen.contains("Guess 5 of 15 "))
        #expect(screen.contains("[A✓] proven by your guesses") && screen.contains("[T✓]"))

        // Before any guess every letter is in some dictionary word and missing from another: these
        // words have every letter between them and none in common.
        let fresh = Fixtures.game("p2", secret: "tiger", guesses: [], assist: .proven)
        var first = Fixtures.state(.guess, game: fresh)
        _ = update(&first, .candidatesLoaded(gameID: "p2", guesses: 0, candidates: ["tiger", "zebra", "jumpy", "crane", "flock", "which", "vexed", "squad"]))
        let firstScreen = view(first, size: Size(width: 100, height: 30)).text
        #expect(firstScreen.filter { $0 == "[" }.count == 1, "only the legend's [A✓]: the first screen marks no letter\n\(firstScreen)")

        let none = Fixtures.game("n1", secret: "tiger", guesses: ["jumpy"], assist: .noHelp)
        let bare = view(Fixtures.state(.guess, game: none), size: Size(width: 100, height: 30)).text
        #expect(!bare.contains("[J✗]") && bare.contains("Your marks only (help: none)"))
    }

    @Test func hOnPacksOrOnAFinishedGameStartsAHardGame() {
        var packs = Fixtures.state(.packs)
        packs.packs.selection = 1
        let (playing, effects) = press(.character("h"), on: packs)
        #expect(effects == [.newGame(packID: "animals", hard: true)] && playing.pane == .guess)
        let over = Fixtures.state(.guess, game: Fixtures.won)
        #expect(press(.character("h"), on: over).1 == [.newGame(packID: "animals", hard: true)])
        #expect(press(.character("h"), on: Fixtures.state(.guess)).1.isEmpty, "in play, h is a letter")
        #expect(press(.character("h"), on: Fixtures.state(.guess)).0.board.input == "h")
    }

    @Test func aHardGameSaysSoInTheHeader() {
        var state = Fixtures.state(.guess)
        let game = state.board.game!.game
        state.board.game?.game = Game(id: game.id, packID: game.packID, secret: game.secret, rules: game.rules, hard: true,
                                guesses: game.guesses, status: game.status, marks: game.marks)
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("classic, 5 letters, hard"))
    }

    @Test func rReviewsAFinishedGameFromItsCardOrFromHistoryAndAnyKeyCloses() {
        let over = Fixtures.state(.guess, game: Fixtures.won)
        let (asked, effects) = press(.character("r"), on: over)
        #expect(effects == [.review(gameID: "g2")] && asked.thinking)
        #expect(press(.character("r"), on: Fixtures.state(.history)).1 == [.review(gameID: "g2")])
        #expect(press(.character("r"), on: Fixtures.state(.guess)).1.isEmpty, "in play, r is a letter")

        var shown = asked
        _ = update(&shown, .reviewReady(Fixtures.won, Self.review))
        #expect(!shown.thinking && shown.review != nil)
        let screen = view(shown, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("Review: TIGER"))
        #expect(screen.contains("  1  CRANE    36 → 9           8.3  SLATE (6.5)"))
        #expect(screen.contains("  2  TIGER    9 → 1            1.4  ✓ as good as the best"))
        #expect(screen.contains("Skill 89 of 100; luck +0.4: the answers left fewer words than expected."))
        // At 40x12 the best guess goes under its row, whole, and the review scrolls to it.
        let narrow = view(shown, size: Size(width: 40, height: 12)).text
        #expect(narrow.contains("  1  CRANE    36 → 9           8.3") && narrow.contains("       best: SLATE (6.5)"), "\(narrow)")
        #expect(!narrow.contains("CRANE    36 → 9           8.3 …"), "nothing of the row cut")
        var end = shown
        for _ in 0..<6 { _ = update(&end, .key(.down)) }
        #expect(view(end, size: Size(width: 40, height: 12)).text.contains("best: ✓ as good as the best"))
        let down = press(.down, on: shown).0
        #expect(down.review != nil && down.reviewScroll == 1, "arrows scroll the review")
        let closed = press(.escape, on: shown).0
        #expect(closed.review == nil && closed.pane == .guess)
    }

    @Test func aFailureWhileThinkingStopsTheThinking() {
        var state = press(.function(2), on: Fixtures.state(.guess)).0
        _ = update(&state, .failed("no hint: no word of the answer set fits every guess so far"))
        #expect(!state.thinking && state.status?.isError == true)
    }

    @Test func historyAndStatsShowHardGamesAndHintsApart() {
        var state = Fixtures.state(.history)
        let won = Fixtures.won
        state.history.items[0].game = Game(id: won.id, packID: won.game.packID, secret: won.game.secret, rules: won.game.rules, hard: true,
                                     guesses: won.game.guesses, status: won.game.status)
        state.history.items[0].hints = [0, 3]
        state.history.items[2].hints = [1]
        let list = view(state, size: Size(width: 120, height: 40)).text
        #expect(list.contains("laptop  hard, 2 hints"))
        #expect(list.contains("laptop  coach, 1 hint"), "a game played with the coach says so")
        state.history.open = true
        #expect(view(state, size: Size(width: 120, height: 40)).text.contains("Animals · classic, hard · finished"))

        var stats = Fixtures.state(.stats)
        stats.stats = Statistics(games: [FinishedGame(status: .won, guessesUsed: 4, hard: true, hints: 2),
                                         FinishedGame(status: .lost, guessesUsed: 15, hard: true),
                                         FinishedGame(status: .won, guessesUsed: 3, hints: 1)])
        #expect(view(stats, size: Size(width: 100, height: 30)).text.contains("Hard mode: 1 won of 2 · Hints: 3 in 2 games"))
        stats.stats = Statistics(games: [FinishedGame(status: .won, guessesUsed: 4, assist: .coach), FinishedGame(status: .won, guessesUsed: 3)])
        #expect(view(stats, size: Size(width: 100, height: 30)).text.contains("With the coach: 1 won of 1"))
        #expect(!view(Fixtures.state(.stats), size: Size(width: 100, height: 30)).text.contains("Hard mode"), "nothing when there is none")
    }
}
