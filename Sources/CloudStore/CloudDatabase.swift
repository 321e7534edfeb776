import Foundation

/// The CloudKit-like API the sync engine talks to. Calls block on file I/O: run them off the
/// interface's thread. Every call is safe from several threads and several processes.
public protocol CloudDatabase: AnyObject, Sendable {
    var device: DeviceID { get }
    /// The shared folder this store is one player's store in, beside the other players' (the
    /// shared zones of matches and leaderboards are read from there); nil for a store that is
    /// not a folder's. A wrapper (`ForwardingCloudDatabase`) has none unless it says so.
    var sharedFolder: (any CloudFolder)? { get }
    /// The generation this store syncs with; nil until the first contact with the folder.
    var generation: CloudGeneration? { get }

    /// The generation the folder is at now (it may be newer than `generation`).
    func currentGeneration() throws(CloudStoreError) -> CloudGeneration
    /// Accept a reset made elsewhere: sync with the folder's current generation from now on.
    func adoptCurrentGeneration() throws(CloudStoreError) -> CloudGeneration
    /// Erase the player's cloud data and start a new generation; other devices get `cloudReset`.
    func resetCloud() throws(CloudStoreError) -> CloudGeneration

    func createZone(_ zone: ZoneID) throws(CloudStoreError)
    func zones() throws(CloudStoreError) -> [ZoneID]

