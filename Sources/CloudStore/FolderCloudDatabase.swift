import Concurrency
import Foundation

/// The cloud store over a `CloudFolder`: a `DiskFolder` for the real shared or replicated
/// folder, a `MemoryFolder` for the in-memory cloud. One engine for both, so the contract
/// tests hold for what ships.
///
/// Every device appends immutable, checksummed segments to its own log per zone and rewrites
/// only its own head; readers merge all logs. See docs/cloud-format.md for why this is safe on
/// shared and replicated folders alike.
public final class FolderCloudDatabase: CloudDatabase {
    public let device: DeviceID
    public let folder: any CloudFolder
    public var sharedFolder: (any CloudFolder)? { folder }
    let layout: CloudLayout
    let options: CloudStoreOptions

    struct State {
        var generation: CloudGeneration?
        var views: [ZoneID: ZoneView] = [:]
        var clock = HLCTimestamp.zero
        var warned: Set<CloudWarning> = []
        /// The JSON a snapshot part holds (tests lower it to see parts without megabytes of records).
        var partBytes = SnapshotFiles.partBytes
        /// The smallest log worth compacting (tests lower it to keep their logs small).
        var smallestLog = FolderCloudDatabase.smallestLogWorthCompacting
        /// How many records a read that sorts on disk holds (tests lower it).
        var spillLimits = SpilledRuns.Limits.standard
        /// The device folders the last read of the heads found (what `stamp()` looks at).
        var headDevices: [DeviceID] = []
        /// This device's own head as the last read of the heads found it (nil: not read, or not there).
        var ownHeadSeen: HeadBody?
    }

    let state: Locked<State>
    /// Record entries decoded from segments and snapshot parts since this store was opened.
    let decodedRecords = Locked(0)

    /// How many record entries this store has decoded from the folder (segments and snapshot
    /// parts): what reading costs beyond the files, for tests and the benchmark.
    public var recordsDecoded: Int { decodedRecords.withLock { $0 } }

    /// The records held at once by this store's bounded reads (a first fetch, a compaction):
    /// the winners gathered before they go to disk, the blocks read back, a batch handed over.
    let held = HeldRecords()

    /// The most records this store's bounded reads have held at once, for tests and the benchmark.
    public var recordsHeldAtMost: Int { held.most }

    public init(folder: any CloudFolder, player: String, device: DeviceID, generation: CloudGeneration? = nil, options: CloudStoreOptions = .init()) throws(CloudStoreError) {
        guard FolderName.isValid(player) else {
            throw .invalidRecord(recordName: player, reason: "player names use letters, digits, _ and -")
        }
        self.folder = folder
        self.device = device
        self.layout = CloudLayout(player: player)
        self.options = options
        self.state = Locked(State(generation: generation))
    }

    public static func onDisk(root: URL, player: String, device: DeviceID, generation: CloudGeneration? = nil, options: CloudStoreOptions = .init()) throws(CloudStoreError) -> FolderCloudDatabase {
        try FolderCloudDatabase(folder: DiskFolder(root: root), player: player, device: device, generation: generation, options: options)
    }

    public static func inMemory(_ folder: MemoryFolder = MemoryFolder(), player: String, device: DeviceID, generation: CloudGeneration? = nil, options: CloudStoreOptions = .init()) throws(CloudStoreError) -> FolderCloudDatabase {
        try FolderCloudDatabase(folder: folder, player: player, device: device, generation: generation, options: options)
    }

    public var generation: CloudGeneration? { state.withLock { $0.generation } }

    // MARK: - Generations and zones

    /// Runs one operation: faults first, then the folder check, then `body` holding this
    /// instance's lock (other processes are kept out by the device lock where it matters).
    func operation<T>(_ body: (inout State) throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        try options.faults?.beforeOperation()
        try folder.checkAvailable()
        return try state.withLock { (state: inout State) throws(CloudStoreError) -> T in try body(&state) }
    }

    /// The generation to work in; throws `cloudReset` when the folder moved on without us.
    /// The generation to work in. A marker newer than the current one that has not arrived
    /// whole (a replicated folder delivers it late or in pieces) is waited for: it is not a
    /// reset back to an older generation, and a new device does not settle on the older one.
    func requireGeneration(_ state: inout State) throws(CloudStoreError) -> CloudGeneration {
        let (body, arriving) = try readGenerations(&state)
        let current = body.generation
        if let adopted = state.generation, adopted == current || arriving.contains(adopted) { return adopted }
        if let newer = arriving.max() {
            throw .unavailable(reason: "the marker of cloud generation \(newer.name) has not fully arrived yet")
        }
        guard let adopted = state.generation else {
            state.generation = current
            return current
        }
        guard adopted == current else { throw .cloudReset(newGeneration: current) }
        return adopted
    }

    public func currentGeneration() throws(CloudStoreError) -> CloudGeneration {
        try operation { (state: inout State) throws(CloudStoreError) in try readCurrentGeneration(&state).generation }
    }

