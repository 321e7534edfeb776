import Foundation
import Testing
import QiktionaryCore
@testable import Storage

@Suite struct PackImportTests {
    @Test func aFirstImportAddsEveryPackAndASecondChangesNothing() throws {
        let db = try AppDatabase.inMemory()
        let dir = try Fixtures.folder(["a.json": Fixtures.stones, "b.json": Fixtures.doubles])
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try db.importPacks(from: PackFile.files(in: dir), lexicon: { Fixtures.lexicon })
        #expect(first.added.sorted() == ["doubles", "stones"])
        var asked = false
        let second = try db.importPacks(from: PackFile.files(in: dir), lexicon: { asked = true; return Fixtures.lexicon })
        #expect(second == PackImportReport())
        #expect(!asked, "an up-to-date pack should not need the dictionary")
    }

    @Test func aNewerPackUpdatesInPlaceAndLeavesGamesAndBookmarksAlone() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(packID: "stones", word: "amber"))
        _ = try db.player(profile).submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon)
        _ = try db.player(profile).giveUp(gameID: game.id)
        try db.player(profile).addBookmark(word: "amber")

        let v2 = Fixtures.packJSON(version: 2, words: [("amber", "A better amber fact."), ("blaze", "Blaze fact."), ("flint", "Flint again.")])
        let dir = try Fixtures.folder(["stones.json": v2])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try db.importPacks(from: PackFile.files(in: dir), lexicon: { Fixtures.lexicon })
        #expect(report.updated == ["stones"])

        let stones = try #require(try db.player(profile).packs().first { $0.id == "stones" })
        #expect(stones.words == 3)
        let after = try db.player(profile).game(id: game.id)
        #expect(after.game.guesses.map(\.word) == ["flint"])
        #expect(after.game.status == .gaveUp)
        #expect(try db.player(profile).readingList().map(\.word) == ["amber"])
        // A new game on amber tells the new fact; the finished one keeps the fact it was played with.
        #expect(try db.player(profile).startGame(GameRequest(word: "amber")).fact == "A better amber fact.")
        #expect(after.fact == "Amber is fossil tree resin.")
    }

    /// Issue 39: a pack's version moves when its facts are rewritten; a bookmark keeps the text it
    /// bookmarked, read from the pack with no game behind it, and bookmarking it again keeps it.
    @Test func aBookmarkKeepsItsFactWhenAPackVersionRewritesIt() throws {
        let (db, profile) = try Fixtures.database()
        let player = db.player(profile)
        let first = try player.addBookmark(word: "amber")
        #expect(first.fact == "Amber is fossil tree resin.")

        let v2 = Fixtures.packJSON(version: 2, words: [("amber", "Amber can hold insects for millions of years."),
                                                       ("flint", "Flint sparks against steel."), ("crisp", "Crisp fact."), ("dwarf", "Dwarf fact.")])
        let dir = try Fixtures.folder(["stones.json": v2])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try db.importPacks(from: PackFile.files(in: dir), lexicon: { Fixtures.lexicon }).updated == ["stones"])

        #expect(try player.readingList().map(\.fact) == ["Amber is fossil tree resin."])
        #expect(try player.addBookmark(word: "amber").fact == "Amber is fossil tree resin.")
        // The pack tells the new text to whatever comes next: a new game, a new bookmark.
        #expect(try player.startGame(GameRequest(word: "amber")).fact == "Amber can hold insects for millions of years.")
        try player.removeBookmark(word: "amber")
        #expect(try player.addBookmark(word: "amber").fact == "Amber can hold insects for millions of years.")
    }

    @Test func anOlderOrEqualVersionIsIgnored() throws {
        let (db, profile) = try Fixtures.database()
        let dir = try Fixtures.folder(["old.json": Fixtures.packJSON(version: 1, words: [("ember", "Other.")])])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try db.importPacks(from: PackFile.files(in: dir), lexicon: { Fixtures.lexicon }) == PackImportReport())
        #expect(try db.player(profile).packs().first { $0.id == "stones" }?.words == 4)
    }

    @Test("A corrupt or invalid pack file is refused with a reason and changes nothing", arguments: [
        ("{ not json", "not valid JSON"),
        ("", "not valid JSON"),
        (#"{"id":"stones","version":3}"#, "missing title"),
        (#"{"id":"stones","version":"three","title":"x","description":"","length":5,"rules":"classic","words":[]}"#, "wrong type at version"),
        (#"{"id":"stones","version":3,"title":"x","description":"","length":5,"rules":"chess","words":[]}"#, "bad value at rules"),
        (Fixtures.packJSON(version: 3, words: [("queue", "Repeats.")]), "repeats a letter"),
        (Fixtures.packJSON(version: 3, words: [("zzzzz", "Unknown.")]), "not in the dictionary"),
        (Fixtures.packJSON(version: 3, words: [("amber", "")]), "has no fact"),
        (Fixtures.packJSON(version: 3, length: 9, words: [("amber", "x")]), "length must be 4 to 7"),
    ])
    func refused(text: String, reason: String) throws {
        let (db, profile) = try Fixtures.database()
        let before = try db.player(profile).packs()
        let dir = try Fixtures.folder(["broken.json": text, "good.json": Fixtures.packJSON(id: "extra", words: [("tiger", "Stripes.")])])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try db.importPacks(from: PackFile.files(in: dir), lexicon: { Fixtures.lexicon })
        #expect(report.refused.count == 1)
        let problem = try #require(report.refused.first)
        #expect(problem.file == "broken.json")
        #expect(problem.description.contains(reason), "\(problem)")
        #expect(!problem.description.contains("\n"))
        #expect(report.added == ["extra"], "the good file beside it still loads")
        #expect(try db.player(profile).packs().filter { $0.id != "extra" } == before)
    }

    @Test func anEnormousPackFileIsNotRead() throws {
        let dir = try Fixtures.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("huge.json")
        try Data(count: PackFile.maximumSize + 1).write(to: url)
        #expect(throws: PackFile.Problem(file: "huge.json", reason: "larger than 4 MiB")) { try PackFile.read(url) }
    }
}
