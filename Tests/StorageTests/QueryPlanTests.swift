import Foundation
import GRDB
import QiktionaryCore
@testable import Storage
import Testing

/// What opening the game runs must not read every game ever played: each statement is checked
/// with EXPLAIN QUERY PLAN, so a query that would scan the game table fails here, at any size.
@Suite struct QueryPlanTests {
    @Test func openingTheGameSearchesIndexesAndNeverScansTheGames() throws {
        let (database, profile) = try Fixtures.database()
        for word in ["amber", "flint"] {
            let game = try database.player(profile).startGame(GameRequest(word: word))
            _ = try database.player(profile).submitGuess(word, gameID: game.id, lexicon: Fixtures.lexicon)
        }
        let statements = Statements()
        database.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in statements.append("\(event)") }
        }
        // What the first screen loads: the game in progress (or a new one) and the pack list.
        _ = try database.player(profile).latestGameInProgress()
        _ = try database.player(profile).startGame(GameRequest())
        _ = try database.player(profile).packs()
        database.writer.writeWithoutTransaction { db in db.trace(options: .statement, nil) }

        let queries = statements.all.filter { $0.uppercased().hasPrefix("SELECT") }
        #expect(queries.count >= 4)
        for query in queries {
            let plan = try database.writer.read { db in
                // Unbound parameters are NULL: the plan does not depend on their values.
                let statement = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + query)
                statement.setUncheckedArguments(StatementArguments())
                return try Row.fetchAll(statement).map { $0["detail"] as String }
            }
            let onGames = plan.filter { $0.hasPrefix("SCAN g") || $0.hasPrefix("SEARCH g ") || $0.hasPrefix("SEARCH game ") }
            for line in onGames {
                // A scan reads every game; a search on the player alone reads every game of the
                // player, unless it walks an index in the order asked for and stops at a LIMIT.
                let everyGame = line.hasPrefix("SCAN")
                    || (line.hasSuffix("(playerId=?)") && (!query.contains("LIMIT") || plan.contains { $0.contains("TEMP B-TREE") }))
                #expect(!everyGame, "\(query)\n\(plan.joined(separator: "\n"))")
            }
        }
    }
}

/// Statements seen by a trace (the callback may run on the database's queue).
final class Statements: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
