import Foundation
import Testing
@testable import QiktionaryCore

/// The game's conflict rules on their own: the same merged game whichever copy is whose.
@Suite struct GameMergeTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    static func copy(_ status: GameStatus, finished: Double? = nil, updated: Double, on device: String, hard: Bool = false,
                     assist: Assist = .proven, hints: Set<Int> = [], daily: String? = nil, matchResult: String? = nil) -> SyncGame {
        SyncGame(id: "00000000-0000-4000-8000-000000000001", packID: "animals", secret: "tiger", fact: "f", rules: .classic,
                 maxGuesses: 15, status: status, startedAt: at(0), updatedAt: at(updated), finishedAt: finished.map(at), startedOn: "a",
                 lastChangedOn: device, hard: hard, assist: assist, hints: HintLog.text(Array(hints)), daily: daily,
                 matchResult: matchResult)
    }

    @Test func theHigherStatusWinsWithItsEarlierFinishAndTheLaterChangeNamesTheDevice() {
        let won = Self.copy(.won, finished: 50, updated: 50, on: "laptop", hints: [0])
        let lost = Self.copy(.lost, finished: 40, updated: 60, on: "desktop", hints: [2])
        for merged in [GameMerge.merge(won, lost), GameMerge.merge(lost, won)] {
            #expect(merged.status == .won && merged.finishedAt == Self.at(50))
            #expect(merged.updatedAt == Self.at(60) && merged.lastChangedOn == "desktop")
            #expect(HintLog.parse(merged.hints) == [0, 2])
        }
        let first = Self.copy(.won, finished: 30, updated: 30, on: "a"), second = Self.copy(.won, finished: 20, updated: 20, on: "b")
        #expect(GameMerge.merge(first, second).finishedAt == Self.at(20), "both won: the earlier finish")
    }

    /// Two machines of the player published two results of one match game (each before it had
    /// the other's guesses): the game keeps the one further on, as the readers of both do; a
    /// text of no result's form gives way to one that is.
    @Test func aMatchResultKeptIsTheOneFurtherOn() {
        let inTwo = Self.copy(.won, finished: 5, updated: 5, on: "a", matchResult: "won 2 0 proven 3,5")
        let inOne = Self.copy(.won, finished: 4, updated: 6, on: "b", matchResult: "won 1 0 proven 5")
        let none = Self.copy(.won, finished: 4, updated: 7, on: "c")
        let garbled = Self.copy(.won, finished: 4, updated: 8, on: "d", matchResult: "won two")
        for (a, b) in [(inTwo, inOne), (inOne, inTwo), (inTwo, none), (none, inTwo), (inTwo, garbled), (garbled, inTwo)] {
            #expect(GameMerge.merge(a, b).matchResult == "won 2 0 proven 3,5")
        }
        #expect(GameMerge.merge(none, none).matchResult == nil)
        #expect(MatchResult.furthest("won 1 1 proven 5", "won 1 0 proven 5") == "won 1 1 proven 5", "more hints is further on")
        #expect(MatchResult.furthest("lost 6 0 proven 0,0,0,0,0,0", "won 6 0 proven 0,0,0,0,0,5") == "won 6 0 proven 0,0,0,0,0,5")
    }

    @Test func aStatusNeverMovesDownAndAnOpenGameHasNoFinish() {
        let open = Self.copy(.inProgress, updated: 90, on: "a"), gaveUp = Self.copy(.gaveUp, finished: 10, updated: 10, on: "b")
        #expect(GameMerge.merge(open, gaveUp).status == .gaveUp && GameMerge.merge(open, gaveUp).finishedAt == Self.at(10))
        #expect(GameMerge.merge(open, open).finishedAt == nil)
    }

    @Test func fixedFieldsAreKeptFromWhicheverCopyHasThem() {
        let plain = Self.copy(.inProgress, updated: 1, on: "a"), daily = Self.copy(.inProgress, updated: 2, on: "b", hard: true, daily: "2026-11-22")
        for merged in [GameMerge.merge(plain, daily), GameMerge.merge(daily, plain)] {
            #expect(merged.hard && merged.daily == "2026-11-22")
        }
    }

    /// One daily game started on two machines at two help levels: the higher is the game's
    /// everywhere (help seen is never forgotten).
    @Test func theHigherHelpLevelIsKept() {
        for (a, b) in [(Assist.noHelp, Assist.proven), (.proven, .coach), (.noHelp, .coach)] {
            let low = Self.copy(.inProgress, updated: 5, on: "a", assist: a), high = Self.copy(.inProgress, updated: 1, on: "b", assist: b)
            #expect(GameMerge.merge(low, high).assist == b && GameMerge.merge(high, low).assist == b)
        }
    }

    /// Any order of merging gives the same game: the rules are a join.
    @Test func mergingIsCommutativeAssociativeAndIdempotent() {
        var random = SeededGenerator(seed: 3)
        let statuses: [GameStatus] = [.inProgress, .lost, .gaveUp, .won]
        func any() -> SyncGame {
            let status = statuses.randomElement(using: &random)!
            return Self.copy(status, finished: status.isFinished ? Double(Int.random(in: 0...5, using: &random)) : nil,
                             updated: Double(Int.random(in: 0...5, using: &random)), on: ["a", "b", "c"].randomElement(using: &random)!,
                             hard: Bool.random(using: &random), hints: Set((0..<Int.random(in: 0...3, using: &random)).map { $0 * 2 }))
        }
        for _ in 0..<500 {
            let a = any(), b = any(), c = any()
            #expect(GameMerge.merge(a, b).status == GameMerge.merge(b, a).status)
            #expect(GameMerge.merge(a, b).lastChangedOn == GameMerge.merge(b, a).lastChangedOn)
            #expect(GameMerge.merge(a, b).hints == GameMerge.merge(b, a).hints)
            #expect(GameMerge.merge(GameMerge.merge(a, b), c).status == GameMerge.merge(a, GameMerge.merge(b, c)).status)
            #expect(GameMerge.merge(a, a).hints == a.hints && GameMerge.merge(a, a).status == a.status)
        }
    }

    @Test func settlingIsWhatTheGuessesProve() {
        let guesses = [("crane", Self.at(1)), ("tiger", Self.at(2)), ("brick", Self.at(3))].map { (word: $0.0, playedAt: $0.1) }
        let won = GameMerge.settle(status: .inProgress, finishedAt: nil, secret: "tiger", maxGuesses: 15, guesses: guesses)
        #expect(won.status == .won && won.finishedAt == Self.at(2), "won when the winning guess was played")
        let full = GameMerge.settle(status: .inProgress, finishedAt: nil, secret: "zebra", maxGuesses: 3, guesses: guesses)
        #expect(full.status == .lost && full.finishedAt == Self.at(3))
        let gaveUp = GameMerge.settle(status: .gaveUp, finishedAt: Self.at(9), secret: "zebra", maxGuesses: 15, guesses: guesses)
        #expect(gaveUp.status == .gaveUp && gaveUp.finishedAt == Self.at(9), "nothing proven: as it was")
        let givenUpThenFound = GameMerge.settle(status: .gaveUp, finishedAt: Self.at(9), secret: "tiger", maxGuesses: 15, guesses: guesses)
        #expect(givenUpThenFound.status == .won, "a win found on the other machine moves a give-up up")
        let alreadyWon = GameMerge.settle(status: .won, finishedAt: Self.at(7), secret: "tiger", maxGuesses: 15, guesses: guesses)
        #expect(alreadyWon.finishedAt == Self.at(7))
    }
}
