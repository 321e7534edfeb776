import Testing
@testable import QiktionaryCore

@Suite struct GameTests {
    let lexicon = Lexicon(["crane", "ghost", "honey", "slate", "least", "queue", "queer", "louse", "purse", "tiger", "piano", "lemon"])

    func classic(_ secret: String = "honey", max: Int = Game.defaultMaxGuesses) -> Game {
        Game(id: "g1", packID: "p", secret: secret, rules: .classic, maxGuesses: max)
    }

    @Test("Every refusal says why and changes nothing", arguments: [
        ("xqzte", GuessRejection.notInDictionary),
        ("cran", .wrongLength(expected: 5)),
        ("cranes", .wrongLength(expected: 5)),
        ("cr4ne", .notLetters),
        ("cra-e", .notLetters),
        ("crané", .notLetters),
        ("   ", .empty),
        ("queue", .repeatedLetters),
    ])
    func refusals(input: String, rejection: GuessRejection) {
        var game = classic()
        let before = game
        #expect(throws: rejection) { try game.submit(input, lexicon: lexicon) }
        #expect(game == before)
        #expect(!rejection.reason.isEmpty)
    }

    @Test("Trimming keeps the middle as it is and drops spaces and line breaks at both ends", arguments: [
        ("  crane \n", "crane"),
        ("\tgood  word\r\n", "good  word"),
        ("crane", "crane"),
        ("   ", ""),
        ("", ""),
        ("\u{00A0}café\u{2003}", "café"),
        (" a ", "a"),
    ])
    func trimming(text: String, trimmed: String) {
        #expect(text.trimmingSpaces == trimmed)
        #expect(text[...].trimmingSpaces == trimmed)
    }

    @Test func theWordListKeepsOnlyLowercaseWordsWhateverTheLineEndings() {
        let list = Lexicon(text: "crane\r\nghost\n\nHoney\rslate\u{0B}least\u{0C}cr4ne\ncafé\nqueue\n")
        #expect(list.count == 5)
        for word in ["crane", "ghost", "slate", "least", "queue"] { #expect(list.contains(word)) }
        for word in ["Honey", "honey", "cr4ne", "café", ""] { #expect(!list.contains(word)) }
    }

    @Test func theWordListKeepsItsLastLineWithoutANewline_andReadsItsCommonTierOnlyWhenAsked() {
        #expect(Lexicon(text: "crane\nghost").contains("ghost"))
        #expect(Lexicon(text: "ghost").count == 1)
        #expect(Lexicon(text: "").count == 0)
        #expect(Lexicon(text: "\n\r\n").count == 0)
        let reads = Counter()
        let list = Lexicon(text: "crane\nghost\n").withCommon(loading: { reads.add(); return Lexicon(["crane"]) })
        #expect(list.contains("ghost") && reads.value == 0, "checking a word reads no common tier")
        let copy = list
        #expect(copy.common == ["crane"] && list.common == ["crane"])
        #expect(reads.value == 1, "read once, whichever copy asks")
    }

    private final class Counter: @unchecked Sendable {
        private(set) var value = 0
        func add() { value += 1 }
    }

    @Test func aRepeatedGuessIsRefused() throws {
        var game = classic()
        try game.submit("crane", lexicon: lexicon)
        #expect(throws: GuessRejection.alreadyGuessed) { try game.submit("CRANE", lexicon: lexicon) }
        #expect(game.guesses.count == 1)
    }

    @Test func upperCaseAndSurroundingSpacesAreAccepted() throws {
        var game = classic()
        let guess = try game.submit("  Ghost ", lexicon: lexicon)
        #expect(guess == Guess(word: "ghost", feedback: .common(2)))
    }

    @Test func repeatedLettersArePlayableUnderMastermind() throws {
        var game = Game(id: "g", packID: "p", secret: "queer", rules: .mastermind)
        let guess = try game.submit("queue", lexicon: lexicon)
        #expect(guess.feedback == .mastermind(inPlace: 3, inWord: 1))
    }

    @Test func winningScoresByGuessesLeft() throws {
        var game = classic(max: 15)
        try game.submit("crane", lexicon: lexicon)
        try game.submit("ghost", lexicon: lexicon)
        try game.submit("honey", lexicon: lexicon)
        #expect(game.status == .won)
        #expect(game.score == 15 + 1 - 3)
        #expect(throws: GuessRejection.gameOver) { try game.submit("tiger", lexicon: lexicon) }
    }

    @Test func anAnagramDoesNotWin() throws {
        var game = classic("slate")
        let guess = try game.submit("least", lexicon: lexicon)
        #expect(guess.feedback == .common(5))
        #expect(game.status == .inProgress)
    }

    @Test func usingTheLastGuessLoses() throws {
        var game = classic(max: 2)
        try game.submit("crane", lexicon: lexicon)
        #expect(game.guessesLeft == 1)
        try game.submit("tiger", lexicon: lexicon)
        #expect(game.status == .lost)
        #expect(game.score == 0)
        #expect(game.guessesLeft == 0)
    }

    @Test func winningOnTheLastGuessIsAWin() throws {
        var game = classic(max: 2)
        try game.submit("crane", lexicon: lexicon)
        try game.submit("honey", lexicon: lexicon)
        #expect(game.status == .won)
        #expect(game.score == 1)
    }

    @Test func givingUpEndsWithNoScoreAndOnlyOnce() throws {
        var game = classic()
        try game.submit("crane", lexicon: lexicon)
        try game.giveUp()
        #expect(game.status == .gaveUp)
        #expect(game.score == 0)
        #expect(throws: GuessRejection.gameOver) { try game.giveUp() }
    }

    @Test func statusOnlyMovesUpInItsOrder() {
        #expect(GameStatus.inProgress < .lost)
        #expect(GameStatus.inProgress < .gaveUp)
        #expect(GameStatus.lost < .won)
        #expect(GameStatus.gaveUp < .won)
        #expect(GameStatus.allCases.max() == .won)
    }
}
