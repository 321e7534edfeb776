/// A word packed into a few machine words, so that scoring one word against another is a handful
/// of bit operations instead of `Rules.feedback`'s dictionaries. Made once per word per solver.
///
/// - `letters`: bit c is set when the word holds letter c (a = 0). Classic feedback is the number
///   of bits two words share.
/// - `positions`: letter c + 1 in 5 bits per position, position 0 lowest. Two words' letters
///   agree at a position exactly where the XOR of their fields is a zero 5-bit group.
/// - `copies`, `moreCopies`: the letters as a multiset in unary: bit (26 × (k − 1) + c) of
///   `copies` is set when the word holds at least k copies of c, for k = 1 and 2; `moreCopies`
///   does the same for k = 3 and 4. The letters two words share, counted as a multiset, are then
///   the bits their masks share, since min(a, b) copies of c set the bits k = 1 … min(a, b) in both.
/// - `deep`: some letter appears more than 4 times, beyond what the masks hold; such a word (none
///   in the dictionary, which repeats a letter at most 4 times) is counted letter by letter.
struct WordCode: Sendable, Equatable {
    /// Longest word the 64-bit position field holds at 5 bits a letter.
    static let maxLength = 12

    var letters: UInt32
    var positions: UInt64
    var copies: UInt64
    var moreCopies: UInt64
    var deep: Bool

    /// The code of `word`, or nil when it is not `length` lowercase a–z letters (such a word can
    /// be neither a secret nor a guess of the game).
    init?(_ word: String, length: Int) {
        guard length >= 1, length <= WordCode.maxLength, word.utf8.count == length else { return nil }
        var letters: UInt32 = 0, positions: UInt64 = 0, copies: UInt64 = 0, moreCopies: UInt64 = 0
        var deep = false
        var counts: (UInt64, UInt64) = (0, 0)  // 4 bits per letter, 26 letters over two words
        var index = 0
        for byte in word.utf8 {
            guard byte >= 97, byte <= 122 else { return nil }
            let c = Int(byte) - 97
            letters |= 1 << UInt32(c)
            positions |= UInt64(c + 1) << UInt64(5 * index)
            // How many copies of c so far, including this one.
            let k: Int
            if c < 16 {
                counts.0 += 1 << UInt64(4 * c)
                k = Int((counts.0 >> UInt64(4 * c)) & 15)
            } else {
                counts.1 += 1 << UInt64(4 * (c - 16))
                k = Int((counts.1 >> UInt64(4 * (c - 16))) & 15)
            }
            switch k {
            case 1, 2: copies |= 1 << UInt64(26 * (k - 1) + c)
            case 3, 4: moreCopies |= 1 << UInt64(26 * (k - 3) + c)
            default: deep = true
            }
            index += 1
        }
        self.letters = letters
        self.positions = positions
        self.copies = copies
        self.moreCopies = moreCopies
        self.deep = deep
    }

    /// The letter at each position, a = 0.
    func letter(at position: Int) -> Int {
        Int((positions >> UInt64(5 * position)) & 31) - 1
    }

    /// Distinct letters: what the word scores against itself under classic rules.
    var distinctLetters: Int { letters.nonzeroBitCount }
}

/// Feedback as a small integer, so that groups are counted in a fixed array.
///
/// Classic: the count of shared letters, 0 … length. Mastermind: `inPlace << 4 | shared`, where
/// `shared` = inPlace + inWord is the letters shared as a multiset (0 … 12 fits in 4 bits).
/// Under classic the win and an anagram both score `length`; groups tell them apart by the
/// word itself, not by the code.
struct FeedbackCode {
    /// Per length: the low four bits of each 5-bit group, and the top bit of each group.
    let low: UInt64
    let high: UInt64
    let length: Int
    let rules: Rules

    init(rules: Rules, length: Int) {
        var low: UInt64 = 0, high: UInt64 = 0
        for position in 0..<min(max(length, 0), WordCode.maxLength) {
            low |= 0b01111 << UInt64(5 * position)
            high |= 0b10000 << UInt64(5 * position)
        }
        self.low = low
        self.high = high
        self.length = length
        self.rules = rules
    }

    /// Largest code plus one: the size of an array indexed by codes.
    static let count = 256

    /// The code of the feedback `guess` gets when `secret` is the word.
    @inline(__always)
    func code(_ guess: WordCode, _ secret: WordCode) -> Int {
        switch rules {
        case .classic:
            return (guess.letters & secret.letters).nonzeroBitCount
        case .mastermind:
            return inPlace(guess, secret) << 4 | shared(guess, secret)
        }
    }

    /// Positions where the letters agree: a 5-bit group of the XOR is nonzero exactly when the
    /// letters differ there; adding 0b01111 to its low four bits carries into its top bit unless
    /// they are zero, and the top bit itself is ORed in from the XOR. No carry crosses a group
    /// (15 + 15 < 32).
    @inline(__always)
    func inPlace(_ guess: WordCode, _ secret: WordCode) -> Int {
        let x = guess.positions ^ secret.positions
        let differing = (((x & low) &+ low) | x) & high
        return length - differing.nonzeroBitCount
    }

    /// Letters shared as a multiset (exact matches included).
    @inline(__always)
    func shared(_ guess: WordCode, _ secret: WordCode) -> Int {
        if guess.deep || secret.deep { return sharedLetterByLetter(guess, secret) }
        return (guess.copies & secret.copies).nonzeroBitCount + (guess.moreCopies & secret.moreCopies).nonzeroBitCount
    }

    private func sharedLetterByLetter(_ guess: WordCode, _ secret: WordCode) -> Int {
        var counts = [Int](repeating: 0, count: 26)
        for position in 0..<length { counts[secret.letter(at: position)] += 1 }
        var shared = 0
        for position in 0..<length {
            let c = guess.letter(at: position)
            if counts[c] > 0 {
                counts[c] -= 1
                shared += 1
            }
        }
        return shared
    }

    /// The code of a feedback as the game records it.
    func code(_ feedback: Feedback) -> Int? {
        switch (rules, feedback) {
        case (.classic, .common(let n)):
            return (0...length).contains(n) ? n : nil
        case (.mastermind, .mastermind(let inPlace, let inWord)):
            guard inPlace >= 0, inWord >= 0, inPlace + inWord <= length else { return nil }
            return inPlace << 4 | (inPlace + inWord)
        default:
            return nil
        }
    }

    /// The feedback a code stands for.
    func feedback(_ code: Int) -> Feedback {
        switch rules {
        case .classic: .common(code)
        case .mastermind: .mastermind(inPlace: code >> 4, inWord: (code & 15) - (code >> 4))
        }
    }
}
