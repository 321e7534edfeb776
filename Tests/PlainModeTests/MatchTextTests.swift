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

    /// One rounding for means everywhere: one decimal, half away from zero (13 guesses over 4
    /// wins is 3.25: 3.3 on the command line as on the screen, where "%.2f" and "%.1f" said 3.25 and 3.2).
    @Test func aMeanIsRoundedOnceTheSameEverywhere() {
        let tally = Standing.Tally(games: 4, wins: 4, winGuesses: 13)
        #expect(tally.meanGuessesText == "3.3")
        let boards = Leaderboards(day: "2026-11-26", daily: [], allTime: Leaderboard.allTime(["ben": Standing(tallies: [.proven: tally])]))
        #expect(MatchText.leaderboards(boards, daily: false).contains { $0.contains(", 3.3 guesses a win,") })
    }

    @Test func anAllTimeLineCountsInWordsAndHasNoMeanWithoutAWin() {
        let standings = [
            "ben": Standing(tallies: [.proven: Standing.Tally(games: 3, wins: 3, winGuesses: 3)], matchesWon: 1),
            "ann": Standing(tallies: [.proven: Standing.Tally(games: 1, wins: 0, winGuesses: 0)]),
        ]
        let boards = Leaderboards(day: "2026-11-26", daily: [], allTime: Leaderboard.allTime(standings))
        #expect(MatchText.leaderboards(boards, daily: false) == [
            "The word of 2026-11-26:", "  no one yet", "All time:", "  help: proven",
            "  1. ben  3 games, 3 wins (100%), 1.0 guesses a win, best daily streak 0, 1 match won",
            "  2. ann  1 game, 0 wins (0%), no win yet, best daily streak 0, 0 matches won",
        ])
    }
}
