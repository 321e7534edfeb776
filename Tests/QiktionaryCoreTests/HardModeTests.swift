import Testing
@testable import QiktionaryCore

/// Hard mode: every guess must be one that could be the secret, given all the feedback so far.
@Suite struct HardModeTests {
    let lexicon = Lexicon(["sale", "lime", "mile", "tale", "late", "seal", "tile", "time", "mite", "emit", "item", "pole",
                           "crane", "slate", "least", "tiger", "queue", "queer", "louse", "purse", "geese", "these"])

    @Test func theIssuesExampleNamesTheGuessItContradicts() throws {
        // Secret TILE: SALE shares L and E with it, so it scores 2.
        var game = Game(id: "g", packID: "p", secret: "tile", rules: .classic, hard: true)
        try game.submit("sale", lexicon: lexicon)
        #expect(game.guesses.last?.feedback == .common(2))
        // POLE shares only L and E with SALE, as TILE does: it could be the secret.
        #expect(game.check("pole", lexicon: lexicon) == .success("pole"))
        // SEAL shares all four letters with SALE: it contradicts the 2.
        let refusal = GuessRejection.contradicts(guess: "seal", earlier: "sale", scored: .common(2), wouldScore: .common(4))
        #expect(game.check("seal", lexicon: lexicon) == .failure(refusal))
        #expect(refusal.reason == "hard mode: SALE scored 2 in common; SEAL has 4 in common with SALE")
        #expect(refusal.code == "contradicts-feedback")
    }

    @Test func aRefusalCostsNothing() throws {
        var game = Game(id: "g", packID: "p", secret: "tile", rules: .classic, hard: true)
        try game.submit("sale", lexicon: lexicon)
        let before = game
        #expect(throws: GuessRejection.self) { try game.submit("seal", lexicon: lexicon) }
        #expect(game == before && game.guessesLeft == before.guessesLeft)
    }

    @Test func mastermindFeedbackMustFitInPlaceAndInWord() throws {
        var game = Game(id: "g", packID: "p", secret: "these", rules: .mastermind, hard: true)
        try game.submit("geese", lexicon: lexicon)
        let scored = game.guesses[0].feedback
        #expect(scored == .mastermind(inPlace: 3, inWord: 0))
        // QUEUE would give GEESE one E in place and one elsewhere: refused, naming both scores.
        guard case .failure(let refusal) = game.check("queue", lexicon: lexicon) else {
            Issue.record("queue should be refused")
            return
        }
        #expect(refusal.reason.hasPrefix("hard mode: GEESE scored 3 in place, 0 in word; QUEUE has "))
        #expect(game.check("these", lexicon: lexicon) == .success("these"))
    }

    @Test func anEasyGameAcceptsTheSameGuess() throws {
        var game = Game(id: "g", packID: "p", secret: "tile", rules: .classic)
        try game.submit("sale", lexicon: lexicon)
        #expect(game.check("seal", lexicon: lexicon) == .success("seal"))
    }

    /// A hard game refuses exactly the guesses that are not consistent: over random secrets and
    /// histories, a guess is accepted if and only if a brute-force check finds every earlier
    /// feedback reproduced with it as the secret.
    @Test(arguments: [Rules.classic, .mastermind])
    func refusesExactlyTheInconsistentGuesses(rules: Rules) throws {
        let words = ["sale", "lime", "mile", "tale", "late", "seal", "tile", "time", "mite", "emit", "item", "pole"]
            .filter(rules.allows)
        var random = SeededGenerator(seed: 7)
        for _ in 0..<60 {
            let secret = words.randomElement(using: &random)!
            var game = Game(id: "g", packID: "p", secret: secret, rules: rules, hard: true)
            var easy = Game(id: "e", packID: "p", secret: secret, rules: rules)
            for _ in 0..<3 {
                let candidate = words.randomElement(using: &random)!
                let consistent = easy.guesses.allSatisfy { rules.feedback(for: $0.word, against: candidate) == $0.feedback }
                let accepted = (try? game.check(candidate, lexicon: lexicon).get()) != nil
                let refusedOtherwise = easy.check(candidate, lexicon: lexicon)
                if case .success = refusedOtherwise {
                    #expect(accepted == consistent, "\(candidate) after \(easy.guesses.map(\.word)) for \(secret)")
                }
                if accepted {
                    try game.submit(candidate, lexicon: lexicon)
                    try easy.submit(candidate, lexicon: lexicon)
                }
                if game.isFinished { break }
            }
        }
    }
}

@Suite struct CandidateNotepadTests {
    @Test func lettersInEveryCandidateAreInAndInNoneAreOut() {
        let notepad = Notepad(rules: .classic, length: 4, guesses: [], marks: [:], candidates: ["tile", "time", "tide"])
        #expect(notepad["t"]?.deduced == .in && notepad["i"]?.deduced == .in && notepad["e"]?.deduced == .in)
        #expect(notepad["l"]?.deduced == nil && notepad["m"]?.deduced == nil)
        #expect(notepad["z"]?.deduced == .out && notepad["a"]?.deduced == .out)
    }

