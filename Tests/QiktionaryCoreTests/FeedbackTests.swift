import Testing
@testable import QiktionaryCore

@Suite struct FeedbackTests {
    @Test("Worked examples of the rules", arguments: [
        ("louse", "purse", Feedback.mastermind(inPlace: 2, inWord: 1)),
        ("queue", "queer", Feedback.mastermind(inPlace: 3, inWord: 1)),
    ])
    func mastermindExamples(guess: String, secret: String, expected: Feedback) {
        #expect(Rules.mastermind.feedback(for: guess, against: secret) == expected)
    }

    @Test func classicExample() {
        #expect(Rules.classic.feedback(for: "ghost", against: "honey") == .common(2))
    }

    @Test("Repeated letters count once per letter of the secret, exact matches first", arguments: [
        // The second e of the guess has no e left in the secret to match.
        ("eerie", "cheap", Feedback.mastermind(inPlace: 0, inWord: 1)),
        // One e in place uses the secret's only e; the other e of the guess scores nothing.
        ("geese", "these", Feedback.mastermind(inPlace: 3, inWord: 0)),
        ("speed", "abide", Feedback.mastermind(inPlace: 0, inWord: 2)),
        ("allee", "lapel", Feedback.mastermind(inPlace: 1, inWord: 3)),
        ("aaaa", "abab", Feedback.mastermind(inPlace: 2, inWord: 0)),
        ("abab", "baba", Feedback.mastermind(inPlace: 0, inWord: 4)),
        // m and a match in place; of the three m's left only one finds an m in "dam".
        ("mamma", "madam", Feedback.mastermind(inPlace: 2, inWord: 2)),
    ])
    func repeatedLetters(guess: String, secret: String, expected: Feedback) {
        #expect(Rules.mastermind.feedback(for: guess, against: secret) == expected)
    }

    @Test func classicAnagramScoresFullButIsNotTheWord() {
        #expect(Rules.classic.feedback(for: "least", against: "slate") == .common(5))
    }

    @Test func summariesReadAsWords() {
        #expect(Feedback.common(2).summary == "2 common")
        #expect(Feedback.mastermind(inPlace: 1, inWord: 3).summary == "1 in place, 3 in word")
    }

    /// Random words over a small alphabet, so letters repeat and overlap often.
    static func randomWord(_ length: Int, letters: [Character], _ rng: inout SeededGenerator) -> String {
        String((0..<length).map { _ in letters.randomElement(using: &rng)! })
    }

    static func distinctWord(_ length: Int, _ rng: inout SeededGenerator) -> String {
        String(Notepad.alphabet.shuffled(using: &rng).prefix(length))
    }

    @Test func classicCountIsSymmetric() {
        var rng = SeededGenerator(seed: 1)
        for _ in 0..<5_000 {
            let length = Int.random(in: 4...7, using: &rng)
            let a = Self.distinctWord(length, &rng), b = Self.distinctWord(length, &rng)
            #expect(Rules.classic.feedback(for: a, against: b) == Rules.classic.feedback(for: b, against: a))
        }
    }

    @Test func mastermindCountsNeverExceedTheLengthAndAreSymmetric() {
        var rng = SeededGenerator(seed: 2)
        let letters = Array("abcde")
        for _ in 0..<5_000 {
            let length = Int.random(in: 4...7, using: &rng)
            let guess = Self.randomWord(length, letters: letters, &rng)
            let secret = Self.randomWord(length, letters: letters, &rng)
            guard case .mastermind(let inPlace, let inWord) = Rules.mastermind.feedback(for: guess, against: secret) else {
                Issue.record("mastermind gave classic feedback")
                return
            }
            #expect(inPlace >= 0 && inWord >= 0)
            #expect(inPlace + inWord <= length)
            #expect(inPlace == zip(guess, secret).filter { $0 == $1 }.count)
            #expect(Rules.mastermind.feedback(for: secret, against: guess) == .mastermind(inPlace: inPlace, inWord: inWord))
        }
    }

    @Test func aGuessWinsExactlyWhenItEqualsTheSecret() throws {
        var rng = SeededGenerator(seed: 3)
        let letters = Array("abcdef")
        for rules in Rules.allCases {
            for _ in 0..<2_000 {
                let secret = rules == .classic ? Self.distinctWord(5, &rng) : Self.randomWord(5, letters: letters, &rng)
                let guess = Bool.random(using: &rng) ? secret
                    : rules == .classic ? String(secret.shuffled(using: &rng)) : Self.randomWord(5, letters: letters, &rng)
                var game = Game(id: "g", packID: "p", secret: secret, rules: rules)
                try game.submit(guess, lexicon: Lexicon([guess]))
                #expect((game.status == .won) == (guess == secret), "\(rules) \(guess) vs \(secret)")
            }
        }
    }

    /// Words of letters a to z are scored as bytes; the scores are the rules' as they read in
    /// characters (a set of letters shared; letters in place, then the rest as a multiset), and
    /// a word with repeated letters is found alike.
    @Test func wordsOfLettersScoreAsTheRulesReadInCharacters() {
        func classic(_ guess: String, _ secret: String) -> Feedback { .common(Set(guess).intersection(Set(secret)).count) }
        func mastermind(_ guess: String, _ secret: String) -> Feedback {
            let g = Array(guess), s = Array(secret)
            var inPlace = 0, left: [Character: Int] = [:], unmatched: [Character] = []
            for i in g.indices {
                if g[i] == s[i] { inPlace += 1 } else { left[s[i], default: 0] += 1; unmatched.append(g[i]) }
            }
            var inWord = 0
            for letter in unmatched where left[letter, default: 0] > 0 { left[letter]! -= 1; inWord += 1 }
            return .mastermind(inPlace: inPlace, inWord: inWord)
        }
        var rng = SeededGenerator(seed: 35)
        let alphabet = Array("abcdeeeaz")
        for _ in 0..<20_000 {
            let length = Int.random(in: 4...7, using: &rng)
            let guess = String((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
            let secret = String((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
            #expect(Rules.classic.feedback(for: guess, against: secret) == classic(guess, secret), "\(guess) \(secret)")
            #expect(Rules.mastermind.feedback(for: guess, against: secret) == mastermind(guess, secret), "\(guess) \(secret)")
            #expect(guess.hasRepeatedLetters == (Set(guess).count != guess.count), "\(guess)")
        }
        // Anything but letters a to z is read as characters, as before.
        #expect(Rules.classic.feedback(for: "caf\u{E9}s", against: "\u{E9}clat") == .common(3))
        #expect("\u{E9}t\u{E9}".hasRepeatedLetters && !"Ab".hasRepeatedLetters)
    }
}
