/// A game or a guess said to be played on another machine (a record of the player's own zones in
/// the cloud folder): held to the rules a game is played by here, so a game no start could have
/// made and a guess no game could have been given are refused, whoever wrote them (another
/// person who can write the folder, or a machine with a bug). Each check says what is wrong in
/// a phrase, never the secret word, and nil when nothing is.
extension Game {
    /// What is wrong with `secret` as the word of a game under `rules`. A game starts on a word
    /// of a pack (a daily game's and a match's included), or on a word of the dictionary (a
    /// practice word, a challenge code's), and every pack's word is a word of the dictionary
    /// (`Pack.problems`); so the dictionary is asked, which also holds the words of a pack this
    /// machine lacks, or of an older version of a pack that has since dropped them. Without a
    /// dictionary (`lexicon` nil) only the letters and the rules are checked.
    public static func secretProblem(_ secret: String, rules: Rules, lexicon: Lexicon?) -> String? {
        guard Limits.isWord(secret) else { return "its word is not 4 to 7 letters a to z" }
        guard rules.allows(secret) else { return "its word repeats a letter, which \(rules.rawValue) rules forbid" }
        if let lexicon, !lexicon.contains(secret) { return "its word is not a word of the dictionary" }
        return nil
    }

    /// What is wrong with a guess said to be played in this game: the checks a guess played here
    /// passes (`check`: letters, length, the rules, the dictionary; hard mode and the guesses
    /// already played aside, since two machines play at once), its place (`position`, one more
    /// than the guesses its machine had seen) within the limit, since a machine that had seen as
    /// many guesses as the limit had a finished game, and its score as the rules give it against
    /// the secret. Without a dictionary the word is not looked up.
    public func playedProblem(_ word: String, feedback: Feedback, position: Int, lexicon: Lexicon?) -> PlayedGuessProblem? {
        let fresh = guesses.isEmpty && !isFinished && !hard ? self : Game(id: id, packID: packID, secret: secret, rules: rules, maxGuesses: maxGuesses)
        if case .failure(let rejection) = fresh.check(word, lexicon: lexicon ?? Lexicon([word])) { return .refused(rejection) }
        guard position <= maxGuesses else { return .beyondTheLimit(position: position, limit: maxGuesses) }
        guard rules.feedback(for: word, against: secret) == feedback else { return .wrongScore }
        return nil
    }
}

/// Why a guess said to be played elsewhere is no guess of its game (`Game.playedProblem`).
public enum PlayedGuessProblem: Sendable, Equatable {
    /// A guess the game would refuse were it played here.
    case refused(GuessRejection)
    /// Played after more guesses than the game allows.
    case beyondTheLimit(position: Int, limit: Int)
    /// Scored otherwise than the rules score its word against the secret.
    case wrongScore

    /// The phrase a warning gives; never the secret, nor its score for the word.
    public var reason: String {
        switch self {
        case .refused(let rejection): "it is no guess of its game: \(rejection.reason)"
        case .beyondTheLimit(let position, let limit): "it is guess \(position) of a game of at most \(limit) guesses"
        case .wrongScore: "its score is not its word's score in its game"
        }
    }
}
