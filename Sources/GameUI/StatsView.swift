import QiktionaryCore
import Screen

extension Canvas {
    /// The numbers, then the guess distribution as a bar chart, one row per guess count.
    mutating func drawStats(_ area: Rect) {
        // Achievements beside the numbers when there is room, else under them.
        var numbers = area
        if !state.achievements.isEmpty && state.stats.map({ $0.played > 0 }) == true {
            let side = area.width >= 96
            let rest: Rect, panel: Rect
            (panel, rest) = side ? area.sliceRight(30) : area.sliceBottom(min(area.height / 2, state.achievements.count + 2))
            numbers = rest
            drawAchievements(box(panel, "Achievements \(state.achievements.filter { $0.earnedAt != nil }.count)/\(state.achievements.count)"))
        }
        let inner = box(numbers, "Statistics")
        guard let stats = state.stats else {
            drawEmpty(inner, "Counting your games" + glyphs.ellipsis)
            return
        }
        guard stats.played > 0 else {
            drawEmpty(inner, "No finished games yet: your numbers appear here after the first.")
            return
        }
        let percent = Int((stats.winRate * 100).rounded())
        let average = (stats.averageGuesses * 10).rounded() / 10
        let figures = [("Played", "\(stats.played)"), ("Won", "\(stats.won)"), ("Win %", "\(percent)"),
                       ("Streak", "\(stats.currentStreak)"), ("Max streak", "\(stats.maxStreak)"),
                       ("Avg guesses", stats.won == 0 ? "-" : "\(average)")]
        let cell = max(8, min(14, (inner.width - 2) / figures.count))
        var y = inner.y
        for (i, figure) in figures.enumerated() where 1 + (i + 1) * cell <= inner.width {
            buffer.write(Text.pad(figure.1, to: cell), x: inner.x + 1 + i * cell, y: y, style: .bold)
            // A label that would touch the next one takes its short form ("Max streak" → "Best").
            let short = ["Max streak": "Best", "Avg guesses": "Avg"]
            let label = figure.0.columns < cell ? figure.0 : short[figure.0] ?? figure.0
            buffer.write(Text.pad(label, to: cell - 1), x: inner.x + 1 + i * cell, y: y + 1, style: .dim)
        }
        y += 3
        // Hard games and hints, apart, only once there are any.
        var coach: [String] = []
        if stats.hardPlayed > 0 { coach.append("Hard mode: \(stats.hardWon) won of \(stats.hardPlayed)") }
        if stats.coachPlayed > 0 { coach.append("With the coach: \(stats.coachWon) won of \(stats.coachPlayed)") }
        if stats.hintsTaken > 0 {
            coach.append("Hints: \(stats.hintsTaken) in \(stats.gamesWithHints) \(stats.gamesWithHints == 1 ? "game" : "games")")
        }
        if state.dailyStreak.best > 0 { coach.append("Daily streak: \(state.dailyStreak.current) (best \(state.dailyStreak.best))") }
        if let clock = state.dailyClock {
            let number = DailyWord.number(day: clock.day).map { "#\($0)" } ?? clock.date
            coach.append("Daily word \(number) today, the next in \(clock.untilNextDayText)")
        }
        if !coach.isEmpty {
            // Wrapped at the separators, so no figure is cut in two.
            var lines: [String] = []
            for part in coach {
                if let last = lines.last, (last + glyphs.separator + part).columns <= inner.width - 2 {
                    lines[lines.count - 1] = last + glyphs.separator + part
                } else {
                    lines += Text.wrap(part, width: inner.width - 2)
                }
            }
            for line in lines where y + 1 < inner.maxY {
                buffer.write(line, x: inner.x + 1, y: y, style: .plain, limit: inner.width - 1)
                y += 1
            }
            y += 1
        }
        guard y < inner.maxY else { return }
        buffer.write("Guess distribution (games won)", x: inner.x + 1, y: y, style: .bold, limit: inner.width - 1)
        y += 1
        let longest = max(6, stats.distribution.keys.max() ?? 0)
        let top = stats.distribution.values.max() ?? 0
        let barWidth = max(1, min(50, inner.width - 12))
        for guesses in 1...longest where y < inner.maxY {
            let count = stats.distribution[guesses] ?? 0
            let label = guesses < 10 ? " \(guesses)" : "\(guesses)"
            var x = buffer.write(" \(label) \(glyphs.vertical)", x: inner.x + 1, y: y, style: .dim)
            let length = top == 0 || count == 0 ? 0 : max(1, count * barWidth / top)
            x = buffer.write(String(repeating: glyphs.barFull, count: length), x: x, y: y, style: Style(color: .green))
            buffer.write(" \(count)", x: x, y: y, style: count > 0 ? .bold : .dim)
            y += 1
        }
    }

    /// Earned ones first, in the order earned, with the date; then the rest, dimmed.
    mutating func drawAchievements(_ inner: Rect) {
        let earned = state.achievements.filter { $0.earnedAt != nil }.sorted { $0.earnedAt! < $1.earnedAt! }
        let rest = state.achievements.filter { $0.earnedAt == nil }
        let all = earned + rest
        // More than fit: Up/Down scroll them, arrows on the border say more is above or below.
        let scroll = min(state.statsScroll, max(0, all.count - inner.height))
        if scroll > 0 && inner.height > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX, y: inner.y, style: .bold) }
        if all.count - scroll > inner.height && inner.height > 0 { buffer.write(String(glyphs.arrowDown), x: inner.maxX, y: inner.maxY - 1, style: .bold) }
        var y = inner.y
        for achievement in all.dropFirst(scroll) where y < inner.maxY {
            let date = achievement.earnedAt.map { String(shortDate($0).prefix(10)) } ?? ""
            let mark = achievement.earnedAt == nil ? glyphs.unknown : glyphs.star
            let width = inner.width - 2 - date.columns - 1
            buffer.write("\(mark) " + Text.truncate(achievement.title, to: max(1, width - 2), ellipsis: glyphs.ellipsis), x: inner.x + 1, y: y,
                         style: achievement.earnedAt == nil ? .dim : .bold, limit: width)
            if !date.isEmpty { buffer.write(date, x: inner.maxX - 1 - date.columns, y: y, style: .dim) }
            y += 1
        }
    }
}
