import App
import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing

/// The shared zones' part of a sync round (`PlayerGames.exchangeShared`), for two players of one
/// folder in memory: what one publishes the other reads, counted once, and a round with nothing
/// new reads nothing.
@Suite struct ExchangeSharedTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    struct Player {
        let games: PlayerGames
        let cloud: FolderCloudDatabase

        init(_ name: String, on folder: MemoryFolder) throws {
            let database = try AppDatabase.inMemory(clock: { ExchangeSharedTests.now })
            _ = try database.importPacks(from: Content.packFiles, lexicon: { Content.lexicon })
            let profile = try database.profile(player: name, device: "\(name)-laptop", hostName: "\(name)-laptop")
            games = PlayerGames(player: database.player(profile), lexicon: { Content.lexicon })
            cloud = try FolderCloudDatabase.inMemory(folder, player: name, device: DeviceID("\(name)-laptop"),
                                                     options: CloudStoreOptions(now: { ExchangeSharedTests.now }))
        }

        @discardableResult
        func exchange() throws -> Int { try games.exchangeShared(cloud: cloud, warnings: nil) }
    }

    @Test func whatOnePlayerPublishesTheOtherReadsOnce() throws {
        let folder = MemoryFolder()
        let ann = try Player("ann", on: folder), bob = try Player("bob", on: folder)
        try ann.games.join(now: Self.now)
        try bob.games.join(now: Self.now)
        try ann.exchange()
        #expect(try bob.exchange() > 0, "ann's join arrives")
        #expect(try bob.games.friends().contains("ann"))
        try ann.exchange()
        #expect(try ann.games.friends().contains("bob"))

        let made = try ann.games.newMatch(against: "bob", packID: "animals", rules: nil, hard: false, seed: 7, now: Self.now)
        try ann.exchange()
        #expect(try bob.exchange() > 0, "the match arrives")
        #expect(try bob.games.matches().map(\.state.match.id) == [made.state.match.id])
        #expect(try bob.exchange() == 0, "nothing new: nothing read twice")
    }
}
