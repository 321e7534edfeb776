/// The coach for one game: the candidates left, a hint and the review, over the game's answer
/// set (its pack's words, or the dictionary's words of its length when it has no pack) and its
/// guess set (the dictionary's words of its length). Both sets follow the game's rules.
public struct GameCoach: Sendable {
    public let solver: Solver

    /// `packAnswers` is nil for a game whose pack does not hold its secret.
    public init(game: Game, packAnswers: [String]?, lexicon: Lexicon) {
        let guesses = lexicon.words(ofLength: game.length)
        var solver = Solver(rules: game.rules, length: game.length, answers: packAnswers ?? guesses, guesses: guesses)
        solver.preferred = lexicon.common
        self.solver = solver
    }

    /// The answers still possible after the game's guesses. Needs no guess set, so it is cheap
    /// enough to run after every guess.
    public static func candidates(of game: Game, packAnswers: [String]?, lexicon: @autoclosure () -> Lexicon) -> [String] {
        // Once found, the secret is the one word left (the solver counts a guess as missed).
        if game.status == .won { return [game.secret] }
        let answers = packAnswers ?? lexicon().words(ofLength: game.length)
        return Solver(rules: game.rules, length: game.length, answers: answers, guesses: []).candidates(after: game.guesses)
    }

    public func candidates(of game: Game) -> [String] {
        game.status == .won ? [game.secret] : solver.candidates(after: game.guesses)
    }

    /// The best next guess, or nil once the game is over or nothing fits. In a hard game only
    /// a guess hard mode accepts is offered: one that fits every score so far.
    public func hint(for game: Game) -> Hint? {
        if game.isFinished { return nil }
        let candidates = candidates(of: game)
        return game.hard ? solver.hint(candidates: candidates, fitting: game.guesses) : solver.hint(candidates: candidates)
    }

    /// The review; a hard game's best guesses are the ones hard mode accepted at each point.
    public func review(of game: Game) -> Review { solver.review(guesses: game.guesses, hard: game.hard) }
}

extension GameCoach {
    /// "37 words still possible", "1 word still possible".
    public static func stillPossible(_ count: Int) -> String {
        "\(count) \(count == 1 ? "word" : "words") still possible"
    }
}

extension Review {
    /// "Skill 82 of 100; luck +0.4: the answers left fewer words than expected."
    public static func summary(skill: Int, luck: Double) -> String {
        "Skill \(skill) of 100; \(luckSummary(luck))."
    }

    /// The luck figure in words: above zero the answers left fewer words than expected.
    public static func luckSummary(_ luck: Double) -> String {
        let figure = (luck * 10).rounded() / 10
        if figure > 0 { return "luck +\(figure): the answers left fewer words than expected" }
        if figure < 0 { return "luck \(figure): the answers left more words than expected" }
        return "luck 0: the answers fell as expected"
    }

    /// How the player's guess compares with the best: "best" or "best: SLATE (4.1)".
    public static func verdict(word: String, best: String, expected: Double, bestExpected: Double) -> String {
        if word == best || expected <= bestExpected + 1e-9 { return "as good as the best" }
        return "best was \(best.uppercased()) (\(Review.format(bestExpected)) left on average)"
    }

    /// One decimal, as the coach prints expected counts.
    public static func format(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
