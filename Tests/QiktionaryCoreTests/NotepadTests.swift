import Testing
@testable import QiktionaryCore

@Suite struct NotepadTests {
    func pad(_ rules: Rules, _ guesses: [(String, Feedback)], marks: [Character: LetterMark] = [:]) -> Notepad {
        Notepad(rules: rules, length: 5, guesses: guesses.map { Guess(word: $0.0, feedback: $0.1) }, marks: marks)
    }

    @Test func aClassicZeroPutsEveryLetterOut() {
        let notepad = pad(.classic, [("crane", .common(0))])
        for c in "crane" { #expect(notepad[c]?.deduced == .out) }
        #expect(notepad["b"]?.deduced == nil)
    }

    @Test func aClassicFullCountPutsEveryLetterIn() {
        let notepad = pad(.classic, [("least", .common(5))])
        for c in "least" { #expect(notepad[c]?.deduced == .in) }
    }

    @Test func classicDeductionsChainAcrossGuesses() {
        // crane scores 0: c r a n e out. "crate" scores 1 with c r a e out: t must be in.
        let notepad = pad(.classic, [("crane", .common(0)), ("crate", .common(1))])
        #expect(notepad["t"]?.deduced == .in)
        // "stamp" scores 1 and t is proven in: s, m, p are out (a was already).
        let more = pad(.classic, [("crane", .common(0)), ("crate", .common(1)), ("stamp", .common(1))])
        for c in "smp" { #expect(more[c]?.deduced == .out) }
    }

    @Test func aWrongPlayerMarkNeverBecomesAProof() {
        // The player wrongly marks t in; the guess alone proves nothing about t.
        let notepad = pad(.classic, [("tiger", .common(1))], marks: ["t": .in])
        #expect(notepad["t"]?.deduced == nil)
        #expect(notepad["t"]?.shown == .in)
        #expect(notepad["i"]?.deduced == nil)
    }

    @Test func proofOutranksAMark() {
        let notepad = pad(.classic, [("crane", .common(0))], marks: ["c": .in])
        #expect(notepad["c"]?.marked == .in)
        #expect(notepad["c"]?.shown == .out)
    }

    @Test func mastermindExtremesAreCertain() {
        let none = pad(.mastermind, [("queue", .mastermind(inPlace: 0, inWord: 0))])
        for c in "que" { #expect(none[c]?.deduced == .out) }
        let all = pad(.mastermind, [("slate", .mastermind(inPlace: 1, inWord: 4))])
        for c in "slate" { #expect(all[c]?.deduced == .in) }
        let partial = pad(.mastermind, [("slate", .mastermind(inPlace: 1, inWord: 1))])
        #expect(partial.entries.allSatisfy { $0.deduced == nil })
    }

    @Test func deductionsAreNeverWrongOverRandomGames() {
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<1_000 {
            let secret = String(Notepad.alphabet.shuffled(using: &rng).prefix(5))
            let guesses = (0..<6).map { _ -> Guess in
                let word = String(Notepad.alphabet.shuffled(using: &rng).prefix(5))
                return Guess(word: word, feedback: Rules.classic.feedback(for: word, against: secret))
            }
            let notepad = Notepad(rules: .classic, length: 5, guesses: guesses, marks: [:])
            for entry in notepad.entries {
                if entry.deduced == .in { #expect(secret.contains(entry.letter)) }
                if entry.deduced == .out { #expect(!secret.contains(entry.letter)) }
            }
        }
    }
}
