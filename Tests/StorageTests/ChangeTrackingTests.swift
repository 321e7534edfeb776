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
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        _ = try db.submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon, profile: profile)
        let out = try db.outgoingChanges(naming: CloudSchema(), profile: profile)
        #expect(out.games.map(\.game.id) == [game.id] && out.games.first?.isNew == true)
        #expect(out.guesses.map(\.word) == ["flint"])
        #expect(try db.pendingChangeCount(profile: profile) == 2)
        try db.acknowledge(out, saved: [CloudSchema().game(game.id): fields, CloudSchema().guess(gameID: game.id, word: "flint"): fields],
                           deleted: [], naming: CloudSchema(), profile: profile)
        #expect(try db.outgoingChanges(naming: CloudSchema(), profile: profile).isEmpty)
        #expect(try db.pendingChangeCount(profile: profile) == 0)
    }

    @Test func fieldsChangedBySavesMergeAndAChangeInFlightSurvivesItsAcknowledgement() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        // A game is sent once it has a guess.
        _ = try db.submitGuess("blaze", gameID: game.id, lexicon: Fixtures.lexicon, profile: profile)
        try db.acknowledge(try db.outgoingChanges(naming: CloudSchema(), profile: profile), saved: [CloudSchema().game(game.id): fields], deleted: [], naming: CloudSchema(), profile: profile)
        _ = try db.mark("z", as: .out, gameID: game.id, profile: profile)
        let sent = try db.outgoingChanges(naming: CloudSchema(), profile: profile)
        #expect(sent.games.first?.changedFields == [.updatedAt], "the same device: lastChangedOn did not change")
        #expect(sent.games.first?.isNew == false && sent.games.first?.systemFields == fields)
        #expect(sent.marks.map(\.mark.letter) == ["z"])
        // While that is in flight the player gives up: the game's change grows and its version moves on.
        _ = try db.giveUp(gameID: game.id, profile: profile)
        try db.acknowledge(sent, saved: [CloudSchema().game(game.id): fields, CloudSchema().mark(gameID: game.id, letter: "z"): fields],
                           deleted: [], naming: CloudSchema(), profile: profile)
        let left = try db.outgoingChanges(naming: CloudSchema(), profile: profile)
        #expect(left.marks.isEmpty, "the mark went and was acknowledged")
        #expect(left.games.first?.changedFields == [.finishedAt, .status, .updatedAt])
    }

    @Test func deletingASyncedGameQueuesItsRecordsAndBookmarksAreQueuedBothWays() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.startGame(GameRequest(word: "amber"), profile: profile)
        _ = try db.submitGuess("flint", gameID: game.id, lexicon: Fixtures.lexicon, profile: profile)
        _ = try db.mark("q", as: .in, gameID: game.id, profile: profile)
        _ = try db.giveUp(gameID: game.id, profile: profile)
        let out = try db.outgoingChanges(naming: CloudSchema(), profile: profile)
        let names = [CloudSchema().game(game.id), CloudSchema().guess(gameID: game.id, word: "flint"), CloudSchema().mark(gameID: game.id, letter: "q")]
        try db.acknowledge(out, saved: Dictionary(uniqueKeysWithValues: names.map { ($0, fields) }), deleted: [], naming: CloudSchema(), profile: profile)
        try db.deleteGame(id: game.id, profile: profile)
        #expect(Set(try db.outgoingChanges(naming: CloudSchema(), profile: profile).deletions.map(\.recordName)) == Set(names))

        try db.addBookmark(word: "amber", profile: profile)
        try db.removeBookmark(word: "amber", profile: profile)
        let bookmarks = try db.outgoingChanges(naming: CloudSchema(), profile: profile).bookmarks
        #expect(bookmarks.map(\.bookmark.word) == ["amber"] && bookmarks.first?.bookmark.isBookmarked == false)
    }

    @Test func whatComesFromTheCloudIsNotQueuedBack() throws {
        let (db, profile) = try Fixtures.database()
        var incoming = IncomingChanges()
        let id = UUID().uuidString.lowercased()
        let now = AppDatabase.stamp(Date())
        incoming.games = [(SyncGame(id: id, packID: "stones", secret: "amber", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                    status: .inProgress, startedAt: now, updatedAt: now, finishedAt: nil, startedOn: "desk", lastChangedOn: "desk"), fields)]
        incoming.guesses = [SyncGuess(gameID: id, word: "flint", position: 1, feedback: .common(1), playedAt: now, playedOn: "desk")]
        incoming.bookmarks = [(SyncBookmark(word: "crisp", packID: "stones", fact: "Crisp fact.", addedAt: now, isBookmarked: true), fields)]
        let report = try db.applyIncoming(incoming, zone: .games, token: Data("token".utf8), naming: CloudSchema(), profile: profile)
        #expect(report.applied == 3)
        #expect(try db.outgoingChanges(naming: CloudSchema(), profile: profile).isEmpty)
        #expect(try db.game(id: id, profile: profile).game.guesses.map(\.word) == ["flint"])
        #expect(try db.zoneToken(.games, profile: profile) == Data("token".utf8))
    }

    /// Two players on one machine: a fetched game whose id is another player's game here is not
    /// this player's, and is neither taken over nor copied.
    @Test func aFetchedGameWithAnotherPlayersIDIsNotTaken() throws {
        let (db, ann) = try Fixtures.database()
        let bob = try db.profile(player: "bob", device: "desk", hostName: "desk")
        let annsGame = try db.startGame(GameRequest(word: "amber"), profile: ann)
        let now = AppDatabase.stamp(Date())
        var incoming = IncomingChanges()
        incoming.games = [(SyncGame(id: annsGame.id, packID: "stones", secret: "crisp", fact: "Fact.", rules: .classic, maxGuesses: 15,
                                    status: .won, startedAt: now, updatedAt: now, finishedAt: now, startedOn: "desk", lastChangedOn: "desk"), fields)]
        _ = try db.applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema(), profile: bob)
        #expect(try db.gamesInProgress(profile: bob).isEmpty && db.history(profile: bob).isEmpty)
        let kept = try db.game(id: annsGame.id, profile: ann)
        #expect(kept.game.secret == "amber" && kept.game.status == .inProgress)
    }
}
