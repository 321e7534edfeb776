import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// The first upload of a long history (a player who turns sync on after years of play): sent a
/// page of games at a time, with its progress told, acknowledged as it goes, and not read back.
@Suite struct FirstUploadTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// `count` finished games of two guesses each, put in the database as if played here and
    /// never synced (as the benchmark seeds them).
    static func seed(_ machine: Machine, games count: Int) throws {
        var incoming = IncomingChanges()
        let fields = try SystemFields(changeTag: "seed", createdBy: DeviceID("seed"), createdAt: HLCTimestamp(millis: 0, counter: 0),
                                      modifiedBy: DeviceID("seed"), modifiedAt: HLCTimestamp(millis: 0, counter: 0)).encoded
        let start = Date(timeIntervalSince1970: 1_780_000_000), device = machine.profile.device.name
        for index in 0..<count {
            let id = String(format: "00000000-0000-4000-8000-%012x", index)
            let played = start.addingTimeInterval(Double(index) * 600)
            for (n, word) in ["crane", "tiger"].enumerated() {
                incoming.guesses.append(SyncGuess(gameID: id, word: word, position: n + 1, feedback: Rules.classic.feedback(for: word, against: "tiger"),
                                                  playedAt: played.addingTimeInterval(Double(n) * 20), playedOn: device))
            }
            incoming.games.append((SyncGame(id: id, packID: "animals", secret: "tiger", fact: "A big cat.", rules: .classic, maxGuesses: 6,
                                            status: .won, startedAt: played, updatedAt: played.addingTimeInterval(20),
                                            finishedAt: played.addingTimeInterval(20), startedOn: device, lastChangedOn: device, hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields))
        }
        try machine.player.applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
        try machine.player.forgetSyncMetadata()
    }

    @Test func aLongHistoryIsSentInPagesWithItsProgressAndNothingReadBack() throws {
        // More than a page, and more records than a fetch's batch (progress is told past that).
        let games = max(SyncEngine.gamesPerPage, SyncEngine.defaultStreamChunk / 3) + 100, records = games * 3
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try Self.seed(a, games: games)
        let counting = CountingCloud(a.cloud)
        let told = Locked<[(Int, Int)]>([])
        var engine = SyncEngine(player: a.player, cloud: counting, pause: { _ in })
        engine.sendProgress = { done, total in told.withLock { $0.append((done, total)) } }
        let report = try engine.sync()
        #expect(report.uploaded == records)
        #expect(try a.player.pendingChangeCount() == 0, "every commit acknowledged")
        let steps = told.withLock { $0 }
        #expect(steps.count >= records / SyncEngine.batchLimit, "told after every commit")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.0 < $1.0 }, "never backwards")
        #expect(steps.allSatisfy { $0.1 == records })
        #expect(steps.last.map { $0 == (records, records) } == true, "ends at the whole")
        // The zone was new to the cloud: its (empty) first fetch came before the upload, so the
        // fetch after it read nothing back.
        #expect(counting.fetched.withLock { $0 } == 0)
        #expect(try b.sync().downloaded == records)
        #expect(try b.player.pendingChangeCount() == 0)
        #expect(try b.game(String(format: "00000000-0000-4000-8000-%012x", games - 1)).game.guesses.count == 2)
        // Nothing was lost to the early token: a game played on the desktop meanwhile arrives.
        let game = try b.start("zebra")
        _ = try b.guess("crane", in: game.id)
        try b.sync()
        #expect(try engine.sync().downloaded == 2)
        #expect(try a.game(game.id).game.guesses.count == 1)
    }

    /// Into a cloud new to the player, the store writes the long history straight as this
    /// machine's snapshot: no segments to fold afterwards, and another machine gets it whole.
    @Test func aLongHistoryIntoANewCloudIsWrittenAsASnapshot() throws {
        let games = SyncEngine.gamesPerPage + 100, records = games * 3
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try Self.seed(a, games: games)
        #expect(try a.sync().uploaded == records)
        #expect(try a.player.pendingChangeCount() == 0 && a.player.snapshotUploadZone() == nil)
        let mine = folder.allFiles.filter { $0.contains(a.cloud.device.name) && $0.contains("/Games/") }
        #expect(!mine.contains { $0.hasSuffix(".seg") } && mine.contains { $0.hasSuffix("snapshot-000000000001.snap") }, "\(mine)")
        #expect(try b.sync().downloaded == records)
        #expect(try b.player.pendingChangeCount() == 0)
        #expect(try b.game(String(format: "00000000-0000-4000-8000-%012x", games - 1)).game.guesses.count == 2)
        // Both go on as usual: a game played on each arrives on the other.
        let fromA = try a.start("zebra"), fromB = try b.start("tiger")
        _ = try a.guess("crane", in: fromA.id)
        _ = try b.guess("crane", in: fromB.id)
        try a.sync()
        try b.sync()
        #expect(try a.sync().downloaded == 2)
        #expect(try a.game(fromB.id).game.guesses.count == 1 && b.game(fromA.id).game.guesses.count == 1)
    }

    /// Pages are acknowledged as the store takes them, before the snapshot is published: a sync
    /// that stops before (here the head cannot be written) leaves a note, and the next sync,
    /// finding nothing published, sends every game again.
    @Test(arguments: [CrashPoint(file: .head, step: .publish, timing: .before), CrashPoint(file: .snapshot, step: .publish, timing: .before)])
    func anUploadStoppedBeforeItsSnapshotIsPublishedIsSentAgain(_ point: CrashPoint) throws {
        let games = SyncEngine.gamesPerPage + 100, records = games * 3
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try Self.seed(a, games: games)
        // The zone is there already (so the crash is not at its making): its first token comes from the upload.
        try a.cloud.createZone(SyncZone.games.cloudZone)
        a.faults.crash(at: point)
        #expect(throws: SyncError.self) { try a.sync() }
        #expect(try a.player.snapshotUploadZone() == .games)
        #expect(try a.player.pendingChangeCount() < records, "the first page was acknowledged")
        #expect(try b.sync().downloaded == 0, "nothing was published")
        #expect(try a.sync().uploaded == records)
        #expect(try a.player.snapshotUploadZone() == nil && a.player.pendingChangeCount() == 0)
        #expect(try b.sync().downloaded == records)
    }

    @Test func aShortUploadTellsNoProgress() throws {
        let a = try Machine("laptop", folder: folder, shared: clock)
        try Self.seed(a, games: 20)
        let told = Locked(0)
        var engine = a.engine
        engine.sendProgress = { _, _ in told.withLock { $0 += 1 } }
        #expect(try engine.sync().uploaded == 60)
        #expect(told.withLock { $0 } == 0)
    }

    /// Into a cloud another machine started, the usual full fetch follows the upload, as before.
    @Test func intoACloudAlreadyStartedTheFirstFetchIsWhole() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try b.start("zebra")
        _ = try b.guess("crane", in: game.id)
        try b.sync()
        try Self.seed(a, games: 30)
        let counting = CountingCloud(a.cloud)
        let report = try SyncEngine(player: a.player, cloud: counting, pause: { _ in }).sync()
        #expect(report.uploaded == 90 && report.downloaded == 2)
        #expect(counting.fetched.withLock { $0 } == 92, "every record, this machine's own included")
    }

    /// Commits are acknowledged together, a page at a time; a commit that fails still leaves
    /// every commit made before it acknowledged (and nothing after it sent).
    @Test func whatTheCloudTookIsAcknowledgedWhenALaterCommitFails() throws {
        let games = SyncEngine.gamesPerPage + 100
        let a = try Machine("laptop", folder: folder, shared: clock)
        try Self.seed(a, games: games)
        // A guess of the last game: sent in the last page, after every commit of the first.
        a.faults.failRecords([CloudSchema().guess(gameID: String(format: "00000000-0000-4000-8000-%012x", games - 1), word: "tiger")])
        #expect(throws: SyncError.self) { try a.sync() }
        let left = try a.player.pendingChangeCount()
        #expect(left > 0 && left <= 400, "only the failed commit's records wait: \(left)")
        a.faults.failRecords([])
        #expect(try a.sync().uploaded == left)
        #expect(try a.player.pendingChangeCount() == 0)
    }
}

/// Counts the records full and incremental fetches return.
final class CountingCloud: ForwardingCloudDatabase, @unchecked Sendable {
    let inner: FolderCloudDatabase
    let fetched = Locked(0)

    init(_ inner: FolderCloudDatabase) { self.inner = inner }

    func fetchZoneChanges(_ zone: ZoneID, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges {
        let changes = try inner.fetchZoneChanges(zone, since: token)
        fetched.withLock { $0 += changes.changedRecords.count }
        return changes
    }
}
