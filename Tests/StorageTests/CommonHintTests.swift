import Foundation
@testable import QiktionaryCore
import QiktionaryResources
import Testing

/// The hint prefers a common word when it splits the candidates as well, or within 2 %.
@Suite struct CommonHintTests {
    @Test func theHintIsACommonWordWhenOneSplitsNearlyAsWell() throws {
        let lexicon = try BundledContent.lexicon().withCommon(try BundledContent.commonWords())
        let common = lexicon.common
        #expect(common.count > 10_000)
        var swapped = 0
        // Classic five-letter games on a few secrets, after one or two guesses.
        for (secret, guesses) in [("tiger", ["crane"]), ("melon", ["stone"]), ("zebra", ["crane", "moist"]), ("flute", ["slate"]),
                                  ("honey", ["crane"]), ("sugar", ["stone", "flour"])] {
            for rules in [Rules.classic, .mastermind] {
                let played = guesses.map { Guess(word: $0, feedback: rules.feedback(for: $0, against: secret)) }
                let game = Game(id: "g", packID: "p", secret: secret, rules: rules, guesses: played)
                let coach = GameCoach(game: game, packAnswers: nil, lexicon: lexicon)
                var plain = coach.solver
                plain.preferred = []
                let candidates = coach.candidates(of: game)
                let best = try #require(plain.hint(candidates: candidates))
                let hint = try #require(coach.hint(for: game))
                #expect(hint.expectedLeft <= best.expectedLeft * Solver.nearSplit + 1e-9)
                if hint.word != best.word {
                    swapped += 1
                    #expect(common.contains(hint.word) && !common.contains(best.word), "\(secret) \(rules): \(best.word) -> \(hint.word)")
                }
                if !common.contains(hint.word) { #expect(hint.word == best.word) }
            }
        }
        #expect(swapped > 0, "some best word was obscure and a common one nearly as good")
    }

    /// The review names, at each guess, the word a hint would have given at that point: the same
    /// pool and the same preference for a common word; its figures are measured against that word.
    /// Here a game where, after CRANE, the best guess over the dictionary is a rare word and a
    /// common one splits the words left within 2 %: the review names the common one.
    @Test func theReviewsBestIsTheHintOfThatMomentCommonWordsPreferred() throws {
        let lexicon = try BundledContent.lexicon().withCommon(try BundledContent.commonWords())
        var preferredNamed = 0
        for (secret, guesses) in [("tiger", ["crane", "tiger"]), ("honey", ["crane", "moist", "honey"]), ("zebra", ["crane", "moist", "zebra"])] {
            let played = guesses.map { Guess(word: $0, feedback: Rules.classic.feedback(for: $0, against: secret)) }
            let game = Game(id: "g", packID: "p", secret: secret, rules: .classic, guesses: played)
            let coach = GameCoach(game: game, packAnswers: nil, lexicon: lexicon)
            var plain = coach.solver
            plain.preferred = []
            let review = coach.review(of: game)
            #expect(review.steps.count == guesses.count)
            var ratios: [Double] = []
            for (index, step) in review.steps.enumerated() where index > 0 {
                // The game as it stood before this guess: a hint then.
                let before = Game(id: "g", packID: "p", secret: secret, rules: .classic, guesses: Array(played[..<index]))
                let hint = try #require(coach.hint(for: before))
                #expect(step.best == hint.word, "\(secret), guess \(index + 1): the review names \(step.best), a hint then was \(hint.word)")
                #expect(abs(step.bestExpected - hint.expectedLeft) < 1e-9)
                let raw = try #require(plain.hint(candidates: coach.candidates(of: before)))
                if raw.word != hint.word {
                    preferredNamed += 1
                    #expect(lexicon.common.contains(step.best) && !lexicon.common.contains(raw.word), "\(secret): \(raw.word) -> \(step.best)")
                    // The verdict names the common word, with its own figure.
                    let verdict = Review.verdict(word: step.word, best: step.best, expected: step.expected, bestExpected: step.bestExpected)
                    #expect(verdict.contains(step.best.uppercased()) || verdict == "as good as the best")
                }
            }
            // Skill is the mean of (named best's figure / the guess's), each at most 1.
            for step in review.steps { ratios.append(step.expected > 0 ? min(1, step.bestExpected / step.expected) : 1) }
            #expect(review.skill == Int((100 * ratios.reduce(0, +) / Double(ratios.count)).rounded()), "\(secret)")
        }
        #expect(preferredNamed > 0, "some step's raw best was a rare word and the review named a common one instead")
    }
}
