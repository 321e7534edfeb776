import Foundation
import Testing
import TextSafety
@testable import QiktionaryCore

/// Packs, a dictionary and matches the match tests share.
enum MatchFixture {
    static let lexicon = Lexicon(["tiger", "zebra", "camel", "horse", "bison", "sloth", "crane", "slate", "plumb", "adieu",
                                  "geese", "queue", "sheep", "llama", "wolf", "lamp"])
    static let animals = pack("animals", version: 3, rules: .classic, words: ["tiger", "zebra", "camel", "horse", "bison", "sloth"])
    /// A mastermind pack with a guess limit of its own; under classic rules only "tiger" is left.
    static let doubles = pack("doubles", rules: .mastermind, maxGuesses: 12, words: ["geese", "queue", "sheep", "llama", "tiger"])
    static let created = Date(timeIntervalSince1970: 1_795_000_000)

    static func pack(_ id: String, version: Int = 1, rules: Rules, maxGuesses: Int? = nil, words: [String]) -> Pack {
        Pack(id: id, version: version, title: id.capitalized, description: "A pack.", length: words[0].count, rules: rules,
             maxGuesses: maxGuesses, words: words.map { Pack.Entry(word: $0, fact: "A fact about \($0).") })
    }

    static func match(seed: UInt64 = 1, pack: Pack = animals, rules: Rules? = nil, hard: Bool = false) throws -> Match {
        var generator = SeededGenerator(seed: seed)
        return try Match.make(by: "alice", against: "ben", pack: pack, rules: rules, hard: hard, createdAt: created, lexicon: lexicon,
                              using: &generator)
    }

    /// Whether a refusal's line is one line a terminal shows as it is.
    static func isOneSafeLine(_ refusal: MatchRefusal) -> Bool {
        let line = refusal.description
        return !line.isEmpty && TerminalText.isSafe(line)
    }
}

@Suite struct MatchMakingTests {
    let lexicon = MatchFixture.lexicon

    @Test func aMatchIsThreeDifferentWordsOfThePackForBothPlayers() throws {
        let match = try MatchFixture.match()
        #expect(match.players == ["alice", "ben"] && match.createdBy == "alice")
        #expect(match.pack == "animals" && match.packVersion == 3 && match.rules == .classic && !match.hard)
        #expect(match.length == 5 && match.maxGuesses == Game.defaultMaxGuesses && match.createdAt == MatchFixture.created)
        #expect(match.codes.count == 3 && Set(match.codes).count == 3)
        let words = try match.words(lexicon: lexicon, packWords: MatchFixture.animals.words.map(\.word))
        #expect(Set(words).count == 3 && words.allSatisfy(MatchFixture.animals.words.map(\.word).contains))
        #expect(Match.isID(match.id))
        #expect(match.opponent(of: "alice") == "ben" && match.opponent(of: "ben") == "alice" && match.opponent(of: "carol") == nil)
        try match.check(publishedBy: "alice")
    }

    @Test func noWordCanBeReadOffTheMatch() throws {
        for seed in UInt64(0)..<20 {
            let match = try MatchFixture.match(seed: seed)
            let words = try match.words(lexicon: lexicon)
            for code in match.codes {
                #expect(Match.isCode(code))
                #expect(!words.contains { code.lowercased().contains($0) }, "\(code)")
            }
        }
    }

    @Test func theSameSeedMakesTheSameMatchAndSeedsSpreadOverThePack() throws {
        #expect(try MatchFixture.match(seed: 7) == MatchFixture.match(seed: 7))
        #expect(try MatchFixture.match(seed: 7).id != MatchFixture.match(seed: 8).id)
        var seen = Set<String>()
        for seed in UInt64(0)..<60 { seen.formUnion(try MatchFixture.match(seed: seed).words(lexicon: lexicon)) }
        #expect(seen == Set(MatchFixture.animals.words.map(\.word)))
    }

