import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// The Matches and Leaderboard screens, a match game's board and the header's notice: what they
/// show (snapshots at 100x30 and at the minimum, 40x12; re-record as `ScreenViewTests` says),
/// what their keys do and what a sync round brings.
@Suite struct MatchScreenTests {
    static func press(_ key: Key, on state: AppState) -> (AppState, [Effect]) { GameUITests.press(key, on: state) }

    /// A match game on the board, the matches loaded.
    static var onBoard: AppState { MatchFixtures.state(.guess, game: MatchFixtures.boardGame) }

    // MARK: Snapshots

    @Test func matchesAt100x30() {
        expectScreen(MatchFixtures.state(), 100, 30, """
 Animals 12/36 solved             your turn in a match vs ben (F3) · sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats  Matches
┌─ Matches (4) ────────────────────────────────────────────────────────────────────────────────────┐
│> vs ben  Animals  your turn        1–0  ben: won in 5 · 3 guesses · not started                  │
│  vs cat  Animals  you won 2–1           cat: won in 4 · won in 2 · gave up                       │
│  vs dan  Music    waiting for dan  1–0  dan: won in 3 · 1 guess · not started                    │
│  vs eve  Animals  eve declined                                                                   │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
└──────────────────────────────────────────────────────────────────────────────────────────────────┘
┌─ vs ben · Animals ───────────────────────────────────────────────────────────────────────────────┐
│ classic, 5 letters, help proven, 15 guesses a game, made by ben. Game 1 (WHALE): you: won in 4,  │
│ ben: won in 5; you won. Game 2: you: 4 guesses, ben: 3 guesses. Game 3: you: not started, ben:   │
│ not started. Enter plays game 2.                                                                 │
└──────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter play  ↑↓ choose  l leaderboard  Tab next  F1 help  ^C quit
""", "matches")
    }

    /// Outside UTF-8 the scores keep their dash as '-' (the en dash cannot be shown), like the
    /// command line's, and nothing beyond ASCII reaches the terminal.
    @Test func asciiScoresKeepTheirDash() {
        var state = MatchFixtures.state()
        state.glyphs = .ascii
        var texts = [view(state, size: Size(width: 100, height: 30)).text]
        state.matches.selection = 1
        state.matches.open = true
        texts.append(view(state, size: Size(width: 100, height: 30)).text)
        for text in texts { #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(text)") }
        #expect(texts[0].contains("1-0") && texts[0].contains("you won 2-1"), "\(texts[0])")
    }

    @Test func matchesAtTheMinimum() {
        expectScreen(MatchFixtures.state(), 40, 12, """
 Animals       your turn: F3 · sync off
┌─ Matches (4) ────────────────────────┐
│> vs ben  Animals  your turn        … │
│  vs cat  Animals  you won 2–1      … │
│  vs dan  Music    waiting for dan  … │
│  vs eve  Animals  eve declined     … │
│                                      │
│                                      │
│                                      │
└──────────────────────────────────────┘

 Enter play  ↑↓ choose  l leaderboard
""", "matches")
    }

    @Test func theEndOfAMatchShowsBothGridsSideBySide() {
        var state = MatchFixtures.state()
        state.matches.selection = 1
        state.matches.open = true
        expectScreen(state, 100, 30, """
 Animals 12/36 solved             your turn in a match vs ben (F3) · sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats  Matches
┌─ vs cat · Animals · you won 2–1 ─────────────────────────────────────────────────────────────────┐
│ classic, 5 letters, help proven   you 2–1 cat                                                    │
│                                                                                                  │
│ Game 1 · TIGER       Game 2 · ZEBRA       Game 3 · HORSE                                         │
│ you won              cat won              you won                                                │
│ you       cat        you       cat        you       cat                                          │
│ ●●···     ●●···      ●●●··     ●●●··      ●●···     ●●···                                        │
│ ●●●●·     ●●···      ·····     ●●●●● ✓    ●●●●●     ●●···                                        │
│ ●●●●● ✓   ●●●●·      ·····                ●●●●● ✓   ●●●●●                                        │
│           ●●●●● ✓    ●●●··                won in 3  gave up                                      │
│ won in 3  won in 4   ●●●●·                1 hint                                                 │
│                      ·····                                                                       │
│                      ●····                                                                       │
│                      ●····                                                                       │
│                      ●····                                                                       │
│                      ·····                                                                       │
│                      ●····                                                                       │
│                      ·····                                                                       │
│                      ●●●··                                                                       │
│                      ●●···                                                                       │
│                      ·····                                                                       │
│                      lost      won in 2                                                          │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
└──────────────────────────────────────────────────────────────────────────────────────────────────┘

 Esc close  ↑↓ scroll  l leaderboard  Tab next  F1 help  ^C quit
""", "match-end")
    }

    @Test func aMatchWholeUsesTheTerminalsGlyphsAndSaysWhatIsNotPlayedYet() {
        var state = MatchFixtures.state()
        state.glyphs = .ascii
        state.matches.selection = 1
        state.matches.open = true
        let text = view(state, size: Size(width: 100, height: 30)).text
        #expect(text.contains("| **...     **...      ***..     ***..      **...     **...") && !text.contains("●"), "\(text)")
        state.glyphs = .unicode
        state.matches.selection = 2
        let waiting = view(state, size: Size(width: 100, height: 30)).text
        #expect(waiting.contains("won in 2") && waiting.contains("1 guess") && waiting.contains("not started"))
        #expect(waiting.contains("being played") && !waiting.contains("Game 2 · PIANO"), "no word before both finished it")
        state.matches.selection = 3
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("declined"))
    }

