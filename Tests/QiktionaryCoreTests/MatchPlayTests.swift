import Testing
@testable import QiktionaryCore

/// A game of a match's word, with its guesses scored.
func matchGame(_ secret: String, _ words: [String], status: GameStatus? = nil, rules: Rules = .classic, maxGuesses: Int = 15,
               assist: Assist = .proven) -> Game {
    let guesses = words.map { Guess(word: $0, feedback: rules.feedback(for: $0, against: secret)) }
    let status = status ?? (words.contains(secret) ? .won : words.count >= maxGuesses ? .lost : .inProgress)
    return Game(id: "00000000-0000-4000-8000-000000000001", packID: "animals", secret: secret, rules: rules, maxGuesses: maxGuesses,
                assist: assist, guesses: guesses, status: status)
}

@Suite struct MatchPlayPublishingTests {
    let match: Match

    init() throws { match = try MatchFixture.match() }

    func published(_ game: Game, hints: [Int] = [], limit: Int? = nil, kept: String? = nil) -> MatchPlay {
        var match = match
        if let limit { match.maxGuesses = limit }
        return MatchPlay.of(game, hints: hints, match: match, player: "ben", index: 2, kept: kept)
    }

    @Test func aGameStillOnPublishesOnlyItsGuessesSoFar() {
        let play = published(matchGame("tiger", ["crane", "slate"]), hints: [0, 1])
        #expect(play.progress == .playing(guesses: 2) && play.match == match.id && play.player == "ben" && play.index == 2)
        #expect(play.fields == MatchPlay.Fields(match: match.id, player: "ben", game: 2, status: "in-progress", guesses: 2))
        #expect(!play.isFinished && play.result == nil)
    }

