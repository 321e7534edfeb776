import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// A text or id refused at one gate is refused at every gate it can come in by: a pack file, an
/// import, a cloud record. They all ask Core's `Limits` (and, for the characters, `TerminalText`).
@Suite struct OneRuleAtEveryGateTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// Facts no gate keeps: what a terminal would obey, and one too long to show.
    static let badFacts = [
        "Flint \u{1B}[2J sparks.", "Right \u{202E}desrever\u{202C} left.", "C1 \u{9B}31m csi.", "Delete \u{7F} here.",
        "Line\u{2028}separator.", String(repeating: "Flint. ", count: 300),
    ]
    /// Facts no gate keeps where a fact is needed (a pack's word, a bookmark); a practice game has none.
    static let blankFacts = ["", "   "]
    static let badPackIDs = ["Animals", "big cats", "cats!", String(repeating: "a", count: 41), "", "caf\u{E9}"]
    static let badWords = ["t1ger", "Tiger", "tig", "tigerish", "ti ger", "tig\u{1B}r"]

    static let stamp: SystemFields = {
        let device = DeviceID(validated: "cloud"), time = HLCTimestamp(millis: 1_790_000_000_000, counter: 0)
        return SystemFields(changeTag: "t", createdBy: device, createdAt: time, modifiedBy: device, modifiedAt: time)
    }()

    // The three gates.

    func packRefuses(id: String = "gems", word: String = "tiger", fact: String = "Stripes are skin deep.") -> Bool {
        let pack = Pack(id: id, version: 1, title: "Gems", description: "Shiny.", length: 5, rules: .classic,
                        words: [Pack.Entry(word: word, fact: fact)])
        return !pack.problems(lexicon: Content.lexicon).isEmpty
    }

    func importRefuses(_ change: (inout ExportDocument) -> Void) throws -> Bool {
        var document = try exported()
        change(&document)
        let machine = try Machine("desktop", folder: folder, shared: clock)
        do {
            _ = try machine.player.importDocument(document, lexicon: Content.lexicon)
            return false
        } catch {
            return true
        }
    }

    func cloudRefuses(_ record: CloudRecord) -> Bool {
        var record = record
        record.systemFields = Self.stamp
        var changes = IncomingChanges()
        let (skipped, _) = CloudSchema.incoming([record], deletions: [], device: DeviceID(validated: "laptop"), into: &changes)
        return skipped == 1
    }

    func cloudRefusesGame(packID: String = "animals", fact: String = "Stripes are skin deep.") -> Bool {
        var game = GameValueTests.full
        game.packID = packID
        game.fact = fact
        return cloudRefuses(CloudSchema.record(game, fields: nil, device: "desktop", systemFields: nil))
    }

    func cloudRefusesBookmark(word: String = "tiger", packID: String = "animals", fact: String = "Stripes are skin deep.") -> Bool {
        cloudRefuses(CloudSchema.record(SyncBookmark(word: word, packID: packID, fact: fact, addedAt: Date(timeIntervalSince1970: 1_790_000_000),
                                                     isBookmarked: true), device: "desktop"))
    }

    /// One won game and one bookmark, exported.
    func exported() throws -> ExportDocument {
        let a = try Machine("laptop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("tiger", in: game.id)
        _ = try a.player.addBookmark(word: "tiger")
        return try a.player.exportDocument(cloudDir: nil)
    }

    @Test func whatEveryGateKeepsEveryGateKeeps() throws {
        #expect(!packRefuses())
        #expect(try !importRefuses { _ in })
        #expect(!cloudRefusesGame() && !cloudRefusesBookmark())
    }

    /// Each value refused by every gate named, each gate given the value its own way.
    func expectRefused(_ values: [String], by gates: [(name: String, refuses: (String) throws -> Bool)]) throws {
        for value in values {
            for gate in gates { #expect(try gate.refuses(value), "\(gate.name): \(value.debugDescription)") }
        }
    }

    @Test func aFactRefusedByOneGateIsRefusedByAll() throws {
        let required: [(name: String, refuses: (String) throws -> Bool)] = [
            ("pack file", { packRefuses(fact: $0) }),
            ("imported bookmark", { fact in try importRefuses { $0.readingList[0].fact = fact } }),
            ("cloud bookmark", { cloudRefusesBookmark(fact: $0) }),
        ]
        try expectRefused(Self.badFacts, by: required + [
            ("imported game", { fact in try importRefuses { $0.games[0].fact = fact } }),
            ("cloud game", { cloudRefusesGame(fact: $0) }),
        ])
        try expectRefused(Self.blankFacts, by: required)
    }

    @Test func aPackIDRefusedByOneGateIsRefusedByAll() throws {
        try expectRefused(Self.badPackIDs, by: [
            ("pack file", { packRefuses(id: $0) }),
            ("imported game", { id in try importRefuses { $0.games[0].pack = id } }),
            ("imported bookmark", { id in try importRefuses { $0.readingList[0].pack = id } }),
            ("cloud game", { cloudRefusesGame(packID: $0) }),
            ("cloud bookmark", { cloudRefusesBookmark(packID: $0) }),
        ])
    }

    @Test func aWordRefusedByOneGateIsRefusedByAll() throws {
        try expectRefused(Self.badWords, by: [
            ("pack file", { packRefuses(word: $0) }),
            ("imported bookmark", { word in try importRefuses { $0.readingList[0].word = word } }),
            ("cloud bookmark", { cloudRefusesBookmark(word: $0) }),
        ])
    }

    @Test func aGameIDRefusedByOneGateIsRefusedByAll() throws {
        for id in ["C0FFEE00-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-00000000001", "../../etc/passwd", ""] {
            #expect(!Limits.isGameID(id))
            #expect(try importRefuses { $0.games[0].id = id }, "imported game: \(id)")
            var game = GameValueTests.full
            game.id = id
            #expect(cloudRefuses(CloudSchema.record(game, fields: nil, device: "desktop", systemFields: nil)), "cloud game: \(id)")
        }
    }

    /// A guess played after more guesses than its game allows is refused by both gates that take
    /// guesses, as a wrong score and a word of no dictionary are: an import and a fetch.
    @Test func aGuessNoGameCouldHaveBeenGivenIsRefusedByBothGates() throws {
        let document = try exported()
        let limit = document.games[0].maxGuesses
        #expect(try importRefuses { $0.games[0].guesses[0].position = limit + 1 })
        #expect(try !importRefuses { $0.games[0].guesses[0].position = limit })

        let id = UUID().uuidString.lowercased()
        var game = GameValueTests.full
        game.id = id
        game.daily = nil
        let machine = try Machine("phone", folder: folder, shared: clock)
        func fetchRefuses(_ word: String, _ feedback: Feedback, at position: Int) throws -> Bool {
            var changes = IncomingChanges()
            changes.games = [(game, GameValueTests.systemFields)]
            changes.guesses = [SyncGuess(gameID: id, word: word, position: position, feedback: feedback, playedAt: game.startedAt, playedOn: "laptop")]
            let report = try machine.player.applyIncoming(changes, zone: .games, token: nil, naming: CloudSchema(), lexicon: { Content.lexicon })
            return report.refused.map(\.name) == [CloudSchema().guess(gameID: id, word: word)]
        }
        let score = { (word: String) in game.rules.feedback(for: word, against: game.secret) }
        #expect(try fetchRefuses("crane", score("crane"), at: game.maxGuesses + 1))
        #expect(try fetchRefuses("crane", .mastermind(inPlace: 5, inWord: 0), at: 1))
        #expect(try fetchRefuses("qxzjv", score("qxzjv"), at: 1))
        #expect(try !fetchRefuses("crane", score("crane"), at: game.maxGuesses))
    }
}
