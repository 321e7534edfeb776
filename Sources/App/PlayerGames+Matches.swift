import QiktionaryCore

// Placeholder until matches are wired: replaced whole by the match use cases (issue 26).
extension PlayerGames {
    struct MatchesNotWired: Error, CustomStringConvertible {
        var description: String { "matches are not wired yet" }
    }

    public func matches() throws -> [MatchOverview] { throw MatchesNotWired() }
    public func beginMatchGame(matchID: String) throws -> SavedGame { throw MatchesNotWired() }
    public func matchOverview(ofGame gameID: String) throws -> MatchOverview? { throw MatchesNotWired() }
    public func leaderboards(day: String) throws -> Leaderboards { throw MatchesNotWired() }
}