    @Test func theEndOfAMatchAtTheMinimumIsOneGameUnderAnotherAndScrolls() {
        var state = MatchFixtures.state()
        state.matches.selection = 1
        state.matches.open = true
        expectScreen(state, 40, 12, """
 Animals       your turn: F3 · sync off
┌─ vs cat · Animals · you won 2–1 ─────┐
│ classic, 5 letters   you 2–1 cat     │
│                                      │
│ Game 1 · TIGER                       │
│ you won                              │
│ you       cat                        │
│ ●●···     ●●···                      │
│ ●●●●·     ●●···                     ↓│
└──────────────────────────────────────┘

 Esc close  ↑↓ scroll  l leaderboard
""", "match-end")
        state.matches.scroll = 8
        expectScreen(state, 40, 12, """
 Animals       your turn: F3 · sync off
┌─ vs cat · Animals · you won 2–1 ─────┐
│           ●●●●● ✓                   ↑│
│ won in 3  won in 4                   │
│                                      │
│ Game 2 · ZEBRA                       │
│ cat won                              │
│ you       cat                        │
│ ●●●··     ●●●··                     ↓│
└──────────────────────────────────────┘

 Esc close  ↑↓ scroll  l leaderboard
""", "match-end-scrolled")
    }

    @Test func leaderboardAt100x30() {
        expectScreen(MatchFixtures.state(.leaderboard), 100, 30, """
 Animals 12/36 solved             your turn in a match vs ben (F3) · sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats  Leaderboard
┌─ Leaderboards ───────────────────────────────────────────────────────────────────────────────────┐
│ The day's word (daily word #4, 2026-11-25)                                                       │
│ #    player            result   guesses  hard  hints                                             │
│ help: no help                                                                                    │
│ 1    ben               won      3        hard  0                                                 │
│ help: proven marks                                                                               │
│ 1    ann               won      4              1                                                 │
│ 2    cat               lost     15             0                                                 │
│                                                                                                  │
│ All time                                                                                         │
│ #    player            games   wins   win %  mean  best streak  matches won                      │
│ help: no help                                                                                    │
│ 1    ben               40      31     78     4.5   9            3                                │
│ help: proven marks                                                                               │
│ 1    ann               120     101    84     4.8   12           4                                │
│ 2    a-very-long-pla…  7       2      29     5.5   1            0                                │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
│                                                                                                  │
└──────────────────────────────────────────────────────────────────────────────────────────────────┘

 ↑↓ scroll  m matches  1 back to the game  F5 sync  Tab next  F1 help  ^C quit
""", "leaderboard")
    }

