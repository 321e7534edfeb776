import Foundation
import QiktionaryCore

/// `qiktionary stats` as text: the figures, the daily word, the achievements and the guess
/// distribution as bars, one line each.
public enum StatsText {
    public static func lines(_ stats: Statistics, achievements: [Achievement], dailyStreak daily: (current: Int, best: Int),
                             today: DailyClock) -> [String] {
        var lines = ["Played \(stats.played), won \(stats.won) (\(Int((stats.winRate * 100).rounded()))%), "
                     + "streak \(stats.currentStreak), best streak \(stats.maxStreak)"]
        if stats.hardPlayed > 0 { lines.append("Hard mode: played \(stats.hardPlayed), won \(stats.hardWon)") }
        if stats.coachPlayed > 0 { lines.append("With the coach: played \(stats.coachPlayed), won \(stats.coachWon)") }
        if stats.hintsTaken > 0 { lines.append("Hints taken: \(stats.hintsTaken), in \(stats.gamesWithHints) \(stats.gamesWithHints == 1 ? "game" : "games")") }
        let number = DailyWord.number(day: today.day).map { "#\($0) " } ?? ""
        lines.append("Daily word: today's is \(number)(\(today.date)), the next in \(today.untilNextDayText)"
                     + (daily.best > 0 ? "; streak \(daily.current), best streak \(daily.best)" : ""))
        let earned = achievements.filter { $0.earnedAt != nil }
        lines.append("Achievements: \(earned.count) of \(achievements.count)")
        for achievement in achievements {
            let when = achievement.earnedAt.map { "earned \(CivilDate.shortText($0))" } ?? "not yet"
            lines.append("  \(achievement.earnedAt == nil ? " " : "★") \(achievement.title): \(achievement.detail) (\(when))")
        }
        let top = stats.distribution.values.max() ?? 0
        for guesses in (stats.distribution.keys.sorted()) {
            let count = stats.distribution[guesses] ?? 0
            let bar = String(repeating: "█", count: top == 0 ? 0 : max(1, count * 30 / top))
            lines.append(String(format: "%3d  %@ %d", guesses, bar, count))
        }
        return lines
    }
}
