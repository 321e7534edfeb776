import Foundation
import QiktionaryCore

/// The lists the commands print as text: games in progress, finished games, the reading list
/// and the packs, in columns.
public enum ListText {
    public static func games(_ games: [SavedGame]) -> String {
        columns([["GAME", "PACK", "RULES", "GUESSES", "CHANGED", "ON"]] + games.map {
            [$0.id, $0.game.packID, $0.game.rules.rawValue, "\($0.game.guesses.count)/\($0.game.maxGuesses)",
             shortDate($0.updatedAt), $0.lastChangedOn]
        })
    }

    public static func history(_ games: [SavedGame]) -> String {
        columns([["WORD", "RESULT", "GUESSES", "HARD", "HELP", "HINTS", "DAILY", "FINISHED", "ON", "PACK", "GAME"]] + games.map {
            [($0.bookmarked ? "★ " : "  ") + $0.game.secret, $0.game.status.rawValue, guessesUsed($0.game),
             $0.game.hard ? "hard" : "", $0.game.assist.rawValue, $0.hints.isEmpty ? "" : "\($0.hints.count)", dailyLabel($0.daily),
             shortDate($0.finishedAt), $0.lastChangedOn, $0.game.packID, $0.id]
        })
    }

    /// The guesses a finished game counts (as `--json` and the leaderboard count them), and
    /// those another machine played after the win, not knowing the word was found: "1 (+1 after)".
    static func guessesUsed(_ game: Game) -> String {
        let after = game.guesses.count - game.guessesUsed
        return after > 0 ? "\(game.guessesUsed) (+\(after) after)" : "\(game.guessesUsed)"
    }

    public static func readingList(_ list: [Bookmark]) -> String {
        list.map { "\($0.word.uppercased())  (\($0.packID), \(shortDate($0.addedAt)))\n  \($0.fact)" }.joined(separator: "\n\n")
    }

    public static func packs(_ packs: [PackProgress]) -> String {
        columns([["PACK", "TITLE", "LETTERS", "RULES", "SOLVED"]] + packs.map {
            [$0.id, $0.title, "\($0.length)", $0.rules.rawValue, "\($0.solved)/\($0.words)"]
        })
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded.
    public static func columns(_ rows: [[String]]) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        let widths = (0..<width).map { i in rows.map { i < $0.count ? $0[i].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// A daily game's number and date for a list, "#4 2026-11-25"; empty for any other game.
    static func dailyLabel(_ date: String?) -> String {
        guard let date else { return "" }
        return DailyWord.number(date: date).map { "#\($0) \(date)" } ?? date
    }

    /// A date as people read it in lists: 2026-11-22 14:05 (UTC).
    static func shortDate(_ date: Date?) -> String { date.map(CivilDate.shortText) ?? "" }
}