    @Test func aWinPublishesItsResultHintsHelpAndGrid() {
        // A guess another machine played after the win does not count.
        let game = matchGame("tiger", ["crane", "slate", "tiger", "plumb"], assist: .coach)
        let play = published(game, hints: [0, 2, 3, 7])
        let result = MatchResult(status: .won, guesses: 3, hints: 2, assist: .coach, grid: MatchGrid([.common(2), .common(2), .common(5)]))
        #expect(play.progress == .finished(result))
        #expect(play.fields == MatchPlay.Fields(match: match.id, player: "ben", game: 2, status: "won", guesses: 3, hints: 2,
                                                 assist: "coach", grid: "2,2,5"))
        #expect(result.grid.lines(length: 5, won: true) == ["●●···", "●●···", "●●●●● ✓"])
    }

    /// Two machines of the player each won the game before they had the other's guesses: one
    /// in two, published and read; one in one. The merged game counts one (both guesses of the
    /// word's machine went first), but the result the game kept from the first publication is
    /// further on and is what the play says, on every machine of the player (seed 32277).
    @Test func aResultPublishedBeforeIsNeverTakenBack() {
        let merged = matchGame("tiger", ["tiger", "crane"])
        #expect(published(merged).result?.guesses == 1)
        let kept = published(merged, kept: "won 2 0 proven 2,5")
        #expect(kept.result == MatchResult(status: .won, guesses: 2, hints: 0, assist: .proven, grid: MatchGrid([.common(2), .common(5)])))
        // A game further on than what it kept publishes itself.
        #expect(published(matchGame("tiger", ["crane", "slate", "tiger"]), kept: "won 2 0 proven 2,5").result?.guesses == 3)
        // What the match refuses (past its limit, at another help level, no result) is not taken.
        let refused = ["won 16 0 proven " + Array(repeating: "1", count: 15).joined(separator: ",") + ",5", "won 2 0 coach 2,5",
                       "in-progress 2 0 proven 2,5", "won 2 0 proven 2,4"]
        for text in refused { #expect(published(merged, kept: text).result?.guesses == 1, "\(text)") }
    }

    @Test func aLossAndAGiveUp() {
        let lost = published(matchGame("tiger", ["crane", "slate", "plumb"], maxGuesses: 3), hints: [0, 3], limit: 3)
        #expect(lost.result?.status == .lost && lost.result?.guesses == 3 && lost.result?.hints == 1)
        // A hint may come after the last guess of a game given up.
        let gaveUp = published(matchGame("tiger", ["crane"], status: .gaveUp), hints: [0, 1, 2])
        #expect(gaveUp.result == MatchResult(status: .gaveUp, guesses: 1, hints: 2, assist: .proven, grid: MatchGrid([.common(2)])))
    }

    @Test func aGamePlayedOnTwoMachinesPastItsLimitPublishesAtMostTheLimit() throws {
        let words = ["crane", "slate", "plumb", "adieu", "bison", "camel", "tiger"]
        let won = published(matchGame("tiger", words), hints: [0, 5, 6], limit: 4)
        #expect(won.result?.guesses == 4 && won.result?.hints == 1)
        #expect(won.result?.grid.rows.count == 4 && won.result?.grid.rows.last == .common(5))
        let lost = published(matchGame("tiger", Array(words.prefix(6)), status: .lost), limit: 4)
        #expect(lost.result?.guesses == 4)
        let gaveUp = published(matchGame("tiger", Array(words.prefix(6)), status: .gaveUp), limit: 4)
        #expect(gaveUp.result?.guesses == 3)
        let playing = published(matchGame("tiger", Array(words.prefix(6)), status: .inProgress), limit: 4)
        #expect(playing.progress == .playing(guesses: 3))
        // Each is a record the others take.
        var limited = match
        limited.maxGuesses = 4
        for play in [won, lost, gaveUp, playing] {
            #expect(try MatchPlay(checking: play.fields, in: limited, publishedBy: "ben") == play)
        }
    }

    @Test func whatIsPublishedIsReadBackTheSame() throws {
        var mastermind = try MatchFixture.match(pack: MatchFixture.doubles)
        mastermind.maxGuesses = 4
        var noHelp = match
        noHelp.assist = .noHelp
        let games: [(Match, Game, [Int])] = [
            (match, matchGame("tiger", []), []),
            (match, matchGame("tiger", ["crane", "zebra"]), [1]),
            (match, matchGame("tiger", ["tiger"]), [0]),
            (noHelp, matchGame("tiger", ["crane", "tiger"], assist: .noHelp), []),
            (match, matchGame("tiger", [], status: .gaveUp), [0]),
            (mastermind, matchGame("geese", ["sheep", "queue", "geese"], rules: .mastermind, maxGuesses: 4), [0, 1, 2]),
            (mastermind, matchGame("geese", ["sheep", "queue", "llama", "tiger"], rules: .mastermind, maxGuesses: 4), [3]),
        ]
        for (match, game, hints) in games {
            let play = MatchPlay.of(game, hints: hints, match: match, player: "alice", index: 3, kept: nil)
            #expect(try MatchPlay(checking: play.fields, in: match, publishedBy: "alice") == play)
        }
    }

    @Test func aResultAtAnotherHelpLevelThanTheMatchsIsRefused_andAMatchOfNoLevelTakesAny() throws {
        let coached = MatchPlay.of(matchGame("tiger", ["crane", "tiger"], assist: .coach), hints: [], match: match, player: "ben", index: 1, kept: nil)
        #expect(match.assist == .proven)
        #expect(throws: MatchRefusal.otherLevel(played: .coach, match: .proven)) {
            try MatchPlay(checking: coached.fields, in: match, publishedBy: "ben")
        }
        var older = match
        older.assist = nil
        #expect(try MatchPlay(checking: coached.fields, in: older, publishedBy: "ben") == coached)
    }
}

