import Foundation
import QiktionaryCore
import Testing
@testable import PlainMode

/// `history` and `history show` count a game's guesses as `--json`, the statistics and the
/// leaderboard do: up to the win. A guess another machine played after it (not knowing the
/// word was found) is said apart.
@Suite struct HistoryTextTests {
    /// A won game of `mole` whose guesses came in this order (the word first, as a merged game
    /// of two machines lists them when both played it first).
    static func won(_ words: [String]) -> SavedGame {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let synced = SyncGame(id: "00000000-0000-4000-8000-000000000001", packID: "garden", secret: "mole", fact: "A fact.",
                              rules: .mastermind, maxGuesses: 15, status: .won, startedAt: at, updatedAt: at, finishedAt: at,
                              startedOn: "laptop", lastChangedOn: "desk", hard: false, assist: .proven, hints: "", daily: nil,
                              matchResult: nil)
        let guesses = words.map { Guess(word: $0, feedback: Rules.mastermind.feedback(for: $0, against: "mole")) }
        return SavedGame(synced, guesses: guesses, marks: [:], bookmarked: false, guessDevices: words.map { _ in "desk" })
    }

    @Test func aGuessPlayedAfterTheWinIsNotCountedButSaid() {
        let merged = Self.won(["mole", "lamp"]), alone = Self.won(["lamp", "mole"])
        #expect(merged.game.guessesUsed == 1 && alone.game.guessesUsed == 2)
        let rows = ListText.history([merged, alone]).split(separator: "\n").map(String.init)
        #expect(rows[1].contains("won     1 (+1 after)"), "\(rows)")
        #expect(rows[2].contains("won     2  "), "\(rows)")

        let steps = ["mole", "lamp"].map {
            Review.Step(word: $0, candidatesBefore: 36, candidatesAfter: 0, best: "tore", bestExpected: 5.8, expected: 8.2)
        }
        let text = ReviewText.render(ReviewJSON(merged, review: Review(steps: steps, skill: 85, luck: 2.8)))
        #expect(text.hasPrefix("MOLE: won, 1 guess, 1 more played after the win on another machine, garden, mastermind"), "\(text)")
        let plain = ReviewText.render(ReviewJSON(alone, review: Review(steps: Array(steps.reversed()), skill: 85, luck: 2.8)))
        #expect(plain.hasPrefix("MOLE: won, 2 guesses, garden, mastermind"), "\(plain)")
    }
}
