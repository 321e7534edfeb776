import Foundation
import GRDB
import Testing
import QiktionaryCore
@testable import Storage

@Suite struct GameStorageTests {
    @Test func aGuessIsSavedWithItsFeedback() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        #expect(game.game.rules == .classic)
        #expect(game.startedOn == "laptop")
        let played = try db.submitGuess("Blaze", gameID: game.id, lexicon: Fixtures.lexicon, profile: profile)
        #expect(played.number == 1)
        #expect(played.guess == Guess(word: "blaze", feedback: .common(3)))
        let reloaded = try db.game(id: game.id, profile: profile)
        #expect(reloaded.game.guesses == [played.guess])
        #expect(reloaded == played.game)
    }

    @Test func aRefusedGuessWritesNothing() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        for input in ["zzzzz", "amb", "am3er", "geese"] {
            #expect(throws: StorageError.self) {
                try db.submitGuess(input, gameID: game.id, lexicon: Fixtures.lexicon, profile: profile)
            }
        }
        #expect(try db.game(id: game.id, profile: profile) == game)
    }

    @Test func winningLosingAndGivingUpAreRecorded() throws {
        let (db, profile) = try Fixtures.database()
        let won = try db.startGame(GameRequest(word: "flint"), profile: profile)
        _ = try db.submitGuess("amber", gameID: won.id, lexicon: Fixtures.lexicon, profile: profile)
        let win = try db.submitGuess("flint", gameID: won.id, lexicon: Fixtures.lexicon, profile: profile)
        #expect(win.game.game.status == .won)
        #expect(win.game.finishedAt != nil)

        let lost = try db.startGame(GameRequest(word: "queue", rules: .mastermind), profile: profile)
        #expect(lost.game.maxGuesses == 3, "the doubles pack sets its own limit")
        for word in ["amber", "blaze", "crisp"] {
            _ = try db.submitGuess(word, gameID: lost.id, lexicon: Fixtures.lexicon, profile: profile)
        }
        #expect(try db.game(id: lost.id, profile: profile).game.status == .lost)
        #expect(throws: StorageError.rejected(.gameOver)) {
            try db.submitGuess("dwarf", gameID: lost.id, lexicon: Fixtures.lexicon, profile: profile)
        }

        let abandoned = try db.startGame(GameRequest(word: "crisp"), profile: profile)
        #expect(try db.giveUp(gameID: abandoned.id, profile: profile).game.status == .gaveUp)

        #expect(try db.history(profile: profile).map(\.game.secret) == ["crisp", "queue", "flint"])
        let stats = try db.statistics(profile: profile)
        #expect(stats.played == 3 && stats.won == 1 && stats.distribution == [2: 1] && stats.currentStreak == 0)
        #expect(try db.packs(profile: profile).first { $0.id == "stones" }?.solved == 1)
    }

    @Test func choosingTheWord() throws {
        let (db, profile) = try Fixtures.database()
        #expect(throws: StorageError.unknownPack("nope")) { try db.startGame(GameRequest(packID: "nope"), profile: profile) }
        #expect(throws: StorageError.unknownWord("tiger")) { try db.startGame(GameRequest(word: "tiger"), profile: profile) }
        #expect(throws: StorageError.wordNotInPack(word: "queue", pack: "stones")) {
            try db.startGame(GameRequest(packID: "stones", word: "queue"), profile: profile)
        }
        #expect(throws: StorageError.rulesForbidWord("queue")) {
            try db.startGame(GameRequest(word: "queue", rules: .classic), profile: profile)
        }
        // Under classic rules the doubles pack has no playable word at all.
        #expect(throws: StorageError.packEmpty("doubles")) {
            try db.startGame(GameRequest(packID: "doubles", rules: .classic), profile: profile)
        }
        let a = try db.startGame(GameRequest(packID: "stones", seed: 7), profile: profile)
        let (other, otherProfile) = try Fixtures.database()
        let b = try other.startGame(GameRequest(packID: "stones", seed: 7), profile: otherProfile)
        #expect(a.game.secret == b.game.secret, "a seed picks the same word anywhere")
    }

    @Test func newGamesPreferWordsNotPlayedYet() throws {
        let (db, profile) = try Fixtures.database()
        var secrets = Set<String>()
        for _ in 0..<4 { secrets.insert(try db.startGame(GameRequest(packID: "stones"), profile: profile).game.secret) }
        #expect(secrets == ["amber", "flint", "crisp", "dwarf"])
    }

    @Test func marksAreSavedAndCleared() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        _ = try db.mark("z", as: .out, gameID: game.id, profile: profile)
        let marked = try db.mark("E", as: .in, gameID: game.id, profile: profile)
        #expect(marked.game.marks == ["z": .out, "e": .in])
        #expect(try db.mark("z", as: nil, gameID: game.id, profile: profile).game.marks == ["e": .in])
    }

    @Test func playersNeverSeeEachOthersGames() throws {
        let (db, alice) = try Fixtures.database(player: "alice")
        let bob = try db.profile(player: "bob", device: nil, hostName: "host")
        let game = try db.startGame(GameRequest(word: "amber"), profile: alice)
        #expect(try db.gamesInProgress(profile: bob).isEmpty)
        #expect(throws: StorageError.noGame(game.id)) { try db.game(id: game.id, profile: bob) }
        #expect(throws: StorageError.noGame(game.id)) {
            try db.submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon, profile: bob)
        }
    }

    @Test func namesAreRememberedAndChecked() throws {
        let (db, _) = try Fixtures.database(player: "alice")
        let again = try db.profile(player: nil, device: nil, hostName: "elsewhere")
        #expect(again.playerID == "alice")
        #expect(again.device.name == "laptop")
        #expect(throws: StorageError.badPlayerName("no/slash")) { try db.profile(player: "no/slash", device: nil, hostName: "h") }
        #expect(throws: StorageError.badDeviceName("")) { try db.profile(player: nil, device: "", hostName: "h") }
    }

    @Test func onlyFinishedGamesAreDeletedAndTheyTakeTheirGuesses() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        _ = try db.submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon, profile: profile)
        #expect(throws: StorageError.gameInProgress(game.id)) { try db.deleteGame(id: game.id, profile: profile) }
        _ = try db.giveUp(gameID: game.id, profile: profile)
        try db.deleteGame(id: game.id, profile: profile)
        #expect(try db.history(profile: profile).isEmpty)
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM guess") } == 0)
    }

    @Test func theSchemaRefusesImpossibleRows() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        #expect(throws: DatabaseError.self) {
            try db.writer.write { try $0.execute(sql: "UPDATE game SET status = 'paused' WHERE id = ?", arguments: [game.id]) }
        }
        #expect(throws: DatabaseError.self) {
            try db.writer.write { try $0.execute(sql: "UPDATE game SET status = 'won' WHERE id = ?", arguments: [game.id]) }
        }
    }
}