    /// Which zones changed since `token` (from head files only; reads no records).
    func fetchDatabaseChanges(since token: ChangeToken?) throws(CloudStoreError) -> DatabaseChanges
    /// Records changed and deleted in `zone` since `token`, coalesced, never this device's own.
    /// With no token: every live record, this device's included.
    func fetchZoneChanges(_ zone: ZoneID, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges
    /// A full fetch (as `fetchZoneChanges` with no token) that hands the records over in chunks
    /// as the largest file is still being read, so a caller can store the first while the rest
    /// are decoded. Each record handed over is final: the latest live version. `deliver` returns
    /// false to stop. `.refused` when the store did not or could not stream this zone as it
    /// stands (a store that never streams, a damaged file, a stop): nothing handed over may then
    /// be kept, and `fetchZoneChanges` answers as usual.
    func fetchAllRecords(_ zone: ZoneID, chunk: Int, deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch
    /// The same, telling `expect` before the first record about how many it will hand over: an
    /// estimate, for a progress line (a record written in the snapshot and again later counts
    /// twice). A store that cannot tell does not call it.
    func fetchAllRecords(_ zone: ZoneID, chunk: Int, expect: (Int) -> Void, deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch
    /// The current records with these names (missing or deleted ones are absent).
    func fetchRecords(in zone: ZoneID, named names: [String]) throws(CloudStoreError) -> [String: CloudRecord]
    /// One atomic commit: all of it becomes visible together, or none of it.
    func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy) throws(CloudStoreError) -> CommitResult
    /// Commits one after another, as as many `modifyRecords` calls: those made, up to the first
    /// that fails (its error in `failure`, and none after it is tried). A store may make them
    /// under one lock and one head (`FolderCloudDatabase` does); others make them one by one.
    func modifyRecords(in zone: ZoneID, commits: [CommitBatch], policy: SavePolicy) throws(CloudStoreError) -> CommitsMade
    /// A long first upload into a zone no device has written to yet, written straight as this
    /// device's snapshot: no segments to fold later, and only a page held at a time. The store
    /// asks `next` for one page of commits at a time (nil: no more) and tells `made` what each
    /// page saved (false: stop; what was made is still published). Records are stamped as one
    /// commit. Before the first page is made, `starting` is called (false: nothing is written):
    /// pages are told made before the snapshot is published, so a caller that acknowledges
    /// them keeps a note to check with `hasPublished` if it stops half way. A page is left
    /// unmade, and the upload ends before it, when its names do not all follow the names
    /// before it, or it holds a deletion or a record that is not new. A store that cannot
    /// declines (nothing asked, nothing written).
    func uploadAsSnapshot(_ zone: ZoneID, starting: () -> Bool, next: () -> [CommitBatch]?,
                          made: ([CommitResult]) -> Bool) throws(CloudStoreError) -> SnapshotUpload
    /// Whether this device has published anything in its log of `zone`. Asked under this
    /// device's lock, so an upload another process is making is waited for.
    func hasPublished(in zone: ZoneID) throws(CloudStoreError) -> Bool
    /// Starts this device's log of each of `zones` afresh where the folder no longer holds it
    /// whole (its head gone, when `wroteBefore`; its snapshot or first segment gone): an empty
    /// snapshot past the old end, so every reader behind it reads the log again from there, and
    /// what the caller sends next follows it. A folder holding no store at all (not even the
    /// generation's folder of devices) is left as it is: that is a mount point whose file
    /// system is away, not files someone deleted.
    /// Returns the zones started afresh.
    /// `wroteBefore` is asked only when this device's head is gone (it must not call the store).
    func restartOwnLogWhereGone(_ zones: [ZoneID], wroteBefore: () -> Bool) throws(CloudStoreError) -> [ZoneID]
    /// Fold this device's old segments of `zone` into a snapshot; older tokens then expire.
    func compact(_ zone: ZoneID, keepingRecent: Int) throws(CloudStoreError) -> CompactionReport
    /// Compacts only when this device's log of `zone` has grown to outweigh its snapshot
    /// (nil when it has not), so the folder stays within about twice the live data and each
    /// byte written is rewritten about once. The newest segments stay, so devices that are
    /// only a little behind keep their tokens.
    func compactIfWorthwhile(_ zone: ZoneID) throws(CloudStoreError) -> CompactionReport?
}

public enum SavePolicy: Sendable, Equatable {
    /// Fail with `serverRecordChanged` when the cloud's change tag differs from the record's.
    case ifServerRecordUnchanged
    /// Last writer wins, in causal order: the save is stamped after every version this device has seen.
    case overwrite
    /// CloudKit's changed-keys save: the record carries only the fields that changed, checked
    /// like `ifServerRecordUnchanged`, then merged onto the cloud's version (other fields kept).
    case changedKeys
}

/// How a streamed full fetch ended: every live record handed over, with the token and
/// completeness `fetchZoneChanges` would have given; or refused, nothing of it to keep.
public enum StreamedFetch: Sendable, Equatable {
    case complete(token: ChangeToken, isComplete: Bool)
    case refused
}

extension CloudDatabase {
    public var sharedFolder: (any CloudFolder)? { nil }

    /// Stores that make every commit on its own, and wrappers that watch each.
    public func modifyRecords(in zone: ZoneID, commits: [CommitBatch], policy: SavePolicy) throws(CloudStoreError) -> CommitsMade {
        var made = CommitsMade(results: [], failure: nil)
        for commit in commits {
            do {
                made.results.append(try modifyRecords(in: zone, saving: commit.saving, deleting: commit.deleting, policy: policy))
            } catch {
                made.failure = error
                break
            }
        }
        return made
    }

    /// Stores that write only commits decline.
    public func uploadAsSnapshot(_ zone: ZoneID, starting: () -> Bool, next: () -> [CommitBatch]?,
                                 made: ([CommitResult]) -> Bool) throws(CloudStoreError) -> SnapshotUpload {
        .declined
    }

    /// Stores that never upload as a snapshot never leave one half made.
    public func hasPublished(in zone: ZoneID) throws(CloudStoreError) -> Bool { true }

    /// Stores whose files nobody else can delete never start a log afresh.
    public func restartOwnLogWhereGone(_ zones: [ZoneID], wroteBefore: () -> Bool) throws(CloudStoreError) -> [ZoneID] { [] }

    /// Stores that do not stream answer every full fetch through `fetchZoneChanges`.
    public func fetchAllRecords(_ zone: ZoneID, chunk: Int, deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch {
        .refused
    }

    /// Stores that cannot estimate stream without saying how much.
    public func fetchAllRecords(_ zone: ZoneID, chunk: Int, expect: (Int) -> Void, deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch {
        try fetchAllRecords(zone, chunk: chunk, deliver: deliver)
    }
}

public struct DatabaseChanges: Sendable, Equatable {
    public var changedZones: [ZoneID]
    public var token: ChangeToken
}

public struct ZoneChanges: Sendable, Equatable {
    public var changedRecords: [CloudRecord]
    public var deletedRecords: [DeletedRecord]
    public var token: ChangeToken
    /// False when a file announced by another device has not arrived intact yet: the token stops
    /// before it, and a later fetch of this zone picks it up.
    public var isComplete: Bool
}

/// One commit of several made at once (`modifyRecords(in:commits:policy:)`).
public struct CommitBatch: Sendable {
    public var saving: [CloudRecord]
    public var deleting: [String]

    public init(saving: [CloudRecord], deleting: [String]) {
        self.saving = saving
        self.deleting = deleting
    }
}

/// The commits made of several, in order, and the error that stopped the rest (nil: all made).
public struct CommitsMade: Sendable {
    public var results: [CommitResult]
    public var failure: CloudStoreError?
}

public struct CommitResult: Sendable, Equatable {
    /// The saved records with their new system fields (keep them for the next save).
    public var savedRecords: [CloudRecord]
    public var deletedRecordNames: [String]
}

/// How an upload as a snapshot ended.
public struct SnapshotUpload: Sendable, Equatable {
    /// Records published (0: nothing was written, and `starting` was not called).
    public var records: Int
    /// Whether the last page handed over was left unmade: it, and every page after it, go as commits.
    public var lastPageLeft: Bool
    /// The zone's token just after the upload, for a caller that has none (nil when nothing was published).
    public var token: ChangeToken?

    public static let declined = SnapshotUpload(records: 0, lastPageLeft: false, token: nil)
}

public struct CompactionReport: Sendable, Equatable {
    public var zone: ZoneID
    /// Segments up to this number are now in the snapshot; tokens before it expire.
    public var snapshotBase: Int
    public var segmentsRemoved: Int
    public var liveRecords: Int
    public var tombstones: Int
}
