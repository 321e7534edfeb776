import Foundation
import Testing
import QiktionaryCore
import QiktionaryResources
@testable import Storage

/// The shipped dictionary and packs: the promises of GAME.md's content section.
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
            let sentences = entry.fact.split(whereSeparator: { ".!?".contains($0) }).filter { $0.count > 3 }
            #expect((1...3).contains(sentences.count), "\(entry.word): one to three sentences")
        }
    }

    @Test func theShippedPacksLoadIntoAFreshDatabase() throws {
        let db = try AppDatabase.inMemory()
        let report = try db.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { Self.lexicon })
        #expect(report.refused == [])
        #expect(report.added.count == Self.packs.count)
    }
}
