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
}
