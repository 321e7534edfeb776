import Foundation
import Testing
@testable import QiktionaryCore

/// The coach's solver against hand-worked splits and against brute force written straight from
/// the definitions with `Rules.feedback`: candidates, the fast feedback codes, the hint (with and
/// without threads) and the review.
@Suite struct SolverTests {
    // MARK: Brute force, from the definitions

    /// Answers that fit every guess's feedback, leaving out the words already guessed (the game
    /// went on after each of them).
    static func bruteCandidates(_ rules: Rules, _ answers: [String], _ guesses: [Guess]) -> [String] {
        answers.filter { word in
            guesses.allSatisfy { rules.feedback(for: $0.word, against: word) == $0.feedback && $0.word != word }
        }
    }

    /// Group sizes, the win a group of its own.
    static func bruteGroups(_ rules: Rules, _ guess: String, _ candidates: [String]) -> [Int] {
        var groups: [String: Int] = [:]
        for word in candidates {
            groups[word == guess ? "win" : "\(rules.feedback(for: guess, against: word))", default: 0] += 1
        }
        return Array(groups.values)
    }

    /// The argmin of (Σ s², not a candidate, word) over the guess set; one candidate is its own hint.
    static func bruteHint(_ rules: Rules, _ candidates: [String], _ guesses: [String]) -> (word: String, sum: Int, groups: Int)? {
        if candidates.isEmpty { return nil }
        if candidates.count == 1 { return (candidates[0], 1, 1) }
        var best: (key: (Int, Int, String), groups: Int)?
        for guess in Set(guesses).sorted() {
            let sizes = bruteGroups(rules, guess, candidates)
            let key = (sizes.reduce(0) { $0 + $1 * $1 }, candidates.contains(guess) ? 0 : 1, guess)
            if best == nil || key < best!.key { best = (key, sizes.count) }
        }
        return best.map { ($0.key.2, $0.key.0, $0.groups) }
    }

    static func randomWord(_ length: Int, _ letters: [Character], _ rng: inout SeededGenerator) -> String {
        String((0..<length).map { _ in letters.randomElement(using: &rng)! })
    }

    /// Words with no repeated letter from a small alphabet, so anagrams and overlaps are common.
    static func distinctWord(_ length: Int, _ letters: [Character], _ rng: inout SeededGenerator) -> String {
        String(letters.shuffled(using: &rng).prefix(length))
    }

    static func randomList(_ rules: Rules, length: Int, count: Int, _ rng: inout SeededGenerator) -> [String] {
        let letters: [Character] = rules == .classic ? Array("abcdefghij") : Array(length == 7 ? "abc" : "abcde")
        return (0..<count).map { _ in
            rules == .classic ? distinctWord(length, letters, &rng) : randomWord(length, letters, &rng)
        }
    }

