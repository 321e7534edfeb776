import Foundation
import QiktionaryCore
import Screen

extension Canvas {
    /// The leaderboards of the players of the shared folder: the day's word, then all time, each
    /// ranked apart by help level (no help first). Up/Down scroll.
    mutating func drawLeaderboard(_ area: Rect) {
        let inner = box(area, "Leaderboards")
        guard let boards = state.leaderboards else {
            drawEmpty(inner, "Reading the shared folder" + glyphs.ellipsis)
            return
        }
        drawScrolled(leaderboardLines(boards, width: inner.width - 2), in: inner, scroll: state.leaderboardScroll)
    }

    /// The boards as lines; the players' column narrows (to 6) on a narrow screen, and what still
    /// does not fit ends in an ellipsis.
    func leaderboardLines(_ boards: Leaderboards, width: Int) -> [[Segment]] {
        let number = DailyWord.number(date: boards.day).map { "daily word #\($0), " } ?? ""
        var lines: [[Segment]] = [[("The day's word (\(number)\(boards.day))", .bold)]]
        let players = (boards.daily.flatMap { $0.rows.map(\.player) } + boards.allTime.flatMap { $0.rows.map(\.player) })
        // The all-time row's other columns take 59.
        let name = max(6, min(16, players.map(\.columns).max() ?? 0, width - 59))
        func row(_ cells: [(String, Int)]) -> String {
            cells.map { Text.pad($0.0, to: $0.1) }.joined(separator: "  ")
        }
        if boards.daily.isEmpty {
            lines.append([("No one has finished it yet.", .dim)])
        } else {
            lines.append([(row([("#", 3), ("player", name), ("result", 7), ("guesses", 7), ("hard", 4), ("hints", 5)]), .dim)])
            for group in boards.daily {
                lines.append([("help: " + group.assist.shareLabel, Style(color: .cyan, bold: true))])
                for entry in group.rows {
                    let result = entry.result
                    let status = result.status == .won ? "won" : result.status == .lost ? "lost" : "gave up"
                    lines.append([(row([(String(entry.rank), 3), (entry.player, name), (status, 7), (String(result.guesses), 7),
                                        (result.hard ? "hard" : "", 4), (String(result.hints), 5)]), .plain)])
                }
            }
        }
        lines += [[], [("All time", .bold)]]
        if boards.allTime.isEmpty {
            lines.append([("No finished games published yet.", .dim)])
        } else {
            lines.append([(row([("#", 3), ("player", name), ("games", 6), ("wins", 5), ("win %", 5), ("mean", 4), ("best streak", 11),
                                ("matches won", 11)]), .dim)])
            for group in boards.allTime {
                lines.append([("help: " + group.assist.shareLabel, Style(color: .cyan, bold: true))])
                for entry in group.rows {
                    let tally = entry.tally
                    let mean = tally.meanGuessesText ?? "-"
                    lines.append([(row([(String(entry.rank), 3), (entry.player, name), (String(tally.games), 6), (String(tally.wins), 5),
                                        (String(Int((tally.winRate * 100).rounded())), 5), (mean, 4),
                                        (String(entry.bestDailyStreak), 11), (String(entry.matchesWon), 11)]), .plain)])
                }
            }
        }
        return lines
    }
}
