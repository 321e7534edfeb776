import Foundation
import Testing
import QiktionaryCore
@testable import Storage
import Sync

/// docs/sync.md step 1: every local change is queued in its own transaction, and acknowledging a
/// send clears exactly what was sent.
@Suite struct ChangeTrackingTests {
    let fields = Data("system fields".utf8)

    @Test func newGamesAndGuessesAreQueuedUntilAcknowledged() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        _ = try db.player(profile).submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon)
        let out = try db.player(profile).outgoingChanges(naming: CloudSchema())
        #expect(out.games.map(\.game.id) == [game.id] && out.games.first?.isNew == true)
        #expect(out.guesses.map(\.word) == ["flint"])
        #expect(try db.player(profile).pendingChangeCount() == 2)
        try db.player(profile).acknowledge(out, saved: [CloudSchema().game(game.id): fields, CloudSchema().guess(gameID: game.id, word: "flint"): fields],
                           deleted: [], naming: CloudSchema())
        #expect(try db.player(profile).outgoingChanges(naming: CloudSchema()).isEmpty)
        #expect(try db.player(profile).pendingChangeCount() == 0)
    }

    @Test func fieldsChangedBySavesMergeAndAChangeInFlightSurvivesItsAcknowledgement() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        // A game is sent once it has a guess.
        _ = try db.player(profile).submitGuess("blaze", gameID: game.id, lexicon: Fixtures.lexicon)
        try db.player(profile).acknowledge(try db.player(profile).outgoingChanges(naming: CloudSchema()), saved: [CloudSchema().game(game.id): fields], deleted: [], naming: CloudSchema())
        _ = try db.player(profile).mark("z", as: .out, gameID: game.id)
        let sent = try db.player(profile).outgoingChanges(naming: CloudSchema())
        #expect(sent.games.first?.changedFields == [.updatedAt], "the same device: lastChangedOn did not change")
        #expect(sent.games.first?.isNew == false && sent.games.first?.systemFields == fields)
        #expect(sent.marks.map(\.mark.letter) == ["z"])
        // While that is in flight the player gives up: the game's change grows and its version moves on.
        _ = try db.player(profile).giveUp(gameID: game.id)
        try db.player(profile).acknowledge(sent, saved: [CloudSchema().game(game.id): fields, CloudSchema().mark(gameID: game.id, letter: "z"): fields],
                           deleted: [], naming: CloudSchema())
        let left = try db.player(profile).outgoingChanges(naming: CloudSchema())
        #expect(left.marks.isEmpty, "the mark went and was acknowledged")
        #expect(left.games.first?.changedFields == [.finishedAt, .status, .updatedAt])
    }

    @Test func deletingASyncedGameQueuesItsRecordsAndBookmarksAreQueuedBothWays() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"))
        _ = try db.player(profile).submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon)
        _ = try db.player(profile).mark("q", as: .in, gameID: game.id)
        _ = try db.player(profile).giveUp(gameID: game.id)
        let out = try db.player(profile).outgoingChanges(naming: CloudSchema())
        let names = [CloudSchema().game(game.id), CloudSchema().guess(gameID: game.id, word: "flint"), CloudSchema().mark(gameID: game.id, letter: "q")]
        try db.player(profile).acknowledge(out, saved: Dictionary(uniqueKeysWithValues: names.map { ($0, fields) }), deleted: [], naming: CloudSchema())
        try db.player(profile).deleteGame(id: game.id)
        #expect(Set(try db.player(profile).outgoingChanges(naming: CloudSchema()).deletions.map(\.recordName)) == Set(names))

        try db.player(profile).addBookmark(word: "amber")
        try db.player(profile).removeBookmark(word: "amber")
        let bookmarks = try db.player(profile).outgoingChanges(naming: CloudSchema()).bookmarks
        #expect(bookmarks.map(\.bookmark.word) == ["amber"] && bookmarks.first?.bookmark.isBookmarked == false)
    }

    @Test func whatComesFromTheCloudIsNotQueuedBack() throws {
        let (db, profile) = try Fixtures.database()
        var incoming = IncomingChanges()
        let id = UUID().uuidString.lowercased()
        let now = AppDatabase.stamp(Date())
        incoming.games = [(SyncGame(id: id, packID: "stones", secret: "amber", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                    status: .inProgress, startedAt: now, updatedAt: now, finishedAt: nil, startedOn: "desk", lastChangedOn: "desk", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields)]
        incoming.guesses = [SyncGuess(gameID: id, word: "flint", position: 1, feedback: .common(0), playedAt: now, playedOn: "desk")]
        incoming.bookmarks = [(SyncBookmark(word: "crisp", packID: "stones", fact: "Crisp fact.", addedAt: now, isBookmarked: true), fields)]
        let report = try db.player(profile).applyIncoming(incoming, zone: .games, token: Data("token".utf8), naming: CloudSchema())
        #expect(report.applied == 3)
        #expect(try db.player(profile).outgoingChanges(naming: CloudSchema()).isEmpty)
        #expect(try db.player(profile).game(id: id).game.guesses.map(\.word) == ["flint"])
        #expect(try db.player(profile).zoneToken(.games) == Data("token".utf8))
    }

    /// A long-running process (`sync --watch`, the full-screen game) that once dropped a game
    /// deleted elsewhere still applies a later fetched deletion of another game: both run one
    /// cached statement, GRDB's way and then bound value by value (the simulation's seed 8563,
    /// where the deletion ran as `id = NULL` and the game stayed on this machine for good).
    @Test func aFetchedDeletionAfterADroppedGameStillDeletes() throws {
        let (db, profile) = try Fixtures.database()
        let player = try db.player(profile)
        let dropped = try player.startGame(GameRequest(word: "amber"))
        _ = try player.submitGuess("flint", gameID: dropped.id, lexicon: Fixtures.lexicon)
        let sent = try player.outgoingChanges(naming: CloudSchema())
        try player.dropDeletedElsewhere(recordNames: [CloudSchema().game(dropped.id)], sent: sent, naming: CloudSchema())
        #expect(throws: (any Error).self) { try player.game(id: dropped.id) }

        var incoming = IncomingChanges()
        let id = "00000000-0000-4000-8000-000000000042"
        let now = AppDatabase.stamp(Date())
        incoming.games = [(SyncGame(id: id, packID: "stones", secret: "amber", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                    status: .inProgress, startedAt: now, updatedAt: now, finishedAt: nil, startedOn: "desk", lastChangedOn: "desk",
                                    hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields)]
        _ = try player.applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
        #expect(try player.game(id: id).game.id == id)
        var deletion = IncomingChanges()
        deletion.deletions = [IncomingDeletion(name: CloudSchema().game(id), kind: .game(id: id))]
        let report = try player.applyIncoming(deletion, zone: .games, token: nil, naming: CloudSchema())
        #expect(report.deleted == 1)
        #expect(throws: (any Error).self) { try player.game(id: id) }
    }

    /// A fetch applied in batches of a few records, in the store's order (a game, then its
    /// guesses), so games are split between batches: every game whose record says "in
    /// progress" while its guesses hold the secret is settled as won, wherever the cut falls.
    @Test(arguments: [1, 2, 3, 5])
    func aFetchInSmallBatchesSettlesEveryGame(batch: Int) throws {
        let (db, profile) = try Fixtures.database()
        let now = AppDatabase.stamp(Date())
        var records: [(game: (SyncGame, Data)?, guess: SyncGuess?)] = []
        let ids = (0..<6).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        for (n, id) in ids.enumerated() {
            records.append(((SyncGame(id: id, packID: "stones", secret: "amber", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                      status: .inProgress, startedAt: now, updatedAt: now, finishedAt: nil, startedOn: "desk",
                                      lastChangedOn: "desk", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields), nil))
            let words = Array(["flint", "crisp", "dwarf"].prefix(n % 3)) + ["amber"]
            for (position, word) in words.enumerated() {
                records.append((nil, SyncGuess(gameID: id, word: word, position: position + 1, feedback: Rules.classic.feedback(for: word, against: "amber"),
                                               playedAt: now.addingTimeInterval(Double(position)), playedOn: "desk")))
            }
        }
        _ = try db.player(profile).applyIncoming(zone: .games, naming: CloudSchema()) { apply in
            for start in stride(from: 0, to: records.count, by: batch) {
                var changes = IncomingChanges()
                for record in records[start..<min(start + batch, records.count)] {
                    if let game = record.game { changes.games.append(game) }
                    if let guess = record.guess { changes.guesses.append(guess) }
                }
                try apply(changes)
            }
            return nil
        }
        #expect(try db.player(profile).gamesInProgress().isEmpty)
        let history = try db.player(profile).history()
        #expect(history.count == 6 && history.allSatisfy { $0.game.status == .won }, "\(history.map(\.game.status))")
    }

    /// Games in progress changed in the same millisecond are listed, and resumed, in the same
    /// order on every machine, whatever order they arrived in (a first sync stores them by name).
    @Test func gamesChangedAtTheSameMomentAreInTheSameOrderEverywhere() throws {
        let now = AppDatabase.stamp(Date())
        let ids = ["9", "1", "5"].map { "00000000-0000-4000-8000-00000000000\($0)" }
        var orders: [[String]] = [], resumed: [String?] = []
        for arrival in [ids, ids.reversed()] {
            let (db, profile) = try Fixtures.database()
            var incoming = IncomingChanges()
            for id in arrival {
                incoming.games.append((SyncGame(id: id, packID: "stones", secret: "amber", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                                status: .inProgress, startedAt: now, updatedAt: now, finishedAt: nil, startedOn: "desk",
                                                lastChangedOn: "desk", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields))
                incoming.guesses.append(SyncGuess(gameID: id, word: "flint", position: 1, feedback: .common(0), playedAt: now, playedOn: "desk"))
            }
            _ = try db.player(profile).applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
            orders.append(try db.player(profile).gamesInProgress().map(\.game.id))
            resumed.append(try db.player(profile).latestGameInProgress()?.game.id)
        }
        #expect(orders[0] == ids.sorted() && orders[1] == ids.sorted(), "\(orders)")
        #expect(resumed[0] == ids.sorted().first && resumed[1] == resumed[0])
    }

    /// Two players on one machine: a fetched game whose id is another player's game here is not
    /// this player's, and is neither taken over nor copied.
    @Test func aFetchedGameWithAnotherPlayersIDIsNotTaken() throws {
        let (db, ann) = try Fixtures.database()
        let bob = try db.profile(player: "bob", device: "desk", hostName: "desk")
        let annsGame = try db.player(ann).startGame(GameRequest(word: "amber"))
        let now = AppDatabase.stamp(Date())
        var incoming = IncomingChanges()
        incoming.games = [(SyncGame(id: annsGame.id, packID: "stones", secret: "crisp", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                    status: .won, startedAt: now, updatedAt: now, finishedAt: now, startedOn: "desk", lastChangedOn: "desk", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields)]
        _ = try db.player(bob).applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
        #expect(try db.player(bob).gamesInProgress().isEmpty && db.player(bob).history().isEmpty)
        let kept = try db.player(ann).game(id: annsGame.id)
        #expect(kept.game.secret == "amber" && kept.game.status == .inProgress)
    }
}
