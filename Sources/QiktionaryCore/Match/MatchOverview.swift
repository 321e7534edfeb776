/// A match as the screens show it to one player: its state, and the word of each game that both
/// players have finished.
public struct MatchOverview: Sendable, Equatable {
    public var state: MatchState
    /// The word of each game (index 0 is game 1), nil until both players have finished it.
    public var words: [String?]
    /// The player looking.
    public var viewer: String
    /// Whether this machine can decode the match's words (its dictionary and packs give the
    /// words the match was made with); a match that cannot be is never "your turn".
    public var playable: Bool

    public init(state: MatchState, words: [String?], viewer: String, playable: Bool = true) {
        self.state = state
        self.words = words
        self.viewer = viewer
        self.playable = playable
    }

    /// Where the match stands for the viewer, in a few words.
    public var summary: String {
        playable || state.status != .playing ? state.summary(for: viewer) : "cannot be played on this version"
    }
}

/// The leaderboards of one day and of all time, as the screen and `leaderboard` show them.
public struct Leaderboards: Sendable, Equatable {
    /// The day, as `YYYY-MM-DD`.
    public var day: String
    public var daily: [Leaderboard.Group<Leaderboard.DailyRow>]
    public var allTime: [Leaderboard.Group<Leaderboard.AllTimeRow>]

    public init(day: String, daily: [Leaderboard.Group<Leaderboard.DailyRow>], allTime: [Leaderboard.Group<Leaderboard.AllTimeRow>]) {
        self.day = day
        self.daily = daily
        self.allTime = allTime
    }
}