@Suite struct ReadingListTests {
    @Test func bookmarksComeFromGamesOrPacksNewestFirst() throws {
        let (db, profile) = try Fixtures.database()
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        try db.addBookmark(word: "amber", profile: profile, now: t0)
        try db.addBookmark(word: "QUEUE", profile: profile, now: t0.addingTimeInterval(60))
        try db.addBookmark(word: "amber", profile: profile, now: t0.addingTimeInterval(120))
        let list = try db.readingList(profile: profile)
        #expect(list.map(\.word) == ["queue", "amber"])
        #expect(list.last?.addedAt == t0, "bookmarking again keeps the first date")
        #expect(list.first?.fact == "Queue comes from the French for tail.")
        try db.removeBookmark(word: "queue", profile: profile)
        #expect(try db.readingList(profile: profile).map(\.word) == ["amber"])
        #expect(throws: StorageError.notBookmarked("queue")) { try db.removeBookmark(word: "queue", profile: profile) }
        #expect(throws: StorageError.noFact("tiger")) { try db.addBookmark(word: "tiger", profile: profile) }
    }

    @Test func aGameInProgressKeepsItsWordSecret() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        #expect(throws: StorageError.gameNotFinished) { try db.bookmarkGame(id: game.id, profile: profile) }
        _ = try db.giveUp(gameID: game.id, profile: profile)
        try db.bookmarkGame(id: game.id, profile: profile)
        #expect(try db.history(profile: profile).first?.bookmarked == true)
    }
}
