import Foundation
@testable import QiktionaryCore
import Testing
@testable import GameUI

/// The effects' interpreter over the player's data in memory (`FakeGameData`) and a sync that
/// records what it is asked (`FakeBackground`): what each effect answers, and what it asks of
/// the data and the sync, in order.
@Suite struct EffectInterpreterTests {
    /// An interpreter over fakes that share one log of calls.
    struct Rig {
        let log = CallLog()
        let data: FakeGameData
        let posted = Posted()
        let interpreter: EffectInterpreter

        init(games: [SavedGame] = [Fixtures.inPlay, Fixtures.won], sync: Bool = true, configure: (FakeGameData) -> Void = { _ in }) {
            data = FakeGameData(log: log, games: games)
            configure(data)
            let posted = posted
            interpreter = EffectInterpreter(data: data, background: sync ? FakeBackground(log: log) : nil, post: { posted.post($0) })
        }

        func perform(_ effect: Effect) -> [Message] { interpreter.perform(effect) }
        var calls: [String] { log.calls }
    }

    /// A game never played, opened at `startedMinute`.
    static func unplayed(_ id: String, startedMinute: Int = 0) -> SavedGame {
        var game = Fixtures.game(id, secret: "whale", guesses: [])
        game.startedAt = Fixtures.at(startedMinute)
        game.updatedAt = Fixtures.at(startedMinute)
        return game
    }

    static let candidates = ["tiger", "tired"]

    // MARK: Every effect, and the sync after the changes

    /// One of each effect (every list), on the fixtures' games.
    static let everyEffect: [Effect] = [
        .begin(GameRequest()), .newGame(packID: "animals"), .resume(gameID: "g1"), .reload(gameID: "g1"), .guess("blaze", gameID: "g1"),
        .mark("z", .out, gameID: "g1"), .giveUp(gameID: "g1"), .hint(gameID: "g1"), .review(gameID: "g2"), .daily,
        .switchToNewer(than: "g1"), .challenge(code: "TIGER1"), .share(gameID: "g2"), .bookmark(gameID: "g2"),
        .removeBookmark(word: "zebra"), .deleteGame(id: "g2"), .beginMatch(matchID: MatchFixtures.yourTurn.state.match.id),
    ] + ListKind.allCases.map { Effect.load($0) } + [.chooseAssist(.coach), .syncNow, .adoptReset(keepLocal: true),
       .joinDevices(code: "0000-0000-0000-0000-0000-0000"), .quit]

    /// The effect's name; a new effect fails to compile here until it is given its name, and
    /// `expectedSync` its sync.
    static func name(_ effect: Effect) -> String {
        switch effect {
        case .begin: "begin"
        case .newGame: "newGame"
        case .resume: "resume"
        case .reload: "reload"
        case .guess: "guess"
        case .mark: "mark"
        case .giveUp: "giveUp"
        case .hint: "hint"
        case .review: "review"
        case .daily: "daily"
        case .switchToNewer: "switchToNewer"
        case .challenge: "challenge"
        case .beginMatch: "beginMatch"
        case .share: "share"
        case .bookmark: "bookmark"
        case .removeBookmark: "removeBookmark"
        case .deleteGame: "deleteGame"
        case .load: "load"
        case .chooseAssist: "chooseAssist"
        case .syncNow: "syncNow"
        case .adoptReset: "adoptReset"
        case .joinDevices: "joinDevices"
        case .quit: "quit"
        }
    }

    /// What each effect asks of the sync: a round after every change, F5's manual one.
    static func expectedSync(_ effect: Effect) -> [String] {
        switch effect {
        case .guess, .mark, .giveUp, .bookmark, .removeBookmark, .deleteGame, .begin, .newGame, .daily, .challenge, .beginMatch:
            ["request(manual: false)"]
        // Counting the hint is a change too, sent once the coach has answered.
        case .hint: ["request(manual: false)"]
        case .syncNow: ["request(manual: true)"]
        case .adoptReset(let keepLocal): ["adoptReset(keepLocal: \(keepLocal))"]
        // Joined: a round at once, quietly (the line says it joined).
        case .joinDevices: ["request(manual: false)"]
        // A help level chosen stays on this machine; the games it starts carry it to the others.
        case .resume, .reload, .review, .switchToNewer, .share, .load, .chooseAssist, .quit: []
        }
    }

