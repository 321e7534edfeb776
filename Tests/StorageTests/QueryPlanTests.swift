import Foundation
import GRDB
import QiktionaryCore
@testable import Sync
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
        // What the first screen loads: the game in progress (or a new one) and the pack list.
        try expectNoStatementReadsEveryGame(database, atLeast: 4) {
            _ = try database.player(profile).latestGameInProgress()
            _ = try database.player(profile).startGame(GameRequest())
            _ = try database.player(profile).packs()
        }
    }

    /// A first upload reads its queue a page of games at a time: each page's statements look the
    /// listed games up, never walking every game of the player (that made the pages O(n²)).
    @Test func aPageOfALongQueueLooksItsGamesUp() throws {
        let (database, profile) = try Fixtures.database()
        var ids: [String] = []
        for word in ["amber", "flint", "crisp", "dwarf"] {
            let game = try database.player(profile).startGame(GameRequest(word: word))
            _ = try database.player(profile).submitGuess(word, gameID: game.id, lexicon: Fixtures.lexicon)
            ids.append(game.id)
        }
        // A whole page of ids: the planner weighs that many look-ups against walking the player's
        // games (with two ids it looks them up whatever the statement says).
        let page = Array(ids.prefix(2)) + (0..<(SyncEngine.gamesPerPage - 2)).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        try expectNoStatementReadsEveryGame(database, atLeast: 3) {
            let changes = try database.player(profile).outgoingChanges(ofGames: page, naming: CloudSchema())
            #expect(changes.games.count == 2)
        }
    }

    /// Runs `body`, then checks the plan of every SELECT it ran (at least `count` of them).
    func expectNoStatementReadsEveryGame(_ database: AppDatabase, atLeast count: Int, _ body: () throws -> Void) throws {
        let statements = Statements()
        database.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in statements.append("\(event)") }
        }
        try body()
        database.writer.writeWithoutTransaction { db in db.trace(options: .statement, nil) }

        let queries = statements.all.filter { $0.uppercased().hasPrefix("SELECT") }
        #expect(queries.count >= count)
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
