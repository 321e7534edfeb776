import Testing
@testable import QiktionaryCore

/// Plays of the fixture's match, made short.
struct MatchPlays {
    let match: Match

    func playing(_ player: String, _ index: Int, _ guesses: Int) -> MatchPlay {
        MatchPlay(match: match.id, player: player, index: index, progress: .playing(guesses: guesses))
    }

    func finished(_ player: String, _ index: Int, _ status: GameStatus, _ guesses: Int, hints: Int = 0) -> MatchPlay {
        let rows = Array(repeating: Feedback.common(1), count: max(0, guesses - 1)) + (guesses > 0 ? [.common(status == .won ? 5 : 1)] : [])
        return MatchPlay(match: match.id, player: player, index: index,
                         progress: .finished(MatchResult(status: status, guesses: guesses, hints: hints, assist: .proven, grid: MatchGrid(rows))))
    }

    func won(_ player: String, _ index: Int, _ guesses: Int, hints: Int = 0) -> MatchPlay { finished(player, index, .won, guesses, hints: hints) }

    /// Both players' games 1 and 2: alice wins game 1, ben game 2.
    func oneAll() -> [MatchPlay] {
        [won("alice", 1, 3), won("ben", 1, 4), won("alice", 2, 6), won("ben", 2, 5)]
    }
}

@Suite struct MatchWinnerTests {
    let p: MatchPlays

    init() throws { p = MatchPlays(match: try MatchFixture.match()) }

    func winner(_ alice: MatchPlay, _ ben: MatchPlay) -> MatchState.Winner? {
        MatchState(match: p.match, plays: [alice, ben]).winner(game: 1)
    }

    @Test func aWinBeatsALossOrAGiveUpThenFewerGuessesThenFewerHints() {
        #expect(winner(p.won("alice", 1, 9), p.finished("ben", 1, .lost, 15)) == .player("alice"))
        #expect(winner(p.finished("alice", 1, .gaveUp, 2), p.won("ben", 1, 15)) == .player("ben"))
        #expect(winner(p.won("alice", 1, 4), p.won("ben", 1, 3, hints: 2)) == .player("ben"))
        #expect(winner(p.won("alice", 1, 4, hints: 1), p.won("ben", 1, 4, hints: 0)) == .player("ben"))
        #expect(winner(p.won("alice", 1, 4, hints: 1), p.won("ben", 1, 4, hints: 1)) == .tie)
        #expect(winner(p.finished("alice", 1, .lost, 15), p.finished("ben", 1, .gaveUp, 1)) == .tie)
        #expect(winner(p.finished("alice", 1, .gaveUp, 0), p.finished("ben", 1, .gaveUp, 3)) == .tie)
    }

    @Test func noWinnerUntilBothHaveFinished() {
        #expect(winner(p.won("alice", 1, 2), p.playing("ben", 1, 9)) == nil)
        #expect(MatchState(match: p.match, plays: [p.won("alice", 1, 2)]).winner(game: 1) == nil)
        #expect(MatchState(match: p.match, plays: []).winner(game: 0) == nil)
    }

    @Test func theMatchGoesToMoreGamesWonElseATie() {
        let twoOne = MatchState(match: p.match, plays: p.oneAll() + [p.won("alice", 3, 2), p.finished("ben", 3, .lost, 15)])
        #expect(twoOne.status == .finished && twoOne.score == ["alice": 2, "ben": 1] && twoOne.winner == .player("alice"))
        let tied = MatchState(match: p.match, plays: p.oneAll() + [p.won("alice", 3, 2), p.won("ben", 3, 2)])
        #expect(tied.score == ["alice": 1, "ben": 1] && tied.winner == .tie && tied.winner?.name == "tie")
        let oneNil = MatchState(match: p.match, plays: [p.won("alice", 1, 2), p.won("ben", 1, 2), p.won("alice", 2, 2), p.won("ben", 2, 2),
                                                        p.won("alice", 3, 2), p.finished("ben", 3, .gaveUp, 1)])
        #expect(oneNil.score == ["alice": 1, "ben": 0] && oneNil.winner == .player("alice"))
        let open = MatchState(match: p.match, plays: p.oneAll() + [p.won("alice", 3, 2)])
        #expect(open.status == .playing && open.winner == nil && open.score == ["alice": 1, "ben": 1])
        let matches = [twoOne, tied, oneNil, open, twoOne]
        #expect(MatchState.matchesWon(by: "alice", in: matches) == 3 && MatchState.matchesWon(by: "ben", in: matches) == 0)
    }
}

