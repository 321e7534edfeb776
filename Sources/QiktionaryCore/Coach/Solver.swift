/// The coach's engine for one rule set and word length: which answers still fit the feedback,
/// the best next guess, and how a played game compares with it.
///
/// Built from the game's answer set (its pack's words, or the dictionary's words of its length
/// for a game on a word of no pack) and its guess set (the dictionary's words of that length).
/// Either may come unfiltered: words of another length, with letters outside a–z, or (under
/// classic) with a repeated letter are left out, and repeats are kept once.
///
/// Expected candidates left, for a guess x over n equally likely candidates: Σ s² ÷ n over the
/// groups of candidates that would give x the same feedback, the win (x itself, when it is a
/// candidate) a group of its own, apart from classic anagrams that score full marks too.
/// docs/coach.md explains the search.
public struct Solver: Sendable {
    public let rules: Rules
    public let length: Int
    let scorer: FeedbackCode
    /// Every distinct word accepted from the answers and the guesses, in the order first met,
    /// with its code.
    let words: [String]
    let codes: [WordCode]
    let ids: [String: Int32]
    /// The answers, in the order given.
    let answerIDs: [Int32]
    /// The guess set, in alphabetical order: a guess's place here is its last tie-break.
    let guessIDs: [Int32]
    /// Words the hint prefers (the common tier): when the best guess is not one of them, the
    /// best of them is the hint instead if its Σ s² is within `nearSplit` of the best's.
    public var preferred: Set<String> = []
    /// How near the best split a preferred word must come: 2 % more words left on average.
    public static let nearSplit = 1.02

    public init(rules: Rules, length: Int, answers: [String], guesses: [String]) {
        self.rules = rules
        self.length = length
        scorer = FeedbackCode(rules: rules, length: length)
        var words: [String] = [], codes: [WordCode] = [], ids: [String: Int32] = [:]
        var isAnswer: [Bool] = [], isGuess: [Bool] = []
        ids.reserveCapacity(answers.count + guesses.count)
        /// The word's id, nil when it is not a word these rules and this length allow.
        func id(of word: String) -> Int? {
            if let id = ids[word] { return Int(id) }
            guard let code = WordCode(word, length: length),
                  rules == .mastermind || code.distinctLetters == length else { return nil }
            ids[word] = Int32(words.count)
            words.append(word)
            codes.append(code)
            isAnswer.append(false)
            isGuess.append(false)
            return words.count - 1
        }
        var answerIDs: [Int32] = []
        for word in answers {
            if let id = id(of: word), !isAnswer[id] {
                isAnswer[id] = true
                answerIDs.append(Int32(id))
            }
        }
        var guessIDs: [Int32] = []
        for word in guesses {
            if let id = id(of: word), !isGuess[id] {
                isGuess[id] = true
                guessIDs.append(Int32(id))
            }
        }
        // The lexicon's lists come sorted, which makes this check all the sorting there is.
        if !zip(guessIDs, guessIDs.dropFirst()).allSatisfy({ words[Int($0)] < words[Int($1)] }) {
            guessIDs.sort { words[Int($0)] < words[Int($1)] }
        }
        self.words = words
        self.codes = codes
        self.ids = ids
        self.answerIDs = answerIDs
        self.guessIDs = guessIDs
    }

    public var answerCount: Int { answerIDs.count }

    // MARK: Candidates

    /// A guess as a test on an answer: the code of the feedback it got.
    struct Check {
        var code: WordCode
        var expected: Int
    }

    /// The guesses as checks. Nil when a feedback is one these rules cannot give (nothing fits
    /// it); a guess that is not a word of this length is skipped, as it can tell nothing about
    /// these answers.
    func checks<S: Sequence>(_ guesses: S) -> [Check]? where S.Element == Guess {
        var checks: [Check] = []
        for guess in guesses {
            guard let code = WordCode(guess.word, length: length) else { continue }
            guard let expected = scorer.code(guess.feedback) else { return nil }
            checks.append(Check(code: code, expected: expected))
        }
        return checks
    }

    /// Whether `word`, were it the secret, would have given every check its feedback; and, when
    /// `missed`, is not the checked word itself (a guess the game went on after was not the
    /// secret).
    @inline(__always)
    func fits(_ word: WordCode, _ check: Check, missed: Bool) -> Bool {
        if missed && word.positions == check.code.positions { return false }
        return scorer.code(check.code, word) == check.expected
    }

    /// The answers consistent with every guess so far (order: the answers' order), for a game
    /// still being played: every guess so far missed, so a word already guessed is not a
    /// candidate. (Under mastermind a missed guess never fits its own feedback anyway; under
    /// classic an anagram of the secret scores full marks and would otherwise come back as a
    /// hint the game refuses as already guessed.)
    public func candidates(after guesses: [Guess]) -> [String] {
        candidateIDs(after: guesses).map { words[Int($0)] }
    }

