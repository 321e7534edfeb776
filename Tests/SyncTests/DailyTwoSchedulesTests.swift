import CloudStore
import Foundation
import QiktionaryCore
import Storage
@testable import Sync
import Testing

/// Two machines whose schedules name different words for one date (one updated with new packs,
/// one not) play one daily game, on one word: the game's record carries its word.
@Suite struct DailyTwoSchedulesTests {
    static let date = "2027-06-01"
    static var day: Int { DailyWord.day(of: date)! }
    static func schedule(_ lines: [(String, String)]) -> DailySchedule {
        DailySchedule(firstDay: day, entries: lines.map { .init(pack: $0.0, word: $0.1) })
    }
    static let laptop = schedule([("animals", "tiger")])
    static let desktop = schedule([("animals", "zebra")])

    func daily(_ machine: Machine, _ schedule: DailySchedule) throws -> SavedGame {
        machine.clock.advance(1)
        return try machine.player.startGame(try machine.database.dailyRequest(day: Self.day, schedule: schedule), now: machine.clock.now)
    }

    @Test func theOtherMachinePlaysTheRecordsWordNotItsSchedules() throws {
        let folder = MemoryFolder(), clock = TestClock()
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try daily(a, Self.laptop)
        #expect(game.game.secret == "tiger")
        try a.guess("crane", in: game.id)
        try a.sync()
        try b.sync()
        let resumed = try daily(b, Self.desktop)
        #expect(resumed.id == game.id && resumed.game.secret == "tiger" && resumed.daily == Self.date, "the record's word, not zebra")
        try b.guess("tiger", in: game.id)
        try b.sync()
        try a.sync()
        for machine in [a, b] {
            let saved = try machine.game(game.id)
            #expect(saved.game.secret == "tiger" && saved.game.status == .won && saved.game.guesses.map(\.word) == ["crane", "tiger"])
        }
    }

    @Test func bothStartedOfflineOnTwoWordsBecomeOneGameOnTheWordSentFirst() throws {
        let folder = MemoryFolder(), clock = TestClock()
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let onA = try daily(a, Self.laptop), onB = try daily(b, Self.desktop)
        #expect(onA.id == onB.id && onA.game.secret == "tiger" && onB.game.secret == "zebra")
        try a.guess("crane", in: onA.id)
        try b.guess("camel", in: onB.id)  // scored against zebra
        try b.guess("horse", in: onB.id)
        #expect(Rules.classic.feedback(for: "camel", against: "zebra") != Rules.classic.feedback(for: "camel", against: "tiger"))
        #expect(Rules.classic.feedback(for: "horse", against: "zebra") == Rules.classic.feedback(for: "horse", against: "tiger"))
        try a.sync()  // the laptop's copy reaches the cloud first
        try b.sync()  // the desktop's copy is refused, or fetched over: tiger wins
        try a.sync()
        try b.sync()
        for machine in [a, b] {
            let saved = try machine.game(onA.id)
            #expect(saved.game.secret == "tiger", "\(machine.name)")
            // camel scored 2 against zebra, 1 against tiger: not this game's. horse scores 2 against
            // both, so its feedback is true of tiger too and it stays, as a guess of this game.
            #expect(saved.game.guesses.map(\.word) == ["crane", "horse"], "\(machine.name): no guess scored against zebra alone")
            for guess in saved.game.guesses {
                #expect(guess.feedback == saved.game.rules.feedback(for: guess.word, against: "tiger"))
            }
        }
        // Play goes on, on one word, on both.
        try b.guess("tiger", in: onA.id)
        try b.sync()
        try a.sync()
        #expect(try a.game(onA.id).game.status == .won && (try b.game(onA.id).game.status) == .won)
    }
}