    @Test func theMakersWordsWaitUntilThePackRunsShort() throws {
        let played: Set<String> = ["tiger", "zebra", "camel"]
        for seed in UInt64(0)..<20 {
            var generator = SeededGenerator(seed: seed)
            let match = try Match.make(by: "alice", against: "ben", pack: MatchFixture.animals, createdAt: MatchFixture.created,
                                       lexicon: lexicon, avoiding: played, using: &generator)
            #expect(Set(try match.words(lexicon: lexicon)) == ["horse", "bison", "sloth"])
        }
        var generator = SeededGenerator(seed: 1)
        let all = Set(MatchFixture.animals.words.map(\.word))
        let match = try Match.make(by: "alice", against: "ben", pack: MatchFixture.animals, createdAt: MatchFixture.created,
                                   lexicon: lexicon, avoiding: all, using: &generator)
        #expect(Set(try match.words(lexicon: lexicon)).count == 3)
    }

    @Test func rulesAndHardModeAreTheMatchesAndTheLimitThePacks() throws {
        let match = try MatchFixture.match(pack: MatchFixture.doubles, hard: true)
        #expect(match.rules == .mastermind && match.hard && match.maxGuesses == 12)
        #expect(try match.words(lexicon: lexicon).count == 3)
        // Classic rules take no word with a repeated letter: "tiger" alone is left.
        #expect(throws: MatchRefusal.tooFewWords(pack: "doubles", rules: .classic)) {
            try MatchFixture.match(pack: MatchFixture.doubles, rules: .classic)
        }
    }

    @Test func aMatchNeedsTwoPlayersWithAllowedNames() {
        var generator = SeededGenerator(seed: 1)
        func make(_ creator: String, _ opponent: String) throws(MatchRefusal) {
            _ = try Match.make(by: creator, against: opponent, pack: MatchFixture.animals, createdAt: MatchFixture.created,
                               lexicon: lexicon, using: &generator)
        }
        #expect(throws: MatchRefusal.againstYourself("alice")) { try make("alice", "alice") }
        #expect(throws: MatchRefusal.badName(PlayerName.problem("ben\u{1B}[2J")!)) { try make("alice", "ben\u{1B}[2J") }
        #expect(throws: MatchRefusal.badName(PlayerName.problem("")!)) { try make("", "ben") }
    }

    @Test func aPackIsDrawnWhenNoneIsNamed() throws {
        let packs = [MatchFixture.doubles, MatchFixture.animals]
        var drawn = Set<String>()
        for seed in UInt64(0)..<40 {
            var a = SeededGenerator(seed: seed), b = SeededGenerator(seed: seed)
            let pack = try Match.choosePack(from: packs, lexicon: lexicon, using: &a)
            #expect(pack.id == (try Match.choosePack(from: packs.reversed(), lexicon: lexicon, using: &b)).id)
            drawn.insert(pack.id)
        }
        #expect(drawn == ["animals", "doubles"])
        // Under classic rules only the classic pack has three words.
        for seed in UInt64(0)..<10 {
            var generator = SeededGenerator(seed: seed)
            #expect(try Match.choosePack(from: packs, rules: .classic, lexicon: lexicon, using: &generator).id == "animals")
        }
        var generator = SeededGenerator(seed: 1)
        #expect(throws: MatchRefusal.noPack(rules: .classic)) {
            try Match.choosePack(from: [MatchFixture.doubles], rules: .classic, lexicon: lexicon, using: &generator)
        }
        #expect(MatchRefusal.noPack(rules: nil).description == "no pack has three words to play")
    }

    @Test func idsAreVersion4LowercaseUUIDs() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<50 {
            let id = Match.newID(using: &generator)
            #expect(Match.isID(id))
            #expect(Array(id)[14] == "4" && "89ab".contains(Array(id)[19]))
        }
        for text in ["", "6F1C2A4E-0B8D-4C3A-9E1F-2B3C4D5E6F70", "6f1c2a4e0b8d4c3a9e1f2b3c4d5e6f70", "6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f7g",
                     "6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f70 "] {
            #expect(!Match.isID(text), "\(text)")
        }
        #expect(Match.isID("6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f70"))
    }

    @Test func aMatchGameHasOneIdPerPlayerAndIndexOnEveryMachine() throws {
        let match = try MatchFixture.match()
        let ids = match.players.flatMap { player in Match.games.map { match.gameID(player: player, index: $0) } }
        #expect(Set(ids).count == 6 && ids.allSatisfy(Match.isID))
        #expect(match.gameID(player: "ben", index: 2) == (try MatchFixture.match()).gameID(player: "ben", index: 2))
        #expect(match.gameID(player: "ben", index: 2) != (try MatchFixture.match(seed: 2)).gameID(player: "ben", index: 2))
        #expect(!ids.contains(DailyWord.gameID(player: "ben", date: "2026-11-25")))
    }
}

