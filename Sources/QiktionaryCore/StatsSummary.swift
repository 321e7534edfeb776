/// What the statistics screen and `stats` show: the statistics, the achievements and the daily
/// streaks, worked out once (`PlayerGames.statsSummary`) for every front end.
public struct StatsSummary: Sendable, Equatable {
    public var statistics: Statistics
    public var achievements: [Achievement]
    /// Daily games won on days in a row: the streak running now and the best.
    public var dailyStreak: (current: Int, best: Int)

    public init(statistics: Statistics, achievements: [Achievement], playedGames: [PlayedGame]) {
        self.statistics = statistics
        self.achievements = achievements
        self.dailyStreak = Achievements.dailyStreaks(games: playedGames)
    }

    public static func == (a: StatsSummary, b: StatsSummary) -> Bool {
        a.statistics == b.statistics && a.achievements == b.achievements && a.dailyStreak == b.dailyStreak
    }
}