    @Test func leaderboardAtTheMinimum() {
        expectScreen(MatchFixtures.state(.leaderboard), 40, 12, """
 Animals       your turn: F3 · sync off
┌─ Leaderboards ───────────────────────┐
│ The day's word (daily word #4, 2026… │
│ #    player  result   guesses  hard… │
│ help: no help                        │
│ 1    ben     won      3        hard… │
│ help: proven marks                   │
│ 1    ann     won      4            … │
│ 2    cat     lost     15           …↓│
└──────────────────────────────────────┘

 ↑↓ scroll  m matches
""", "leaderboard")
    }

    @Test func aMatchGamesBoardNamesTheMatchAndTheOpponentsProgress() {
        // The rest of the board is the game's as ever (ScreenViewTests).
        let wide = view(Self.onBoard, size: Size(width: 100, height: 30))
        // The pack's name stays; the match's game after it, shortened before anything of the pack goes.
        #expect(wide.line(0) == " Animals · match vs ben, game 2 of 3 · classic, 5 letters            sync off · last change: laptop ")
        #expect(wide.line(2).hasPrefix("┌─ Guesses · ben: 3 guesses ─────"))
        expectScreen(Self.onBoard, 40, 12, """
 Animals · vs ben 2/3          sync off
┌─ Guesses · ben: 3 guesses ───────────┐
│  4  TRIBE  ●●●●·  4 common           ↑
└──────────────────────────────────────┘
┌─ Notepad ────────────────────────────┐
│  A·  B·  C·  D·  E·  F·  G·  H·  I·  │
│ [J✗] K·  L· [M✗] N·  O· [P✗] Q·  R·  │
│  S·  T· [U✗] V·  W·  X· [Y✗] Z·      │
└──────────────────────────────────────┘
 > _ _ _ _ _              11 of 15 left

 Enter guess  Tab notepad  F2 hint
""", "match-board")
    }

    /// A game of a match nobody has opened is "not started", not "being played".
    @Test func aGameNobodyStartedIsNotStarted() {
        var state = MatchFixtures.state()
        state.matches.open = true
        var seen = ""
        for scroll in 0..<40 {
            state.matches.scroll = scroll
            seen += view(state, size: Size(width: 100, height: 30)).text
        }
        #expect(seen.contains("Game 3") && !seen.contains("being played"), "\(seen)")
        #expect(seen.contains("not started"))
    }

    /// F3 opens the Matches screen from the guess line too (where m types an M), on the match
    /// waiting when the board's game is not one of it.
    @Test func f3OpensTheMatchesFromTheGuessLine() {
        let (state, effects) = Self.press(.function(3), on: MatchFixtures.state(.guess))
        #expect(state.pane == .matches && effects == [.load(.matches)])
        let typed = Self.press(.character("m"), on: MatchFixtures.state(.guess)).0
        #expect(typed.pane == .guess && typed.board.input == "m")
    }

    @Test func theHeaderSaysWhenAMatchWaitsOnThePlayer() {
        let header = view(MatchFixtures.state(.guess), size: Size(width: 100, height: 30)).line(0)
        #expect(header == " Animals 12/36 solved             your turn in a match vs ben (F3) · sync off · last change: laptop ")
        let narrow = view(MatchFixtures.state(.guess), size: Size(width: 40, height: 12)).line(0)
        // Narrow: the pack's name stays, the notice is shortened, the sync state is the last to go.
        #expect(narrow == " Animals       your turn: F3 · sync off ", "\(narrow)")
    }

    @Test func packsShowTheKeysOfTheNewScreens() {
        let footer = view(Fixtures.state(.packs), size: Size(width: 100, height: 30)).line(29)
        #expect(footer.contains("m matches") && footer.contains("l leaderboard") && footer.contains("F1 help"), "\(footer)")
    }

