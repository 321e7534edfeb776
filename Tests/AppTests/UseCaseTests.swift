import App
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Testing

/// The shipped dictionary and packs, read once.
enum Content {
    static let lexicon = try! BundledContent.lexicon()
    static let packFiles = PackFile.files(in: BundledContent.packsFolder)
}

/// App's use cases against an in-memory store with the shipped packs, one player, a fixed
/// clock and a daily word given: what every front end calls, each checked by what it leaves
/// in the store.
@Suite struct UseCaseTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let today = "2026-11-18"
    let games: PlayerGames

    init() throws {
        let database = try AppDatabase.inMemory(clock: { Self.now })
        _ = try database.importPacks(from: Content.packFiles, lexicon: { Content.lexicon })
        let profile = try database.profile(player: "ana", device: "laptop", hostName: "laptop")
        games = PlayerGames(player: database.player(profile), lexicon: { Content.lexicon },
                            daily: { GameRequest(packID: "animals", word: "tiger", daily: Self.today) })
    }

    /// A new game of `word` in the animals pack.
    func started(_ word: String = "tiger") throws -> SavedGame {
        let begun = try games.begin(GameOptions(pack: "animals", word: word))
        #expect(!begun.resumed && begun.game.game.secret == word && begun.game.game.status == .inProgress)
        return begun.game
    }

    // MARK: Starting and resuming

    @Test func beginStartsWhatIsAskedAndResumesTheLatestGameWhenNothingIs() throws {
        let game = try started()
        #expect(game.startedAt == Self.now && game.startedOn == "laptop" && game.game.guesses.isEmpty)
        let again = try games.begin(GameOptions())
        #expect(again.resumed && again.game.id == game.id)
        #expect(try games.latestGameInProgress()?.id == game.id)
        // The list of games in progress holds those with a guess.
        #expect(try games.gamesInProgress().isEmpty)
        _ = try games.submitGuess("crane", gameID: game.id)
        #expect(try games.gamesInProgress().map(\.id) == [game.id])
        // A game asked for by its word is new, whatever is in progress.
        let other = try games.begin(GameOptions(pack: "animals", word: "zebra"))
        #expect(!other.resumed && other.game.id != game.id)
        #expect(try games.startGame(GameRequest(packID: "animals", word: "whale")).game.secret == "whale")
        #expect(try games.start(GameRequest(packID: "animals", word: "horse")).resumed == false)
    }

    @Test func aGameIsResumedByItsIdUntilItIsOver() throws {
        let game = try started()
        #expect(try games.resume(idOrPrefix: String(game.id.prefix(8))).id == game.id)
        _ = try games.giveUp(gameID: game.id)
        #expect(throws: GuessRejection.gameOver) { try games.resume(idOrPrefix: game.id) }
        #expect(throws: (any Error).self) { try games.resume(idOrPrefix: "nope") }
    }

    @Test func aLevelAskedForBecomesThePlayersOnceAndTheGameHasIt() throws {
        let begun = try games.begin(GameOptions(pack: "animals", word: "tiger", assist: .noHelp))
        #expect(begun.game.game.assist == .noHelp)
        #expect(try games.assistLevel() == .noHelp)
        try games.chooseAssist(.coach)
        #expect(try games.assistLevel() == .coach)
        #expect(try games.begin(GameOptions(pack: "animals", word: "zebra")).game.game.assist == .coach)
    }

    @Test func theDailyGameIsStartedOnceAndThenResumed() throws {
        #expect(try games.dailyRequest().daily == Self.today)
        #expect(try games.request(for: GameOptions(daily: true)) == (try games.dailyRequest()))
        #expect(try games.request(for: GameOptions(pack: "animals", hard: true)) == GameRequest(packID: "animals", hard: true))
        let first = try games.begin(GameOptions(daily: true))
        #expect(!first.resumed && first.game.daily == Self.today && first.game.game.secret == "tiger")
        let second = try games.begin(GameOptions(daily: true))
        #expect(second.resumed && second.game.id == first.game.id)
    }

    @Test func aChallengeCodePlaysItsWord() throws {
        let code = try games.newChallenge(packID: "animals", word: "zebra", rules: nil, hard: false)
        #expect(try games.challengeRequest(code: code).word == "zebra")
        #expect(try games.begin(GameOptions(challenge: code)).game.game.secret == "zebra")
        #expect(throws: (any Error).self) { try games.challengeRequest(code: "not-a-code") }
    }

    @Test func aRequestThatCannotBeMetIsRefusedBeforeAnythingStarts() throws {
        #expect(throws: (any Error).self) { try games.check(GameRequest(packID: "no-such-pack")) }
        #expect(throws: (any Error).self) { try games.begin(GameOptions(pack: "animals", word: "qqqqq")) }
        #expect(try games.gamesInProgress().isEmpty)
    }

    // MARK: Playing

    @Test func aGuessIsScoredSavedAndEndsTheGameWhenItWins() throws {
        let game = try started()
        let miss = try games.submitGuess("crane", gameID: game.id)
        #expect(miss.number == 1 && miss.guess.feedback == Rules.classic.feedback(for: "crane", against: "tiger"))
        #expect(miss.game.game.status == .inProgress)
        #expect(throws: GuessRejection.self) { try games.submitGuess("crane", gameID: game.id) }
        #expect(throws: GuessRejection.self) { try games.submitGuess("zzzzz", gameID: game.id) }
        let win = try games.submitGuess("tiger", gameID: game.id)
        #expect(win.game.game.status == .won && win.game.finishedAt == Self.now)
        #expect(throws: GuessRejection.self) { try games.submitGuess("moist", gameID: game.id) }
        #expect(try games.game(id: game.id).game.guesses.map(\.word) == ["crane", "tiger"])
        #expect(try games.game(idOrPrefix: String(game.id.prefix(8))).id == game.id)
    }

    @Test func marksAreKeptAndCleared() throws {
        let game = try started()
        #expect(try games.mark("c", as: .out, gameID: game.id).game.marks == ["c": .out])
        #expect(try games.mark("c", as: nil, gameID: game.id).game.marks.isEmpty)
    }

    @Test func aHintIsCountedWithTheGameAndNeverOnAFinishedOne() throws {
        let game = try started()
        _ = try games.submitGuess("crane", gameID: game.id)
        let (saved, hint) = try games.takeHint(gameID: game.id)
        #expect(saved.hints == [1])
        #expect(hint.candidates == (try games.candidates(of: saved.game).count))
        #expect(try games.candidates(of: saved.game).contains("tiger"))
        #expect(try games.hint(for: saved.game).word == hint.word, "the same game, the same hint")
        #expect(try games.takeHint(gameID: game.id).game.hints == [1], "a hint at the same count is one hint")
        _ = try games.giveUp(gameID: game.id)
        #expect(throws: GuessRejection.self) { try games.takeHint(gameID: game.id) }
    }

    @Test func givingUpFinishesTheGameAndOnlyAFinishedGameIsReviewedOrDeleted() throws {
        let game = try started()
        _ = try games.submitGuess("crane", gameID: game.id)
        #expect(throws: (any Error).self) { try games.finishedGame(idOrPrefix: game.id, for: .review) }
        #expect(throws: (any Error).self) { try games.review(of: game) }
        let over = try games.giveUp(gameID: game.id)
        #expect(over.game.status == .gaveUp && over.finishedAt == Self.now)
        let finished = try games.finishedGame(idOrPrefix: game.id, for: .review)
        #expect(try games.review(of: finished).steps.count == 1)
        #expect(try games.history().map(\.id) == [game.id])
        try games.deleteGame(id: game.id)
        #expect(try games.history().isEmpty)
    }

    @Test func theNotepadDeducesFromTheWordsItsLevelAllows() throws {
        let coached = try games.begin(GameOptions(pack: "animals", word: "tiger", assist: .coach)).game
        _ = try games.submitGuess("crane", gameID: coached.id)
        let words = try games.notepadWords(of: try games.game(id: coached.id).game)
        #expect(words?.contains("tiger") == true)
    }

    // MARK: The reading list, packs and the summary of statistics

    @Test func aFinishedGamesWordGoesOnTheReadingListAndOff() throws {
        let game = try started()
        _ = try games.submitGuess("tiger", gameID: game.id)
        let bookmark = try games.bookmarkGame(id: game.id)
        #expect(bookmark.word == "tiger" && bookmark.packID == "animals" && !bookmark.fact.isEmpty)
        #expect(try games.readingList().map(\.word) == ["tiger"])
        try games.unbookmark(try games.game(id: game.id))
        #expect(try games.readingList().isEmpty)
        #expect(try games.addBookmark(word: "tiger").word == "tiger")
        try games.removeBookmark(word: "tiger")
        #expect(try games.readingList().isEmpty)
        // A game in play keeps its word secret.
        let playing = try started("zebra")
        #expect(throws: (any Error).self) { try games.unbookmark(playing) }
    }

    @Test func theStatsSummaryCountsWhatWasPlayed() throws {
        let won = try started()
        _ = try games.submitGuess("crane", gameID: won.id)
        _ = try games.submitGuess("tiger", gameID: won.id)
        let lost = try started("zebra")
        _ = try games.giveUp(gameID: lost.id)
        let summary = try games.statsSummary()
        #expect(summary.statistics.played == 2 && summary.statistics.won == 1 && summary.statistics.distribution == [2: 1])
        #expect(summary.statistics == (try games.player.statistics()))
        #expect(summary.achievements.map(\.id).contains("first-win"))
        #expect(summary.achievements == (try games.player.achievements()))
        #expect(summary.dailyStreak.current == 0 && summary.dailyStreak.best == 0, "no daily game played")
        let animals = try #require(try games.packs().first { $0.id == "animals" })
        #expect(animals.solved == 1)
    }

    @Test func aFinishedGameHasAShareTextAndAChallengeCode() throws {
        let game = try started()
        _ = try games.submitGuess("tiger", gameID: game.id)
        let finished = try games.game(id: game.id)
        #expect(try games.shareText(for: finished).contains("1/"))
        let code = try #require(try games.challengeCode(for: finished.game))
        #expect(try games.challengeRequest(code: code).word == "tiger")
    }

    // MARK: Matches and leaderboards

    @Test func aMatchIsMadeAgainstAFriendAndItsGamesArePlayedInTurn() throws {
        #expect(throws: (any Error).self) { try games.newMatch(against: "ben", packID: "animals", rules: nil, hard: false) }
        try games.player.keepFriend("ben", joinedAt: Self.now)
        let made = try games.newMatch(against: "ben", packID: "animals", rules: nil, hard: false, seed: 7)
        #expect(made.state.match.pack == "animals" && made.viewer == "ana")
        #expect(try games.matches().map(\.state.match.id) == [made.state.match.id])
        #expect(try games.matchOverview(id: made.state.match.id) == made)
        let first = try games.begin(GameOptions(match: made.state.match.id))
        #expect(!first.resumed && first.matchTitle != nil && first.game.game.packID == "animals")
        #expect(try games.matchOverview(ofGame: first.game.id)?.state.match.id == made.state.match.id)
        #expect(try games.beginMatchGame(matchID: made.state.match.id).id == first.game.id, "the same game until it is played")
        // Its maker does not decline it.
        #expect(throws: (any Error).self) { try games.declineMatch(id: made.state.match.id) }
    }

    @Test func aMatchGameStaysInTheHistoryWhileASoloGameIsDeleted() throws {
        try games.player.keepFriend("ben", joinedAt: Self.now)
        let made = try games.newMatch(against: "ben", packID: "animals", rules: nil, hard: false, seed: 7)
        let first = try games.begin(GameOptions(match: made.state.match.id)).game
        _ = try games.submitGuess(first.game.secret, gameID: first.id)
        #expect(try games.game(id: first.id).game.isFinished)
        // Refused before `history delete` asks, and by the deletion itself (the full screen's).
        let asked = #expect(throws: Failure.self) { try games.finishedGame(idOrPrefix: first.id, for: .deletion) }
        #expect(asked?.message == "game \(first.id) is game 1 of your match against ben: a match's games stay in the history")
        #expect(throws: Failure.self) { try games.deleteGame(id: first.id) }
        #expect(try games.history().map(\.id).contains(first.id))
        // Its review is still there, and a solo game is deleted as before.
        #expect(try games.finishedGame(idOrPrefix: first.id, for: .review).id == first.id)
        let solo = try started("zebra")
        _ = try games.submitGuess("zebra", gameID: solo.id)
        _ = try games.finishedGame(idOrPrefix: solo.id, for: .deletion)
        try games.deleteGame(id: solo.id)
        #expect(try !games.history().map(\.id).contains(solo.id))
    }

    @Test func theMakerCancelsAMatchAndItCannotBePlayedThen() throws {
        try games.player.keepFriend("ben", joinedAt: Self.now)
        let made = try games.newMatch(against: "ben", packID: "animals", rules: nil, hard: false, seed: 7)
        let cancelled = try games.cancelMatch(id: made.state.match.id)
        #expect(cancelled.state.status == .cancelled && cancelled.state.match.id == made.state.match.id)
        #expect(throws: Failure.self) { try games.beginMatchGame(matchID: made.state.match.id) }
        #expect(throws: (any Error).self) { try games.cancelMatch(id: "nosuchmatch") }
    }

    @Test func theLeaderboardsOfADayAreAskedOfTheStore() throws {
        let boards = try games.leaderboards(day: Self.today)
        #expect(boards.day == Self.today)
    }

    // MARK: Friends

    @Test func joiningMakesThePlayerAFriendOfTheFolder() throws {
        #expect(try games.friends().isEmpty)
        try games.join()
        #expect(try games.friends() == ["ana"])
        #expect(try games.matches().isEmpty)
    }
}
