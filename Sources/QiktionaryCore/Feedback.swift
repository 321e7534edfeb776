/// What the player learns from one guess.
public enum Feedback: Sendable, Hashable {
    /// Classic: letters the guess shares with the secret, position ignored.
    case common(Int)
    /// Mastermind: right letter in the right place, and right letter in the wrong place.
    case mastermind(inPlace: Int, inWord: Int)

    /// Letters of the guess found in the secret, wherever they stand.
    public var lettersInWord: Int {
        switch self {
        case .common(let n): n
        case .mastermind(let inPlace, let inWord): inPlace + inWord
        }
    }

    /// The feedback as the separate counts it is stored and sent as: `common` for classic,
    /// `inPlace` and `inWord` for mastermind, the others nil.
    public var counts: (common: Int?, inPlace: Int?, inWord: Int?) {
        switch self {
        case .common(let n): (n, nil, nil)
        case .mastermind(let p, let w): (nil, p, w)
        }
    }

    /// Feedback from stored counts: `common` when present, else the mastermind pair.
    public init(common: Int?, inPlace: Int?, inWord: Int?) {
        self = common.map(Feedback.common) ?? .mastermind(inPlace: inPlace ?? 0, inWord: inWord ?? 0)
    }

    /// The feedback inside a sentence, e.g. "1 in common" or "1 in place, 2 in word".
    public var phrase: String {
        switch self {
        case .common(let n): "\(n) in common"
        case .mastermind: summary
        }
    }

    /// A short phrase for the board, e.g. "2 common" or "1 in place, 2 in word".
    public var summary: String {
        switch self {
        case .common(let n): "\(n) common"
        case .mastermind(let inPlace, let inWord): "\(inPlace) in place, \(inWord) in word"
        }
    }
}

extension Guess {
    /// Why a guess that shares every letter did not win: under classic, an anagram of the word
    /// scores full marks too.
    public func fullScoreNote(secret: String) -> String? {
        if case .common(let n) = feedback, n == word.count, word != secret { return "all letters, wrong order" }
        return nil
    }
}

/// A guess that was accepted, with its feedback.
public struct Guess: Sendable, Hashable {
    public var word: String
    public var feedback: Feedback

    public init(word: String, feedback: Feedback) {
        self.word = word
        self.feedback = feedback
    }
}
