import CloudStore
import Foundation
import Storage
import Sync

/// A process's store that stops its sync at every call into the folder, and again after each
/// commit before the sync acknowledges it, until the simulation lets it go on: another
/// process's steps happen in between, or the process is killed right there.
final class SteppedCloud: ForwardingCloudDatabase, @unchecked Sendable {
    let inner: FolderCloudDatabase
    /// Called on the sync's thread at every stop (named for the moment); throws to kill it there.
    var stop: (String) throws(CloudStoreError) -> Void = { _ in }

    init(_ inner: FolderCloudDatabase) { self.inner = inner }

    /// The shared zones (matches, leaderboards) are read from every player's folder directly;
    /// this player's own are written through the stops above.
    var sharedFolder: (any CloudFolder)? { inner.sharedFolder }

    func zones() throws(CloudStoreError) -> [ZoneID] {
        try stop("list zones")
        return try inner.zones()
    }

    func fetchDatabaseChanges(since token: ChangeToken?) throws(CloudStoreError) -> DatabaseChanges {
        try stop("ask which zones changed")
        return try inner.fetchDatabaseChanges(since: token)
    }

    func fetchZoneChanges(_ zone: ZoneID, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges {
        try stop("fetch \(zone.name)")
        let changes = try inner.fetchZoneChanges(zone, since: token)
        try stop("fetched \(zone.name), not applied")
        return changes
    }

    func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy) throws(CloudStoreError) -> CommitResult {
        try stop("commit into \(zone.name)")
        let result = try inner.modifyRecords(in: zone, saving: saving, deleting: deleting, policy: policy)
        try stop("committed into \(zone.name), not acknowledged")
        return result
    }

    func modifyRecords(in zone: ZoneID, commits: [CommitBatch], policy: SavePolicy) throws(CloudStoreError) -> CommitsMade {
        try stop("commit into \(zone.name)")
        let made = try inner.modifyRecords(in: zone, commits: commits, policy: policy)
        try stop("committed into \(zone.name), not acknowledged")
        return made
    }

    func compactIfWorthwhile(_ zone: ZoneID) throws(CloudStoreError) -> CompactionReport? {
        try stop("compact \(zone.name)")
        return try inner.compactIfWorthwhile(zone)
    }
}

/// One sync round of one process, run on a thread of its own but only while the simulation
/// waits for it: it goes from stop to stop when told, so only one thread ever runs and a seed
/// replays exactly.
final class SteppedSync: @unchecked Sendable {
    enum Order { case goOn, kill }

    private let condition = NSCondition()
    private var syncsTurn = false
    private var order = Order.goOn
    private var thread: Thread?
    /// Where the sync stands now.
    private(set) var place = "not started"
    private(set) var outcome: Result<SyncReport, SyncError>?

    init(engine: SyncEngine, cloud: SteppedCloud) {
        cloud.stop = { [unowned self] place throws(CloudStoreError) in try self.pause(at: place) }
        let thread = Thread { [self] in
            let result = Result { () throws(SyncError) -> SyncReport in try engine.sync() }
            condition.lock()
            outcome = result
            place = "ended"
            syncsTurn = false
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        self.thread = thread
    }

    /// On the sync's thread: hands the turn back and waits for the next order.
    private func pause(at place: String) throws(CloudStoreError) {
        condition.lock()
        self.place = place
        syncsTurn = false
        condition.broadcast()
        while !syncsTurn { condition.wait() }
        let kill = order == .kill
        condition.unlock()
        if kill { throw .unavailable(reason: "simulation: the process was killed at \(place)") }
    }

    /// Lets the sync run to its next stop (or its end); true once it has ended.
    @discardableResult
    func step(_ order: Order = .goOn) -> Bool {
        condition.lock()
        guard outcome == nil else {
            condition.unlock()
            return true
        }
        self.order = order
        syncsTurn = true
        if let thread {
            self.thread = nil
            thread.start()
        } else {
            condition.broadcast()
        }
        while syncsTurn { condition.wait() }
        let ended = outcome != nil
        condition.unlock()
        return ended
    }

    /// Runs (or kills) the sync to its end.
    func finish(_ order: Order = .goOn) {
        while !step(order) {}
    }
}
