import CloudStore
import Foundation
import TestSupport
import Testing

@Suite struct WatcherTests {
    /// Waits up to `seconds` for `flag` to be raised by a watcher's callback.
    private func waitFor(_ flag: Flag, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if flag.isRaised { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    final class Flag: Sendable {
        private let lock = NSLock()
        nonisolated(unsafe) private var raised = false
        var isRaised: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
        func lower() { lock.withLock { raised = false } }
    }

    @Test func inotifySeesAnotherDevicesCommitIncludingNewFolders() throws {
        let cloud = Backend.disk.makeCloud()
        let root = try #require(cloud.root)
        let watcher = InotifyChangeWatcher(root: root)
        let flag = Flag()
        try watcher.start { flag.raise() }
        defer { watcher.stop() }
        let a = try cloud.store("A")
        try a.createZone(games)
        #expect(waitFor(flag, seconds: 3))
        Thread.sleep(forTimeInterval: 0.3)
        flag.lower()
        // The zone folder was created after the watch started: it must be watched too.
        try a.save([record("r1")])
        #expect(waitFor(flag, seconds: 3))
    }

    @Test(arguments: Backend.allCases)
    func pollingSeesCommitsAndResetsButNotNothing(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        let watcher = PollingChangeWatcher(interval: 0.02) { b.changeFingerprint() }
        let flag = Flag()
        watcher.start { flag.raise() }
        defer { watcher.stop() }
        #expect(!waitFor(flag, seconds: 0.2))
        try a.save([record("r1")])
        #expect(waitFor(flag, seconds: 3))
    }

    @Test func changesStreamDeliversNotifications() async throws {
        let cloud = Backend.memory.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        let watcher = CombinedChangeWatcher(root: temporaryFolder("cloudstore-tests"), pollInterval: 0.02) { b.changeFingerprint() }
        defer { watcher.stop() }
        let stream = try watcher.changes()
        try a.save([record("r1")])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }
}

/// What a fetch with nothing new costs must not grow with the number of records.
@Suite struct FetchCostTests {
    private func costOfNothingNew(records: Int) throws -> FolderStatistics {
        let cloud = Backend.memory.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        for start in stride(from: 0, to: records, by: 400) {
            try a.save((start..<min(records, start + 400)).map { record("r\($0)") })
        }
        let database = try b.fetchDatabaseChanges(since: nil).token
        let zone = try b.fetchZoneChanges(games, since: nil).token
        let fresh = try cloud.store("B") // a new process: nothing cached
        let before = cloud.folder.statistics
        #expect(try fresh.fetchDatabaseChanges(since: database).changedZones.isEmpty)
        #expect(try fresh.fetchZoneChanges(games, since: zone).changedRecords.isEmpty)
        let after = cloud.folder.statistics
        return FolderStatistics(filesRead: after.filesRead - before.filesRead, bytesRead: after.bytesRead - before.bytesRead,
                                existenceChecks: after.existenceChecks - before.existenceChecks, listings: after.listings - before.listings)
    }

    @Test func aFetchWithNothingNewReadsTheSameFilesAtAnySize() throws {
        let small = try costOfNothingNew(records: 10)
        let large = try costOfNothingNew(records: 4_000)
        #expect(small.filesRead == large.filesRead && small.existenceChecks == large.existenceChecks && small.listings == large.listings)
        #expect(large.bytesRead < small.bytesRead + 64, "only the digits of the head grow")
        #expect(large.filesRead <= 6)
    }
}

extension FolderStatistics {
    init(filesRead: Int, bytesRead: Int, existenceChecks: Int, listings: Int) {
        self.init()
        self.filesRead = filesRead
        self.bytesRead = bytesRead
        self.existenceChecks = existenceChecks
        self.listings = listings
    }
}
