import Foundation
import GRDB
import QiktionaryCore
import Testing
@testable import Storage
import Sync

/// Hard mode and hints as storage keeps them: set at the start, counted once per point, in stats.
@Suite struct CoachStorageTests {
    @Test func aHardGameIsStoredHardAndRefusesAContradictionWritingNothing() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber", hard: true))
        #expect(game.game.hard)
        // BLAZE shares B, E and... with AMBER: A, B, E = 3.
        _ = try db.player(profile).submitGuess("blaze", gameID: game.id, lexicon: Fixtures.lexicon)
        let before = try db.player(profile).game(id: game.id)
        // CRISP shares nothing with BLAZE, but BLAZE scored 3: refused in hard mode.
        #expect(throws: StorageError.self) {
            try db.player(profile).submitGuess("crisp", gameID: game.id, lexicon: Fixtures.lexicon)
        }
        #expect(try db.player(profile).game(id: game.id) == before)
        #expect(try db.player(profile).pendingChangeCount() == before.game.guesses.count + 1, "nothing queued for the refusal")
        #expect(!(try db.player(profile).startGame(GameRequest(word: "flint"))).game.hard, "games are easy unless asked")
    }

    @Test func aHintIsCountedOncePerPointAndRefusedOnceTheGameIsOver() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "flint"))
        #expect(try db.player(profile).recordHint(gameID: game.id).hints == [0])
        #expect(try db.player(profile).outgoingChanges(naming: CloudSchema()).games.isEmpty, "a game with no guess is not sent yet")
        #expect(try db.player(profile).recordHint(gameID: game.id).hints == [0], "the same hint again counts once")
        _ = try db.player(profile).submitGuess("amber", gameID: game.id, lexicon: Fixtures.lexicon)
        #expect(try db.player(profile).outgoingChanges(naming: CloudSchema()).games.first?.changedFields.contains(.hints) == true, "sent with its first guess")
        #expect(try db.player(profile).recordHint(gameID: game.id).hints == [0, 1])
        _ = try db.player(profile).submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon)
        let won = try db.player(profile).game(id: game.id)
        #expect(won.game.status == .won && won.hints == [0, 1], "a hinted game can still be won")
        #expect(throws: StorageError.rejected(.gameOver)) { try db.player(profile).recordHint(gameID: game.id) }
        #expect(try db.player(profile).game(id: game.id) == won)
    }

    @Test func statisticsCountHardGamesAndHintsApart() throws {
        let (db, profile) = try Fixtures.database()
        let hard = try db.player(profile).startGame(GameRequest(word: "flint", hard: true))
        _ = try db.player(profile).recordHint(gameID: hard.id)
        _ = try db.player(profile).submitGuess("flint", gameID: hard.id, lexicon: Fixtures.lexicon)
        let easy = try db.player(profile).startGame(GameRequest(word: "amber"))
        _ = try db.player(profile).giveUp(gameID: easy.id)
        let stats = try db.player(profile).statistics()
        #expect(stats.played == 2 && stats.won == 1)
        #expect(stats.hardPlayed == 1 && stats.hardWon == 1)
        #expect(stats.hintsTaken == 1 && stats.gamesWithHints == 1)
    }

    @Test func theAnswersAreThePacksWordsUnderTheGamesRules() throws {
        let (db, profile) = try Fixtures.database()
        let stones = try db.player(profile).startGame(GameRequest(word: "amber"))
        #expect(try db.answers(for: stones.game) == ["amber", "flint", "crisp", "dwarf"])
        let doubles = try db.player(profile).startGame(GameRequest(word: "queue", rules: .mastermind))
        #expect(try db.answers(for: doubles.game) == ["queue", "geese"])
        // A game whose pack no longer holds its word has no pack answers: the caller takes the dictionary.
        let orphan = Game(id: "x", packID: "stones", secret: "ghost", rules: .classic)
        #expect(try db.answers(for: orphan) == nil)
    }

    @Test func hintLogReadsWhatItWritesAndRefusesTheRest() {
        #expect(HintLog.parse("") == [])
        #expect(HintLog.parse("2,0,2") == [0, 2])
        #expect(HintLog.text([3, 1, 3]) == "1,3")
        #expect(HintLog.union("0,2", "1,2") == "0,1,2")
        for bad in ["x", "1,,2", "-1", "1;2", "99999", " 1"] { #expect(HintLog.parse(bad) == nil, "\(bad)") }
    }

    /// v5 adds the two columns to games an earlier build made: easy, no hints.
    @Test func v5LeavesEarlierGamesEasyWithNoHints() throws {
        let database = try DatabaseQueue()
        try Migrations.migrator.migrate(database, upTo: "v4: system fields of changing records, by their key alone")
        try database.write { db in
            try db.execute(sql: "INSERT INTO player (id, createdAt) VALUES ('player', '2026-11-22 00:00:00.000')")
            try db.execute(sql: """
                INSERT INTO game (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, startedOn, lastChangedOn)
                VALUES ('g', 'player', 'animals', 'tiger', 'fact', 'classic', 15, 'in-progress', '2026-11-22 00:00:00.000', '2026-11-22 00:00:00.000', 'a', 'a')
                """)
        }
        try Migrations.migrator.migrate(database)
        try database.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT hard, hints, secret FROM game WHERE id = 'g'"))
            #expect(row["hard"] as Bool == false && row["hints"] as String == "" && row["secret"] as String == "tiger")
        }
    }

    /// v6 gives every earlier game no daily date, keeps its coach fields, and refuses a date
    /// that is not one.
    @Test func v6LeavesEarlierGamesNotDailyAndKeepsTheirCoachFields() throws {
        let database = try DatabaseQueue()
        try Migrations.migrator.migrate(database, upTo: "v5: hard mode and hints")
        try database.write { db in
            try db.execute(sql: "INSERT INTO player (id, createdAt) VALUES ('player', '2026-11-22 00:00:00.000')")
            try db.execute(sql: """
                INSERT INTO game (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, startedOn, lastChangedOn, hard, hints)
                VALUES ('g', 'player', 'animals', 'tiger', 'fact', 'classic', 15, 'in-progress', '2026-11-22 00:00:00.000', '2026-11-22 00:00:00.000', 'a', 'a', 1, '0,2')
                """)
        }
        try Migrations.migrator.migrate(database)
        try database.write { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT hard, hints, daily FROM game WHERE id = 'g'"))
            #expect(row["hard"] as Bool == true && row["hints"] as String == "0,2" && (row["daily"] as String?) == nil)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE game SET daily = 'soon' WHERE id = 'g'") }
        }
    }
}
