import Foundation
@testable import QiktionaryCore
@testable import GameUI

/// Matches of the player "ann", made by hand with fixed dates, as `GameData.matches` gives them.
enum MatchFixtures {
    static let viewer = "ann"

    static func match(_ id: String, against opponent: String, createdBy: String? = nil, pack: String = "animals",
                      rules: Rules = .classic, hard: Bool = false, minute: Int) -> Match {
        let maker = createdBy ?? opponent
        return Match(id: id, players: [maker, maker == viewer ? opponent : viewer], createdBy: maker, pack: pack, packVersion: 1, rules: rules, hard: hard, length: 5, maxGuesses: 15,
              createdAt: Fixtures.at(minute), codes: ["AAAAAAAAAAAA", "BBBBBBBBBBBB", "CCCCCCCCCCCC"], wordCheck: 0, assist: .proven)
    }

    /// A finished game's play: its grid from the guesses against the word.
    static func finished(_ match: Match, _ player: String, _ index: Int, secret: String, guesses: [String],
                         status: GameStatus = .won, hints: Int = 0) -> MatchPlay {
        let rows = guesses.map { match.rules.feedback(for: $0, against: secret) }
        return MatchPlay(match: match.id, player: player, index: index,
                         progress: .finished(MatchResult(status: status, guesses: rows.count, hints: hints, assist: .proven, grid: MatchGrid(rows))))
    }

    static func playing(_ match: Match, _ player: String, _ index: Int, guesses: Int) -> MatchPlay {
        MatchPlay(match: match.id, player: player, index: index, progress: .playing(guesses: guesses))
    }

    /// Against ben, made by ben: both found game 1 (ann in 4, ben in 5); ann is on game 2 (the
    /// board's game), ben has 3 guesses in it.
    static let yourTurnMatch = match("11111111-1111-4111-8111-111111111111", against: "ben", minute: 100)
    static let yourTurn = MatchOverview(state: MatchState(match: yourTurnMatch, plays: [
        finished(yourTurnMatch, "ann", 1, secret: "whale", guesses: ["crane", "stale", "shale", "whale"]),
        finished(yourTurnMatch, "ben", 1, secret: "whale", guesses: ["moist", "crane", "blade", "stale", "whale"]),
        playing(yourTurnMatch, "ann", 2, guesses: 4),
        playing(yourTurnMatch, "ben", 2, guesses: 3),
    ]), words: ["whale", nil, nil], viewer: viewer)

    /// Against cat, made by ann, over: ann won 2–1 (a hint in game 3, a loss in game 2).
    static let finishedMatch = match("22222222-2222-4222-8222-222222222222", against: "cat", createdBy: viewer, minute: 80)
    static let wonByAnn = MatchOverview(state: MatchState(match: finishedMatch, plays: [
        finished(finishedMatch, "ann", 1, secret: "tiger", guesses: ["crane", "tribe", "tiger"]),
        finished(finishedMatch, "cat", 1, secret: "tiger", guesses: ["moist", "crane", "tribe", "tiger"]),
        finished(finishedMatch, "ann", 2, secret: "zebra", guesses: ["crane", "moist", "jumpy", "tribe", "blaze", "fight", "vocal", "dwelt",
                                                                       "shrug", "pinky", "wacky", "flung", "earth", "hover", "quilt"], status: .lost),
        finished(finishedMatch, "cat", 2, secret: "zebra", guesses: ["crane", "zebra"]),
        finished(finishedMatch, "ann", 3, secret: "horse", guesses: ["crane", "shore", "horse"], hints: 1),
        finished(finishedMatch, "cat", 3, secret: "horse", guesses: ["moist", "crane", "shore"], status: .gaveUp),
    ]), words: ["tiger", "zebra", "horse"], viewer: viewer)

    /// Against dan, made by ann: ann has played all three, dan only the first.
    static let waitingMatch = match("33333333-3333-4333-8333-333333333333", against: "dan", createdBy: viewer, pack: "music",
                                    rules: .mastermind, hard: true, minute: 60)
    static let waiting = MatchOverview(state: MatchState(match: waitingMatch, plays: [
        finished(waitingMatch, "ann", 1, secret: "flute", guesses: ["notes", "flute"]),
        finished(waitingMatch, "ann", 2, secret: "piano", guesses: ["chord", "piano"]),
        finished(waitingMatch, "ann", 3, secret: "banjo", guesses: ["banjo"]),
        finished(waitingMatch, "dan", 1, secret: "flute", guesses: ["notes", "fluke", "flute"]),
        playing(waitingMatch, "dan", 2, guesses: 1),
    ]), words: ["flute", nil, nil], viewer: viewer)

    /// Made by ann, declined by eve.
    static let declinedMatch = match("44444444-4444-4444-8444-444444444444", against: "eve", createdBy: viewer, minute: 40)
    static let declined = MatchOverview(state: MatchState(match: declinedMatch, plays: [], declined: true), words: [nil, nil, nil], viewer: viewer)

    static let all = [yourTurn, wonByAnn, waiting, declined]

    /// Ann's game 2 of the match against ben, on the board: 4 guesses on TIGER.
    static let boardGame = board()

    /// Ann's game 2 against ben with these guesses.
    static func board(_ guesses: [String] = ["crane", "moist", "jumpy", "tribe"], status: GameStatus = .inProgress) -> SavedGame {
        Fixtures.game(yourTurnMatch.gameID(player: viewer, index: 2), secret: "tiger", guesses: guesses, status: status,
                      finished: status == .inProgress ? nil : 40)
    }

    static let boards = Leaderboards(day: "2026-11-25", daily: [
        Leaderboard.Group(assist: .noHelp, rows: [
            Leaderboard.DailyRow(rank: 1, player: "ben", result: DailyResult(status: .won, guesses: 3, hard: true, hints: 0, assist: .noHelp)),
        ]),
        Leaderboard.Group(assist: .proven, rows: [
            Leaderboard.DailyRow(rank: 1, player: "ann", result: DailyResult(status: .won, guesses: 4, hard: false, hints: 1, assist: .proven)),
            Leaderboard.DailyRow(rank: 2, player: "cat", result: DailyResult(status: .lost, guesses: 15, hard: false, hints: 0, assist: .proven)),
        ]),
    ], allTime: [
        Leaderboard.Group(assist: .noHelp, rows: [
            Leaderboard.AllTimeRow(rank: 1, player: "ben", tally: Standing.Tally(games: 40, wins: 31, winGuesses: 140), bestDailyStreak: 9, matchesWon: 3),
        ]),
        Leaderboard.Group(assist: .proven, rows: [
            Leaderboard.AllTimeRow(rank: 1, player: "ann", tally: Standing.Tally(games: 120, wins: 101, winGuesses: 480), bestDailyStreak: 12, matchesWon: 4),
            Leaderboard.AllTimeRow(rank: 2, player: "a-very-long-player-name-of-32ch", tally: Standing.Tally(games: 7, wins: 2, winGuesses: 11),
                                   bestDailyStreak: 1, matchesWon: 0),
        ]),
    ])

    /// Everything loaded, the matches too, on `pane`.
    static func state(_ pane: Pane = .matches, game: SavedGame = Fixtures.inPlay) -> AppState {
        var state = Fixtures.state(pane, game: game)
        state.matches.items = all
        state.leaderboards = boards
        return state
    }
}
