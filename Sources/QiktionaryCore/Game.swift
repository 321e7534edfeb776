/// One game: its secret, rule set and guesses, and the moves that change it.
/// Pure value type; storage and sync decide where it lives.
public struct Game: Sendable, Equatable {
    public static let defaultMaxGuesses = 15

    public let id: String
    public let packID: String
    public let secret: String
    public let rules: Rules
    public let maxGuesses: Int
    /// Hard mode: every guess must fit all the feedback so far. Set at the start, never changed.
    public let hard: Bool
    /// How much help the game gives unasked (`Assist`). Set at the start, never changed.
    public let assist: Assist
    public private(set) var guesses: [Guess]
    public private(set) var status: GameStatus
    /// Letters the player marked on the notepad.
    public var marks: [Character: LetterMark]

    public init(
        id: String, packID: String, secret: String, rules: Rules,
        maxGuesses: Int = Game.defaultMaxGuesses, hard: Bool = false, assist: Assist = .standard,
        guesses: [Guess] = [], status: GameStatus = .inProgress, marks: [Character: LetterMark] = [:]
    ) {
        self.id = id
        self.packID = packID
        self.secret = secret
        self.rules = rules
        self.maxGuesses = maxGuesses
        self.hard = hard
        self.assist = assist
        self.guesses = guesses
        self.status = status
        self.marks = marks
    }

    public var length: Int { secret.count }
    public var guessesLeft: Int { max(0, maxGuesses - guesses.count) }
    public var isFinished: Bool { status.isFinished }

    /// `maxGuesses + 1 - guessesUsed` for a win; nothing for a loss or a game given up.
    public var score: Int {
        status == .won ? maxGuesses + 1 - guessesUsed : 0
    }

    /// The guesses that count: up to and including the winning one. A guess another machine
    /// played at the same time, not knowing the word was found, is kept and shown after the win
    /// (storage orders a game's guesses so), but it does not count against the player.
    public var guessesUsed: Int {
        winningIndex.map { $0 + 1 } ?? guesses.count
    }

    /// Where the winning guess stands among the guesses, for a won game.
    public var winningIndex: Int? {
        status == .won ? Self.winningIndex(of: guesses.map(\.word), secret: secret) : nil
    }

    /// Where the first guess of the secret stands among words played in order.
    public static func winningIndex(of words: [String], secret: String) -> Int? {
        words.firstIndex(of: secret)
    }

    /// The guess as the game would record it, or why it is refused. Changes nothing.
    public func check(_ input: String, lexicon: Lexicon) -> Result<String, GuessRejection> {
        if isFinished { return .failure(.gameOver) }
        // A word of letters a to z already (a guess from a record, most typed ones) is its own
        // trimmed, lowercased form: nothing is built for it.
        let word = input.isLowercaseASCIIWord ? input : input.trimmingSpaces.lowercased()
        if word.isEmpty { return .failure(.empty) }
        if !word.isLowercaseASCIIWord { return .failure(.notLetters) }
        if word.count != length { return .failure(.wrongLength(expected: length)) }
        if !rules.allows(word) { return .failure(.repeatedLetters) }
        if guesses.contains(where: { $0.word == word }) { return .failure(.alreadyGuessed) }
        if !lexicon.contains(word) && word != secret { return .failure(.notInDictionary) }
        if hard, let contradiction = contradiction(word) { return .failure(contradiction) }
        return .success(word)
    }

    /// The first earlier guess whose feedback `word` could not have given, were it the secret.
    /// Hard mode refuses such a guess; the refusal names the guess and both scores.
    public func contradiction(_ word: String) -> GuessRejection? {
        for earlier in guesses {
            let would = rules.feedback(for: earlier.word, against: word)
            if would != earlier.feedback {
                return .contradicts(guess: word, earlier: earlier.word, scored: earlier.feedback, wouldScore: would)
            }
        }
        return nil
    }

    /// Plays a guess: scores it, and ends the game on a win or when the limit is reached.
    @discardableResult
    public mutating func submit(_ input: String, lexicon: Lexicon) throws(GuessRejection) -> Guess {
        let word = try check(input, lexicon: lexicon).get()
        let guess = Guess(word: word, feedback: rules.feedback(for: word, against: secret))
        guesses.append(guess)
        if word == secret {
            status = .won
        } else if guesses.count >= maxGuesses {
            status = .lost
        }
        return guess
    }

    public mutating func giveUp() throws(GuessRejection) {
        if isFinished { throw .gameOver }
        status = .gaveUp
    }

    /// The notepad as shown: the player's marks over what the guesses prove.
    public var notepad: Notepad { notepad(candidates: nil) }

    /// The notepad with what the answers still possible prove as well.
    /// The notepad beside the board: the player's marks, and what `candidates` (the game's
    /// `notepadWords`) and the guesses prove, except under `Assist.noHelp` while the game is on.
    public func notepad(candidates: [String]?) -> Notepad {
        let deducing = assist != .noHelp || isFinished
        return Notepad(rules: rules, length: length, guesses: deducing ? guesses : [], marks: marks, candidates: deducing ? candidates : nil)
    }
}

extension StringProtocol {
    /// The text without the spaces and line breaks around it. Found from each end, and the
    /// middle taken as one slice: a character-by-character rebuild of the text costs about
    /// 1,000 times as much, and a new machine checks every pack's facts this way.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
