extension MatchOverview {
    /// The number in the match of the viewer's game `gameID`, if it is one of the match's games.
    public func gameIndex(of gameID: String) -> Int? {
        Match.games.first { state.match.gameID(player: viewer, index: $0) == gameID }
    }

    /// "match vs ben, game 2 of 3": a game of the match as the board's header and plain mode say it.
    public func gameTitle(index: Int) -> String {
        "match vs \(state.match.opponent(of: viewer) ?? "?"), game \(index) of \(Match.games.count)"
    }
}
