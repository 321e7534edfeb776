import QiktionaryCore
import Testing
@testable import PlainMode

/// The command line's words for match results and leaderboard lines.
@Suite struct MatchTextTests {
    @Test func resultsAreSaidAsAPersonSaysThem() {
        #expect(MatchText.result(.won, 3) == "won in 3")
        #expect(MatchText.result(.lost, 15) == "lost in 15")
        #expect(MatchText.result(.gaveUp, 0) == "gave up")
        #expect(MatchText.result(.gaveUp, 4) == "gave up after 4")
        #expect(MatchText.hints(0) == "" && MatchText.hints(1) == ", 1 hint" && MatchText.hints(2) == ", 2 hints")
    }

    @Test func anAllTimeLineCountsInWordsAndHasNoMeanWithoutAWin() {
        let standings = [
            "ben": Standing(tallies: [.proven: Standing.Tally(games: 3, wins: 3, winGuesses: 3)], matchesWon: 1),
            "ann": Standing(tallies: [.proven: Standing.Tally(games: 1, wins: 0, winGuesses: 0)]),
        ]
        let boards = Leaderboards(day: "2026-11-26", daily: [], allTime: Leaderboard.allTime(standings))
        #expect(MatchText.leaderboards(boards, daily: false) == [
            "The word of 2026-11-26:", "  no one yet", "All time:", "  help: proven",
            "  1. ben  3 games, 3 wins (100%), 1.00 guesses a win, best daily streak 0, 1 match won",
            "  2. ann  1 game, 0 wins (0%), no win yet, best daily streak 0, 0 matches won",
        ])
    }
}