@Suite struct MatchGridTests {
    @Test func gridsTravelAsCounts() {
        let classic = MatchGrid([.common(2), .common(0), .common(5)])
        #expect(classic.text == "2,0,5" && MatchGrid.parse("2,0,5", rules: .classic) == classic)
        let mastermind = MatchGrid([.mastermind(inPlace: 1, inWord: 2), .mastermind(inPlace: 5, inWord: 0)])
        #expect(mastermind.text == "1+2,5+0" && MatchGrid.parse("1+2,5+0", rules: .mastermind) == mastermind)
        #expect(MatchGrid.parse("", rules: .classic) == MatchGrid([]))
        #expect(mastermind.lines(length: 5, won: true) == ["●○○··", "●●●●● ✓"])
        #expect(mastermind.lines(length: 5, won: false) == ["●○○··", "●●●●●"])
    }

    @Test func anythingElseIsNotAGrid() {
        for (text, rules) in [("1+2", Rules.classic), ("2", .mastermind), ("10", .classic), ("1,,2", .classic), ("a", .classic),
                              ("1+2+3", .mastermind), ("-1", .classic), ("1+", .mastermind), (" 1", .classic), ("1,", .classic),
                              (String(repeating: "1,", count: 60) + "1", .classic)] {
            #expect(MatchGrid.parse(text, rules: rules) == nil, "\(text)")
        }
    }
}

@Suite struct MatchPlayMergeTests {
    let id = "6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f70"

    func play(_ progress: MatchPlay.Progress) -> MatchPlay { MatchPlay(match: id, player: "ben", index: 1, progress: progress) }
    func finished(_ status: GameStatus, _ guesses: Int, hints: Int = 0, assist: Assist = .proven) -> MatchPlay {
        play(.finished(MatchResult(status: status, guesses: guesses, hints: hints, assist: assist,
                                   grid: MatchGrid(Array(repeating: .common(1), count: guesses)))))
    }

    @Test func aPlayOnlyMovesOn() {
        let versions = [play(.playing(guesses: 0)), play(.playing(guesses: 3)), finished(.gaveUp, 3), finished(.lost, 15),
                        finished(.won, 4), finished(.won, 5), finished(.won, 5, hints: 1), finished(.won, 5, hints: 1, assist: .coach)]
        for (i, a) in versions.enumerated() {
            #expect(MatchPlay.merge(a, a) == a)
            for (j, b) in versions.enumerated() {
                #expect(MatchPlay.merge(a, b) == versions[max(i, j)], "\(i) \(j)")
                for c in versions {
                    #expect(MatchPlay.merge(MatchPlay.merge(a, b), c) == MatchPlay.merge(a, MatchPlay.merge(b, c)))
                }
            }
        }
    }
}

@Suite struct PublishedPlayTests {
    let match: Match
    /// Ben's win of game 2 in three guesses with a hint: a play the others take.
    let won: MatchPlay.Fields

    init() throws {
        match = try MatchFixture.match()
        won = MatchPlay.Fields(match: match.id, player: "ben", game: 2, status: "won", guesses: 3, hints: 1, assist: "proven",
                               grid: "2,3,5")
    }

    func refusal(_ change: (inout MatchPlay.Fields) -> Void, publisher: String = "ben", in match: Match? = nil) -> MatchRefusal? {
        var fields = won
        change(&fields)
        do { _ = try MatchPlay(checking: fields, in: match ?? self.match, publishedBy: publisher) } catch { return error }
        return nil
    }

