/// MATCH, the object `match new`, `match list` and `match show` print with `--json`: the same on
/// every machine of either player (it names no viewer). `word` is left out of a game until both
/// players have finished it, as a game's word is left out while it is on; `winner` is always
/// there: a name, "tie", or null while it is not decided.
public struct MatchJSON: Encodable, Equatable, Sendable {
    public struct Result: Encodable, Equatable, Sendable {
        /// "in-progress", "won", "lost" or "gave-up".
        public var status: GameStatus
        public var guesses: Int
        /// Only once the game is finished.
        public var hints: Int?
    }

    public struct Game: Encodable, Equatable, Sendable {
        public var index: Int
        public var word: String?
        /// By player name; a player who has published nothing of the game is not in it.
        public var results: [String: Result]
        public var winner: OrNull<String>
    }

    /// A value written as JSON's null when absent, where an optional would leave its key out.
    public struct OrNull<Value: Encodable & Equatable & Sendable>: Encodable, Equatable, Sendable {
        public var value: Value?

        public init(_ value: Value?) { self.value = value }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value { try container.encode(value) } else { try container.encodeNil() }
        }
    }

    public var id: String
    public var players: [String]
    public var createdBy: String
    public var pack: String
    public var rules: Rules
    public var hard: Bool
    /// The help level both players play at; null for a match made before matches had one.
    public var assist: OrNull<String>
    public var status: MatchState.Status
    public var games: [Game]
    public var score: [String: Int]
    public var winner: OrNull<String>

    /// The match as shown: `words` are the match's words decoded here (`Match.words`), each
    /// shown once both players have finished its game; nil where they cannot be decoded.
    public init(_ state: MatchState, words: [String]?) {
        let match = state.match
        id = match.id
        players = match.players
        createdBy = match.createdBy
        pack = match.pack
        rules = match.rules
        hard = match.hard
        assist = OrNull(match.assist?.rawValue)
        status = state.status
        games = Match.games.map { index in
            var results: [String: Result] = [:]
            for player in match.players {
                switch state.progress(of: player)[index - 1] {
                case .playing(let guesses)?: results[player] = Result(status: .inProgress, guesses: guesses)
                case .finished(let r)?: results[player] = Result(status: r.status, guesses: r.guesses, hints: r.hints)
                case nil: break
                }
            }
            let word = state.bothFinished(game: index) ? words.flatMap { $0.indices.contains(index - 1) ? $0[index - 1] : nil } : nil
            return Game(index: index, word: word, results: results, winner: OrNull(state.winner(game: index)?.name))
        }
        score = state.score
        winner = OrNull(state.winner?.name)
    }
}