    @Test func theGuessesProofComesFirstAndNoCandidatesProveNothing() {
        let zero = [Guess(word: "tile", feedback: .common(0))]
        let notepad = Notepad(rules: .classic, length: 4, guesses: zero, marks: [.init("a"): .in], candidates: [])
        #expect(notepad["t"]?.deduced == .out)
        #expect(notepad["a"]?.deduced == nil && notepad["a"]?.shown == .in, "no candidates: only the player's mark")
    }
}

@Suite struct GameCoachTests {
    static let words = ["sale", "lime", "mile", "tale", "late", "seal", "tile", "time", "mite", "emit", "item", "pole",
                        "mole", "hole", "hold", "bold", "gold", "cold", "colt", "bolt", "salt", "malt", "melt", "belt"]
    let lexicon = Lexicon(GameCoachTests.words)

    /// In a hard game the hint is always a guess hard mode accepts; in an easy one it may not be.
    @Test(arguments: [Rules.classic, .mastermind])
    func aHardGamesHintIsAGuessHardModeAccepts(rules: Rules) throws {
        var random = SeededGenerator(seed: 11)
        let answers = Array(Self.words.prefix(12))
        for _ in 0..<40 {
            let secret = answers.randomElement(using: &random)!
            var game = Game(id: "g", packID: "p", secret: secret, rules: rules, hard: true)
            for _ in 0..<2 {
                let coach = GameCoach(game: game, packAnswers: answers, lexicon: lexicon)
                let hint = try #require(coach.hint(for: game))
                #expect(game.contradiction(hint.word) == nil, "\(hint.word) after \(game.guesses.map(\.word))")
                // And no guess hard mode accepts leaves fewer on average.
                let candidates = coach.candidates(of: game)
                let allowed = Self.words.filter { rules.allows($0) && !game.guesses.map(\.word).contains($0) && game.contradiction($0) == nil }
                let best = allowed.map { coach.solver.split(of: $0, over: candidates).expectedLeft }.min() ?? .infinity
                #expect(abs(hint.expectedLeft - min(best, 1)) < 1e-9 || abs(hint.expectedLeft - best) < 1e-9)
                #expect(hint.candidates == GameCoach.candidates(of: game, packAnswers: answers, lexicon: lexicon).count)
                try game.submit(hint.word, lexicon: lexicon)
                if game.isFinished { break }
            }
        }
    }

    @Test func afterTheWinOnlyTheSecretIsLeftAndThereIsNoHint() throws {
        var game = Game(id: "g", packID: "p", secret: "tile", rules: .classic)
        try game.submit("tile", lexicon: lexicon)
        #expect(GameCoach.candidates(of: game, packAnswers: ["tile", "time"], lexicon: lexicon) == ["tile"])
        #expect(GameCoach(game: game, packAnswers: ["tile", "time"], lexicon: lexicon).hint(for: game) == nil)
    }

    @Test func aGameOutsideAnyPackTakesTheDictionaryAsItsAnswers() {
        let game = Game(id: "g", packID: "p", secret: "bolt", rules: .classic)
        let all = GameCoach.candidates(of: game, packAnswers: nil, lexicon: lexicon)
        #expect(all.count == Self.words.count)
    }

    @Test func phrasesReadAsEnglish() {
        #expect(GameCoach.stillPossible(1) == "1 word still possible")
        #expect(GameCoach.stillPossible(37) == "37 words still possible")
        #expect(Review.format(4.14) == "4.1" && Review.format(0.96) == "1.0")
        #expect(Review.luckSummary(0.04) == "luck 0: the answers fell as expected")
        #expect(Review.luckSummary(-1.26) == "luck -1.3: the answers left more words than expected")
        #expect(Review.summary(skill: 82, luck: 0.4) == "Skill 82 of 100; luck +0.4: the answers left fewer words than expected.")
        #expect(Review.verdict(word: "crane", best: "slate", expected: 8.25, bestExpected: 6.5) == "best was SLATE (6.5 left on average)")
        #expect(Review.verdict(word: "slate", best: "slate", expected: 6.5, bestExpected: 6.5) == "as good as the best")
    }
}

extension GameCoachTests {
    /// A hard game's review measures each guess against the best guess hard mode allowed then.
    @Test func aHardGamesReviewComparesWithGuessesHardModeAccepted() throws {
        let answers = Array(Self.words.prefix(12))
        var game = Game(id: "g", packID: "p", secret: "mite", rules: .classic, hard: true)
        try game.submit("sale", lexicon: lexicon)
        try game.submit("time", lexicon: lexicon)
        try game.submit("mite", lexicon: lexicon)
        #expect(game.status == .won)
        let review = GameCoach(game: game, packAnswers: answers, lexicon: lexicon).review(of: game)
        var prefix = Game(id: "p", packID: "p", secret: "mite", rules: .classic, hard: true)
        for step in review.steps {
            #expect(prefix.contradiction(step.best) == nil, "\(step.best) after \(prefix.guesses.map(\.word))")
            try prefix.submit(step.word, lexicon: lexicon)
        }
        let easy = Game(id: "g", packID: "p", secret: "mite", rules: .classic, guesses: game.guesses, status: game.status)
        let easyReview = GameCoach(game: easy, packAnswers: answers, lexicon: lexicon).review(of: easy)
        #expect(zip(review.steps, easyReview.steps).allSatisfy { $0.bestExpected >= $1.bestExpected - 1e-9 },
                "hard mode's best is never better than the free best")
    }
}
