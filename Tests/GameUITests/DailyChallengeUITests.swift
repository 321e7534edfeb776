import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// The daily word, challenge codes, sharing and achievements in the full-screen game.
@Suite struct DailyChallengeUITests {
    @Test func ctrlDPlaysTheDailyWordFromTheGameInPlayOrOver() {
        #expect(press(.control("d"), on: Fixtures.state(.guess)).1 == [.daily])
        #expect(press(.control("d"), on: Fixtures.state(.guess, game: Fixtures.won)).1 == [.daily])
    }

    @Test func cTypesAChallengeCodeOnTheStatusLineAndEnterPlaysIt() {
        for start in [Fixtures.state(.guess, game: Fixtures.won), Fixtures.state(.packs)] {
            var (state, effects) = press(.character("c"), on: start)
            #expect(effects.isEmpty && state.codeEntry == "")
            (state, effects) = press([.character("k"), .character("7"), .character("-"), .character("q"), .character("m"), .backspace,
                                      .character("M")], on: state)
            #expect(state.codeEntry == "K7QM")
            #expect(view(state, size: Size(width: 100, height: 30)).text.contains("Challenge code: K7QM_   (Enter plays it, Esc cancels)"))
            (state, effects) = press(.enter, on: state)
            #expect(effects == [.challenge(code: "K7QM")] && state.codeEntry == nil && state.pane == .guess)
        }
        let cancelled = press([.character("c"), .character("a"), .escape], on: Fixtures.state(.packs)).0
        #expect(cancelled.codeEntry == nil && cancelled.status?.text == "Cancelled.")
        #expect(press(.character("c"), on: Fixtures.state(.guess)).0.board.input == "c", "in play, c is a letter")
    }

    @Test func sSharesAFinishedGameAfterTheScreenCloses() {
        let over = Fixtures.state(.guess, game: Fixtures.won)
        #expect(press(.character("s"), on: over).1 == [.share(gameID: "g2")])
        var state = over
        _ = update(&state, .shareReady("Qiktionary · Animals · classic · 5/15\n●●···"))
        #expect(state.share?.hasPrefix("Qiktionary") == true)
        #expect(state.status?.text.contains("prints when you quit") == true)
    }

    @Test func theCardOffersTheChallengeCodeAndAPracticeGameSaysItHasNoFact() {
        var state = Fixtures.state(.guess, game: Fixtures.won)
        _ = update(&state, .challengeCodeLoaded(gameID: "g2", code: "K7QM2XWA9DF3"))
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("Challenge a friend: K7QM2XWA9DF3"))
        #expect(screen.contains("b bookmark · r review · s share · n next game"))
        let practice = Fixtures.game("p1", secret: "plumb", pack: "practice", guesses: ["plumb"], status: .won, fact: "", finished: 5)
        let card = view(Fixtures.state(.guess, game: practice), size: Size(width: 100, height: 30)).text
        #expect(card.contains("No fact for this word"))
        #expect(!card.contains("bookmark this fact"))
    }

    @Test func statsListTheAchievementsEarnedWithTheirDatesAndTheDailyStreak() {
        var state = Fixtures.state(.stats)
        let achievements = Achievements.catalogue.enumerated().map { index, a in
            var a = a
            if index < 2 { a.earnedAt = Fixtures.at(index * 1_440) }
            return a
        }
        _ = update(&state, .achievementsLoaded(achievements, dailyCurrent: 2, dailyBest: 5))
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("Achievements 2/\(Achievements.catalogue.count)"))
        #expect(screen.contains("★ First win") && screen.contains("2026-11-18"))
        #expect(screen.contains("Daily streak: 2 (best 5)"))
        let narrow = view(state, size: Size(width: 80, height: 24)).text
        #expect(narrow.contains("Achievements 2/"))
    }
}
