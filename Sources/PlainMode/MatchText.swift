import Foundation
import QiktionaryCore

/// What `friends`, `match` and `leaderboard` print: text lines, and the JSON of the boards
/// (a match's JSON is Core's `MatchJSON`).
public enum MatchText {
    /// One line a match: its id, against whom, and what it waits for.
    public static func list(_ matches: [MatchOverview]) -> [String] {
        matches.map { shown in
            let match = shown.state.match
            let opponent = match.opponent(of: shown.viewer) ?? "?"
            return "\(match.id)  vs \(opponent)  \(match.pack)  \(shown.summary)"
        }
    }

    /// A match game by game: each player's result, the word once both finished, the winner.
    public static func show(_ shown: MatchOverview) -> [String] {
        let state = shown.state, match = state.match
        var lines = ["match \(match.id): \(match.players.joined(separator: " vs ")), pack \(match.pack), \(match.rules.rawValue)"
                     + (match.hard ? ", hard" : "") + (match.assist.map { ", help \($0.rawValue)" } ?? ""),
                     shown.summary]
        for index in Match.games {
            var parts: [String] = []
            for player in match.players {
                let progress = state.progress(of: player)[index - 1]
                switch progress {
                case .playing(let guesses)?: parts.append("\(player) playing (\(count(guesses, "guess", "guesses")))")
                case .finished(let r)?: parts.append("\(player) \(result(r.status, r.guesses))" + hints(r.hints))
                case nil: parts.append("\(player) not started")
                }
            }
            let word = shown.words.indices.contains(index - 1) ? shown.words[index - 1].map { "  word: \($0)" } ?? "" : ""
            let winner = state.winner(game: index).map { "  winner: \($0.name)" } ?? ""
            lines.append("game \(index): " + parts.joined(separator: ", ") + word + winner)
        }
        let score = match.players.map { "\($0) \(state.score[$0, default: 0])" }.joined(separator: ", ")
        lines.append("score: \(score)" + (state.winner.map { "; winner: \($0.name)" } ?? ""))
        return lines
    }

    /// A finished game's result as a person says it: "won in 3", "lost in 15", "gave up after 4".
    static func result(_ status: GameStatus, _ guesses: Int) -> String {
        switch status {
        case .won: "won in \(guesses)"
        case .lost: "lost in \(guesses)"
        default: guesses == 0 ? "gave up" : "gave up after \(guesses)"
        }
    }

    static func hints(_ count: Int) -> String { count == 0 ? "" : ", " + Self.count(count, "hint") }

    /// "1 guess", "2 guesses": every count plain mode and the commands print.
    static func count(_ n: Int, _ one: String, _ many: String? = nil) -> String { "\(n) \(n == 1 ? one : many ?? one + "s")" }

    /// The day's board and the all-time board, each help level apart.
    public static func leaderboards(_ boards: Leaderboards, daily: Bool) -> [String] {
        var lines: [String] = []
        lines.append("The word of \(boards.day):")
        if boards.daily.isEmpty { lines.append("  no one yet") }
        for group in boards.daily {
            lines.append("  help: \(group.assist.rawValue)")
            for row in group.rows {
                let r = row.result
                lines.append("  \(row.rank). \(row.player)  \(result(r.status, r.guesses))" + (r.hard ? ", hard" : "") + hints(r.hints))
            }
        }
        guard !daily else { return lines }
        lines.append("All time:")
        if boards.allTime.isEmpty { lines.append("  no one yet") }
        for group in boards.allTime {
            lines.append("  help: \(group.assist.rawValue)")
            for row in group.rows {
                let t = row.tally
                let mean = t.meanGuessesText.map { "\($0) guesses a win" } ?? "no win yet"
                lines.append(String(format: "  %d. %@  %@, %@ (%.0f%%), %@, best daily streak %d, %@",
                                    row.rank, row.player, count(t.games, "game"), count(t.wins, "win"), t.winRate * 100, mean,
                                    row.bestDailyStreak, count(row.matchesWon, "match", "matches") + " won"))
            }
        }
        return lines
    }
}

/// `leaderboard --json`: the day and the boards, each help level apart.
public struct LeaderboardJSON: Encodable, Sendable {
    struct DailyRow: Encodable, Sendable {
        var rank: Int, player: String, status: GameStatus, guesses: Int, hard: Bool, hints: Int
    }

    struct AllTimeRow: Encodable, Sendable {
        var rank: Int, player: String, games: Int, wins: Int, winRate: Double, meanGuesses: Double, bestDailyStreak: Int, matchesWon: Int
    }

    struct Group<Row: Encodable & Sendable>: Encodable, Sendable {
        var assist: Assist
        var rows: [Row]
    }

    var day: String
    var daily: [Group<DailyRow>]
    var allTime: [Group<AllTimeRow>]?

    public init(_ boards: Leaderboards, dailyOnly: Bool) {
        day = boards.day
        daily = boards.daily.map { group in
            Group(assist: group.assist, rows: group.rows.map { row in
                DailyRow(rank: row.rank, player: row.player, status: row.result.status, guesses: row.result.guesses, hard: row.result.hard,
                         hints: row.result.hints)
            })
        }
        allTime = dailyOnly ? nil : boards.allTime.map { group in
            Group(assist: group.assist, rows: group.rows.map { row in
                AllTimeRow(rank: row.rank, player: row.player, games: row.tally.games, wins: row.tally.wins, winRate: row.tally.winRate,
                           meanGuesses: row.tally.meanGuesses, bestDailyStreak: row.bestDailyStreak, matchesWon: row.matchesWon)
            })
        }
    }
}
