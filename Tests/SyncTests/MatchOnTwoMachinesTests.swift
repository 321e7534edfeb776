import App
import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// One game of a match played on two of the player's machines before either had the other's
/// guesses (simulation seed 32277, made by hand): the player's machines and the other player's
/// end with the same play and the same leaderboard lines.
@Suite struct MatchOnTwoMachinesTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// A machine of `player` with its use cases.
    struct Seat {
        let machine: Machine
        let games: PlayerGames
    }

    func seat(_ device: String, _ player: String) throws -> Seat {
        let machine = try Machine(device, folder: folder, player: player, shared: clock)
        return Seat(machine: machine, games: PlayerGames(player: machine.player, lexicon: { Content.lexicon }))
    }

    /// One round: the machine's sync, then the shared zones' exchange; what either refused is an error.
    func round(_ seat: Seat) throws {
        let warnings = Locked([String]())
        try seat.machine.sync()
        _ = try seat.games.exchangeShared(cloud: seat.machine.cloud, warnings: { warning in warnings.withLock { $0.append(warning.description) } })
        #expect(warnings.withLock { $0 }.isEmpty)
    }

    @Test func aGameWonOnTwoMachinesAtOnceCountsTheSameForBothPlayers() throws {
        let laptop = try seat("laptop", "ana"), desktop = try seat("desktop", "ana"), pc = try seat("pc", "ben")
        let pack = try #require(try pc.machine.player.storedPacks().first { $0.rules == .classic && $0.words.count >= 3 })
        var generator = SeededGenerator(seed: 7)
        let match = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        _ = try pc.machine.player.keepMatch(match, madeHere: true)
        try round(pc)
        try round(laptop)
        try round(desktop)
        let word = try match.words(lexicon: Content.lexicon, packWords: nil)[0]
        let other = try #require(pack.words.map(\.word).first { $0 != word })

        // The laptop wins in two and publishes it; ben reads it.
        let onLaptop = try laptop.games.beginMatchGame(matchID: match.id)
        _ = try laptop.machine.player.submitGuess(other, gameID: onLaptop.id, lexicon: Content.lexicon, now: clock.now)
        _ = try laptop.machine.player.submitGuess(word, gameID: onLaptop.id, lexicon: Content.lexicon, now: clock.now)
        try round(laptop)
        try round(pc)
        #expect(try pc.games.matchOverview(id: match.id).state.result(of: "ana", game: 1)?.guesses == 2)

        // The desktop, which never had the laptop's guesses, plays the same game: a win in one.
        let onDesktop = try desktop.games.beginMatchGame(matchID: match.id)
        #expect(onDesktop.id == onLaptop.id)
        _ = try desktop.machine.player.submitGuess(word, gameID: onDesktop.id, lexicon: Content.lexicon, now: clock.now)
        for _ in 0..<3 {
            clock.advance(1)
            for seat in [desktop, laptop, pc] { try round(seat) }
        }

        // Both of ana's machines hold both guesses at the first place each played them; each
        // counts the game a win in 1 by its guesses, but the play once published is the win in 2.
        for seat in [laptop, desktop] {
            let game = try seat.machine.player.game(id: onLaptop.id)
            #expect(Set(game.game.guesses.map(\.word)) == [other, word] && game.game.guessesUsed == 1)
            #expect(game.synced.matchResult?.hasPrefix("won 2 ") == true, "\(String(describing: game.synced.matchResult))")
        }
        let day = DailyWord.date(day: DailyWord.day(secondsSince1970: clock.now.timeIntervalSince1970))
        let shown = try [laptop, desktop, pc].map { try $0.games.matchOverview(id: match.id).state.result(of: "ana", game: 1) }
        #expect(shown.map { $0?.guesses } == [2, 2, 2], "\(shown)")
        #expect(Set(shown.map { $0?.grid.text }).count == 1)
        // The leaderboard lines come from the history (a win in 1 on every machine, once each
        // machine published its line again after the guesses moved).
        let boards = try [laptop, desktop, pc].map { try $0.games.leaderboards(day: day).allTime }
        #expect(boards[0] == boards[1] && boards[1] == boards[2], "\(boards)")
        let ana = try #require(boards[2].flatMap(\.rows).first { $0.player == "ana" })
        #expect(ana.tally.wins == 1 && ana.tally.winGuesses == 1)
    }
}