    @Test func atEverySizeAMatchWholeScrollsToItsEndAndTheDetailIsWhole() {
        for size in TextFitTests.sizes {
            var state = MatchFixtures.state()
            state.matches.selection = 1
            state.matches.open = true
            var seen = view(state, size: size).text
            for _ in 0..<40 {
                _ = update(&state, .key(.down))
                seen += view(state, size: size).text
            }
            for text in ["Game 1 · TIGER", "Game 2 · ZEBRA", "Game 3 · HORSE", "1 hint"] {
                #expect(seen.contains(text), "\(text) at \(size.width)x\(size.height)")
            }
            guard size.height >= 20 else { continue }
            let list = MatchFixtures.state()
            TextFitTests.expectWhole(Canvas(buffer: ScreenBuffer(size: size), state: list).matchDetail(MatchFixtures.yourTurn),
                                     on: view(list, size: size).text, "the detail at \(size.width)x\(size.height)")
        }
    }

    // MARK: Keys

    @Test func mOpensTheMatchesAndLOpensTheLeaderboardWhereverLettersDoNotType() {
        for pane in [Pane.packs, .inProgress, .readingList, .history, .stats, .leaderboard] {
            let (state, effects) = Self.press(.character("m"), on: MatchFixtures.state(pane))
            #expect(state.pane == .matches && effects == [.load(.matches)], "\(pane)")
        }
        for pane in [Pane.packs, .history, .matches] {
            let (state, effects) = Self.press(.character("l"), on: MatchFixtures.state(pane))
            #expect(state.pane == .leaderboard && effects == [.load(.leaderboard)], "\(pane)")
        }
        // On the guess line and the notepad they are letters.
        #expect(Self.press(.character("m"), on: MatchFixtures.state(.guess)).0.board.input == "m")
        #expect(Self.press(.character("l"), on: MatchFixtures.state(.notepad)).0.pane == .notepad)
        // A finished game's board: m opens its match whole when it is a match game.
        let finished = MatchFixtures.board(status: .gaveUp)
        let (state, effects) = Self.press(.character("m"), on: MatchFixtures.state(.guess, game: finished))
        #expect(state.pane == .matches && state.matches.open && state.matches.selection == 0 && effects == [.load(.matches)])
    }

