/// A store that hands every call to another. Wrappers that watch or reshape a few calls (the
/// sync benchmark's store that commits one game at a time, the tests' stores that count commits
/// or hold a round) conform and write only those. A full fetch is not forwarded: it is
/// `CloudDatabase`'s own unless the wrapper streams (so a wrapper that does not is refused it).
public protocol ForwardingCloudDatabase: CloudDatabase {
    associatedtype Inner: CloudDatabase
    var inner: Inner { get }
}

extension ForwardingCloudDatabase {
    public var device: DeviceID { inner.device }
    public var generation: CloudGeneration? { inner.generation }
    public func currentGeneration() throws(CloudStoreError) -> CloudGeneration { try inner.currentGeneration() }
    public func adoptCurrentGeneration() throws(CloudStoreError) -> CloudGeneration { try inner.adoptCurrentGeneration() }
    public func resetCloud() throws(CloudStoreError) -> CloudGeneration { try inner.resetCloud() }
    public func createZone(_ zone: ZoneID) throws(CloudStoreError) { try inner.createZone(zone) }
    public func zones() throws(CloudStoreError) -> [ZoneID] { try inner.zones() }
    public func fetchDatabaseChanges(since token: ChangeToken?) throws(CloudStoreError) -> DatabaseChanges {
        try inner.fetchDatabaseChanges(since: token)
    }
    public func fetchZoneChanges(_ zone: ZoneID, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges {
        try inner.fetchZoneChanges(zone, since: token)
    }
    public func fetchRecords(in zone: ZoneID, named names: [String]) throws(CloudStoreError) -> [String: CloudRecord] {
        try inner.fetchRecords(in: zone, named: names)
    }
    public func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy) throws(CloudStoreError) -> CommitResult {
        try inner.modifyRecords(in: zone, saving: saving, deleting: deleting, policy: policy)
    }
    public func compact(_ zone: ZoneID, keepingRecent: Int) throws(CloudStoreError) -> CompactionReport {
        try inner.compact(zone, keepingRecent: keepingRecent)
    }
    public func compactIfWorthwhile(_ zone: ZoneID) throws(CloudStoreError) -> CompactionReport? { try inner.compactIfWorthwhile(zone) }
    public func restartOwnLogWhereGone(_ zones: [ZoneID], wroteBefore: () -> Bool) throws(CloudStoreError) -> [ZoneID] {
        try inner.restartOwnLogWhereGone(zones, wroteBefore: wroteBefore)
    }
}