    /// A slice of the shipped dictionary.
    static let dictionary: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/dictionary/words.txt")
        return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }()

    static func words(_ length: Int, _ rules: Rules, every step: Int = 1) -> [String] {
        let all = dictionary.filter { $0.count == length && rules.allows($0) }
        return stride(from: 0, to: all.count, by: step).map { all[$0] }
    }

    // MARK: Fast feedback codes

    @Test func theFastCodeMatchesRulesFeedback() {
        var rng = SeededGenerator(seed: 7)
        for rules in Rules.allCases {
            for length in 4...7 {
                let scorer = FeedbackCode(rules: rules, length: length)
                for round in 0..<1_500 {
                    // Small alphabets repeat letters often; "ab" at length 7 gives letters 5+ times.
                    let letters: [Character] = round % 3 == 0 ? Array("ab") : round % 3 == 1 ? Array("abcd") : Notepad.alphabet
                    let guess = Self.randomWord(length, letters, &rng), secret = Self.randomWord(length, letters, &rng)
                    let g = WordCode(guess, length: length)!, s = WordCode(secret, length: length)!
                    let expected = rules.feedback(for: guess, against: secret)
                    #expect(scorer.feedback(scorer.code(g, s)) == expected, "\(rules) \(guess) \(secret)")
                    #expect(scorer.code(expected) == scorer.code(g, s))
                }
            }
        }
    }

    @Test func wordsThatAreNotOfTheLengthHaveNoCode() {
        #expect(WordCode("crane", length: 4) == nil)
        #expect(WordCode("Crane", length: 5) == nil)
        #expect(WordCode("cr4ne", length: 5) == nil)
        #expect(WordCode("crané", length: 5) == nil)
        #expect(WordCode("aaaaaab", length: 7)?.deep == true)
        #expect(WordCode("queue", length: 5)?.deep == false)
    }

    // MARK: Hand-worked splits

    @Test func classicSplitKeepsTheWinApartFromAnagrams() {
        let answers = ["lame", "male", "meal", "mole", "lime", "tune"]
        let solver = Solver(rules: .classic, length: 4, answers: answers, guesses: answers)
        // male: win {male}, 4 {lame, meal}, 3 {mole, lime}, 1 {tune}: 1 + 4 + 4 + 1 = 10 over 6.
        let male = solver.split(of: "male", over: answers)
        #expect(male.groups == 4)
        #expect(abs(male.expectedLeft - 10.0 / 6) < 1e-12)
        // tune: every other word shares only e: {5 words} and the win: 25 + 1 over 6.
        let tune = solver.split(of: "tune", over: answers)
        #expect(tune.groups == 2 && abs(tune.expectedLeft - 26.0 / 6) < 1e-12)
        // mole and lime leave 4 together (18); lame, male and meal tie at 10: alphabetical.
        let hint = solver.hint(candidates: answers)
        #expect(hint == Hint(word: "lame", candidates: 6, groups: 4, expectedLeft: 10.0 / 6, isCandidate: true))
        #expect(hint?.reason == "splits the 6 candidates into 4 groups; 1.7 left on average")
    }

    @Test func aCandidateBeatsAnEarlierWordOnATie() {
        // aexy and bcde both split {bcde, bcdf} in two (Σ s² = 2); bcde may be the secret.
        let solver = Solver(rules: .classic, length: 4, answers: ["bcde", "bcdf"], guesses: ["aexy", "bcde", "bcdf"])
        let hint = solver.hint(candidates: ["bcde", "bcdf"])
        #expect(hint == Hint(word: "bcde", candidates: 2, groups: 2, expectedLeft: 1, isCandidate: true))
        // Without the candidates among the guesses, the other word wins.
        let outside = Solver(rules: .classic, length: 4, answers: ["bcde", "bcdf"], guesses: ["aexy", "fexy"])
        #expect(outside.hint(candidates: ["bcde", "bcdf"]) == Hint(word: "aexy", candidates: 2, groups: 2, expectedLeft: 1, isCandidate: false))
    }

    @Test func classicAnagramsStayCandidatesButAGuessedWordDoesNot() {
        let answers = ["least", "slate", "stale", "steal"]
        let solver = Solver(rules: .classic, length: 5, answers: answers, guesses: answers)
        let slate = Guess(word: "slate", feedback: .common(5))
        #expect(solver.candidates(after: [slate]) == ["least", "stale", "steal"])
        // Only guessing them tells anagrams apart: each splits into the win and the rest.
        #expect(solver.split(of: "slate", over: answers) == (groups: 2, expectedLeft: 10.0 / 4))
        let review = solver.review(guesses: [slate, Guess(word: "least", feedback: .common(5)), Guess(word: "steal", feedback: .common(5))])
        #expect(review.steps.map(\.candidatesBefore) == [4, 3, 2])
        #expect(review.steps.map(\.candidatesAfter) == [3, 2, 1])
        #expect(review.skill == 100)
    }

    @Test func mastermindSplitCountsRepeatedLettersAsAMultiset() {
        let answers = ["abab", "baba", "aabb", "abba"]
        let solver = Solver(rules: .mastermind, length: 4, answers: answers, guesses: answers + ["aaaa"])
        // aaaa: two a's in place against each, the other a's find no a left: one group of 4.
        #expect(solver.split(of: "aaaa", over: answers) == (groups: 1, expectedLeft: 4))
        // abab: the win, baba (0, 4), and aabb, abba both (2, 2): 1 + 1 + 4 over 4.
        #expect(solver.split(of: "abab", over: answers) == (groups: 3, expectedLeft: 1.5))
        // aabb leaves the three others together at (2, 2): 1 + 9.
        #expect(solver.split(of: "aabb", over: answers) == (groups: 2, expectedLeft: 2.5))
        // abab and baba tie at 6: alphabetical.
        #expect(solver.hint(candidates: answers) == Hint(word: "abab", candidates: 4, groups: 3, expectedLeft: 1.5, isCandidate: true))
        let after = solver.candidates(after: [Guess(word: "aabb", feedback: .mastermind(inPlace: 2, inWord: 2))])
        #expect(after == ["abab", "baba", "abba"])
    }

    @Test func mastermindWordsFromGameMd() {
        let answers = ["geese", "these", "eerie", "cheap", "speed"]
        let solver = Solver(rules: .mastermind, length: 5, answers: answers, guesses: answers)
        // geese scores (3,0), (2,1), (1,0), (1,2) against the others: five groups of one.
        #expect(solver.split(of: "geese", over: answers) == (groups: 5, expectedLeft: 1))
        let after = solver.candidates(after: [Guess(word: "geese", feedback: .mastermind(inPlace: 2, inWord: 1))])
        #expect(after == ["eerie"])
    }

    // MARK: Edges

    @Test func edgeCases() {
        let solver = Solver(rules: .mastermind, length: 5, answers: ["crane", "crane", "CRANE", "cran", "slate"], guesses: ["crane", "slate", "xx"])
        #expect(solver.answerCount == 2)
        #expect(solver.hint(candidates: []) == nil)
        let one = solver.hint(candidates: ["slate"])
        #expect(one == Hint(word: "slate", candidates: 1, groups: 1, expectedLeft: 1, isCandidate: true))
        #expect(one?.reason == "is the only word that fits")
        #expect(solver.split(of: "crane", over: []) == (groups: 0, expectedLeft: 0))
        #expect(solver.split(of: "cran", over: ["crane", "slate"]) == (groups: 1, expectedLeft: 2))
        // A feedback these rules cannot give leaves nothing; a guess of another length tells nothing.
        #expect(solver.candidates(after: [Guess(word: "crane", feedback: .common(2))]) == [])
        #expect(solver.candidates(after: [Guess(word: "cranes", feedback: .mastermind(inPlace: 1, inWord: 0))]) == ["crane", "slate"])
        // Classic leaves out words with a repeated letter wherever they come from.
        let classic = Solver(rules: .classic, length: 5, answers: ["queue", "crane"], guesses: ["geese", "crane"])
        #expect(classic.answerCount == 1 && classic.guessIDs.count == 1)
        #expect(classic.hint(candidates: ["queue", "crane"])?.word == "crane")
        // With no guess set the candidates themselves are the choice.
        let bare = Solver(rules: .classic, length: 4, answers: ["lame", "male", "tune"], guesses: [])
        #expect(bare.hint(candidates: ["tune", "male", "lame"])?.word == "lame")
        // Words longer than the bit planes hold are searched letter code by letter code.
        let long = ["abcdefgh", "abcdefhg", "hgfedcba", "abcdxyzw"]
        let longSolver = Solver(rules: .mastermind, length: 8, answers: long, guesses: long)
        let brute = Self.bruteHint(.mastermind, long, long)!
        #expect(longSolver.hint(candidates: long)?.word == brute.word)
    }

    @Test func aSecretOutsideTheAnswersNeverBreaksTheReview() {
        let answers = ["crane", "slate", "tiger"]
        let solver = Solver(rules: .mastermind, length: 5, answers: answers, guesses: answers + ["piano"])
        let secret = "zzzzz"
        let guesses = ["piano", "crane", secret].map { Guess(word: $0, feedback: Rules.mastermind.feedback(for: $0, against: secret)) }
        let review = solver.review(guesses: guesses)
        #expect(review.steps.count == 3)
        #expect(review.steps.last?.candidatesAfter == 0)
        #expect(review.skill >= 0 && review.skill <= 100)
        #expect(review.luck.isFinite)
        #expect(solver.review(guesses: []) == Review(steps: [], skill: 100, luck: 0))
    }

    @Test func reasonsReadAsSentences() {
        #expect(Hint(word: "crane", candidates: 37, groups: 9, expectedLeft: 4.14, isCandidate: true).reason
            == "splits the 37 candidates into 9 groups; 4.1 left on average")
        #expect(Hint(word: "crane", candidates: 2, groups: 1, expectedLeft: 2, isCandidate: false).reason
            == "splits the 2 candidates into 1 group; 2.0 left on average")
    }

    @Test func lexiconWordsOfALengthAreSorted() {
        let lexicon = Lexicon(["slate", "crane", "ab", "tiger", "né", "cafés"])
        #expect(lexicon.words(ofLength: 5) == ["cafés", "crane", "slate", "tiger"])
        #expect(lexicon.words(ofLength: 2) == ["ab", "né"])
    }

    // MARK: Properties against brute force

    @Test func candidatesMatchBruteForceOnRandomGames() {
        var rng = SeededGenerator(seed: 11)
        for round in 0..<120 {
            let rules: Rules = round % 2 == 0 ? .classic : .mastermind
            let length = 4 + round % 4
            let answers = Self.randomList(rules, length: length, count: 40, &rng)
            let solver = Solver(rules: rules, length: length, answers: answers, guesses: [])
            let unique = answers.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let secret = answers.randomElement(using: &rng)!
            var guesses: [Guess] = []
            for _ in 0..<5 {
                let word = Self.randomList(rules, length: length, count: 1, &rng)[0]
                guesses.append(Guess(word: word, feedback: rules.feedback(for: word, against: secret)))
                #expect(solver.candidates(after: guesses) == Self.bruteCandidates(rules, unique, guesses), "\(rules) \(guesses)")
            }
        }
    }

    @Test(arguments: [false, true])
    func hintsMatchBruteForce(parallel: Bool) {
        var rng = SeededGenerator(seed: parallel ? 23 : 19)
        for round in 0..<60 {
            let rules: Rules = round % 2 == 0 ? .classic : .mastermind
            let length = 4 + (round / 2) % 4
            let answers = Self.randomList(rules, length: length, count: 1 + round % 70, &rng)
            let guesses = answers + Self.randomList(rules, length: length, count: 25, &rng)
            let solver = Solver(rules: rules, length: length, answers: answers, guesses: guesses)
            let candidates = Array(Set(answers)).sorted()
            let hint = solver.hint(candidates: candidates, parallel: parallel, parallelFrom: 0)
            let brute = Self.bruteHint(rules, candidates, guesses)
            #expect(hint?.word == brute?.word, "\(rules) \(candidates)")
            #expect(hint?.groups == brute?.groups)
            #expect(hint.map { abs($0.expectedLeft - Double(brute!.sum) / Double(candidates.count)) < 1e-9 } ?? false)
        }
    }

    @Test func hintsOnTheDictionaryMatchBruteForce() {
        for rules in Rules.allCases {
            for length in 4...7 {
                let guesses = Self.words(length, rules, every: 61)
                let answers = Self.words(length, rules, every: 127)
                let solver = Solver(rules: rules, length: length, answers: answers, guesses: guesses)
                let brute = Self.bruteHint(rules, answers, guesses)
                #expect(solver.hint(candidates: answers, parallel: false)?.word == brute?.word, "\(rules) \(length)")
            }
        }
    }

    @Test func threadsDoNotChangeTheHint() {
        for rules in Rules.allCases {
            let words = Self.words(5, rules, every: 4)
            let answers = Self.words(5, rules, every: 7)
            let solver = Solver(rules: rules, length: 5, answers: answers, guesses: words)
            let one = solver.hint(candidates: answers, parallel: false)
            let both = solver.hint(candidates: answers, parallel: true, parallelFrom: 0)
            #expect(one != nil && one == both)
            // The order the candidates come in changes nothing either.
            #expect(solver.hint(candidates: answers.reversed(), parallel: true, parallelFrom: 0) == one)
        }
    }

    @Test func reviewsMatchBruteForce() {
        var rng = SeededGenerator(seed: 31)
        for round in 0..<40 {
            let rules: Rules = round % 2 == 0 ? .classic : .mastermind
            let length = 4 + round % 4
            let answers = Array(Set(Self.randomList(rules, length: length, count: 30, &rng))).sorted()
            let guessSet = answers + Self.randomList(rules, length: length, count: 20, &rng)
            let solver = Solver(rules: rules, length: length, answers: answers, guesses: guessSet)
            let secret = answers.randomElement(using: &rng)!
            var played: [Guess] = []
            for _ in 0..<4 {
                let word = guessSet.randomElement(using: &rng)!
                if word == secret || played.contains(where: { $0.word == word }) { continue }
                played.append(Guess(word: word, feedback: rules.feedback(for: word, against: secret)))
            }
            played.append(Guess(word: secret, feedback: rules.feedback(for: secret, against: secret)))
            let review = solver.review(guesses: played)
            #expect(review.steps.count == played.count)
            for (i, step) in review.steps.enumerated() {
                let before = Self.bruteCandidates(rules, answers, Array(played[..<i]))
                #expect(step.candidatesBefore == before.count)
                let after = i == played.count - 1 ? 1 : Self.bruteCandidates(rules, answers, Array(played[...i])).count
                #expect(step.candidatesAfter == after, "\(rules) step \(i)")
                let sizes = Self.bruteGroups(rules, step.word, before)
                #expect(abs(step.expected - Double(sizes.reduce(0) { $0 + $1 * $1 }) / Double(before.count)) < 1e-9)
                let best = Self.bruteHint(rules, before, guessSet)!
                #expect(step.best == best.word)
                #expect(step.bestExpected <= step.expected + 1e-9)
            }
            #expect((0...100).contains(review.skill))
        }
    }

    @Test func followingEveryHintScoresFullSkill() {
        for rules in Rules.allCases {
            let answers = Self.words(5, rules, every: 60)
            let guesses = Self.words(5, rules, every: 9)
            let solver = Solver(rules: rules, length: 5, answers: answers, guesses: guesses)
            for secret in answers.prefix(8) {
                var played: [Guess] = []
                while played.last?.word != secret, played.count < 15 {
                    let hint = solver.hint(candidates: solver.candidates(after: played))!
                    played.append(Guess(word: hint.word, feedback: rules.feedback(for: hint.word, against: secret)))
                }
                #expect(played.last?.word == secret)
                let review = solver.review(guesses: played)
                #expect(review.skill == 100, "\(rules) \(secret)")
                #expect(review.steps.allSatisfy { $0.best == $0.word })
                #expect(review.steps.last?.candidatesAfter == 1)
            }
        }
    }

    // MARK: Luck

    @Test func luckIsZeroOnAverageOverTheSecrets() {
        let answers = Self.words(5, .mastermind, every: 50)
        let solver = Solver(rules: .mastermind, length: 5, answers: answers, guesses: answers)
        let guess = answers[3]
        let sizes = solver.groupSizes(of: guess, over: answers.map { WordCode($0, length: 5)! })
        var total = 0.0
        for secret in answers {
            let feedback = Rules.mastermind.feedback(for: guess, against: secret)
            let left = secret == guess ? 1 : Self.bruteCandidates(.mastermind, answers, [Guess(word: guess, feedback: feedback)]).count
            total += Solver.luck(sizes: sizes, left: left)
        }
        #expect(abs(total / Double(answers.count)) < 1e-9)
    }

    @Test func binaryLogMatchesTheLibrary() {
        for x in [1.0, 2, 3, 7, 10, 37, 1_000, 15_845, 0.3, 1.999_999] {
            #expect(abs(Solver.binaryLog(x) - log2(x)) < 1e-12, "\(x)")
        }
    }
}