@Suite struct MatchProgressTests {
    let p: MatchPlays

    init() throws { p = MatchPlays(match: try MatchFixture.match()) }

    @Test func eachPlayerPlaysTheGamesInOrder() {
        let start = MatchState(match: p.match, plays: [])
        #expect(start.nextGame(for: "alice") == 1 && start.nextGame(for: "ben") == 1 && start.nextGame(for: "carol") == nil)
        let on = MatchState(match: p.match, plays: [p.won("alice", 1, 3), p.playing("alice", 2, 2)])
        #expect(on.nextGame(for: "alice") == 2 && on.nextGame(for: "ben") == 1)
        #expect(on.progress(of: "alice") == [p.won("alice", 1, 3).progress, .playing(guesses: 2), nil])
        #expect(on.progress(of: "carol") == [])
        let done = MatchState(match: p.match, plays: p.oneAll() + [p.won("alice", 3, 2)])
        #expect(done.nextGame(for: "alice") == nil && done.nextGame(for: "ben") == 3)
    }

    @Test func aGameBeforeTheOneBeforeItIsFinishedIsHeldBackUntilItIs() {
        let early = [p.playing("ben", 2, 1), p.won("ben", 3, 2)]
        let held = MatchState(match: p.match, plays: [p.playing("ben", 1, 4)] + early)
        #expect(held.held == early && held.progress(of: "ben") == [.playing(guesses: 4), nil, nil] && held.nextGame(for: "ben") == 1)
        let missing = MatchState(match: p.match, plays: [p.won("ben", 3, 2)])
        #expect(missing.held == [p.won("ben", 3, 2)] && missing.progress(of: "ben") == [nil, nil, nil])
        let arrived = MatchState(match: p.match, plays: [p.won("ben", 1, 4)] + early)
        #expect(arrived.held == [p.won("ben", 3, 2)] && arrived.progress(of: "ben")[1] == .playing(guesses: 1))
        #expect(MatchRefusal.notFinishedBefore(index: 3).description == "game 3 before game 2 was finished")
    }

    @Test func theSameRecordsInAnyOrderMakeTheSameMatch() {
        let plays = p.oneAll() + [p.playing("alice", 3, 1), p.playing("alice", 3, 4), p.won("ben", 3, 7), p.playing("ben", 3, 6),
                                  p.playing("alice", 1, 2)]
        let state = MatchState(match: p.match, plays: plays)
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<30 { #expect(MatchState(match: p.match, plays: plays.shuffled(using: &generator)) == state) }
        // The versions of one play merge to the one further on.
        #expect(state.progress(of: "alice")[2] == .playing(guesses: 4) && state.result(of: "ben", game: 3)?.guesses == 7)
        #expect(state.result(of: "alice", game: 1)?.guesses == 3)
    }

    @Test func playsOfAnotherMatchOrPlayerAreLeftOut() {
        var other = p.won("alice", 1, 1)
        other.match = "6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f70"
        let stranger = p.won("carol", 1, 1)
        var outside = p.won("ben", 1, 1)
        outside.index = 4
        let state = MatchState(match: p.match, plays: [other, stranger, outside])
        #expect(state == MatchState(match: p.match, plays: []))
    }

    @Test func wordsAreShownOnceBothHaveFinished() {
        let state = MatchState(match: p.match, plays: [p.won("alice", 1, 3), p.playing("ben", 1, 3)])
        #expect(!state.bothFinished(game: 1) && !state.bothFinished(game: 2))
        #expect(MatchState(match: p.match, plays: p.oneAll()).bothFinished(game: 2))
    }
}

@Suite struct MatchSummaryTests {
    let p: MatchPlays

    init() throws { p = MatchPlays(match: try MatchFixture.match()) }

    func summaries(_ plays: [MatchPlay], declined: Bool = false, cancelled: Bool = false) -> [String] {
        let state = MatchState(match: p.match, plays: plays, declined: declined, cancelled: cancelled)
        return ["alice", "ben", "carol"].map(state.summary)
    }

    @Test func whatIsWaitingOnWhom() {
        #expect(summaries([]) == ["your turn", "your turn", "playing"])
        let aliceDone = p.oneAll() + [p.won("alice", 3, 2), p.playing("ben", 3, 1)]
        #expect(summaries(aliceDone) == ["waiting for ben", "your turn", "playing"])
        #expect(summaries(aliceDone + [p.finished("ben", 3, .lost, 15)]) == ["you won 2–1", "you lost 1–2", "alice won 2–1"])
        #expect(summaries(p.oneAll() + [p.finished("alice", 3, .gaveUp, 1), p.won("ben", 3, 2)])
            == ["you lost 1–2", "you won 2–1", "ben won 2–1"])
        #expect(summaries(p.oneAll() + [p.won("alice", 3, 2), p.won("ben", 3, 2)]) == ["tie 1–1", "tie 1–1", "tie 1–1"])
    }