@Suite struct MatchWordsTests {
    let lexicon = MatchFixture.lexicon

    @Test func anotherDictionaryOrPackIsCaughtNotPlayedWithOtherWords() throws {
        let packWords = MatchFixture.animals.words.map(\.word)
        for seed in UInt64(0)..<20 {
            let match = try MatchFixture.match(seed: seed)
            let words = try match.words(lexicon: lexicon, packWords: packWords)
            // One word more at the top of the dictionary moves every word's place by one: the codes
            // name other words, and the check says so.
            let longer = Lexicon(lexicon.words(ofLength: 5) + ["aback"])
            #expect(throws: MatchRefusal.self) { try match.words(lexicon: longer) }
            // A pack here that lacks a word of the match.
            #expect(throws: MatchRefusal.wordsDoNotDecode("a word is not in pack 'animals' here")) {
                try match.words(lexicon: lexicon, packWords: Array(words.dropFirst()))
            }
            var checked = match
            checked.wordCheck ^= 1
            #expect(throws: MatchRefusal.wordsDoNotDecode("they are not the words the match was made with (another dictionary?)")) {
                try checked.words(lexicon: lexicon)
            }
        }
    }

    @Test func codesMustBeTheMatchesAndDifferent() throws {
        let match = try MatchFixture.match()
        let dictionary = lexicon.words(ofLength: 5)
        func code(_ word: String, pack: String = "animals", rules: Rules = .classic, hard: Bool = false) throws -> String {
            try ChallengeCode.encode(Challenge(pack: (id: pack, version: 3), word: word, rules: rules, hard: hard), dictionary: dictionary)
        }
        for other in [try code("sloth", rules: .mastermind), try code("sloth", hard: true), try code("sloth", pack: "zoo")] {
            var changed = match
            changed.codes[0] = other
            #expect(throws: MatchRefusal.wordsDoNotDecode("code '\(other)' was not made for this match")) { try changed.words(lexicon: lexicon) }
        }
        var twice = match
        twice.codes[2] = twice.codes[0]
        #expect(throws: MatchRefusal.wordsDoNotDecode("two codes name the same word")) { try twice.words(lexicon: lexicon) }
        var madeUp = match
        madeUp.codes[1] = "ZZZZZZZZZZZZ"
        #expect(throws: MatchRefusal.self) { try madeUp.words(lexicon: lexicon) }
        var wordOfAnotherLength = match
        wordOfAnotherLength.codes[1] = try ChallengeCode.encode(Challenge(pack: (id: "animals", version: 3), word: "wolf", rules: .classic,
                                                                          hard: false), dictionary: lexicon.words(ofLength: 4))
        #expect(throws: MatchRefusal.self) { try wordOfAnotherLength.words(lexicon: lexicon) }
    }
}

@Suite struct PublishedMatchTests {
    func refusal(_ change: (inout Match) -> Void, publisher: String = "alice") throws -> MatchRefusal? {
        var match = try MatchFixture.match()
        change(&match)
        do { try match.check(publishedBy: publisher) } catch { return error }
        return nil
    }

