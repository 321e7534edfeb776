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
