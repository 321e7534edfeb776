@testable import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// A device whose log was never folded into a snapshot (it synced a game at a time and its
/// compactions never ran) plays one more game: its next sync folds the log before it commits,
/// so the commit does not read the whole log and keep every record's winner.
@Suite struct NeverCompactedLogTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// Sends every commit as it is and never compacts: the log a device leaves when its
    /// compactions never ran.
    final class NeverCompacting: ForwardingCloudDatabase, @unchecked Sendable {
        let inner: FolderCloudDatabase
        init(_ inner: FolderCloudDatabase) { self.inner = inner }
        func compactIfWorthwhile(_ zone: ZoneID) throws(CloudStoreError) -> CompactionReport? { nil }
    }

    @Test func theNextSyncFoldsTheLogBeforeItCommits() throws {
        var laptop = try Machine("laptop", folder: folder, shared: clock)
        // Enough commits (of at most 400 records) for a log worth folding: past the 16 newest
        // segments a compaction keeps, the older ones over 64 KiB compressed.
        let games = 6_000
        try FirstUploadTests.seed(laptop, games: games)
        try SyncEngine(player: laptop.player, cloud: NeverCompacting(laptop.cloud), pause: { _ in }).sync()
        let zone = SyncZone.games.cloudZone
        #expect(!folder.allFiles.contains { $0.contains("/zones/\(zone.name)/snapshot-") }, "the log was never folded")

        // A new process on the laptop: one more game, one sync.
        try laptop.restart()
        let game = try laptop.start("zebra")
        try laptop.guess("crane", in: game.id)
        let report = try laptop.sync()
        #expect(report.uploaded == 2)
        #expect(folder.allFiles.contains { $0.contains("/zones/\(zone.name)/snapshot-") }, "folded")
        // What the store keeps of the zone afterwards: the records of the segments a compaction
        // leaves (the newest 16) and the commit's, not the history's (three records a game).
        let kept = try #require(laptop.cloud.keptRecords(in: zone))
        #expect(kept <= FolderCloudDatabase.recentSegmentsKept * CloudLimits.maxRecordsPerCommit + 2, "\(kept) records kept")
        #expect(kept < games, "\(kept) records kept of \(games * 3 + 2)")

        // And nothing was lost: a new machine gets every game and the new one.
        let desktop = try Machine("desktop", folder: folder, shared: clock)
        try desktop.sync()
        #expect(try desktop.player.history().count == games)
        #expect(try desktop.player.gamesInProgress().map(\.game.id) == [game.id])
    }
}

