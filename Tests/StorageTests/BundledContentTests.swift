import Foundation
import Testing
import QiktionaryCore
import QiktionaryResources
@testable import Storage

/// The shipped dictionary and packs: the promises of the README's word packs section.
@Suite struct BundledContentTests {
    static let lexicon = try! BundledContent.lexicon()
    static let packs: [Pack] = PackFile.files(in: BundledContent.packsFolder).map { try! PackFile.read($0) }

    @Test func theDictionaryHoldsOnlyLowercaseWordsOfFourToSeven() throws {
        let text = try String(contentsOf: BundledContent.dictionaryURL, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count > 30_000)
        #expect(lines.allSatisfy { (4...7).contains($0.count) && String($0).isLowercaseASCIIWord })
        #expect(Self.lexicon.count == lines.count)
        for word in ["ghost", "honey", "louse", "purse", "queue", "queer", "crane"] { #expect(Self.lexicon.contains(word)) }
    }

    @Test func thereAreEnoughPacksAndWordsOfEachLength() {
        #expect(Self.packs.count >= 10)
        #expect(Self.packs.reduce(0) { $0 + $1.words.count } >= 400)
        #expect(Set(Self.packs.map(\.length)).isSuperset(of: [4, 5, 6]))
        #expect(Set(Self.packs.map(\.id)).count == Self.packs.count)
    }

    @Test func everyPackPassesItsChecks() {
        for pack in Self.packs {
            #expect(pack.problems(lexicon: Self.lexicon) == [], "\(pack.id)")
            #expect(pack.description.count <= 60, "\(pack.id)")
        }
    }

    @Test func noWordAppearsTwiceAndEveryFactIsItsOwn() {
        let entries = Self.packs.flatMap(\.words)
        var words = Set<String>(), facts = Set<String>()
        for entry in entries {
            #expect(words.insert(entry.word).inserted, "\(entry.word) is in two packs")
            #expect(facts.insert(entry.fact).inserted, "the fact of \(entry.word) repeats another")
            #expect((1...3).contains(Self.sentences(entry.fact)), "\(entry.word): one to three sentences")
        }
    }

    /// The second round's content: 16 packs or more, 576 words or more, and two packs of
    /// seven-letter words, one under each rule set.
    @Test func thereAreSixteenPacksWithSevenLetterOnesUnderBothRules() {
        #expect(Self.packs.count >= 16)
        #expect(Self.packs.reduce(0) { $0 + $1.words.count } >= 576)
        let sevens = Self.packs.filter { $0.length == 7 }
        #expect(sevens.reduce(0) { $0 + $1.words.count } >= 72)
        #expect(Set(sevens.map(\.rules)) == [.classic, .mastermind])
        #expect(Set(Self.packs.map(\.length)) == [4, 5, 6, 7])
    }

    /// Issue 30's content: 24 packs or more, 864 words or more, and every length from 4 to 7
    /// under both rule sets, so a player who likes one rule set finds every length.
    @Test func thereAreTwentyFourPacksWithEveryLengthUnderBothRules() {
        #expect(Self.packs.count >= 24, "\(Self.packs.count) packs")
        #expect(Self.packs.reduce(0) { $0 + $1.words.count } >= 864)
        for rules in [Rules.classic, .mastermind] {
            let lengths = Set(Self.packs.filter { $0.rules == rules }.map(\.length))
            #expect(lengths == [4, 5, 6, 7], "\(rules): lengths \(lengths.sorted())")
        }
    }

    /// Every secret word is common English: in the common tier (SCOWL's size-50 list), so a
    /// player can find it.
    @Test func everySecretWordIsCommon() throws {
        let common = try BundledContent.commonWords()
        #expect(common.count > 20_000)
        for pack in Self.packs {
            for entry in pack.words {
                #expect(common.contains(entry.word), "\(pack.id)/\(entry.word) is not in the common tier")
                #expect(Self.lexicon.contains(entry.word))
            }
        }
        let text = try String(contentsOf: BundledContent.commonWordsURL, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == lines.sorted(), "common.txt is sorted")
        #expect(lines.allSatisfy { Self.lexicon.contains($0) }, "every common word is in the dictionary")
    }

    /// Whether a fact is about where its word comes from: a plain keyword test, enough to keep
    /// word histories to a share of a pack.
    static func isEtymology(_ fact: String) -> Bool {
        let languages = "latin|greek|french|arabic|persian|sanskrit|hindi|italian|spanish|portuguese|dutch|german|norse|"
            + "hebrew|turkish|japanese|chinese|malay|nahuatl|tamil|yiddish|irish|scots|welsh|proto-indo-european|old|middle"
        let patterns = [
            #"\b(comes?|came|coming) (down )?from\b"#,
            #"\bnamed (after|for|by)\b"#, #"\b(is|are|was|were) named\b"#,
            #"\bcoin(ed|s|ing)? (the )?(word|name|term)\b"#, #"\bcoined\b"#,
            #"\bderiv(e|es|ed|ing|ation)\b"#,
            #"\b(the|its|their|whose) names?\b"#, #"\b(got|gets|took|takes|gave|gives) (its|their|the) names?\b"#,
            #"\b(old|middle) (english|french|norse|high german|irish|dutch)\b"#,
            #"\bfrom (the )?(\#(languages))\b"#,
            #"\b(\#(languages)) (word|for|root|verb|noun|name|term|phrase)\b"#,
            #"\bborrow(ed|ing|s)? (the |a |this )?(word|name|term)\b"#, #"\bborrowed from\b"#,
            #"\betymolog"#, #"\b(first|once|originally) meant\b"#,
        ]
        let text = fact.lowercased()
        return patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
    }

    @Test func theEtymologyClassifierCatchesWordHistories() {
        for history in [
            "The word comes from Latin 'cista', a box.",
            "It is named after the Greek goddess of the dawn.",
            "William Whewell coined the word scientist in 1833.",
            "From Old English 'waed', a garment.",
            "Algebra derives from an Arabic book title.",
            "The name was first used by sailors.",
            "Bugle first meant a young ox.",
            "English borrowed the word from Dutch in the 1600s.",
            "Its Italian name is a diminutive.",
        ] { #expect(Self.isEtymology(history), "\(history)") }
        for other in [
            "Moles can dig a tunnel of many metres in a single night.",
            "The Moon's far side is no darker than its near side.",
            "Frozen pucks bounce less and slide faster on the ice.",
            "A comet's tail always points away from the Sun.",
        ] { #expect(!Self.isEtymology(other), "\(other)") }
    }

    /// No pack but the one about word origins gives more than a third of its facts to where its
    /// words come from: the facts are about things, history and nature too.
    @Test func wordHistoriesAreAtMostAThirdOfAPack() {
        for pack in Self.packs where pack.id != "origins" {
            let histories = pack.words.filter { Self.isEtymology($0.fact) }
            #expect(histories.count * 3 <= pack.words.count,
                    "\(pack.id): \(histories.count) of \(pack.words.count) facts are word histories: \(histories.map(\.word))")
        }
    }

    /// A fact never names another secret word of its own pack as a whole word: reading one
    /// word's fact gives away no word still to be played.
    @Test func noFactNamesAnotherWordOfItsPack() {
        for pack in Self.packs {
            let secrets = Set(pack.words.map(\.word))
            for entry in pack.words {
                let words = Set(entry.fact.lowercased().split { !$0.isLetter }.map(String.init))
                let named = words.intersection(secrets).subtracting([entry.word])
                #expect(named.isEmpty, "\(pack.id)/\(entry.word) names \(named.sorted())")
            }
        }
    }

    /// Every pack has a theme of its own: no secret word is in two packs, and no two packs share
    /// a title or a description.
    @Test func noThemeOrWordIsRepeatedAcrossPacks() {
        var owner: [String: String] = [:]
        for pack in Self.packs {
            for entry in pack.words {
                if let other = owner.updateValue(pack.id, forKey: entry.word) {
                    Issue.record("\(entry.word) is in \(other) and \(pack.id)")
                }
            }
        }
        #expect(Set(Self.packs.map { $0.title.lowercased() }).count == Self.packs.count)
        #expect(Set(Self.packs.map { $0.description.lowercased() }).count == Self.packs.count)
    }

    /// A fact is about its word: it names it, or a form of it (its first letters, or an
    /// irregular form such as tooth for teeth).
    @Test func everyFactNamesItsWord() {
        let irregular = ["teeth": "tooth"]
        for pack in Self.packs {
            for entry in pack.words {
                let stem = String(entry.word.prefix(max(3, entry.word.count - 3)))
                let fact = entry.fact.lowercased()
                #expect(fact.contains(stem) || irregular[entry.word].map(fact.contains) == true, "\(pack.id)/\(entry.word): \(entry.fact)")
            }
        }
    }

    /// No two facts tell the same thing: no run of five telling words (common words and the
    /// words of word histories left aside, so "borrowed from Old Norse" is not a match) is in two
    /// facts. It caught two facts that both timed sunlight's trip to Earth.
    @Test func noTwoFactsShareTheirSubstance() {
        let plain: Set<String> = Set(("the a an of and to in is was it its on for as by at from that with this be are or but not his her their "
            + "they which word words comes came from english borrowed old middle latin greek french norse german dutch arabic meant means "
            + "meaning name named").split(separator: " ").map(String.init))
        var seen: [[String]: String] = [:]
        for pack in Self.packs {
            for entry in pack.words {
                let words = entry.fact.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init).filter { !plain.contains($0) }
                guard words.count >= 5 else { continue }
                for start in 0...(words.count - 5) {
                    let run = Array(words[start..<start + 5])
                    let owner = "\(pack.id)/\(entry.word)"
                    if let other = seen[run], other != owner {
                        Issue.record("\(owner) and \(other) share \"\(run.joined(separator: " "))\"")
                    }
                    seen[run] = owner
                }
            }
        }
    }

    /// Sentences end at '.', '!' or '?' followed by a space and a capital, or by the end: not
    /// inside "0.9 kg" or "'Wow!', he wrote".
    static func sentences(_ text: String) -> Int {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        var count = 0
        for (i, c) in characters.enumerated() where ".!?".contains(c) {
            if i == characters.count - 1 || (characters[i + 1] == " " && i + 2 < characters.count && characters[i + 2].isUppercase) { count += 1 }
        }
        return count
    }

    @Test func sentencesAreCountedAsAReaderWould() {
        #expect(Self.sentences("One. Two! Three?") == 3)
        #expect(Self.sentences("It weighed 0.9 kg. He wrote 'Wow!', and left.") == 2)
    }

    @Test func theShippedPacksLoadIntoAFreshDatabase() throws {
        let db = try AppDatabase.inMemory()
        let report = try db.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { Self.lexicon })
        #expect(report.refused == [])
        #expect(report.added.count == Self.packs.count)
    }
}