    @Test func theListHoldsEveryEffectAndEveryList() {
        #expect(Set(Self.everyEffect.map(Self.name)) == [
            "begin", "newGame", "resume", "reload", "guess", "mark", "giveUp", "hint", "review", "daily", "switchToNewer", "challenge",
            "share", "bookmark", "removeBookmark", "deleteGame", "load", "chooseAssist", "syncNow", "adoptReset", "quit", "beginMatch",
            "joinDevices",
        ])
        #expect(ListKind.allCases.allSatisfy { Self.everyEffect.contains(.load($0)) })
    }

    @Test(arguments: everyEffect) func syncIsRequestedAfterExactlyTheChangeEffects(_ effect: Effect) {
        let rig = Rig {
            $0.challenges["TIGER1"] = GameRequest(packID: "animals", word: "tiger")
            $0.matchList = MatchFixtures.all
        }
        let messages = rig.perform(effect)
        if case .hint = effect {
            #expect(messages.isEmpty, "the coach answers later, through the inbox")
            #expect(rig.posted.next() != nil, "the coach answers within the deadline")
        }
        if case .review = effect {
            #expect(messages.isEmpty, "the coach answers later, through the inbox")
            #expect(rig.posted.next() != nil, "the coach answers within the deadline")
        }
        #expect(!messages.contains { if case .failed = $0 { true } else { false } }, "\(messages)")
        let sync = rig.calls.filter { $0.hasPrefix("request(") || $0.hasPrefix("adoptReset(") }
        #expect(sync == Self.expectedSync(effect), "\(effect)")
        #expect(EffectInterpreter.changesData(effect) == (Self.expectedSync(effect) == ["request(manual: false)"] && !["hint", "joinDevices"].contains(Self.name(effect))))
    }

    @Test func theSyncIsAskedForAfterTheChangeAndBeforeTheWordsStillPossible() {
        let rig = Rig()
        _ = rig.perform(.guess("blaze", gameID: "g1"))
        #expect(rig.calls == ["submitGuess(blaze g1)", "request(manual: false)", "notepadWords(g1)"])
    }

    @Test func aChangeThatFailsStillAsksForASync() {
        let rig = Rig()
        #expect(rig.perform(.guess("crane", gameID: "g1")) == [.guessRefused(input: "crane", reason: "already guessed")])
        #expect(rig.calls == ["submitGuess(crane g1)", "request(manual: false)"])
    }

    // MARK: Starting and resuming

    @Test func beginWithNothingAskedResumesTheLatestGameInProgressAfterTheFirstSync() {
        // A game with a guess comes before a newer one never played.
        let rig = Rig(games: [Fixtures.inPlay, Self.unplayed("g6", startedMinute: 50), Fixtures.won])
        #expect(rig.perform(.begin(GameRequest())) == [
            .gameLoaded(Fixtures.inPlay), .candidatesLoaded(gameID: "g1", guesses: 4, candidates: Self.candidates),
        ])
        #expect(rig.calls == ["waitForFirstRound(1.0)", "latestGameInProgress", "request(manual: false)", "notepadWords(g1)"])
    }

    @Test func beginWithNoGameInProgressStartsOne() {
        let rig = Rig(games: [Fixtures.won])
        let messages = rig.perform(.begin(GameRequest()))
        let started = rig.data.games["new1"]!
        #expect(messages == [.gameLoaded(started), .candidatesLoaded(gameID: "new1", guesses: 0, candidates: Self.candidates)])
        #expect(rig.calls == ["waitForFirstRound(1.0)", "latestGameInProgress", "startGame(- -)", "request(manual: false)", "notepadWords(new1)"])
    }

    @Test func beginWithAPackAWordOrHardModeStartsOneWhateverIsInProgress() {
        let asked: [(GameRequest, String)] = [
            (GameRequest(packID: "music"), "startGame(music -)"), (GameRequest(word: "zebra"), "startGame(- zebra)"),
            (GameRequest(hard: true), "startGame(- - hard)"),
        ]
        for (request, call) in asked {
            let rig = Rig()
            let messages = rig.perform(.begin(request))
            #expect(messages.first == .gameLoaded(rig.data.games["new1"]!))
            #expect(rig.calls == ["waitForFirstRound(1.0)", call, "request(manual: false)", "notepadWords(new1)"])
        }
    }

    @Test func beginWithoutSyncWaitsForNothing() {
        let rig = Rig(sync: false)
        #expect(rig.perform(.begin(GameRequest())).first == .gameLoaded(Fixtures.inPlay))
        #expect(rig.calls == ["latestGameInProgress", "notepadWords(g1)"])
    }

    @Test func newGameStartsOneInThePackAsked() {
        let rig = Rig()
        let messages = rig.perform(.newGame(packID: "music", hard: true))
        #expect(messages == [.gameLoaded(rig.data.games["new1"]!), .candidatesLoaded(gameID: "new1", guesses: 0, candidates: Self.candidates)])
        #expect(rig.calls == ["startGame(music - hard)", "request(manual: false)", "notepadWords(new1)"])
    }

    @Test func resumingAGameInProgressBringsItsWordsStillPossible() {
        let rig = Rig()
        #expect(rig.perform(.resume(gameID: "g1")) == [
            .gameLoaded(Fixtures.inPlay), .candidatesLoaded(gameID: "g1", guesses: 4, candidates: Self.candidates),
        ])
        #expect(rig.calls == ["game(g1)", "notepadWords(g1)"])
    }

    @Test func resumingAFinishedGameBringsItsChallengeCode() {
        let rig = Rig()
        // With the words its notepad deduces from after the game, so the notepad is whole.
        #expect(rig.perform(.resume(gameID: "g2")) == [.gameLoaded(Fixtures.won), .candidatesLoaded(gameID: "g2", guesses: 5, candidates: Self.candidates),
                                                       .challengeCodeLoaded(gameID: "g2", code: "CODE-TIGER")])
        #expect(rig.calls == ["game(g2)", "notepadWords(g2)", "challengeCode(g2)"])
    }

    @Test func aGameStillGoesOnTheBoardWhenItsWordsStillPossibleOrCodeFail() {
        let rig = Rig {
            $0.failures["notepadWords"] = FakeFailure(description: "database error: busy")
            $0.failures["challengeCode"] = FakeFailure(description: "database error: busy")
        }
        #expect(rig.perform(.resume(gameID: "g1")) == [.gameLoaded(Fixtures.inPlay)])
        #expect(rig.perform(.resume(gameID: "g2")) == [.gameLoaded(Fixtures.won)])
    }

    @Test func theDailyGameIsStartedFromTodaysRequest() {
        let rig = Rig()
        let messages = rig.perform(.daily)
        let daily = rig.data.games["new1"]!
        #expect(daily.daily == "2026-11-18" && daily.game.secret == "zebra")
        #expect(messages == [.gameLoaded(daily), .candidatesLoaded(gameID: "new1", guesses: 0, candidates: Self.candidates)])
        #expect(rig.calls == ["dailyRequest", "startGame(animals zebra)", "request(manual: false)", "notepadWords(new1)"])
    }

    @Test func aChallengeCodeStartsTheGameItNames() {
        let rig = Rig { $0.challenges["TIGER1"] = GameRequest(packID: "animals", word: "tiger", hard: true) }
        let messages = rig.perform(.challenge(code: "TIGER1"))
        #expect(messages.first == .gameLoaded(rig.data.games["new1"]!))
        #expect(rig.data.games["new1"]?.game.hard == true)
        #expect(rig.calls == ["challengeRequest(TIGER1)", "startGame(animals tiger hard)", "request(manual: false)", "notepadWords(new1)"])
        #expect(Rig().perform(.challenge(code: "NOPE")) == [.failed("not a challenge code: NOPE")])
    }

    // MARK: Switching to a newer game after a sync

    @Test func anUnplayedGameGivesWayToANewerGameInProgress() {
        let rig = Rig(games: [Self.unplayed("g6"), Fixtures.inPlay])
        #expect(rig.perform(.switchToNewer(than: "g6")) == [
            .switchedTo(Fixtures.inPlay), .candidatesLoaded(gameID: "g1", guesses: 4, candidates: Self.candidates),
        ])
        #expect(rig.calls == ["game(g6)", "gamesInProgress", "notepadWords(g1)"])
    }

    @Test func aPlayedOrFinishedGameStaysOnTheBoard() {
        // A newer game in progress, from the other machine.
        var newer = Fixtures.game("g7", secret: "zebra", guesses: ["crane"], finished: 80)
        newer.finishedAt = nil
        let rig = Rig(games: [Fixtures.inPlay, Fixtures.won, newer])
        #expect(rig.perform(.switchToNewer(than: "g1")) == [], "g1 has guesses")
        #expect(rig.perform(.switchToNewer(than: "g2")) == [], "g2 is finished")
        #expect(!rig.calls.contains("gamesInProgress"))
    }

    @Test func anUnplayedGameStaysWhenNothingNewerIsInProgress() {
        // The only game in progress was last changed before this one was opened.
        #expect(Rig(games: [Self.unplayed("g6", startedMinute: 40), Fixtures.inPlay]).perform(.switchToNewer(than: "g6")) == [])
        // Just paired: the older game in progress from the other machine takes its place.
        #expect(Rig(games: [Self.unplayed("g6", startedMinute: 40), Fixtures.inPlay]).perform(.switchToNewer(than: "g6", anyAge: true)).first
            == .switchedTo(Fixtures.inPlay))
        // Nothing else in progress.
        #expect(Rig(games: [Self.unplayed("g6"), Fixtures.won]).perform(.switchToNewer(than: "g6")) == [])
        // A game that is gone: a status line, as any failure.
        #expect(Rig().perform(.switchToNewer(than: "gone")) == [.failed("no game with id 'gone'")])
    }

    // MARK: Playing

    @Test func aGuessIsPlayedAndBringsTheWordsStillPossible() {
        let rig = Rig()
        let messages = rig.perform(.guess("blaze", gameID: "g1"))
        let after = rig.data.games["g1"]!
        #expect(after.game.guesses.count == 5)
        #expect(messages == [
            .guessPlayed(PlayedGuess(guess: after.game.guesses[4], number: 5, game: after)),
            .candidatesLoaded(gameID: "g1", guesses: 5, candidates: Self.candidates),
        ])
    }

    @Test func aWinningGuessBringsTheChallengeCode() {
        let rig = Rig()
        let messages = rig.perform(.guess("tiger", gameID: "g1"))
        let after = rig.data.games["g1"]!
        #expect(after.game.status == .won)
        #expect(messages == [.guessPlayed(PlayedGuess(guess: after.game.guesses[4], number: 5, game: after)),
                             .candidatesLoaded(gameID: "g1", guesses: 5, candidates: Self.candidates),
                             .challengeCodeLoaded(gameID: "g1", code: "CODE-TIGER")])
    }

    @Test func aRefusedGuessIsGuessRefusedWithItsReason() {
        let rig = Rig()
        #expect(rig.perform(.guess("quilt", gameID: "g1")) == [.guessRefused(input: "quilt", reason: "not in the dictionary")])
        #expect(rig.perform(.guess("tiger", gameID: "g2")) == [.guessRefused(input: "tiger", reason: "the game is over")])
        #expect(rig.perform(.guess("ab", gameID: "g1")) == [.guessRefused(input: "ab", reason: "the word must have 5 letters")])
        #expect(rig.data.games["g1"] == Fixtures.inPlay, "a refused guess costs nothing")
    }

    @Test func aRefusalOutsideAGuessIsAFailureWithItsReason() {
        #expect(Rig().perform(.giveUp(gameID: "g2")) == [.failed("the game is over")])
    }

    @Test func anotherErrorIsAFailureWithItsText() {
        let failure = FakeFailure(description: "database error: disk I/O error")
        let rig = Rig {
            $0.failures["packs"] = failure
            $0.failures["submitGuess"] = failure
            $0.failures["shareText"] = failure
        }
        #expect(rig.perform(.load(.packs)) == [.failed("database error: disk I/O error")])
        #expect(rig.perform(.guess("blaze", gameID: "g1")) == [.failed("database error: disk I/O error")])
        #expect(rig.perform(.share(gameID: "g2")) == [.failed("database error: disk I/O error")])
        #expect(rig.perform(.giveUp(gameID: "g1")) == [.failed("database error: disk I/O error")],
                "the game is given up, then the packs fail to load: one failure")
    }

    @Test func aMarkIsSaved() {
        let rig = Rig()
        let messages = rig.perform(.mark("z", .out, gameID: "g1"))
        let after = rig.data.games["g1"]!
        #expect(after.game.marks["z"] == .out)
        #expect(messages == [.gameLoaded(after), .candidatesLoaded(gameID: "g1", guesses: 4, candidates: Self.candidates)])
        _ = rig.perform(.mark("z", nil, gameID: "g1"))
        #expect(rig.data.games["g1"]?.game.marks["z"] == nil)
    }

    @Test func givingUpReloadsThePacksAndBringsTheChallengeCode() {
        let rig = Rig()
        let messages = rig.perform(.giveUp(gameID: "g1"))
        let after = rig.data.games["g1"]!
        #expect(after.game.status == .gaveUp)
        #expect(messages == [.gameLoaded(after), .packsLoaded(Fixtures.packs), .candidatesLoaded(gameID: "g1", guesses: 4, candidates: Self.candidates),
                             .challengeCodeLoaded(gameID: "g1", code: "CODE-TIGER")])
        #expect(rig.calls == ["giveUp(g1)", "packs", "request(manual: false)", "notepadWords(g1)", "challengeCode(g1)"])
    }

    // MARK: The coach, off the loop

    @Test func aHintIsWorkedOutOffTheLoopAndPostedCounted() {
        let release = DispatchSemaphore(value: 0)
        let rig = Rig { $0.onHint = { _ = release.wait(timeout: .now() + 10) } }
        // The coach is held until the loop has its (empty) answer: the loop never waits for it.
        #expect(rig.perform(.hint(gameID: "g1")).isEmpty)
        release.signal()
        var counted = Fixtures.inPlay
        counted.hints = [4]
        #expect(rig.posted.next() == .hintReady(counted, rig.data.hintAnswer))
        #expect(rig.calls == ["game(g1)", "hint(g1)", "recordHint(g1)", "request(manual: false)"])
    }

    @Test func noHintForAFinishedGame() {
        let rig = Rig()
        #expect(rig.perform(.hint(gameID: "g2")).isEmpty)
        #expect(rig.posted.next() == .failed("the game is over"))
        #expect(rig.calls == ["game(g2)"])
    }

    @Test func aHintThatFailsPostsTheFailure() {
        let rig = Rig { $0.failures["hint"] = FakeFailure(description: "no hint: no word of the answer set fits every guess so far") }
        #expect(rig.perform(.hint(gameID: "g1")).isEmpty)
        #expect(rig.posted.next() == .failed("no hint: no word of the answer set fits every guess so far"))
        #expect(rig.calls == ["game(g1)", "hint(g1)"], "nothing counted, nothing to send")
    }

    @Test func aReviewIsWorkedOutOffTheLoopAndPosted() {
        let rig = Rig()
        #expect(rig.perform(.review(gameID: "g2")).isEmpty)
        #expect(rig.posted.next() == .reviewReady(Fixtures.won, rig.data.reviewAnswer))
        #expect(rig.calls == ["game(g2)", "review(g2)"])
    }

    @Test func aReviewThatFailsPostsTheFailure() {
        let rig = Rig()
        #expect(rig.perform(.review(gameID: "g1")).isEmpty)
        #expect(rig.posted.next() == .failed("game 'g1' is still in progress"))
    }

    // MARK: Sharing, the reading list, deleting

    @Test func shareMakesTheSummary() {
        #expect(Rig().perform(.share(gameID: "g2")) == [.shareReady("Qiktionary 5/15")])
    }

    @Test func bookmarksAreAddedAndRemoved() {
        let rig = Rig()
        #expect(rig.perform(.bookmark(gameID: "g2")) == [.bookmarkChanged(word: "tiger", bookmarked: true)])
        #expect(rig.perform(.removeBookmark(word: "zebra")) == [.bookmarkChanged(word: "zebra", bookmarked: false)])
        #expect(rig.calls == ["bookmarkGame(g2)", "request(manual: false)", "removeBookmark(zebra)", "request(manual: false)"])
    }

    @Test func aDeletedGameIsGone() {
        let rig = Rig()
        #expect(rig.perform(.deleteGame(id: "g2")) == [.gameDeleted(id: "g2")])
        #expect(rig.data.games["g2"] == nil)
    }

    // MARK: Lists

    /// The Packs screen's `a` makes the next level the player's.
    @Test func aHelpLevelChosenIsThePlayersForTheirNextGames() {
        let rig = Rig()
        #expect(rig.perform(.chooseAssist(.noHelp)) == [.assistLoaded(.noHelp)])
        #expect(rig.data.assist == .noHelp)
        let messages = rig.perform(.newGame(packID: "animals"))
        guard case .gameLoaded(let game)? = messages.first else { Issue.record("\(messages)"); return }
        #expect(game.game.assist == .noHelp)
        #expect(!messages.contains { if case .candidatesLoaded = $0 { true } else { false } }, "no help, no words to deduce from")
    }

    @Test func everyListLoads() {
        let rig = Rig(games: Fixtures.inProgress + Fixtures.history)
        #expect(rig.perform(.load(.packs)) == [.packsLoaded(Fixtures.packs), .assistLoaded(.coach)])
        #expect(rig.perform(.load(.inProgress)) == [.inProgressLoaded(Fixtures.inProgress)])
        #expect(rig.perform(.load(.readingList)) == [.readingListLoaded(Fixtures.readingList)])
        #expect(rig.perform(.load(.history)) == [.historyLoaded(Fixtures.history)])
        #expect(rig.calls == ["packs", "assistLevel", "gamesInProgress", "readingList", "history"])
    }

    @Test func statsComeWithTheAchievementsAndTheDailyStreaks() {
        let played = ["2026-11-16", "2026-11-17", "2026-11-18"].enumerated().map { index, date in
            PlayedGame(id: "d\(index)", packID: "animals", secret: "tiger", rules: .classic, hard: false, hints: 0, status: .won,
                       guessesUsed: 4, maxGuesses: 15, finishedAt: Fixtures.at(index * 1440), daily: date)
        }
        let rig = Rig { $0.played = played }
        #expect(rig.perform(.load(.stats)) == [
            .statsLoaded(Fixtures.stats), .achievementsLoaded(rig.data.achievementList, dailyCurrent: 3, dailyBest: 3),
        ])
        #expect(rig.calls == ["statsSummary"])
    }

    // MARK: Sync and quitting

    @Test func syncNowAsksForARoundTheScreenHearsOfLater() {
        let rig = Rig()
        #expect(rig.perform(.syncNow) == [])
        #expect(rig.calls == ["request(manual: true)"])
    }

    @Test func syncNowWithNoBackgroundSaysSyncIsOff() {
        let rig = Rig(sync: false)
        #expect(rig.perform(.syncNow) == [
            .syncUpdate(SyncNews(state: .off, note: "Sync is off: give the shared folder once with --cloud-dir DIR.", isError: true)),
        ])
        #expect(rig.calls.isEmpty)
    }

    @Test func aResetIsAdoptedByTheSyncOrIgnoredWithout() {
        let rig = Rig()
        #expect(rig.perform(.adoptReset(keepLocal: false)) == [])
        #expect(rig.calls == ["adoptReset(keepLocal: false)"])
        let off = Rig(sync: false)
        #expect(off.perform(.adoptReset(keepLocal: true)) == [])
        #expect(off.calls.isEmpty)
    }

    @Test func quitAsksNothing() {
        let rig = Rig()
        #expect(rig.perform(.quit) == [])
        #expect(rig.calls.isEmpty)
    }
}
