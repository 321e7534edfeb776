import Foundation
import Testing
import QiktionaryCore
@testable import Storage

@Suite struct DataDirTests {
    @Test func aDataDirThatCannotBeCreatedIsRefusedClearly() throws {
        let dir = try Fixtures.folder(["file": "not a folder"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let inside = dir.appendingPathComponent("file/data")
        #expect {
            try AppDatabase.open(dataDir: inside)
        } throws: { error in
            guard case StorageError.dataDirUnusable(let path, _) = error else { return false }
            return path == inside.path && !"\(error)".contains("\n")
        }
    }

    /// Two connections on one file, as two processes would have: both write, neither fails.
    @Test func twoConnectionsWriteToOneDataDirAtOnce() async throws {
        let dir = try Fixtures.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let packs = try Fixtures.folder(["stones.json": Fixtures.stones])
        defer { try? FileManager.default.removeItem(at: packs) }
        let first = try AppDatabase.open(dataDir: dir), second = try AppDatabase.open(dataDir: dir)
        _ = try first.importPacks(from: PackFile.files(in: packs), lexicon: { Fixtures.lexicon })
        _ = try second.importPacks(from: PackFile.files(in: packs), lexicon: { Fixtures.lexicon })
        let profile = try first.profile(player: nil, device: "desk", hostName: "h")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for db in [first, second] {
                group.addTask {
                    for _ in 0..<20 {
                        let game = try db.player(profile).startGame(GameRequest(packID: "stones"))
                        let guess = game.game.secret == "amber" ? "flint" : "amber"
                        _ = try db.player(profile).submitGuess(guess, gameID: game.id, lexicon: Fixtures.lexicon)
                        _ = try db.player(profile).giveUp(gameID: game.id)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try first.player(profile).history().count == 40)
        #expect(try second.player(profile).statistics().played == 40)
    }
}

@Suite struct TimeStampTests {
    /// A time saved here, sent through the cloud (whole milliseconds) and saved again is the
    /// same time, so sync never sees a change that is only rounding.
    @Test func stampsSurviveTheCloudsMilliseconds() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 1_500_000_000...2_000_000_000, using: &rng))
            let stored = AppDatabase.stamp(date)
            let throughCloud = Date(timeIntervalSince1970: (stored.timeIntervalSince1970 * 1000).rounded() / 1000)
            #expect(AppDatabase.stamp(throughCloud) == stored)
            #expect(AppDatabase.stamp(stored) == stored)
            #expect(abs(stored.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.001)
        }
    }
}