    @Test func aDeclineEndsTheMatchWhateverWasPlayed() {
        #expect(summaries([], declined: true) == ["ben declined", "you declined", "ben declined"])
        let state = MatchState(match: p.match, plays: p.oneAll(), declined: true)
        #expect(state.status == .declined && state.winner == nil && state.nextGame(for: "alice") == nil && state.nextGame(for: "ben") == nil)
    }

    @Test func onlyTheAskedPlayerDeclinesAndOnlyBeforePlaying() throws {
        let fresh = MatchState(match: p.match, plays: [p.won("alice", 1, 2)])
        #expect(fresh.declineProblem(player: "ben") == nil)
        #expect(fresh.declineProblem(player: "alice") == .creatorDeclines("alice"))
        #expect(fresh.declineProblem(player: "carol") == .notInMatch("carol"))
        #expect(MatchState(match: p.match, plays: [p.playing("ben", 1, 0)]).declineProblem(player: "ben") == .declineAfterPlaying("ben"))
        try MatchState.checkDecline(by: "ben", of: p.match)
        // The maker's record is a cancel, read as one (`aCancelCountsOnlyUntilTheAskedPlayerAnswers`).
        try MatchState.checkDecline(by: "alice", of: p.match)
        #expect(throws: MatchRefusal.notInMatch("carol")) { try MatchState.checkDecline(by: "carol", of: p.match) }
        for refusal in [MatchRefusal.creatorDeclines("alice"), .declineAfterPlaying("ben"), .notInMatch("carol")] {
            #expect(MatchFixture.isOneSafeLine(refusal))
        }
    }

    @Test func aCancelCountsOnlyUntilTheAskedPlayerAnswers() {
        // Nobody has played: the maker's cancel ends it, for both players, and nothing is next.
        #expect(summaries([], cancelled: true) == ["you cancelled", "alice cancelled", "alice cancelled"])
        let cancelled = MatchState(match: p.match, plays: [], cancelled: true)
        #expect(cancelled.status == .cancelled && cancelled.status.calledOff && cancelled.winner == nil)
        #expect(cancelled.nextGame(for: "alice") == nil && cancelled.nextGame(for: "ben") == nil)
        // The maker's own plays do not answer the match; the asked player's first guess does.
        #expect(MatchState(match: p.match, plays: [p.won("alice", 1, 2)], cancelled: true).status == .cancelled)
        let answered = MatchState(match: p.match, plays: [p.playing("ben", 1, 1)], cancelled: true)
        #expect(answered.status == .playing && answered.nextGame(for: "ben") == 1)
        // A decline is the asked player's answer: the match is declined, whichever came first.
        #expect(MatchState(match: p.match, plays: [], declined: true, cancelled: true).status == .declined)
    }

    @Test func onlyTheMakerCancelsAndOnlyBeforeAnAnswer() {
        let fresh = MatchState(match: p.match, plays: [p.won("alice", 1, 2)])
        #expect(fresh.cancelProblem(player: "alice") == nil)
        #expect(fresh.cancelProblem(player: "ben") == .notTheMakerCancels(player: "ben", maker: "alice"))
        #expect(fresh.cancelProblem(player: "carol") == .notInMatch("carol"))
        let played = MatchState(match: p.match, plays: [p.playing("ben", 1, 0)])
        #expect(played.cancelProblem(player: "alice") == .cancelAfterAnswer(asked: "ben", declined: false))
        let declined = MatchState(match: p.match, plays: [], declined: true)
        #expect(declined.cancelProblem(player: "alice") == .cancelAfterAnswer(asked: "ben", declined: true))
        for refusal in [MatchRefusal.notTheMakerCancels(player: "ben", maker: "alice"), .cancelAfterAnswer(asked: "ben", declined: false),
                        .cancelAfterAnswer(asked: "ben", declined: true)] {
            #expect(MatchFixture.isOneSafeLine(refusal))
        }
        #expect(MatchRefusal.cancelAfterAnswer(asked: "ben", declined: false).description
            == "'ben' has started playing the match, so it can no longer be cancelled")
    }
}