    public func adoptCurrentGeneration() throws(CloudStoreError) -> CloudGeneration {
        try operation { (state: inout State) throws(CloudStoreError) in
            let (body, arriving) = try readGenerations(&state)
            if let newer = arriving.max() {
                throw .unavailable(reason: "the marker of cloud generation \(newer.name) has not fully arrived yet")
            }
            let current = body.generation
            if let old = state.generation, old != current {
                folder.remove(layout.deviceDirectory(old, device))
            }
            state.generation = current
            state.views = [:]
            return current
        }
    }

    public func resetCloud() throws(CloudStoreError) -> CloudGeneration {
        try operation { (state: inout State) throws(CloudStoreError) in
            let current = try readCurrentGeneration(&state)
            let stamp = state.clock.advanced(wall: options.now(), observed: current.createdAt)
            state.clock = stamp
            // Fixed-width digits first, so the newest reset sorts last on every machine.
            let id = String("g\(String(format: "%013lld%05u", stamp.millis, stamp.counter))-\(device.name)".prefix(FolderName.maxLength))
            let generation = CloudGeneration(validated: id)
            let marker = GenerationBody(generation: generation, createdBy: device, createdAt: stamp)
            try write(marker, kind: .generation, file: .generationMarker, to: layout.marker(generation), mode: .createNew)
            for entry in try folder.list(layout.playerDirectory) where entry.kind == .directory && CloudGeneration.accepts(entry.name) {
                if entry.name != generation.name { folder.remove(layout.playerDirectory.appending(entry.name)) }
            }
            state.generation = generation
            state.views = [:]
            return generation
        }
    }

    public func createZone(_ zone: ZoneID) throws(CloudStoreError) {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                var head = ownHead(generation, &state)
                guard head.zones[zone.name] == nil else { return }
                head.zones[zone.name] = HeadBody.ZoneLog(seq: 0, snapshotBase: 0, logBytes: 0, snapshotBytes: 0)
                try write(head, kind: .head, file: .head, to: layout.head(generation, device), mode: .replace)
            }
        }
    }

    public func zones() throws(CloudStoreError) -> [ZoneID] {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            return knownZones(readHeads(generation, &state))
        }
    }

    // MARK: - Writing files

    /// A sealer of this device's snapshot of `zone` at `base`, writing each part as it is sealed.
    func partSealer(_ generation: CloudGeneration, _ zone: ZoneID, base: Int, partBytes: Int, expected: Int = .max) -> SnapshotFiles.Sealer {
        let encoder = BodyCodec.PartEncoder(generation: generation, device: device, zone: zone, base: base, partBytes: partBytes, expected: expected)
        return SnapshotFiles.Sealer(encoder: encoder) { [self] part, number in
            try write(sealed: part, file: .snapshot, to: layout.snapshotPart(generation, device, zone, base, number), mode: .replace)
        }
    }

    /// Runs `body`, which seals a snapshot, with its errors as the store's: a value JSON cannot hold is one.
    func sealed<T>(_ zone: ZoneID, base: Int, _ body: () throws -> T) throws(CloudStoreError) -> T {
        do {
            return try body()
        } catch let error as CloudStoreError {
            throw error
        } catch {
            throw .unavailable(reason: "snapshot \(base) of \(zone) could not be encoded: \(error)")
        }
    }

    @discardableResult
    func write<Body: Encodable>(_ body: Body, kind: CloudFileFormat.Kind, file: CloudFileKind, to path: FolderPath, mode: WriteMode) throws(CloudStoreError) -> Bool {
        try write(sealed: CloudFileFormat.encode(body, kind: kind), file: file, to: path, mode: mode)
    }

    @discardableResult
    func write(sealed data: Data, file: CloudFileKind, to path: FolderPath, mode: WriteMode) throws(CloudStoreError) -> Bool {
        let faults = options.faults
        return try folder.write(data, to: path, mode: mode) { (step, timing) throws(CloudStoreError) in
            try faults?.reached(CrashPoint(file: file, step: step, timing: timing))
        }
    }

    // MARK: - For tests

    /// The records this store keeps of `zone` (nil before it has read it), for tests of what
    /// a streamed fetch leaves behind.
    func keptRecords(in zone: ZoneID) -> Int? { state.withLock { $0.views[zone]?.winners.count } }

    /// Lowers the records a read that sorts on disk holds at once, for tests of long logs.
    func limitSpill(_ limits: SpilledRuns.Limits) {
        state.withLock { $0.spillLimits = limits }
    }

    /// Lowers the JSON a snapshot part holds (and, if given, the smallest log worth
    /// compacting), for tests of snapshots in many parts without megabytes of records.
    func limitSnapshots(partBytes: Int, smallestLog: Int? = nil) {
        state.withLock { state in
            state.partBytes = partBytes
            if let smallestLog { state.smallestLog = smallestLog }
        }
    }
}
