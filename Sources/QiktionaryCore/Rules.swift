/// The two rule sets a game can be played under. A game keeps its rule set from start to end.
public enum Rules: String, Sendable, CaseIterable, Codable {
    /// One count of shared letters, position ignored; no repeated letters in secret or guess.
    case classic
    /// Letters in place and letters elsewhere, counted as a multiset; repeats allowed.
    case mastermind

    /// Scores `guess` against `secret`; both must already have the same length.
    public func feedback(for guess: String, against secret: String) -> Feedback {
        switch self {
        case .classic:
            return .common(Set(guess).intersection(Set(secret)).count)
        case .mastermind:
            let g = Array(guess), s = Array(secret)
            var inPlace = 0
            var unmatchedSecret: [Character: Int] = [:]
            var unmatchedGuess: [Character] = []
            for i in g.indices {
                if g[i] == s[i] {
                    inPlace += 1
                } else {
                    unmatchedSecret[s[i], default: 0] += 1
                    unmatchedGuess.append(g[i])
                }
            }
            var inWord = 0
            for letter in unmatchedGuess where unmatchedSecret[letter, default: 0] > 0 {
                unmatchedSecret[letter]! -= 1
                inWord += 1
            }
            return .mastermind(inPlace: inPlace, inWord: inWord)
        }
    }

    /// Whether a word may be a secret or a guess under these rules (letters and length aside).
    public func allows(_ word: String) -> Bool {
        self == .mastermind || !word.hasRepeatedLetters
    }
}

extension String {
    public var hasRepeatedLetters: Bool { Set(self).count != count }

    /// True when every character is one of the 26 lowercase ASCII letters.
    public var isLowercaseASCIIWord: Bool {
        !isEmpty && utf8.allSatisfy { (97...122).contains($0) }
    }
}
