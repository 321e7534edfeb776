import QiktionaryCore

/// The game screen's own state (`AppState.board`): the game on the board, the guess line being
/// typed, the fact card's and the board's scroll, the notepad's cursor, and what the coach
/// answered for this game (its words still possible, the last hint). The keys of the screen
/// are handled in `GameUpdates.swift`.
public struct GameModel: Sendable, Equatable {
    /// The game on the board; nil until the first one is loaded.
    public var game: SavedGame?
    /// True until the first game arrives or fails to.
    public var waitingForGame = true
    public var input = ""
    /// The guess line holds a word just refused: the next letter starts a new word, and Enter
    /// does not send it again unchanged.
    public var inputRefused = false
    /// Letters typed past the word's length (counted after the word, `+1`): Enter then refuses the
    /// line rather than send the word's first letters, which may be another word (STARE typed
    /// in a 4-letter game is not STAR), and Backspace takes them off first.
    public var inputOverflow = 0
    /// The game on the board ended by a change from elsewhere (another machine) while it was in
    /// play here: the card says so, and its one-key commands wait for Enter or Esc.
    public var notice: String?
    /// Letters of a guess dropped when the notice came: said not played when it closes. Keys
    /// pressed while it is up are swallowed, but Enter and Esc, which close it.
    public var noticeTyped = ""
    /// When the Enter that won the game on the board was pressed: keys within a moment of it are
    /// the rest of a double press, and do not leave the fact card.
    public var wonAt: Double?
    /// Lines the fact card is scrolled by (Up/Down), when it is longer than the room for it.
    public var cardScroll = 0
    /// Guesses of the game in play scrolled up by (Up/PgUp older, Down/PgDn newer), when they
    /// do not all fit; 0 shows the newest at the bottom.
    public var guessScroll = 0
    /// The game this machine is giving up: its end is not news from elsewhere.
    public var endingHere: String?
    /// Index into the alphabet of the notepad letter under the cursor.
    public var notepadCursor = 0
    /// The words the notepad of the game on the board deduces from, once worked out.
    public var candidates: Candidates?
    /// The last hint shown, for the game and the point it was asked at.
    public var hint: ShownHint?

    public init() {}

    /// The candidates of the game on the board, when they were counted for its guesses as shown.
    public var currentCandidates: [String]? {
        guard let game, let candidates, candidates.gameID == game.id, candidates.guesses == game.game.guesses.count else { return nil }
        return candidates.words
    }

    /// The hint for the game on the board, while it still applies (no guess since).
    public var currentHint: Hint? {
        guard let game, let hint, hint.gameID == game.id, hint.beforeGuess == game.game.guesses.count, !game.game.isFinished else { return nil }
        return hint.hint
    }
}
