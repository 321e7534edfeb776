import QiktionaryCore
import Testing

/// The one rule of choosing a new game's secret (`SecretChoice`), on packs held in memory: the
/// store's shelf answers the same questions from its tables.
struct SecretChoiceTests {
    struct Shelf: PackShelf {
        typealias Failure = SecretRefusal
        var packs: [PackHeading]
        var words: [String: [Pack.Entry]]
        var playedWords: [String: Set<String>] = [:]
        var latest: String?
        var dictionary: Set<String> = ["plank", "hello", "crane"]

        func pack(_ id: String) -> PackHeading? { packs.first { $0.id == id } }
        func firstPack() -> PackHeading? { packs.first }
        func latestPlayedPack() -> PackHeading? { latest.flatMap(pack) }
        func entry(_ word: String, in pack: String?) -> (pack: String, entry: Pack.Entry)? {
            entries(of: pack).first { $0.entry.word == word }
        }
        func entries(of pack: String?) -> [(pack: String, entry: Pack.Entry)] {
            packs.map(\.id).sorted().filter { pack == nil || $0 == pack }.flatMap { id in (words[id] ?? []).map { (id, $0) } }
        }
        func played(in pack: String) -> Set<String> { playedWords[pack] ?? [] }
        func isDictionaryWord(_ word: String) -> Bool { dictionary.contains(word) }
        static func refusing(_ refusal: SecretRefusal) -> SecretRefusal { refusal }
    }

    static let animals = PackHeading(id: "animals", version: 3, rules: .classic, maxGuesses: nil)
    static let sea = PackHeading(id: "sea", version: 1, rules: .mastermind, maxGuesses: 8)
    static let shelf = Shelf(
        packs: [animals, sea],
        words: ["animals": [Pack.Entry(word: "tiger", fact: "Striped."), Pack.Entry(word: "zebra", fact: "Also striped.")],
                "sea": [Pack.Entry(word: "coral", fact: "An animal."), Pack.Entry(word: "otter", fact: "Holds hands."),
                        Pack.Entry(word: "tiger", fact: "A shark too.")]])

    func refusal(_ request: GameRequest, on shelf: Shelf = shelf, drawing: SecretChoice.Drawing = .usualPack) -> SecretRefusal? {
        do { _ = try SecretChoice.choose(request, on: shelf, drawing: drawing); return nil } catch { return error }
    }

    @Test func aNamedWordComesFromThePackNamedElseTheFirstPackByIDHoldingIt() throws {
        let first = try SecretChoice.choose(GameRequest(word: "TIGER"), on: Self.shelf)
        #expect(first == SecretChoice(pack: Self.animals, word: "tiger", fact: "Striped.", rules: .classic))
        let named = try SecretChoice.choose(GameRequest(packID: "sea", word: "tiger"), on: Self.shelf)
        #expect(named == SecretChoice(pack: Self.sea, word: "tiger", fact: "A shark too.", rules: .mastermind))
        #expect(named.maxGuesses == 8)
        #expect(first.maxGuesses == Game.defaultMaxGuesses)
    }

    @Test func aWordOfNoPackIsPracticeWhenTheDictionaryHasIt() throws {
        let practice = try SecretChoice.choose(GameRequest(word: "hello"), on: Self.shelf)
        #expect(practice.isPractice)
        #expect(practice.rules == .mastermind, "hello repeats a letter: only mastermind rules allow it")
        #expect(practice.fact == "")
        #expect(try SecretChoice.choose(GameRequest(word: "plank"), on: Self.shelf).rules == .classic)
        #expect(refusal(GameRequest(word: "qzxvw")) == .unknownWord("qzxvw"))
        #expect(refusal(GameRequest(word: "abc")) == .unknownWord("abc"), "too short for a game, whatever the dictionary says")
        #expect(refusal(GameRequest(packID: "animals", word: "coral")) == .wordNotInPack(word: "coral", pack: "animals"))
        #expect(refusal(GameRequest(packID: "birds", word: "tiger")) == .unknownPack("birds"))
    }

    @Test func theRulesMustAllowTheWord() {
        #expect(refusal(GameRequest(word: "hello", rules: .classic)) == .rulesForbidWord("hello"))
        #expect(refusal(GameRequest(packID: "sea", word: "otter", rules: .classic)) == .rulesForbidWord("otter"))
        // Drawn, a word the rules forbid is never chosen: only otter would be left out here.
        for seed in 0..<20 as Range<UInt64> {
            let drawn = try? SecretChoice.choose(GameRequest(packID: "sea", rules: .classic, seed: seed), on: Self.shelf)
            #expect(drawn != nil && drawn?.word != "otter")
        }
        let onlyRepeats = Shelf(packs: [Self.sea], words: ["sea": [Pack.Entry(word: "otter", fact: "")]])
        #expect(refusal(GameRequest(packID: "sea", rules: .classic), on: onlyRepeats) == .packEmpty("sea"))
    }

    @Test func aDrawnWordIsOneNotPlayedYetWhileThereIsOne() throws {
        var shelf = Self.shelf
        shelf.playedWords = ["animals": ["tiger"]]
        for seed in 0..<20 as Range<UInt64> {
            #expect(try SecretChoice.choose(GameRequest(packID: "animals", seed: seed), on: shelf).word == "zebra")
        }
        shelf.playedWords = ["animals": ["tiger", "zebra"]]
        let words = Set(try (0..<40 as Range<UInt64>).map { try SecretChoice.choose(GameRequest(packID: "animals", seed: $0), on: shelf).word })
        #expect(words == ["tiger", "zebra"], "every word played: any of them again")
        // The same seed, the same word.
        #expect(try SecretChoice.choose(GameRequest(seed: 7), on: shelf) == SecretChoice.choose(GameRequest(seed: 7), on: shelf))
    }

    @Test func aRequestNamingNoPackDrawsFromTheLastPackPlayedElseTheFirst() throws {
        var shelf = Self.shelf
        #expect(try SecretChoice.choose(GameRequest(seed: 1), on: shelf).pack == Self.animals)
        shelf.latest = "sea"
        #expect(try SecretChoice.choose(GameRequest(seed: 1), on: shelf).pack == Self.sea)
        #expect(refusal(GameRequest(), on: Shelf(packs: [], words: [:])) == .noPacks)
    }

    @Test func aChallengeDrawsFromEveryPackAndKnowsNothingOfWhatWasPlayed() throws {
        var shelf = Self.shelf
        shelf.playedWords = ["animals": ["tiger"], "sea": ["coral", "otter"]]
        shelf.latest = "sea"
        let drawn = try (0..<60 as Range<UInt64>).map { try SecretChoice.choose(GameRequest(seed: $0), on: shelf, drawing: .everyPack) }
        #expect(Set(drawn.map { "\($0.pack.id) \($0.word)" }) == ["animals tiger", "animals zebra", "sea coral", "sea otter", "sea tiger"])
        for choice in drawn { #expect(choice.rules == choice.pack.rules) }
        let classic = try (0..<40 as Range<UInt64>).map {
            try SecretChoice.choose(GameRequest(rules: .classic, seed: $0), on: shelf, drawing: .everyPack).word
        }
        #expect(!classic.contains("otter"))
        #expect(refusal(GameRequest(), on: Shelf(packs: [], words: [:]), drawing: .everyPack) == .noPacks)
    }
}
