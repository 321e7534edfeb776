/// The two rule sets a game can be played under. A game keeps its rule set from start to end.
public enum Rules: String, Sendable, CaseIterable, Codable {
    /// One count of shared letters, position ignored; no repeated letters in secret or guess.
    case classic
    /// Letters in place and letters elsewhere, counted as a multiset; repeats allowed.
    case mastermind

    /// Scores `guess` against `secret`; both must already have the same length.
    public func feedback(for guess: String, against secret: String) -> Feedback {
        // Words of letters a to z (every word of the game) are scored as bytes: the same counts
        // without a set or dictionary built for each guess (a first sync scores every guess it
        // fetches, a solver millions).
        if let fast = asciiFeedback(for: guess, against: secret) { return fast }
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

    /// `feedback` for two words of letters a to z of one length; nil for any other pair.
    private func asciiFeedback(for guess: String, against secret: String) -> Feedback? {
        var guess = guess, secret = secret
        return guess.withUTF8 { g in
            secret.withUTF8 { s -> Feedback? in
                guard g.count == s.count, let guessLetters = Self.letters(g), let secretLetters = Self.letters(s) else { return nil }
                if self == .classic { return .common((guessLetters & secretLetters).nonzeroBitCount) }
                // Mastermind: letters in place, then the letters left of each counted as a multiset.
                var inPlace = 0
                var left = SIMD32<Int8>(repeating: 0), guessed = SIMD32<Int8>(repeating: 0)
                for i in 0..<g.count {
                    if g[i] == s[i] {
                        inPlace += 1
                    } else {
                        left[Int(s[i] &- 97)] &+= 1
                        guessed[Int(g[i] &- 97)] &+= 1
                    }
                }
                let inWord = Int(left.replacing(with: guessed, where: guessed .< left).wrappedSum())
                return .mastermind(inPlace: inPlace, inWord: inWord)
            }
        }
    }

    /// The letters of a word of a to z as bits (a is bit 0), or nil when it holds anything else.
    static func letters(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var mask: UInt32 = 0
        for byte in bytes {
            guard (97...122).contains(byte) else { return nil }
            mask |= 1 << UInt32(byte &- 97)
        }
        return mask
    }

    /// Whether a word may be a secret or a guess under these rules (letters and length aside).
    public func allows(_ word: String) -> Bool {
        self == .mastermind || !word.hasRepeatedLetters
    }
}

extension String {
    public var hasRepeatedLetters: Bool {
        // Letters a to z as bits, without a set built for each word; anything else as characters.
        var text = self
        if let repeated = text.withUTF8({ bytes -> Bool? in
            var seen: UInt32 = 0
            for byte in bytes {
                guard (97...122).contains(byte) else { return nil }
                let bit: UInt32 = 1 << UInt32(byte &- 97)
                if seen & bit != 0 { return true }
                seen |= bit
            }
            return false
        }) { return repeated }
        return Set(self).count != count
    }

    /// True when every character is one of the 26 lowercase ASCII letters.
    public var isLowercaseASCIIWord: Bool {
        !isEmpty && utf8.allSatisfy { (97...122).contains($0) }
    }
}