    @Test func everyImpossibleMatchIsRefusedWithOneLine() throws {
        let cases: [(MatchRefusal, (inout Match) -> Void)] = [
            (.badMatchID("match-1"), { $0.id = "match-1" }),
            (.badPlayers(count: 1), { $0.players = ["alice"] }),
            (.badPlayers(count: 1), { $0.players = ["alice", "alice"] }),
            (.badPlayers(count: 3), { $0.players = ["alice", "ben", "carol"] }),
            (.badName(PlayerName.problem("b\u{202E}en")!), { $0.players = ["alice", "b\u{202E}en"] }),
            (.creatorNotAPlayer("carol"), { $0.createdBy = "carol" }),
            (.badPack("Animals"), { $0.pack = "Animals" }),
            (.badPack("practice"), { $0.pack = "practice" }),
            (.badPack(""), { $0.pack = "" }),
            (.badPackVersion(0), { $0.packVersion = 0 }),
            (.badLength(8), { $0.length = 8 }),
            (.badGuessLimit(0), { $0.maxGuesses = 0 }),
            (.badGuessLimit(31), { $0.maxGuesses = 31 }),
            (.badTime, { $0.createdAt = Date(timeIntervalSince1970: 0) }),
            (.badTime, { $0.createdAt = Date(timeIntervalSince1970: .nan) }),
            (.wordCount(2), { $0.codes.removeLast() }),
            (.badCode("abcd-efgh-jk"), { $0.codes[0] = "abcd-efgh-jk" }),
            (.badCode(String(repeating: "Z", count: 5000)), { $0.codes[2] = String(repeating: "Z", count: 5000) }),
            (.badWordCheck(-1), { $0.wordCheck = -1 }),
            (.badWordCheck(1 << 24), { $0.wordCheck = 1 << 24 }),
        ]
        for (expected, change) in cases {
            let refusal = try refusal(change)
            #expect(refusal == expected)
            #expect(MatchFixture.isOneSafeLine(expected))
        }
        #expect(try refusal({ _ in }, publisher: "ben") == .notTheCreator(publisher: "ben", creator: "alice"))
        #expect(try refusal({ _ in }) == nil)
    }

    @Test func refusalsShowTextFromTheFolderEscapedAndCut() {
        let long = MatchRefusal.badCode(String(repeating: "Z", count: 5000)).description
        #expect(long.count < 120 && long.contains("…"))
        let hostile = MatchRefusal.badPack("x\u{1B}]52;c;ZXZpbA==\u{07}").description
        #expect(TerminalText.isSafe(hostile) && hostile.contains("\\x1b"))
    }

    @Test func aMatchNeverChangesOnceMade() throws {
        let kept = try MatchFixture.match()
        try Match.checkUnchanged(kept: kept, read: kept)
        var other = kept
        other.codes.swapAt(0, 1)
        #expect(throws: MatchRefusal.matchChanged(kept.id)) { try Match.checkUnchanged(kept: kept, read: other) }
        #expect(MatchFixture.isOneSafeLine(.matchChanged(kept.id)))
    }

    @Test func rulesAreReadByName() throws {
        #expect(try Match.rules("classic") == .classic && Match.rules("mastermind") == .mastermind)
        #expect(throws: MatchRefusal.badRules("Classic")) { try Match.rules("Classic") }
    }
}

@Suite struct PlayerNameTests {
    @Test func namesAreLettersDigitsUnderscoresAndDashes() {
        for name in ["ben", "Alice", "a", "player-2", "x_y", "9lives", String(repeating: "n", count: 32)] {
            #expect(PlayerName.isValid(name), "\(name)")
        }
    }

    @Test func everyOtherNameIsRefusedWithItsReason() {
        let refused: [(String, String)] = [
            ("", "a player name is empty"),
            (String(repeating: "n", count: 33), "is longer than 32 characters"),
            ("-ben", "must start with a letter or digit"),
            ("_ben", "must start with a letter or digit"),
            ("ben smith", "may hold only"),
            ("../ben", "must start with a letter or digit"),
            ("be/n", "may hold only"),
            ("bén", "may hold only"),
            ("ben\u{1B}[31m", "holds a control character"),
            ("ben\u{7}", "holds a control character"),
            ("ben\n", "holds a control character"),
            ("\u{202E}neb", "holds a control character"),
            ("ben\u{85}", "holds a control character"),
        ]
        for (name, reason) in refused {
            let problem = PlayerName.problem(name)
            #expect(problem?.contains(reason) == true, "\(name): \(problem ?? "allowed")")
            #expect(problem.map(TerminalText.isSafe) == true)
        }
    }
}