    func candidateIDs<S: Sequence>(after guesses: S) -> [Int32] where S.Element == Guess {
        guard let checks = checks(guesses) else { return [] }
        return answerIDs.filter { id in
            let word = codes[Int(id)]
            return checks.allSatisfy { fits(word, $0, missed: true) }
        }
    }

    // MARK: Hint

    /// Best guess for these candidates (nil when candidates is empty). Uses both cores for large
    /// cases. The best is over the guess set (over the candidates themselves when the guess set
    /// is empty); one candidate is its own hint. Ties go to a candidate, then alphabetical order.
    public func hint(candidates: [String]) -> Hint? {
        hint(candidates: candidates, parallel: true)
    }

    /// `parallel: false` keeps to the calling thread, as does a search of fewer than
    /// `parallelFrom` guess × candidate pairs; the answer is the same either way.
    func hint(candidates: [String], parallel: Bool, parallelFrom: Int = SplitSearch.parallelFrom) -> Hint? {
        hint(over: distinct(candidates), parallel: parallel, parallelFrom: parallelFrom)
    }

    /// The candidates once each, with their codes, leaving out what these rules and this length
    /// do not allow.
    func distinct(_ candidates: [String]) -> [(word: String, code: WordCode)] {
        var known = [Bool](repeating: false, count: words.count), unknown = Set<String>()
        var list: [(word: String, code: WordCode)] = []
        list.reserveCapacity(candidates.count)
        for word in candidates {
            if let id = ids[word].map(Int.init) {
                if !known[id] {
                    known[id] = true
                    list.append((word, codes[id]))
                }
            } else if let code = WordCode(word, length: length), rules == .mastermind || code.distinctLetters == length,
                      unknown.insert(word).inserted {
                list.append((word, code))
            }
        }
        return list
    }

    /// The best next guess of a hard game: over the guess set's words that fit every score so
    /// far (`guesses`), the only ones hard mode accepts.
    public func hint(candidates: [String], fitting guesses: [Guess]) -> Hint? {
        hint(over: distinct(candidates), parallel: true, pool: guessIDs(fitting: guesses))
    }

    /// The guess set's words hard mode accepts after `guesses`: each fits every score, and none
    /// was guessed already.
    func guessIDs(fitting guesses: [Guess]) -> [Int32] {
        guard let checks = checks(guesses) else { return [] }
        return guessIDs.filter { id in checks.allSatisfy { fits(codes[Int(id)], $0, missed: true) } }
    }

    /// `pool` narrows the guess set (kept in its alphabetical order); nil searches all of it.
    func hint(over candidates: [(word: String, code: WordCode)], parallel: Bool, parallelFrom: Int = SplitSearch.parallelFrom,
              pool narrowed: [Int32]? = nil) -> Hint? {
        let n = candidates.count
        if n == 0 { return nil }
        if n == 1 { return Hint(word: candidates[0].word, candidates: 1, groups: 1, expectedLeft: 1, isCandidate: true) }
        let guessIDs = narrowed ?? self.guessIDs
        let pool: [PoolWord], poolWords: [String]
        if guessIDs.isEmpty {
            let sorted = candidates.sorted { $0.word < $1.word }
            poolWords = sorted.map(\.word)
            pool = sorted.enumerated().map { PoolWord(code: $1.code, rank: Int32($0), isCandidate: true) }
        } else {
            var isCandidate = [Bool](repeating: false, count: words.count)
            for candidate in candidates { if let id = ids[candidate.word] { isCandidate[Int(id)] = true } }
            poolWords = []
            pool = guessIDs.enumerated().map { rank, id in
                PoolWord(code: codes[Int(id)], rank: Int32(rank), isCandidate: isCandidate[Int(id)])
            }
        }
        guard let choice = SplitSearch.best(rules: rules, length: length, candidates: candidates.map(\.code), pool: pool,
                                              parallel: parallel, parallelFrom: parallelFrom) else {
            return nil
        }
        func word(_ index: Int) -> String { guessIDs.isEmpty ? poolWords[index] : words[Int(guessIDs[index])] }
        var chosen = choice
        if !preferred.isEmpty && !preferred.contains(word(choice.index)) {
            // A common word that splits the candidates as well, or within 2 %, is the better hint.
            let common = pool.indices.filter { preferred.contains(word($0)) }
            if let best = SplitSearch.scalarBest(rules: rules, length: length, candidates: candidates.map(\.code), pool: common.map { pool[$0] }),
               Double(best.sum) <= Double(choice.sum) * Solver.nearSplit {
                chosen = SplitChoice(index: common[best.index], sum: best.sum, groups: best.groups)
            }
        }
        return Hint(word: word(chosen.index), candidates: n, groups: chosen.groups, expectedLeft: Double(chosen.sum) / Double(n),
                    isCandidate: pool[chosen.index].isCandidate)
    }

    // MARK: Split

    /// Expected candidates left if `guess` were played against `candidates`, and the number of
    /// groups. The guess need not be in the guess set; one that is not a word of this length
    /// tells nothing and leaves all the candidates in one group.
    public func split(of guess: String, over candidates: [String]) -> (groups: Int, expectedLeft: Double) {
        let sizes = groupSizes(of: guess, over: distinct(candidates).map(\.code))
        return (sizes.count, Solver.expectedLeft(sizes))
    }

