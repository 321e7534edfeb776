import QiktionaryCore

/// A game as `play` and plain mode ask for it: the day's word, a challenge code's game, a
/// match's next game, or a pack, word, rules, seed, hard mode and help level (anything left out
/// chosen for the player).
public struct GameOptions: Sendable, Equatable {
    /// The pack, word, rules, seed, hard mode and help level asked for (the help level the
    /// player's from now on).
    public var asked: GameRequest
    public var daily: Bool
    public var challenge: String?
    public var match: String?

    public init(pack: String? = nil, word: String? = nil, rules: Rules? = nil, seed: UInt64? = nil, hard: Bool = false,
                assist: Assist? = nil, daily: Bool = false, challenge: String? = nil, match: String? = nil) {
        asked = GameRequest(packID: pack, word: word, rules: rules, seed: seed, hard: hard, assist: assist)
        self.daily = daily
        self.challenge = challenge
        self.match = match
    }
}

/// A game begun as asked: started or resumed, and its place in a match when it is a match's.
public struct BegunGame: Sendable, Equatable {
    public var game: SavedGame
    public var resumed: Bool
    /// The title of the match game ("Game 2 of 3" and the like), for a match's game.
    public var matchTitle: String?
}

extension PlayerGames {
    /// The request the options make of a game that is not a match's: the day's word, a
    /// challenge code's game, or the pack, word, rules, seed, hard mode and level asked for.
    public func request(for options: GameOptions) throws -> GameRequest {
        if options.daily { return try dailyRequest() }
        if let code = options.challenge { return try challengeRequest(code: code) }
        return options.asked
    }

    /// Begins the game the options ask for, the one way every front end does. A help level
    /// asked for becomes the player's first (their other machines follow through the games it
    /// starts; a game already started keeps its own). Then the day's or a challenge's game
    /// (resumed when it is here already), a match's next game, or as `begin(_: GameRequest)`: a
    /// new game when a pack, word or hard mode is asked for, else the latest game in progress.
    public func begin(_ options: GameOptions) throws -> BegunGame {
        if let assist = options.asked.assist { try chooseAssist(assist) }
        if options.daily || options.challenge != nil {
            let (game, resumed) = try start(try request(for: options))
            return BegunGame(game: game, resumed: resumed)
        }
        if let match = options.match {
            let game = try beginMatchGame(matchID: match)
            let overview = try matchOverview(ofGame: game.id)
            let title = overview.flatMap { overview in overview.gameIndex(of: game.id).map { overview.gameTitle(index: $0) } }
            return BegunGame(game: game, resumed: !game.game.guesses.isEmpty, matchTitle: title)
        }
        let (game, resumed) = try begin(try request(for: options))
        return BegunGame(game: game, resumed: resumed)
    }
}

/// What the full-screen game opens on: the request its first effect begins, or a game to
/// resume (a match's, started before the screen opens).
public enum ScreenOpening: Sendable, Equatable {
    case begin(GameRequest)
    case resume(gameID: String)
}

extension PlayerGames {
    /// The full-screen game's start, decided before its screen opens so that every refusal is
    /// one line on the terminal (and status 64 for a pack or word, as when piped): the level
    /// asked for made the player's, a match's next game started, a challenge code read, a pack
    /// or word asked for checked.
    public func opening(_ options: GameOptions) throws -> ScreenOpening {
        if let assist = options.asked.assist { try chooseAssist(assist) }
        if let match = options.match { return .resume(gameID: try beginMatchGame(matchID: match).id) }
        let request = try request(for: options)
        if request.packID != nil || request.word != nil { try check(request) }
        return .begin(request)
    }
}