    @Test func aPossiblePlayIsTaken() throws {
        #expect(refusal { _ in } == nil)
        let play = try MatchPlay(checking: won, in: match, publishedBy: "ben")
        #expect(play.result == MatchResult(status: .won, guesses: 3, hints: 1, assist: .proven,
                                           grid: MatchGrid([.common(2), .common(3), .common(5)])))
        // A game still on: only its guesses are read.
        let playing = MatchPlay.Fields(match: match.id, player: "alice", game: 1, status: "in-progress", guesses: 14, hints: 9,
                                       assist: "bogus", grid: "x")
        #expect(try MatchPlay(checking: playing, in: match, publishedBy: "alice").progress == .playing(guesses: 14))
        // A classic anagram scores full marks without winning; a give-up may follow a hint after its last guess.
        #expect(refusal { $0.status = "lost"; $0.guesses = 15; $0.grid = Array(repeating: "5", count: 15).joined(separator: ",") } == nil)
        #expect(refusal { $0.status = "gave-up"; $0.guesses = 0; $0.hints = 1; $0.grid = "" } == nil)
    }

    @Test func everyImpossiblePlayIsRefusedWithOneLine() {
        let cases: [(MatchRefusal, (inout MatchPlay.Fields) -> Void)] = [
            (.badMatchID("another"), { $0.match = "another" }),
            (.badName(PlayerName.problem("ben\u{1B}[8m")!), { $0.player = "ben\u{1B}[8m" }),
            (.notInMatch("carol"), { $0.player = "carol" }),
            (.notThePublisher(player: "alice", publisher: "ben"), { $0.player = "alice" }),
            (.gameIndex(0), { $0.game = 0 }),
            (.gameIndex(4), { $0.game = 4 }),
            (.gameIndex(-9_000_000_000), { $0.game = -9_000_000_000 }),
            (.badStatus("winner"), { $0.status = "winner" }),
            (.badStatus(String(repeating: "w", count: 10_000)), { $0.status = String(repeating: "w", count: 10_000) }),
            (.negative("guesses", -1), { $0.guesses = -1 }),
            (.playingAtLimit(15, limit: 15), { $0.status = "in-progress"; $0.guesses = 15 }),
            (.tooManyGuesses(16, limit: 15), { $0.guesses = 16 }),
            (.tooManyGuesses(Int.max, limit: 15), { $0.guesses = Int.max }),
            (.winInNoGuesses, { $0.guesses = 0; $0.grid = ""; $0.hints = 0 }),
            (.lossBeforeLimit(3, limit: 15), { $0.status = "lost" }),
            (.giveUpAtLimit(limit: 15), { $0.status = "gave-up"; $0.guesses = 15 }),
            (.missing("hints"), { $0.hints = nil }),
            (.missing("help level"), { $0.assist = nil }),
            (.missing("grid"), { $0.grid = nil }),
            (.negative("hints", -2), { $0.hints = -2 }),
            (.tooManyHints(4, guesses: 3), { $0.hints = 4 }),
            (.tooManyHints(5, guesses: 3), { $0.status = "gave-up"; $0.hints = 5 }),
            (.badAssist("all"), { $0.assist = "all" }),
            (.badGrid("is longer than \(MatchGrid.maxText) characters"), { $0.grid = String(repeating: "5", count: 10_000) }),
            (.badGrid("is not rows of counts"), { $0.grid = "2;3;5" }),
            (.badGrid("is not rows of counts"), { $0.grid = "2,3,\u{1B}[5" }),
            (.badGrid("has 2 rows for 3 guesses"), { $0.grid = "3,5" }),
            (.badGrid("row 1 scores more letters than a word has"), { $0.grid = "6,3,5" }),
            (.badGrid("ends without the word found"), { $0.grid = "2,3,4" }),
        ]
        for (expected, change) in cases {
            #expect(refusal(change) == expected, "\(expected)")
            #expect(MatchFixture.isOneSafeLine(expected))
        }
    }

    @Test func aMastermindGridCannotFindTheWordAndGoOn() throws {
        let mastermind = try MatchFixture.match(pack: MatchFixture.doubles)
        func refusal(_ status: String, _ guesses: Int, _ grid: String) -> MatchRefusal? {
            self.refusal({ $0.match = mastermind.id; $0.status = status; $0.guesses = guesses; $0.grid = grid }, in: mastermind)
        }
        #expect(refusal("won", 3, "1+2,4+2,5+0") == .badGrid("row 2 scores more letters than a word has"))
        #expect(refusal("won", 3, "5+0,1+2,5+0") == .badGrid("row 1 finds the word but the game goes on"))
        #expect(refusal("gave-up", 2, "1+2,5+0") == .badGrid("row 2 finds the word but the game goes on"))
        #expect(refusal("won", 3, "1+2,2+1,5+0") == nil)
        #expect(refusal("won", 1, "5") == .badGrid("is not rows of two counts joined by '+'"))
    }
}