    func groupSizes(of guess: String, over candidates: [WordCode]) -> [Int] {
        guard !candidates.isEmpty else { return [] }
        guard let code = ids[guess].map({ codes[Int($0)] }) ?? WordCode(guess, length: length) else { return [candidates.count] }
        return SplitSearch.groupSizes(of: code, over: candidates, scorer: scorer)
    }

    static func expectedLeft(_ sizes: [Int]) -> Double {
        let n = sizes.reduce(0, +)
        return n == 0 ? 0 : Double(sizes.reduce(0) { $0 + $1 * $1 }) / Double(n)
    }

    // MARK: Review

    /// The review of a game: one step per guess played (a game of any status, guesses in order).
    /// Candidates before each guess follow `candidates(after:)`: the game went on after every
    /// earlier guess, so none of them was the secret. The last guess, when it was a candidate
    /// and fits its own feedback, is taken as the win: 1 left, the secret. (Under mastermind
    /// only the win fits its own feedback; under classic a game that stopped on a full-score
    /// anagram without winning is read as won too, since the feedback alone cannot tell.)
    /// In a `hard` game the best at each point is over the guesses hard mode then accepted.
    public func review(guesses: [Guess], hard: Bool = false) -> Review {
        var steps: [Review.Step] = []
        var ratios: [Double] = [], lucks: [Double] = []
        var before = answerIDs
        for (index, guess) in guesses.enumerated() {
            let candidates = before.map { (word: words[Int($0)], code: codes[Int($0)]) }
            let n = candidates.count
            let allowed = hard && index > 0 ? guessIDs(fitting: Array(guesses[..<index])) : nil
            let best = hint(over: candidates, parallel: true, pool: allowed)
            let sizes = groupSizes(of: guess.word, over: candidates.map(\.code))
            let expected = Solver.expectedLeft(sizes)
            var after: [Int32] = []
            if let check = checks([guess]) {
                after = before.filter { id in check.allSatisfy { fits(codes[Int(id)], $0, missed: true) } }
                // The last guess, a candidate that fits its own feedback, is taken as the win:
                // only the secret is left.
                if index == guesses.count - 1, let id = ids[guess.word], before.contains(id),
                   check.allSatisfy({ fits(codes[Int(id)], $0, missed: false) }) {
                    after = [id]
                }
            }
            steps.append(Review.Step(word: guess.word, candidatesBefore: n, candidatesAfter: after.count,
                                     best: best?.word ?? guess.word, bestExpected: best?.expectedLeft ?? 0, expected: expected))
            if n > 0 {
                // The best is over the guess set; a guess from outside it (the secret itself,
                // when it is not in the dictionary) may do better, which counts as the best.
                let bestExpected = best?.expectedLeft ?? expected
                ratios.append(expected > 0 ? min(1, bestExpected / expected) : 1)
                lucks.append(Solver.luck(sizes: sizes, left: after.count))
            } else {
                ratios.append(1)
            }
            before = after
        }
        let skill = ratios.isEmpty ? 100 : Int((100 * ratios.reduce(0, +) / Double(ratios.count)).rounded())
        let luck = lucks.isEmpty ? 0 : lucks.reduce(0, +) / Double(lucks.count)
        return Review(steps: steps, skill: skill, luck: (luck * 100).rounded() / 100)
    }

    /// Bits the feedback gave beyond those the guess was expected to give: log₂(n ÷ left) minus
    /// Σ (s/n)·log₂(n/s), which is Σ (s/n)·log₂ s − log₂ left. Its mean over a secret drawn
    /// uniformly from the candidates is exactly 0 (left is then s with probability s/n), so 0
    /// means "as expected"; log₂(expected ÷ left) would not be, since the mean of a logarithm is
    /// below the logarithm of the mean, and would call an average game lucky. `left` of 0 (a
    /// secret outside the answer set) counts as 1.
    static func luck(sizes: [Int], left: Int) -> Double {
        let n = Double(sizes.reduce(0, +))
        guard n > 0 else { return 0 }
        let expected = sizes.reduce(0.0) { $0 + Double($1) / n * binaryLog(Double($1)) }
        return expected - binaryLog(Double(max(left, 1)))
    }

    /// log₂ of a positive number, without a platform maths library (the core imports none):
    /// x = m·2ᵉ with m in [1, 2), and ln m = 2·atanh((m − 1)/(m + 1)) by its series, whose
    /// argument is at most 1/3, so 30 terms are far past a Double's precision.
    static func binaryLog(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        let m = x.significand
        let z = (m - 1) / (m + 1), z2 = z * z
        var term = z, sum = 0.0, k = 1.0
        while k < 60 {
            sum += term / k
            term *= z2
            k += 2
        }
        return Double(x.exponent) + 2 * sum / 0.693_147_180_559_945_3
    }
}
