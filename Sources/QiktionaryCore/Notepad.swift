/// A mark the player sets on a letter of the notepad.
public enum LetterMark: String, Sendable, Codable, CaseIterable {
    /// The player believes the letter is not in the secret (✗).
    case out
    /// The player believes the letter is in the secret (✓).
    case `in`

    public var symbol: Character { self == .out ? "✗" : "✓" }
}

/// The alphabet beside the board. Deductions come from the guesses alone, never from the
/// player's marks, so a wrong mark can never make the game "prove" something false.
public struct Notepad: Sendable, Equatable {
    public static let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz")

    public struct Entry: Sendable, Equatable {
        public var letter: Character
        /// What the guesses prove, when they prove anything.
        public var deduced: LetterMark?
        /// What the player marked.
        public var marked: LetterMark?
        /// What the board shows: proof first, then the player's mark.
        public var shown: LetterMark? { deduced ?? marked }
    }

    public let entries: [Entry]

    /// `candidates`, when given, are the answers still possible: a letter in every one of them
    /// is certainly in, a letter in none certainly out (as certain as the answer set is).
    public init(rules: Rules, length: Int, guesses: [Guess], marks: [Character: LetterMark], candidates: [String]? = nil) {
        var deduced = Notepad.deductions(rules: rules, length: length, guesses: guesses)
        if let candidates, !candidates.isEmpty {
            for (letter, mark) in Notepad.deductions(candidates: candidates) where deduced[letter] == nil {
                deduced[letter] = mark
            }
        }
        entries = Notepad.alphabet.map { Entry(letter: $0, deduced: deduced[$0], marked: marks[$0]) }
    }

    /// Letters every candidate has (in) and letters no candidate has (out).
    static func deductions(candidates: [String]) -> [Character: LetterMark] {
        var everywhere: UInt32 = (1 << 26) - 1, anywhere: UInt32 = 0
        for word in candidates {
            var mask: UInt32 = 0
            for byte in word.utf8 where (97...122).contains(byte) { mask |= 1 << UInt32(byte - 97) }
            everywhere &= mask
            anywhere |= mask
        }
        var known: [Character: LetterMark] = [:]
        for (i, letter) in alphabet.enumerated() {
            if everywhere & (1 << UInt32(i)) != 0 { known[letter] = .in } else if anywhere & (1 << UInt32(i)) == 0 { known[letter] = .out }
        }
        return known
    }

    public subscript(letter: Character) -> Entry? {
        entries.first { $0.letter == letter }
    }

    /// Certain facts about letters. Under classic rules (no repeats) a guess with score s and
    /// k letters already proven in leaves s − k of its unknown letters in: none means all out,
    /// all of them means all in; repeated to a fixed point. Under mastermind only the two
    /// extremes of one guess are certain: nothing shared, or every letter shared.
    static func deductions(rules: Rules, length: Int, guesses: [Guess]) -> [Character: LetterMark] {
        var known: [Character: LetterMark] = [:]
        switch rules {
        case .mastermind:
            for guess in guesses {
                let total = guess.feedback.lettersInWord
                if total == 0 { for c in guess.word { known[c] = .out } }
                if total == length { for c in guess.word { known[c] = .in } }
            }
        case .classic:
            var changed = true
            while changed {
                changed = false
                for guess in guesses {
                    let letters = Set(guess.word)
                    let provenIn = letters.filter { known[$0] == .in }.count
                    let unknown = letters.filter { known[$0] == nil }
                    guard !unknown.isEmpty else { continue }
                    let remaining = guess.feedback.lettersInWord - provenIn
                    if remaining == 0 {
                        for c in unknown { known[c] = .out }
                        changed = true
                    } else if remaining == unknown.count {
                        for c in unknown { known[c] = .in }
                        changed = true
                    }
                }
            }
        }
        return known
    }
}
