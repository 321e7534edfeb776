import Foundation
import QiktionaryCore
import Testing

/// The one rule of resuming (`Resumption`): which games in progress a list shows and in what
/// order, which one a start that names nothing resumes, and that a game over is not resumed.
@Suite struct ResumptionTests {
    /// A game started at second 0 and changed at `changed` seconds, with `guesses` played.
    func game(_ id: String, changed: Double, guesses: Int, status: GameStatus = .inProgress) -> SavedGame {
        var synced = SyncGame.started(id: id, packID: "animals", secret: "tiger", fact: "A cat.", rules: .classic, maxGuesses: 6,
                                      hard: false, assist: .standard, daily: nil, at: Date(timeIntervalSince1970: 0), on: "laptop")
        synced.updatedAt = Date(timeIntervalSince1970: changed)
        synced.status = status
        let played = Array(repeating: Guess(word: "crane", feedback: .common(2)), count: guesses)
        return SavedGame(synced, guesses: played, marks: [:], bookmarked: false, guessDevices: [])
    }

    @Test func theListShowsPlayedGamesNewestFirstTiesById() {
        let games = [game("b", changed: 5, guesses: 1), game("opened", changed: 9, guesses: 0), game("a", changed: 5, guesses: 2),
                     game("c", changed: 7, guesses: 1), game("over", changed: 8, guesses: 3, status: .won)]
        #expect(Resumption.listed(games).map(\.id) == ["c", "a", "b"])
        #expect(Resumption.listed([]).isEmpty)
    }

    @Test func aStartThatNamesNothingResumesAPlayedGameBeforeANewerOneNeverPlayed() {
        let played = game("played", changed: 5, guesses: 1), opened = game("opened", changed: 9, guesses: 0)
        #expect(Resumption.latest([opened, played])?.id == "played")
        #expect(Resumption.latest([opened])?.id == "opened", "a game never played is resumed when it is the only one")
        #expect(Resumption.latest([game("b", changed: 5, guesses: 1), game("a", changed: 5, guesses: 1)])?.id == "a", "a tie goes by id")
        #expect(Resumption.latest([game("old", changed: 1, guesses: 1), game("new", changed: 2, guesses: 1)])?.id == "new")
        #expect(Resumption.latest([game("over", changed: 9, guesses: 1, status: .gaveUp)]) == nil)
        #expect(Resumption.latest([]) == nil)
    }

    @Test func aGameOverIsNotResumed() {
        #expect(Resumption.refusal(resuming: game("a", changed: 1, guesses: 1)) == nil)
        for status in [GameStatus.won, .lost, .gaveUp] {
            #expect(Resumption.refusal(resuming: game("a", changed: 1, guesses: 1, status: status)) == .gameOver)
        }
    }
}
