import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// Hard mode and hints travel with the game; hints taken on two machines merge as a union.
@Suite struct CoachSyncTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    @Test func hardAndHintsReachTheOtherMachine() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        clock.advance(1)
        let game = try a.player.startGame(GameRequest(word: "tiger", hard: true), now: clock.now)
        _ = try a.player.recordHint(gameID: game.id)
        try a.guess("crane", in: game.id)
        try a.sync()
        try b.sync()
        let there = try b.game(game.id)
        #expect(there.game.hard && there.hints == [0])
        #expect(there.game.guesses.map(\.word) == ["crane"])
        // Hard mode holds on the other machine too: a guess that contradicts CRANE is refused there.
        let crane = there.game.guesses[0].feedback
        let contradiction = Content.lexicon.words(ofLength: 5).first { $0 != "tiger" && Rules.classic.allows($0)
            && Rules.classic.feedback(for: "crane", against: $0) != crane }!
        #expect(throws: StorageError.self) { try b.guess(contradiction, in: game.id) }
    }

    @Test func hintsTakenOnBothMachinesAtOnceAreAllKept() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("pilot", in: game.id)
        try a.sync()
        try b.sync()
        // Offline from each other: A takes a hint after its first guess, B plays one more and takes a hint after it.
        _ = try a.player.recordHint(gameID: game.id)
        try b.guess("crane", in: game.id)
        _ = try b.player.recordHint(gameID: game.id)
        try a.sync()
        try b.sync()
        try a.sync()
        #expect(try a.game(game.id).hints == [1, 2])
        #expect(try b.game(game.id).hints == [1, 2])
        #expect(try a.player.pendingChangeCount() == 0)
        #expect(try b.player.pendingChangeCount() == 0)
    }

    @Test func aGameWithoutTheCoachIsSentWithoutItsFields() throws {
        let plain = SyncGame(id: "00000000-0000-4000-8000-000000000001", packID: "animals", secret: "tiger", fact: "f", rules: .classic,
                             maxGuesses: 15, status: .inProgress, startedAt: Date(timeIntervalSince1970: 1), updatedAt: Date(timeIntervalSince1970: 1),
                             finishedAt: nil, startedOn: "a", lastChangedOn: "a", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil)
        let record = CloudSchema.record(plain, fields: nil, device: "a", systemFields: nil)
        #expect(record["hard"] == nil && record["hints"] == nil, "the same bytes as before the coach")
        var coached = plain
        coached.hard = true
        coached.hints = "0,3"
        let sent = CloudSchema.record(coached, fields: nil, device: "a", systemFields: nil)
        #expect(sent["hard"] == .bool(true) && sent["hints"] == .string("0,3"))
    }

    @Test func badCoachFieldsFromTheCloudAreSkipped() throws {
        let plain = SyncGame(id: "00000000-0000-4000-8000-000000000001", packID: "animals", secret: "tiger", fact: "f", rules: .classic,
                             maxGuesses: 15, status: .inProgress, startedAt: Date(timeIntervalSince1970: 1), updatedAt: Date(timeIntervalSince1970: 1),
                             finishedAt: nil, startedOn: "a", lastChangedOn: "a", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil)
        let good = CloudSchema.record(plain, fields: nil, device: "a", systemFields: nil)
        #expect(CloudSchema.syncGame(good) != nil)
        for (key, value) in [("hard", FieldValue.string("yes")), ("hard", .int(1)), ("hints", .string("1,x")), ("hints", .int(2)),
                             ("hints", .string(String(repeating: "1,", count: 200) + "1"))] {
            var bad = good
            bad.fields[key] = value
            #expect(CloudSchema.syncGame(bad) == nil, "\(key): \(value)")
        }
    }

    /// A match game's kept result from the cloud (anyone can write the folder): one of the
    /// game's rules and limits is read, anything else refuses the record, at every extreme.
    @Test func aKeptMatchResultFromTheCloudIsCheckedBeforeItIsRead() throws {
        let plain = SyncGame(id: "00000000-0000-4000-8000-000000000001", packID: "animals", secret: "tiger", fact: "f", rules: .classic,
                             maxGuesses: 15, status: .won, startedAt: Date(timeIntervalSince1970: 1), updatedAt: Date(timeIntervalSince1970: 1),
                             finishedAt: Date(timeIntervalSince1970: 1), startedOn: "a", lastChangedOn: "a", hard: false, assist: .proven,
                             hints: "", daily: nil, matchResult: nil)
        var good = CloudSchema.record(plain, fields: nil, device: "a", systemFields: nil)
        #expect(good["matchResult"] == nil, "a game with no result is the same bytes as before the field")
        good.fields["matchResult"] = .string("won 2 0 proven 2,5")
        #expect(CloudSchema.syncGame(good)?.matchResult == "won 2 0 proven 2,5")
        let longest = "won 30 31 coach " + Array(repeating: "1", count: 29).joined(separator: ",") + ",5"
        good.fields["matchResult"] = .string(longest)
        #expect(CloudSchema.syncGame(good)?.matchResult == longest, "the longest a game can have")
        let refused: [FieldValue] = [
            .int(2), .string(""), .string("won 2 0 proven 1+1,5+0"), .string("won 3 0 proven 2,5"), .string("in-progress 1 0 proven 2"),
            .string("won 31 0 proven " + Array(repeating: "1", count: 31).joined(separator: ",")), .string("won 2 99 proven 2,5"),
            .string("won 2 0 proven 2,5\u{1b}[2J"), .string("won 2 0 help 2,5"), .string("won -1 0 proven "),
            .string(String(repeating: "won 2 0 proven 2,5 ", count: 20)),
        ]
        for value in refused {
            var bad = good
            bad.fields["matchResult"] = value
            #expect(CloudSchema.syncGame(bad) == nil, "\(value)")
        }
    }
}
