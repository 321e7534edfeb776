/// Why a guess was refused. A refused guess costs nothing.
public enum GuessRejection: Error, Sendable, Equatable {
    case gameOver
    case empty
    case notLetters
    case wrongLength(expected: Int)
    case repeatedLetters
    case alreadyGuessed
    case notInDictionary
    /// Hard mode: were `guess` the secret, `earlier` would have scored `wouldScore`, not `scored`.
    case contradicts(guess: String, earlier: String, scored: Feedback, wouldScore: Feedback)

    /// The sentence shown to the player.
    public var reason: String {
        switch self {
        case .gameOver: "the game is over"
        case .empty: "type a word first"
        case .notLetters: "letters a to z only"
        case .wrongLength(let n): "the word must have \(n) letters"
        case .repeatedLetters: "repeated letters are not allowed under classic rules"
        case .alreadyGuessed: "already guessed"
        case .notInDictionary: "not in the dictionary"
        case .contradicts(let guess, let earlier, let scored, let would):
            "hard mode: \(earlier.uppercased()) scored \(scored.phrase); \(guess.uppercased()) has \(would.phrase) with \(earlier.uppercased())"
        }
    }

    /// A stable identifier for scripts.
    public var code: String {
        switch self {
        case .gameOver: "game-over"
        case .empty: "empty"
        case .notLetters: "not-letters"
        case .wrongLength: "wrong-length"
        case .repeatedLetters: "repeated-letters"
        case .alreadyGuessed: "already-guessed"
        case .notInDictionary: "not-in-dictionary"
        case .contradicts: "contradicts-feedback"
        }
    }
}
