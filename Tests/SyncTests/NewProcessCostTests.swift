@testable import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// A new process (every launch of the game, every `qiktionary sync`) that sends or receives one
/// change pays for that change, not for the history: it reads the heads, the snapshots' lists,
/// the segments after them and the one snapshot part that may hold each record it needs, however
/// many games the player has (docs/performance.md, issue 27). Counted, not timed: the files the
/// folder reads and the records the store decodes, at two sizes of history.
@Suite struct NewProcessCostTests {
    struct Cost: Equatable, CustomStringConvertible {
        var files: Int
        var checks: Int
        var listings: Int
        var records: Int
        var description: String { "\(files) files read, \(checks) existence checks, \(listings) listings, \(records) records decoded" }
    }

    /// The JSON of a snapshot part in these tests: a dozen records, so a long history has many parts.
    static let partBytes = 4_000

    /// A laptop with `games` finished games in its snapshot and a desktop that has them all; then,
    /// each in a new process, the laptop sends a new game and one guess and the desktop receives them.
    func costs(games: Int) throws -> (send: Cost, receive: Cost) {
        let folder = MemoryFolder(), clock = TestClock()
        var laptop = try Machine("laptop", folder: folder, shared: clock), desktop = try Machine("desktop", folder: folder, shared: clock)
        laptop.cloud.limitSnapshots(partBytes: Self.partBytes)
        try FirstUploadTests.seed(laptop, games: games)
        try laptop.sync()
        // Everything in the laptop's snapshot, whichever way the first upload went.
        _ = try laptop.cloud.compact(SyncZone.games.cloudZone)
        try desktop.sync()
        #expect(try desktop.player.history().count == games)

        try laptop.restart()
        try desktop.restart()
        let game = try laptop.start("zebra")
        try laptop.guess("crane", in: game.id)
        func measured(_ machine: Machine) throws -> Cost {
            let before = folder.statistics
            try machine.sync()
            let after = folder.statistics
            return Cost(files: after.filesRead - before.filesRead, checks: after.existenceChecks - before.existenceChecks,
                        listings: after.listings - before.listings, records: machine.cloud.recordsDecoded)
        }
        let send = try measured(laptop)
        let receive = try measured(desktop)
        #expect(try desktop.game(game.id).game.guesses.map(\.word) == ["crane"])
        #expect(try desktop.player.history().count == games)
        return (send, receive)
    }

    @Test func aNewProcessSyncingOneChangeReadsTheSameWhateverTheHistory() throws {
        let short = try costs(games: 100), long = try costs(games: 2_000)
        // The same files, existence checks and listings, at 100 games and at 2,000.
        #expect(Cost(files: long.send.files, checks: long.send.checks, listings: long.send.listings, records: 0)
                == Cost(files: short.send.files, checks: short.send.checks, listings: short.send.listings, records: 0),
                "sending: \(short.send) at 100 games, \(long.send) at 2,000")
        #expect(Cost(files: long.receive.files, checks: long.receive.checks, listings: long.receive.listings, records: 0)
                == Cost(files: short.receive.files, checks: short.receive.checks, listings: short.receive.listings, records: 0),
                "receiving: \(short.receive) at 100 games, \(long.receive) at 2,000")
        // The records decoded: the new segments' and one part's, whatever the history (a part
        // holds a dozen records here; the history 300 and 6,000).
        for cost in [short.send, short.receive, long.send, long.receive] {
            #expect(cost.records <= 2 * 16, "\(cost)")
        }
        #expect(long.send.files <= 12 && long.receive.files <= 12, "sending: \(long.send); receiving: \(long.receive)")
    }
}
