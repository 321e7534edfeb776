import Foundation
import GRDB
import Testing
import QiktionaryCore
@testable import Storage

@Suite struct GameStorageTests {
    @Test func aGuessIsSavedWithItsFeedback() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        #expect(game.game.rules == .classic)
        #expect(game.startedOn == "laptop")
        let played = try db.player(profile).submitGuess("Blaze", gameID: game.id, lexicon: Fixtures.lexicon)
        #expect(played.number == 1)
        #expect(played.guess == Guess(word: "blaze", feedback: .common(3)))
        let reloaded = try db.player(profile).game(id: game.id)
        #expect(reloaded.game.guesses == [played.guess])
        #expect(reloaded == played.game)
    }

    @Test func aRefusedGuessWritesNothing() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        for input in ["zzzzz", "amb", "am3er", "geese"] {
            #expect(throws: StorageError.self) {
                try db.player(profile).submitGuess(input, gameID: game.id, lexicon: Fixtures.lexicon)
            }
        }
        #expect(try db.player(profile).game(id: game.id) == game)
    }

    @Test func winningLosingAndGivingUpAreRecorded() throws {
        let (db, profile) = try Fixtures.database()
        let won = try db.player(profile).startGame(GameRequest(word: "flint"))
        _ = try db.player(profile).submitGuess("amber", gameID: won.id, lexicon: Fixtures.lexicon)
        let win = try db.player(profile).submitGuess("flint", gameID: won.id, lexicon: Fixtures.lexicon)
        #expect(win.game.game.status == .won)
        #expect(win.game.finishedAt != nil)

        let lost = try db.player(profile).startGame(GameRequest(word: "queue", rules: .mastermind))
        #expect(lost.game.maxGuesses == 3, "the doubles pack sets its own limit")
        for word in ["amber", "blaze", "crisp"] {
            _ = try db.player(profile).submitGuess(word, gameID: lost.id, lexicon: Fixtures.lexicon)
        }
        #expect(try db.player(profile).game(id: lost.id).game.status == .lost)
        #expect(throws: StorageError.rejected(.gameOver)) {
            try db.player(profile).submitGuess("dwarf", gameID: lost.id, lexicon: Fixtures.lexicon)
        }

        let abandoned = try db.player(profile).startGame(GameRequest(word: "crisp"))
        #expect(try db.player(profile).giveUp(gameID: abandoned.id).game.status == .gaveUp)

        #expect(try db.player(profile).history().map(\.game.secret) == ["crisp", "queue", "flint"])
        let stats = try db.player(profile).statistics()
        #expect(stats.played == 3 && stats.won == 1 && stats.distribution == [2: 1] && stats.currentStreak == 0)
        #expect(try db.player(profile).packs().first { $0.id == "stones" }?.solved == 1)
    }

    @Test func choosingTheWord() throws {
        let (db, profile) = try Fixtures.database()
        #expect(throws: StorageError.unknownPack("nope")) { try db.player(profile).startGame(GameRequest(packID: "nope")) }
        #expect(throws: StorageError.unknownWord("tiger")) { try db.player(profile).startGame(GameRequest(word: "tiger")) }
        #expect(throws: StorageError.wordNotInPack(word: "queue", pack: "stones")) {
            try db.player(profile).startGame(GameRequest(packID: "stones", word: "queue"))
        }
        #expect(throws: StorageError.rulesForbidWord("queue")) {
            try db.player(profile).startGame(GameRequest(word: "queue", rules: .classic))
        }
        // Under classic rules the doubles pack has no playable word at all.
        #expect(throws: StorageError.packEmpty("doubles")) {
            try db.player(profile).startGame(GameRequest(packID: "doubles", rules: .classic))
        }
        let a = try db.player(profile).startGame(GameRequest(packID: "stones", seed: 7))
        let (other, otherProfile) = try Fixtures.database()
        let b = try other.player(otherProfile).startGame(GameRequest(packID: "stones", seed: 7))
        #expect(a.game.secret == b.game.secret, "a seed picks the same word anywhere")
    }

    @Test func newGamesPreferWordsNotPlayedYet() throws {
        let (db, profile) = try Fixtures.database()
        var secrets = Set<String>()
        for _ in 0..<4 { secrets.insert(try db.player(profile).startGame(GameRequest(packID: "stones")).game.secret) }
        #expect(secrets == ["amber", "flint", "crisp", "dwarf"])
    }

    @Test func marksAreSavedAndCleared() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        _ = try db.player(profile).mark("z", as: .out, gameID: game.id)
        let marked = try db.player(profile).mark("E", as: .in, gameID: game.id)
        #expect(marked.game.marks == ["z": .out, "e": .in])
        #expect(try db.player(profile).mark("z", as: nil, gameID: game.id).game.marks == ["e": .in])
    }

    @Test func playersNeverSeeEachOthersGames() throws {
        let (db, alice) = try Fixtures.database(player: "alice")
        let bob = try db.profile(player: "bob", device: nil, hostName: "host")
        let game = try db.player(alice).startGame(GameRequest(word: "amber"))
        #expect(try db.player(bob).gamesInProgress().isEmpty)
        #expect(throws: StorageError.noGame(game.id)) { try db.player(bob).game(id: game.id) }
        #expect(throws: StorageError.noGame(game.id)) {
            try db.player(bob).submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon)
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
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        _ = try db.player(profile).submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon)
        #expect(throws: StorageError.gameInProgress(game.id)) { try db.player(profile).deleteGame(id: game.id) }
        _ = try db.player(profile).giveUp(gameID: game.id)
        try db.player(profile).deleteGame(id: game.id)
        #expect(try db.player(profile).history().isEmpty)
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM guess") } == 0)
    }

    @Test func theSchemaRefusesImpossibleRows() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
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
        try db.player(profile).addBookmark(word: "amber", now: t0)
        try db.player(profile).addBookmark(word: "QUEUE", now: t0.addingTimeInterval(60))
        try db.player(profile).addBookmark(word: "amber", now: t0.addingTimeInterval(120))
        let list = try db.player(profile).readingList()
        #expect(list.map(\.word) == ["queue", "amber"])
        #expect(list.last?.addedAt == t0, "bookmarking again keeps the first date")
        #expect(list.first?.fact == "Queue comes from the French for tail.")
        try db.player(profile).removeBookmark(word: "queue")
        #expect(try db.player(profile).readingList().map(\.word) == ["amber"])
        #expect(throws: StorageError.notBookmarked("queue")) { try db.player(profile).removeBookmark(word: "queue") }
        #expect(throws: StorageError.noFact("tiger")) { try db.player(profile).addBookmark(word: "tiger") }
    }

    @Test func aGameInProgressKeepsItsWordSecret() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        #expect(throws: StorageError.gameNotFinished) { try db.player(profile).bookmarkGame(id: game.id) }
        _ = try db.player(profile).giveUp(gameID: game.id)
        try db.player(profile).bookmarkGame(id: game.id)
        #expect(try db.player(profile).history().first?.bookmarked == true)
    }
}
