/// The coach's best next guess: the word that leaves the fewest candidates on average.
public struct Hint: Sendable, Equatable {
    public var word: String
    /// Candidates before the hint.
    public var candidates: Int
    /// How many feedback groups the word splits them into (the win, when the word is a
    /// candidate, is a group of its own).
    public var groups: Int
    /// Candidates left after the word on average, each candidate counted as equally likely:
    /// Σ (group size)² ÷ candidates.
    public var expectedLeft: Double
    /// Whether the word could be the secret itself.
    public var isCandidate: Bool

    public init(word: String, candidates: Int, groups: Int, expectedLeft: Double, isCandidate: Bool) {
        self.word = word
        self.candidates = candidates
        self.groups = groups
        self.expectedLeft = expectedLeft
        self.isCandidate = isCandidate
    }

    /// One line of why, to follow "it", under the coach: e.g. "splits the 37 candidates into 9
    /// groups; 4.1 left on average", or "is the only word that fits".
    public var reason: String {
        if candidates == 1 { return "is the only word that fits" }
        let groupsText = groups == 1 ? "1 group" : "\(groups) groups"
        return "splits the \(candidates) candidates into \(groupsText); \(Hint.oneDecimal(expectedLeft)) left on average"
    }

    /// Why, at a help level: the count of the pack's words left (and every figure made from it)
    /// is the coach's alone, so at `none` and `proven` the reason says why without a number.
    public func reason(at level: Assist) -> String {
        if level == .coach { return reason }
        if candidates == 1 { return "fits every score so far" }
        return isCandidate ? "could be the word, and tells the others apart better than any other guess"
            : "tells apart the words that could still be the answer better than any other guess"
    }

    /// The figures a help level may show: the candidates and the average left, under the coach only.
    public func counts(at level: Assist) -> (candidates: Int, expectedLeft: Double)? {
        level == .coach ? (candidates, expectedLeft) : nil
    }

    /// One decimal, rounded half away from zero, without Foundation's formatters.
    static func oneDecimal(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

/// How a played game compares with the coach, guess by guess.
public struct Review: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        /// The word the player guessed.
        public var word: String
        /// Candidates before the guess, and after its feedback (1 after the winning guess: the
        /// secret still fits).
        public var candidatesBefore: Int
        public var candidatesAfter: Int
        /// The hint at that point and its expected candidates left (the word itself and 0 when no
        /// candidate was left, which happens only when the secret is not in the answer set).
        public var best: String
        public var bestExpected: Double
        /// The player's guess's expected candidates left, over the same candidates.
        public var expected: Double

        public init(word: String, candidatesBefore: Int, candidatesAfter: Int, best: String, bestExpected: Double, expected: Double) {
            self.word = word
            self.candidatesBefore = candidatesBefore
            self.candidatesAfter = candidatesAfter
            self.best = best
            self.bestExpected = bestExpected
            self.expected = expected
        }
    }

    public var steps: [Step]
    /// 0–100; 100 when every guess was as good as the hint. The mean over the steps of
    /// bestExpected ÷ expected (at most 1), × 100, rounded. Steps with no candidate left count
    /// as 1; a review with no step is 100.
    public var skill: Int
    /// Bits of information the feedback gave beyond what the guess was expected to give, averaged
    /// over the steps, to 2 decimals. One step: log₂(before ÷ after) − Σ (s/n)·log₂(n/s) over the
    /// guess's groups (n candidates, groups of s). 0 means the answers fell as expected, and
    /// it is exactly 0 on average when every candidate is equally likely; above 0 the feedback
    /// left fewer words than expected (lucky), below 0 more.
    public var luck: Double

    public init(steps: [Step], skill: Int, luck: Double) {
        self.steps = steps
        self.skill = skill
        self.luck = luck
    }
}