    @Test func theScreensAreOffTheTabBarTabGoesOnFromPacksAndEscGoesBack() {
        #expect(Self.press(.tab, on: MatchFixtures.state(.matches)).0.pane == .inProgress)
        #expect(Self.press(.backTab, on: MatchFixtures.state(.leaderboard)).0.pane == .packs)
        #expect(Self.press(.escape, on: MatchFixtures.state(.leaderboard)).0.pane == .guess)
        #expect(Self.press(.character("3"), on: MatchFixtures.state(.matches)).0.pane == .inProgress)
        // Their name follows the others, never cut: too narrow for every name in full, shorter names.
        #expect(view(MatchFixtures.state(.matches), size: Size(width: 80, height: 24)).line(1).hasSuffix("6 Stats  Matches   "))
        #expect(view(MatchFixtures.state(.leaderboard), size: Size(width: 80, height: 24)).line(1)
                    .hasPrefix("  1 Game  2 Packs  3 Playing  4 Reading  5 History  6 Stats  Leaderboard "))
    }

    @Test func enterPlaysTheMatchWaitingOnThePlayerOrOpensTheMatchWhole() {
        let id = MatchFixtures.yourTurn.state.match.id
        let (playing, effects) = Self.press(.enter, on: MatchFixtures.state())
        #expect(playing.pane == .guess && effects == [.beginMatch(matchID: id), .load(.matches)])
        // Finished, waiting for the other player, or declined: Enter opens it, Enter or Esc closes it.
        for selection in 1...3 {
            var state = MatchFixtures.state()
            state.matches.selection = selection
            let (open, none) = Self.press(.enter, on: state)
            #expect(open.pane == .matches && open.matches.open && none.isEmpty)
            #expect(Self.press(.down, on: open).0.matches.scroll == 1, "arrows scroll an open match")
            #expect(!Self.press(.escape, on: open).0.matches.open && Self.press(.escape, on: open).0.pane == .matches)
            #expect(!Self.press(.enter, on: open).0.matches.open)
        }
        #expect(Self.press([.down, .down], on: MatchFixtures.state()).0.matches.selection == 2, "arrows choose a match")
    }

    @Test func upAndDownScrollTheLeaderboard() {
        let (state, _) = Self.press([.down, .down, .up], on: MatchFixtures.state(.leaderboard))
        #expect(state.leaderboardScroll == 1)
        #expect(view(Self.pressed([.pageDown], on: MatchFixtures.state(.leaderboard)), size: Size(width: 40, height: 12)).text.contains("↑"))
    }

    static func press(_ keys: [Key], on state: AppState) -> (AppState, [Effect]) { GameUITests.press(keys, on: state) }

    static func pressed(_ keys: [Key], on state: AppState) -> AppState { press(keys, on: state).0 }

    @Test func nextGameOnAFinishedMatchGamePlaysTheMatchsNextGame() {
        let won = MatchFixtures.board(["crane", "tiger"], status: .won)
        let effects = Self.press(.character("n"), on: MatchFixtures.state(.guess, game: won)).1
        #expect(effects == [.beginMatch(matchID: MatchFixtures.yourTurn.state.match.id), .load(.matches)])
        // Once the matches say game 2 is over, the line under the card names game 3.
        var after = MatchFixtures.state(.guess, game: won)
        let yours = MatchFixtures.yourTurnMatch
        after.matches.items[0] = MatchOverview(state: MatchState(match: yours, plays: [
            MatchFixtures.finished(yours, "ann", 1, secret: "whale", guesses: ["whale"]),
            MatchFixtures.finished(yours, "ann", 2, secret: "tiger", guesses: ["crane", "tiger"]),
        ]), words: [nil, nil, nil], viewer: "ann")
        #expect(view(after, size: Size(width: 100, height: 30)).text.contains(" n game 3 of the match  ·  b bookmark"))
        // A game of no match: the pack's next game, as before.
        #expect(Self.press(.character("n"), on: MatchFixtures.state(.guess, game: Fixtures.won)).1 == [.newGame(packID: "animals")])
    }

    // MARK: Live

    @Test func aSyncThatBringsChangesReloadsTheMatchesAndTheBoardFollows() {
        var state = Self.onBoard
        let news = SyncNews(state: .synced(at: Fixtures.at(60)), changedHere: true)
        #expect(update(&state, .syncUpdate(news)).contains(.load(.matches)))
        var onMatches = MatchFixtures.state(.matches)
        #expect(update(&onMatches, .syncUpdate(news)).filter { $0 == .load(.matches) }.count == 1, "asked once")
        // Ben played two more guesses: the board's title says so at once.
        let yours = MatchFixtures.yourTurnMatch
        let moved = MatchOverview(state: MatchState(match: yours, plays: [
            MatchFixtures.finished(yours, "ann", 1, secret: "whale", guesses: ["crane", "stale", "shale", "whale"]),
            MatchFixtures.finished(yours, "ben", 1, secret: "whale", guesses: ["moist", "crane", "blade", "stale", "whale"]),
            MatchFixtures.playing(yours, "ann", 2, guesses: 4),
            MatchFixtures.finished(yours, "ben", 2, secret: "tiger", guesses: ["crane", "tribe", "tiger"]),
        ]), words: ["whale", nil, nil], viewer: "ann")
        _ = update(&state, .matchesLoaded([moved] + MatchFixtures.all.dropFirst()))
        #expect(view(state, size: Size(width: 100, height: 30)).line(2).contains("Guesses · ben: won in 3"))
        #expect(view(state, size: Size(width: 40, height: 12)).line(1).contains("ben: won in 3"))
    }

    @Test func theChosenMatchStaysChosenWhenANewOneArrivesAboveIt() {
        var state = MatchFixtures.state()
        state.matches.items = Array(MatchFixtures.all.dropFirst())
        state.matches.selection = 1
        state.matches.open = true
        _ = update(&state, .matchesLoaded(MatchFixtures.all))
        #expect(state.matches.selection == 2 && state.matches.open)
    }

    @Test func aMoveInAMatchGameReloadsTheMatchesAndAGameOfNoMatchDoesNot() {
        var state = Self.onBoard
        let after = MatchFixtures.board(["crane", "moist", "jumpy", "tribe", "tiger"], status: .won)
        let effects = update(&state, .guessPlayed(PlayedGuess(guess: after.game.guesses[4], number: 5, game: after)))
        #expect(effects == [.load(.packs), .load(.matches)])
        var plain = MatchFixtures.state(.guess)
        let played = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "blaze"])
        #expect(update(&plain, .guessPlayed(PlayedGuess(guess: played.game.guesses[4], number: 5, game: played))).isEmpty)
    }

    @Test func theEndOfTheBoardsMatchIsSaidWithTheKeyToBothGrids() {
        var state = MatchFixtures.state(.guess, game: MatchFixtures.board(["crane", "tiger"], status: .won))
        let yours = MatchFixtures.yourTurnMatch
        let over = MatchOverview(state: MatchState(match: yours, plays: Match.games.flatMap { index in
            [MatchFixtures.finished(yours, "ann", index, secret: "tiger", guesses: ["tiger"]),
             MatchFixtures.finished(yours, "ben", index, secret: "tiger", guesses: ["crane", "tiger"])]
        }), words: ["whale", "tiger", "horse"], viewer: "ann")
        _ = update(&state, .matchesLoaded([over]))
        #expect(state.status?.text == "The match is over: you won 3–0. m shows both grids.")
        let (open, _) = Self.press(.character("m"), on: state)
        #expect(open.matches.open && view(open, size: Size(width: 100, height: 30)).text.contains("Game 3 · HORSE"))
    }

    @Test func theHeadersNoticeLeavesOutTheBoardsOwnMatchAndMatchesNotWaiting() {
        // The board's match is the only one waiting: no notice.
        var state = Self.onBoard
        #expect(state.matchWaiting == nil)
        state.matches.items = [MatchFixtures.wonByAnn, MatchFixtures.waiting, MatchFixtures.declined]
        #expect(state.matchWaiting == nil)
        state.board.game = Fixtures.inPlay
        state.matches.items = MatchFixtures.all
        #expect(state.matchWaiting?.state.match.id == MatchFixtures.yourTurnMatch.id)
    }

    @Test func matchesThatCannotBeReadAreSaidOnTheMatchesScreenOnly() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .matchesFailed("the shared folder cannot be read"))
        #expect(state.status == nil)
        state.pane = .matches
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("Matches cannot be shown: the shared folder cannot be read"))
        _ = update(&state, .matchesLoaded([]))
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("No matches yet"))
    }

    // MARK: The effects

    @Test func theEffectsLoadTheMatchesAndTheLeaderboardsOfTodaysDailyDate() {
        let rig = EffectInterpreterTests.Rig { $0.matchList = MatchFixtures.all; $0.boards = MatchFixtures.boards }
        #expect(rig.perform(.load(.matches)) == [.matchesLoaded(MatchFixtures.all)])
        #expect(rig.perform(.load(.leaderboard)) == [.leaderboardsLoaded(MatchFixtures.boards)])
        #expect(rig.calls == ["matches", "dailyRequest", "leaderboards(2026-11-18)"])
        let failing = EffectInterpreterTests.Rig { $0.failures["matches"] = FakeFailure(description: "the shared folder cannot be read") }
        #expect(failing.perform(.load(.matches)) == [.matchesFailed("the shared folder cannot be read")])
    }

    @Test func beginMatchPutsTheMatchsNextGameOnTheBoardAndSyncs() {
        let rig = EffectInterpreterTests.Rig { $0.matchList = MatchFixtures.all }
        let messages = rig.perform(.beginMatch(matchID: MatchFixtures.yourTurnMatch.id))
        guard case .gameLoaded(let game)? = messages.first else { Issue.record("\(messages)"); return }
        #expect(game.game.packID == "animals")
        #expect(Array(rig.calls.prefix(3)) == ["beginMatchGame(\(MatchFixtures.yourTurnMatch.id))", "startGame(animals tiger)", "request(manual: false)"])
    }
}
