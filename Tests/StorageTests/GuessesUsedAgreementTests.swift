import Foundation
import GRDB
import QiktionaryCore
import Testing
@testable import Storage

/// The statistics count a finished game's guesses in SQL (`AppDatabase.guessesUsedSQL`), so
/// that `stats` never loads every guess ever played; Core's `Game.guessesUsed` is the rule. Over
/// random games (guesses of two machines at the same position, guesses played after the win,
/// a won game whose winning guess has not arrived) the statement counts what the rule counts.
@Suite struct GuessesUsedAgreementTests {
    @Test func theStatementCountsWhatGameGuessesUsedCountsOverRandomGames() throws {
        let (database, profile) = try Fixtures.database()
        let words = ["amber", "blaze", "crisp", "dwarf", "ember", "flint"]
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var random = SeededGenerator(seed: 36)
        let games = 400
        try database.writer.write { db in
            for number in 0..<games {
                let secret = words.randomElement(using: &random)!
                var game = SyncGame.started(id: "game-\(number)", packID: "stones", secret: secret, fact: "A stone.", rules: .classic,
                                            maxGuesses: 6, hard: false, assist: .standard, daily: nil, at: now, on: "laptop")
                game.status = GameStatus.allCases.randomElement(using: &random)!
                if game.status.isFinished { game.finishedAt = now }
                try GameRecord(game: game, playerId: profile.playerID, systemFields: nil).insert(db)
                // Positions from a small range, so that two machines' guesses share one.
                for word in words.shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random)) {
                    try GuessRecord(gameId: game.id, position: Int.random(in: 1...4, using: &random),
                                    guess: Guess(word: word, feedback: .common(0)), playedAt: now, playedOn: "laptop").insert(db)
                }
            }
        }
        var (tiedWins, guessesAfterAWin, winsWithoutTheWord) = (0, 0, 0)
        try database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT g.id, \(AppDatabase.guessesUsedSQL) AS used FROM game g ORDER BY g.id")
            #expect(rows.count == games)
            for row in rows {
                let record = try #require(try GameRecord.fetchOne(db, key: row["id"] as String))
                let game = try AppDatabase.savedGame(record, db).game
                #expect(row["used"] as Int == game.guessesUsed, "\(game.id): \(game.status) on \(game.secret), \(game.guesses.map(\.word))")
                let positions = try Dictionary(GuessRecord.filter(Column("gameId") == game.id).fetchAll(db).map { ($0.word, $0.position) },
                                               uniquingKeysWith: { first, _ in first })
                guard game.status == .won else { continue }
                guard let winning = positions[game.secret] else { winsWithoutTheWord += 1; continue }
                if positions.contains(where: { $0.key != game.secret && $0.value == winning }) { tiedWins += 1 }
                if game.guessesUsed < game.guesses.count { guessesAfterAWin += 1 }
            }
        }
        // The cases where the two could part were drawn, each many times.
        #expect(tiedWins > 10 && guessesAfterAWin > 10 && winsWithoutTheWord > 10, "\(tiedWins), \(guessesAfterAWin), \(winsWithoutTheWord)")
    }
}
