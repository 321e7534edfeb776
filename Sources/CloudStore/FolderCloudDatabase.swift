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
    private let layout: CloudLayout
    private let options: CloudStoreOptions

    private struct State {
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
    }

    private let state: Locked<State>
    /// Record entries decoded from segments and snapshot parts since this store was opened.
    private let decodedRecords = Locked(0)

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

    // MARK: - Operations

    /// Runs one operation: faults first, then the folder check, then `body` holding this
    /// instance's lock (other processes are kept out by the device lock where it matters).
    private func operation<T>(_ body: (inout State) throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        try options.faults?.beforeOperation()
        try folder.checkAvailable()
        return try state.withLock { (state: inout State) throws(CloudStoreError) -> T in try body(&state) }
    }

    /// The generation to work in; throws `cloudReset` when the folder moved on without us.
    /// The generation to work in. A marker newer than the current one that has not arrived
    /// whole (a replicated folder delivers it late or in pieces) is waited for: it is not a
    /// reset back to an older generation, and a new device does not settle on the older one.
    private func requireGeneration(_ state: inout State) throws(CloudStoreError) -> CloudGeneration {
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

    public func fetchDatabaseChanges(since token: ChangeToken?) throws(CloudStoreError) -> DatabaseChanges {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            if let token, token.generation != generation || token.scope != ChangeToken.databaseScope {
                throw .changeTokenExpired
            }
            let heads = readHeads(generation, &state)
            var positions: [String: Int] = [:]
            var changed: Set<ZoneID> = token == nil ? Set(ownHead(generation, &state).zones.keys.compactMap { try? ZoneID($0) }) : []
            for (other, head) in heads where other != device {
                guard let head else { continue }
                for (name, log) in head.zones {
                    guard let zone = try? ZoneID(name) else { continue }
                    let key = "\(other.name)/\(name)"
                    let old = token?.positions[key]
                    var seq = old ?? 0
                    if log.snapshotBase > seq, folder.fileExists(layout.snapshot(generation, other, zone, log.snapshotBase)) {
                        seq = log.snapshotBase
                    }
                    // Existence only (no record is read); a reader never counts past a missing file.
                    // What the head announces is looked for a run at a time, through one handle on
                    // the folder (a first sync of a log never compacted: 200,000 files); past it,
                    // one at a time.
                    let directory = layout.zoneDirectory(generation, other, zone)
                    while true {
                        let run = log.seq > seq ? min(Self.segmentsReadTogether, log.seq - seq) : 1
                        let found = folder.leadingFiles((1...run).map { CloudLayout.segmentName(seq + $0) }, in: directory)
                        seq += found
                        if found < run { break }
                    }
                    if old == nil || seq > old! { changed.insert(zone) }
                    // A file beyond what the head announces may exist yet be half-arrived, and this
                    // fetch cannot tell without reading it: the token keeps to what the head
                    // announces, so such a file is looked at again until the zone fetch has it.
                    positions[key] = max(old ?? 0, min(seq, log.seq))
                }
            }
            return DatabaseChanges(changedZones: changed.sorted(), token: ChangeToken(generation: generation, scope: ChangeToken.databaseScope, positions: positions))
        }
    }

    public func fetchZoneChanges(_ zone: ZoneID, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            if let token, token.generation != generation || token.scope != zone.name { throw .changeTokenExpired }
            let heads = readHeads(generation, &state)
            guard knownZones(heads).contains(zone) else { throw .zoneNotFound(zone) }
            let since = token.map { Dictionary(uniqueKeysWithValues: $0.positions.compactMap { key, seq in (try? DeviceID(key)).map { ($0, seq) } }) }
            for (other, seq) in since ?? [:] where other != device {
                let base = heads[other]??.zones[zone.name]?.snapshotBase ?? 0
                if seq > 0 && seq < base { throw .changeTokenExpired }
            }
            if let token, let since, nothingNew(in: zone, generation, heads: heads, since: since) {
                return ZoneChanges(changedRecords: [], deletedRecords: [], token: token, isComplete: true)
            }
            var view = try refreshedView(zone, generation, heads: heads, whole: since == nil, &state)
            if let since {
                // A snapshot left unread is passed by the reader's token (so only records newer
                // segments touched can be new to it: their winners are settled by looking them up),
                // unless the reader has nothing of that device yet: then it needs every record.
                if view.unread.contains(where: { $0.key != device && (since[$0.key] ?? 0) < $0.value.base })
                    || !view.faultChanges(since: since, reader: device) {
                    view = readAgain(zone, generation, heads: heads, &state)
                }
            }
            state.views[zone] = view
            let changes = view.changes(since: since, reader: device)
            return ZoneChanges(changedRecords: changes.changed, deletedRecords: changes.deleted,
                               token: tokenAfter(view, generation, zone, since: since), isComplete: isComplete(view))
        }
    }

    /// The token after reading `view`: every other device's position, never behind `since`.
    private func tokenAfter(_ view: ZoneView, _ generation: CloudGeneration, _ zone: ZoneID, since: [DeviceID: Int]?) -> ChangeToken {
        var positions: [String: Int] = [:]
        for (other, seq) in view.positions where other != device {
            positions[other.name] = max(seq, since?[other] ?? 0)
        }
        return ChangeToken(generation: generation, scope: zone.name, positions: positions)
    }

    /// Complete unless another device's announced file has not arrived intact.
    private func isComplete(_ view: ZoneView) -> Bool { view.waitingFor.subtracting([device]).isEmpty }

    /// Streams a full fetch in bounded memory: every device's segments after its snapshot are
    /// read and coalesced first (the log compaction keeps short); then every device's snapshot is
    /// read part by part, all at once in name order (compaction writes entries sorted by name),
    /// so each record's versions meet and its winner is final at once: it is handed over and
    /// not kept. The records a segment also touched follow at the end. The view kept afterwards
    /// holds only those: a later read that needs the whole view reads the folder again. Only for
    /// a zone this store has not read yet, with a snapshot; refused otherwise, or at the first
    /// doubt about a snapshot (then the usual fetch reads it and says what is wrong with it).
    public func fetchAllRecords(_ zone: ZoneID, chunk size: Int, deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch {
        try fetchAllRecords(zone, chunk: size, expect: { _ in }, deliver: deliver)
    }

    /// The stack a thread needs to run a streamed fetch: the main thread's, which the store's
    /// readers (none of which recurses) never come near.
    public static let readerStackSize = 8 << 20

    public func fetchAllRecords(_ zone: ZoneID, chunk size: Int, expect: (Int) -> Void,
                                deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            let heads = readHeads(generation, &state)
            guard knownZones(heads).contains(zone) else { throw .zoneNotFound(zone) }
            guard state.views[zone] == nil else { return .refused }
            // Every snapshot must have arrived whole before anything is handed over.
            var snapshots: [(device: DeviceID, arrived: SnapshotFiles.Arrived)] = []
            for (other, head) in heads.sorted(by: { $0.key.name < $1.key.name }) {
                guard let log = head?.zones[zone.name], log.snapshotBase > 0 else { continue }
                guard case .success(let arrived)? = SnapshotFiles.arrived(in: folder, layout: layout, generation, other, zone, base: log.snapshotBase)
                else { return .refused }
                snapshots.append((other, arrived))
            }
            // Everything else first: every device's segments after its snapshot. A log longer
            // than a batch (one never compacted) is sorted on disk a batch at a time, and merged
            // back in name order beside the snapshots: nothing of it is kept.
            var view = ZoneView()
            for (other, arrived) in snapshots { view.positions[other] = arrived.origin.base }
            let spill = SpilledRuns(limits: state.spillLimits, directory: options.spillDirectory, held: held)
            var spillFailed = false
            refresh(&view, zone: zone, generation: generation, heads: heads, state: &state) { winners in
                do throws(CloudStoreError) { try spill.spill(&winners) } catch { spillFailed = true }
            }
            guard !spillFailed, !snapshots.isEmpty || spill.spilled else { return .refused }
            var live = view.winners.values.count { !$0.entry.deleted } + spill.written
            for (_, arrived) in snapshots {
                if let listed = arrived.live { live += listed } else if case .success(let json) = arrived.json(0) { live += Self.liveEntries(in: json) } else { return .refused }
            }
            expect(live)
            var pending: [CloudRecord] = []
            pending.reserveCapacity(size)
            // A small first batch, so the caller starts storing early.
            var batch = min(size, 256)
            /// Adds a record to the batch, handing the batch over once full (or when `last`);
            /// false when the caller stopped.
            func handOver(_ record: CloudRecord?, last: Bool = false) -> Bool {
                if let record { pending.append(record) }
                held.note(pending.count)
                guard pending.count >= batch || (last && !pending.isEmpty) else { return true }
                guard deliver(pending) else { return false }
                pending.removeAll(keepingCapacity: true)
                batch = size
                return true
            }
            // Each snapshot's parts are decoded (and checked as the usual read checks them) on
            // other cores while this one merges and hands over the entries before them.
            var cursors = snapshots.map { SnapshotCursor(device: $0.device, arrived: $0.arrived, counter: decodedRecords) }
            for index in cursors.indices { guard cursors[index].start() else { return .refused } }
            // The sorted log, when it went to disk: one winner per name, a block per run held.
            var sorted: SpilledRuns.Cursor?, fromLog: (RecordEntry, DeviceID)?
            if spill.spilled {
                do throws(CloudStoreError) {
                    sorted = try spill.cursor(adding: &view.winners)
                    fromLog = try sorted!.next()
                } catch { return .refused }
            }
            defer { sorted?.close() }
            while let name = [cursors.lazy.compactMap({ $0.current?.name }).min(), fromLog?.0.name].compactMap({ $0 }).min() {
                var winner = view.winners[name]
                let touchedBySegments = winner != nil
                if let (entry, owner) = fromLog, entry.name == name {
                    winner = ZoneView.Winner(entry: entry, device: owner, firstSeq: FirstSeen(owner, entry.seq))
                    do throws(CloudStoreError) { fromLog = try sorted!.next() } catch { return .refused }
                }
                for index in cursors.indices where cursors[index].current?.name == name {
                    let entry = cursors[index].current!, owner = cursors[index].device
                    view.latestHLC = max(view.latestHLC, entry.hlc)
                    if winner == nil {
                        winner = ZoneView.Winner(entry: entry, device: owner, firstSeq: FirstSeen(owner, entry.seq))
                    } else {
                        winner!.absorb(entry, from: owner)
                    }
                    guard cursors[index].advance() else { return .refused }
                }
                if touchedBySegments {
                    view.winners[name] = winner
                } else if let winner, !winner.entry.deleted {
                    guard handOver(winner.entry.record(device: winner.device)) else { return .refused }
                }
            }
            for name in view.winners.keys.sorted() {
                guard let winner = view.winners[name], !winner.entry.deleted else { continue }
                guard handOver(winner.entry.record(device: winner.device)) else { return .refused }
            }
            guard handOver(nil, last: true) else { return .refused }
            if spill.spilled {
                // Nothing of the log was kept: whatever needs a record reads the folder again.
                view.unread = [:]
                view.partial = true
                state.views[zone] = view
                return .complete(token: tokenAfter(view, generation, zone, since: nil), isComplete: isComplete(view))
            }
            // The records the snapshots alone held were handed over and not kept: they are looked
            // up in the snapshots when something needs them (or, for a list that does not name
            // its parts' first names, the folder is read again).
            for (other, arrived) in snapshots {
                guard let unread = UnreadSnapshot(device: other, arrived: arrived, counter: decodedRecords) else {
                    view.unread = [:]
                    view.partial = true
                    break
                }
                view.unread[other] = unread
            }
            state.views[zone] = view
            return .complete(token: tokenAfter(view, generation, zone, since: nil), isComplete: isComplete(view))
        }
    }

    /// One device's snapshot read entry by entry, in name order, a part at a time, the next part
    /// decoded on another thread meanwhile. A part that cannot be decoded, or names out of
    /// order (so not one version per record, as compaction writes), stop it.
    private struct SnapshotCursor {
        let device: DeviceID
        let arrived: SnapshotFiles.Arrived
        private var part = -1
        private var entries: [RecordEntry] = []
        private var index = 0
        private var upcoming: Background<Result<[RecordEntry], SnapshotFiles.Problem>, Never>?
        let counter: Locked<Int>

        init(device: DeviceID, arrived: SnapshotFiles.Arrived, counter: Locked<Int>) {
            self.device = device
            self.arrived = arrived
            self.counter = counter
        }

        var current: RecordEntry? { index < entries.count ? entries[index] : nil }

        mutating func start() -> Bool {
            upcoming = Background { [arrived] in arrived.decode(0) }
            return nextPart()
        }

        /// Moves to the next entry; false when what follows cannot be trusted.
        mutating func advance() -> Bool {
            let previous = entries[index].name
            index += 1
            if index == entries.count {
                guard nextPart() else { return false }
            }
            return current.map { previous < $0.name } ?? true
        }

        /// Takes the part decoded ahead (skipping empty ones) and starts the one after it.
        private mutating func nextPart() -> Bool {
            while let waiting = upcoming {
                part += 1
                upcoming = part + 1 < arrived.parts.count ? Background { [arrived, part] in arrived.decode(part + 1) } : nil
                guard case .success(let decoded) = waiting.value() else { return false }
                counter.withLock { $0 += decoded.count }
                entries = decoded
                index = 0
                if !entries.isEmpty { return true }
            }
            entries = []
            index = 0
            return true
        }
    }

    /// The live entries of a snapshot body, counted without decoding it: each has
    /// `,"deleted":false,` at its own level (inside a string the quotes would be escaped, and a
    /// field's value is an object), as the writer writes entries with sorted keys.
    static func liveEntries(in json: Data) -> Int {
        let needle = Array(#","deleted":false,"#.utf8)
        return json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return 0 }
            var count = 0, i = 0
            let last = bytes.count - needle.count
            while i <= last {
                if bytes[i] == 44, bytes[i + 1] == 34, bytes[i + 2] == 100 {   // `,"d`: then compare the rest
                    var j = 3
                    while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                    if j == needle.count { count += 1; i += needle.count; continue }
                }
                i += 1
            }
            return count
        }
    }

    public func fetchRecords(in zone: ZoneID, named names: [String]) throws(CloudStoreError) -> [String: CloudRecord] {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            var view = try refreshedView(zone, generation, &state)
            bringIn(names, to: &view, zone, generation, &state)
            state.views[zone] = view
            var found: [String: CloudRecord] = [:]
            for name in names { found[name] = view.liveRecord(named: name) }
            return found
        }
    }

    public func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy = .ifServerRecordUnchanged) throws(CloudStoreError) -> CommitResult {
        let made = try modifyRecords(in: zone, commits: [CommitBatch(saving: saving, deleting: deleting)], policy: policy)
        if let failure = made.failure { throw failure }
        return made.results[0]
    }

    public func compact(_ zone: ZoneID, keepingRecent: Int = 0) throws(CloudStoreError) -> CompactionReport {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            return try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                // Only this device's log is read, never the zone's view: where it ends is its
                // head's count and any segment written after it (a crash before the head).
                var head = ownHead(generation, &state)
                let oldBase = head.zones[zone.name]?.snapshotBase ?? 0
                var end = max(head.zones[zone.name]?.seq ?? 0, state.views[zone]?.positions[device] ?? 0)
                while folder.fileExists(layout.segment(generation, device, zone, end + 1)) { end += 1 }
                let newBase = end - max(0, keepingRecent)
                removeTemporaries(in: layout.zoneDirectory(generation, device, zone))
                guard newBase > oldBase else {
                    return CompactionReport(zone: zone, snapshotBase: oldBase, segmentsRemoved: 0, liveRecords: 0, tombstones: 0)
                }
                let horizon = options.now().addingTimeInterval(-options.tombstoneRetention)
                // Parts first, then the list naming them: a reader that finds the list can find
                // every part (or waits for one a replicator has not delivered yet). The log is
                // folded in name order a part at a time (sorted on disk when long), so a
                // compaction holds a batch of records however long the history.
                var sealer = partSealer(generation, zone, base: newBase, partBytes: state.partBytes)
                var liveRecords = 0, tombstones = 0
                try foldOwnLog(zone, generation, from: oldBase, through: newBase, state: &state) { (entry) throws(CloudStoreError) in
                    guard !entry.deleted || entry.hlc.date > horizon else { return }
                    try sealed(zone, base: newBase) { () throws in try sealer.add(entry) }
                    if entry.deleted { tombstones += 1 } else { liveRecords += 1 }
                }
                let list = try sealed(zone, base: newBase) { () throws in try sealer.finish() }
                try write(sealed: list, file: .snapshot, to: layout.snapshot(generation, device, zone, newBase), mode: .replace)
                let written = sealer.written
                let sizes = try? ownLogSizes(zone, generation, after: newBase)
                var log = head.zones[zone.name] ?? HeadBody.ZoneLog(seq: newBase, snapshotBase: 0)
                log.snapshotBase = newBase
                log.snapshotBytes = written + list.count
                log.logBytes = sizes?.segments.reduce(0) { $0 + $1.size }
                head.zones[zone.name] = log
                try write(head, kind: .head, file: .head, to: layout.head(generation, device), mode: .replace)
                // Only now, with the snapshot announced, may what it replaces go: the list first,
                // so no reader finds a list whose parts are gone.
                if oldBase > 0 {
                    folder.remove(layout.snapshot(generation, device, zone, oldBase))
                    for name in sizes?.older ?? [] where layout.belongsToSnapshot(name, base: oldBase) {
                        folder.remove(layout.zoneDirectory(generation, device, zone).appending(name))
                    }
                }
                for seq in stride(from: oldBase + 1, through: newBase, by: 1) { folder.remove(layout.segment(generation, device, zone, seq)) }
                return CompactionReport(zone: zone, snapshotBase: newBase, segmentsRemoved: newBase - oldBase,
                                        liveRecords: liveRecords, tombstones: tombstones)
            }
        }
    }

    /// Segments the worthwhile compaction leaves alone, so a reader a few commits behind keeps its token.
    public static let recentSegmentsKept = 16
    /// A log smaller than this is not worth a snapshot, however small the snapshot.
    public static let smallestLogWorthCompacting = 64 << 10

    public func compactIfWorthwhile(_ zone: ZoneID) throws(CloudStoreError) -> CompactionReport? {
        let generation = try operation { (state: inout State) throws(CloudStoreError) in try requireGeneration(&state) }
        guard let log = ownHeadIfKnown(generation)?.zones[zone.name] else { return nil }
        let base = log.snapshotBase, segments = log.seq - log.snapshotBase
        guard segments > Self.recentSegmentsKept else { return nil }
        if let logBytes = log.logBytes, let snapshotBytes = log.snapshotBytes, logBytes >= 0, snapshotBytes >= 0 {
            // The head keeps the sizes: decide from it alone, the newest segments counted at the average size.
            let folded = logBytes / segments * (segments - Self.recentSegmentsKept)
            return try compactIf(folded: folded, snapshotBytes: snapshotBytes, zone)
        }
        // A head from before the sizes were kept: one listing of this device's zone folder (no file read).
        let sizes = try ownLogSizes(zone, generation, after: base)
        let folded = sizes.segments.dropLast(Self.recentSegmentsKept).reduce(0) { $0 + $1.size }
        return try compactIf(folded: folded, snapshotBytes: sizes.snapshot, zone)
    }

    private func compactIf(folded: Int, snapshotBytes: Int, _ zone: ZoneID) throws(CloudStoreError) -> CompactionReport? {
        guard folded >= max(snapshotBytes, state.withLock { $0.smallestLog }) else { return nil }
        return try compact(zone, keepingRecent: Self.recentSegmentsKept)
    }

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

    private func ownHeadIfKnown(_ generation: CloudGeneration) -> HeadBody? {
        state.withLock { state in
            load(layout.head(generation, device), kind: .head, as: HeadBody.self, limit: CloudLimits.maxSmallFileBytes, state: &state)
        }
    }

    // MARK: - Commit helpers

    /// The zone's view with every new segment read. It is moved out of the state, so updating
    /// it does not copy every record (copy-on-write): put it back when done; if the operation
    /// fails it is simply rebuilt next time.
    /// With `whole`, every record is in the view's winners (none left in an unread snapshot).
    private func refreshedView(_ zone: ZoneID, _ generation: CloudGeneration, heads known: [DeviceID: HeadBody?]? = nil, whole: Bool = false,
                               _ state: inout State) throws(CloudStoreError) -> ZoneView {
        let heads = known ?? readHeads(generation, &state)
        guard knownZones(heads).contains(zone) else { throw .zoneNotFound(zone) }
        var view = state.views.removeValue(forKey: zone) ?? ZoneView()
        // What a streamed fetch left is not every record: read them all.
        if view.partial || (whole && !view.unread.isEmpty) { view = ZoneView() }
        // Unless every record is needed, snapshots not read yet stay unread: looked up by name.
        refresh(&view, zone: zone, generation: generation, heads: heads, lazily: !whole, state: &state)
        if view.unreadFailed { view = readAgain(zone, generation, heads: heads, &state) }
        return view
    }

    /// The view read from the folder alone, whole (every snapshot read): when an unread
    /// snapshot no longer reads, or a reader needs every record of one.
    private func readAgain(_ zone: ZoneID, _ generation: CloudGeneration, heads: [DeviceID: HeadBody?], _ state: inout State) -> ZoneView {
        var view = ZoneView()
        refresh(&view, zone: zone, generation: generation, heads: heads, state: &state)
        return view
    }

    /// `view` with the versions of `names` an unread snapshot holds brought in (read again from
    /// the folder if that snapshot no longer reads).
    private func bringIn(_ names: some Sequence<String>, to view: inout ZoneView, _ zone: ZoneID, _ generation: CloudGeneration,
                         _ state: inout State) {
        guard !view.unread.isEmpty else { return }
        for name in names where !view.fault(name) {
            view = readAgain(zone, generation, heads: readHeads(generation, &state), &state)
            return
        }
    }

    private func conflict(saving record: CloudRecord, against winner: ZoneView.Winner?) -> CloudStoreError? {
        let expected = record.systemFields?.changeTag
        guard let winner else { return expected == nil ? nil : .unknownRecord(recordName: record.recordName) }
        if winner.entry.deleted { return expected == nil ? nil : .unknownRecord(recordName: record.recordName) }
        let current = winner.entry.record(device: winner.device)
        return current.systemFields?.changeTag == expected ? nil : .serverRecordChanged(serverRecord: current)
    }

    private func entry(named name: String, type: String, fields: [String: FieldValue]?, seq: Int, stamp: HLCTimestamp, previous: ZoneView.Winner?) -> RecordEntry {
        let live = previous.flatMap { $0.entry.deleted ? nil : $0.entry }
        return RecordEntry(name: name, type: type, seq: seq, hlc: stamp, deleted: fields == nil, fields: fields,
                           createdBy: live?.createdBy ?? device, createdAt: live?.createdAt ?? stamp)
    }

    /// Hands `each` the latest version of every record of this device's log of `zone`, from its
    /// snapshot at `base` and segments up to `last`, in name order. The snapshot is read part
    /// by part; the segments' versions are gathered a batch at a time and, past one batch,
    /// sorted on disk (`SpilledRuns`), so what is held does not grow with the log. A snapshot
    /// not in name order (none is written so) is read the old way, whole.
    private func foldOwnLog(_ zone: ZoneID, _ generation: CloudGeneration, from base: Int, through last: Int, state: inout State,
                            each: (RecordEntry) throws(CloudStoreError) -> Void) throws(CloudStoreError) {
        let unreadable = CloudStoreError.unavailable(reason: "this device's snapshot \(base) of \(zone) is unreadable")
        var snapshot: SnapshotCursor?
        if base > 0 {
            guard let arrived = arrivedSnapshot(zone, generation, of: device, base: base, state: &state) else { throw unreadable }
            snapshot = SnapshotCursor(device: device, arrived: arrived, counter: decodedRecords)
            guard snapshot!.start() else { throw unreadable }
        }
        let spill = SpilledRuns(limits: state.spillLimits, directory: options.spillDirectory, held: held)
        var winners: [String: ZoneView.Winner] = [:]
        var seq = base
        while seq < last {
            for loaded in loadSegments(generation, device, zone, after: seq, count: min(Self.segmentsReadTogether, last - seq)) {
                seq += 1
                guard case .success(let segment)? = loaded else {
                    throw .unavailable(reason: "this device's segment \(seq) of \(zone) is unreadable")
                }
                decodedRecords.withLock { $0 += segment.entries.count }
                for entry in segment.entries {
                    if var winner = winners[entry.name] {
                        winner.absorb(entry, from: device)
                        winners[entry.name] = winner
                    } else {
                        winners[entry.name] = ZoneView.Winner(entry: entry, device: device, firstSeq: FirstSeen(device, entry.seq))
                    }
                }
                held.note(winners.count)
                if winners.count >= state.spillLimits.batch { try spill.spill(&winners) }
            }
        }
        // The log's latest versions in name order: from disk when it went there, else sorted here.
        var sorted: SpilledRuns.Cursor?, inMemory: [RecordEntry] = [], next = 0
        if spill.spilled {
            sorted = try spill.cursor(adding: &winners)
        } else {
            inMemory = winners.values.map(\.entry).sorted { $0.name < $1.name }
            winners = [:]
        }
        defer { sorted?.close() }
        func fromLog() throws(CloudStoreError) -> RecordEntry? {
            if sorted != nil { return try sorted!.next()?.0 }
            defer { next += 1 }
            return next < inMemory.count ? inMemory[next] : nil
        }
        var logged = try fromLog()
        while true {
            let held = snapshot?.current
            guard let name = [held?.name, logged?.name].compactMap({ $0 }).min() else { break }
            if let entry = logged, entry.name == name {
                // A segment's version is later than the snapshot's (its number is past the base).
                if held?.name == name { guard snapshot!.advance() else { throw unreadable } }
                try each(entry)
                logged = try fromLog()
            } else {
                try each(held!)
                guard snapshot!.advance() else { throw unreadable }
            }
        }
    }

    private func removeTemporaries(in directory: FolderPath) {
        // The device lock is held, so no temporary file here belongs to a live writer.
        for entry in (try? folder.list(directory)) ?? [] where entry.name.hasPrefix(".tmp-") {
            folder.remove(directory.appending(entry.name))
        }
    }

    /// A sealer of this device's snapshot of `zone` at `base`, writing each part as it is sealed.
    private func partSealer(_ generation: CloudGeneration, _ zone: ZoneID, base: Int, partBytes: Int, expected: Int = .max) -> SnapshotFiles.Sealer {
        let encoder = BodyCodec.PartEncoder(generation: generation, device: device, zone: zone, base: base, partBytes: partBytes, expected: expected)
        return SnapshotFiles.Sealer(encoder: encoder) { [self] part, number in
            try write(sealed: part, file: .snapshot, to: layout.snapshotPart(generation, device, zone, base, number), mode: .replace)
        }
    }

    /// Runs `body`, which seals a snapshot, with its errors as the store's: a value JSON cannot hold is one.
    private func sealed<T>(_ zone: ZoneID, base: Int, _ body: () throws -> T) throws(CloudStoreError) -> T {
        do {
            return try body()
        } catch let error as CloudStoreError {
            throw error
        } catch {
            throw .unavailable(reason: "snapshot \(base) of \(zone) could not be encoded: \(error)")
        }
    }

    @discardableResult
    private func write<Body: Encodable>(_ body: Body, kind: CloudFileFormat.Kind, file: CloudFileKind, to path: FolderPath, mode: WriteMode) throws(CloudStoreError) -> Bool {
        try write(sealed: CloudFileFormat.encode(body, kind: kind), file: file, to: path, mode: mode)
    }

    @discardableResult
    private func write(sealed data: Data, file: CloudFileKind, to path: FolderPath, mode: WriteMode) throws(CloudStoreError) -> Bool {
        let faults = options.faults
        return try folder.write(data, to: path, mode: mode) { (step, timing) throws(CloudStoreError) in
            try faults?.reached(CrashPoint(file: file, step: step, timing: timing))
        }
    }

    /// From one listing of this device's folder of `zone`: the size of its snapshot at `base`
    /// (its list and parts), of each segment numbered after it, oldest first, and the names of
    /// the files of other snapshots.
    private func ownLogSizes(_ zone: ZoneID, _ generation: CloudGeneration, after base: Int) throws(CloudStoreError) -> (snapshot: Int, segments: [(seq: Int, size: Int)], older: [String]) {
        var snapshot = 0, segments: [(seq: Int, size: Int)] = [], older: [String] = []
        for entry in try folder.list(layout.zoneDirectory(generation, device, zone)) where entry.kind == .file {
            if layout.belongsToSnapshot(entry.name, base: base) {
                snapshot += entry.size
            } else if entry.name.hasPrefix("snapshot-") {
                older.append(entry.name)
            } else if entry.name.hasSuffix(".seg"), let seq = Int(entry.name.dropLast(4)), seq > base {
                segments.append((seq, entry.size))
            }
        }
        return (snapshot, segments.sorted { $0.seq < $1.seq }, older)
    }

    // MARK: - Reading the folder

    /// Reads the newest valid generation marker; with none, the folder is at `initial`.
    private func readCurrentGeneration(_ state: inout State) throws(CloudStoreError) -> GenerationBody {
        try readGenerations(&state).current
    }

    /// The newest generation whose marker reads whole, and the newer ones whose markers have
    /// only partly arrived.
    private func readGenerations(_ state: inout State) throws(CloudStoreError) -> (current: GenerationBody, arriving: [CloudGeneration]) {
        let entries = try folder.list(layout.generationsDirectory)
        var candidates: [CloudGeneration] = []
        for entry in entries where !entry.name.hasPrefix(".tmp-") {
            let stem = entry.name.hasSuffix(".gen") ? String(entry.name.dropLast(4)) : ""
            guard entry.kind == .file, CloudGeneration.accepts(stem) else {
                warn(layout.generationsDirectory.appending(entry.name), "not a generation marker", &state)
                continue
            }
            candidates.append(CloudGeneration(validated: stem))
        }
        var arriving: [CloudGeneration] = []
        for generation in candidates.sorted(by: >) {
            var incomplete = false
            let body = load(layout.marker(generation), kind: .generation, as: GenerationBody.self, limit: CloudLimits.maxSmallFileBytes,
                            incomplete: &incomplete, state: &state)
            if let body, body.generation == generation { return (body, arriving) }
            // Only the start of a real marker is waited for; junk under a marker's name is skipped.
            if incomplete { arriving.append(generation) }
        }
        return (GenerationBody(generation: .initial, createdBy: DeviceID(validated: "initial"), createdAt: .zero), arriving)
    }

    /// Every device folder of the generation with its head (nil when missing or unreadable).
    private func readHeads(_ generation: CloudGeneration, _ state: inout State) -> [DeviceID: HeadBody?] {
        let directory = layout.devicesDirectory(generation)
        var heads: [DeviceID: HeadBody?] = [:]
        for entry in (try? folder.list(directory)) ?? [] {
            guard entry.kind == .directory, DeviceID.accepts(entry.name), heads.count < CloudLimits.maxDevicesPerGeneration else {
                warn(directory.appending(entry.name), "not a device folder", &state)
                continue
            }
            let other = DeviceID(validated: entry.name)
            let head = load(layout.head(generation, other), kind: .head, as: HeadBody.self, limit: CloudLimits.maxSmallFileBytes, state: &state)
            // updateValue, not subscript: assigning nil through the subscript would drop the device.
            heads.updateValue(head.flatMap { $0.device == other && $0.generation == generation ? $0 : nil }, forKey: other)
        }
        return heads
    }

    private func ownHead(_ generation: CloudGeneration, _ state: inout State) -> HeadBody {
        let head = load(layout.head(generation, device), kind: .head, as: HeadBody.self, limit: CloudLimits.maxSmallFileBytes, state: &state)
        return head ?? HeadBody(generation: generation, device: device, clock: .zero, zones: [:])
    }

    private func knownZones(_ heads: [DeviceID: HeadBody?]) -> [ZoneID] {
        Set(heads.values.compactMap { $0 }.flatMap { $0.zones.keys }).compactMap { try? ZoneID($0) }.sorted()
    }

    /// True when no other device has announced or published a segment past `since`:
    /// one head read per device plus one existence check per device, whatever the record count.
    private func nothingNew(in zone: ZoneID, _ generation: CloudGeneration, heads: [DeviceID: HeadBody?], since: [DeviceID: Int]) -> Bool {
        heads.allSatisfy { other, head in
            guard other != device else { return true }
            let seq = since[other] ?? 0
            if (head?.zones[zone.name]?.seq ?? 0) > seq { return false }
            return !folder.fileExists(layout.segment(generation, other, zone, seq + 1))
        }
    }

    /// Reads what is new in every device's log of `zone`, in order, stopping at the first
    /// segment that is missing or invalid: later ones wait until it arrives.
    /// `lazily`: a snapshot not read yet is left unread (its list read, no part), looked up by
    /// name when something needs one of its records; a list that does not allow it (one that
    /// does not name its parts' first names, or that has not arrived whole) is read as before.
    /// `overflow`: given the view's winners whenever they reach a batch (`spillLimits`), to
    /// take them out of memory; the view is not sized ahead then.
    private func refresh(_ view: inout ZoneView, zone: ZoneID, generation: CloudGeneration, heads: [DeviceID: HeadBody?],
                         lazily: Bool = false, state: inout State, overflow: ((inout [String: ZoneView.Winner]) -> Void)? = nil) {
        view.waitingFor = []
        for (other, head) in heads {
            var seq = view.positions[other] ?? 0
            let log = head?.zones[zone.name]
            if lazily, let base = log?.snapshotBase, base > 0, base > seq || base > (view.unread[other]?.base ?? base) {
                if case .success(let listed)? = SnapshotFiles.list(in: folder, layout: layout, generation, other, zone, base: base),
                   let unread = UnreadSnapshot(device: other, arrived: listed, counter: decodedRecords) {
                    // What was looked up in an older snapshot stays: the newer one holds the same
                    // versions or later ones, which segments already read brought in.
                    view.unread[other] = unread
                    // Nothing of it is read: this device's next stamp comes after its writer's clock.
                    if let clock = head?.clock { view.latestHLC = max(view.latestHLC, clock) }
                    seq = max(seq, base)
                } else if view.unread[other] != nil {
                    // The snapshot looked up so far was replaced by one that cannot be: read again whole.
                    view.unreadFailed = true
                    return
                }
            }
            if let base = log?.snapshotBase, base > seq {
                // Every part decoded and checked before any entry is merged: never half a snapshot.
                guard let entries = snapshotEntries(zone, generation, of: other, base: base, state: &state) else {
                    view.waitingFor.insert(other)
                    continue
                }
                for entry in entries { view.merge(entry, from: other) }
                seq = base
            }
            // The segments the head announces are read and decoded a window at a time on every
            // core, then merged in order; past them, one at a time (a head can be behind). The
            // first segment missing or not valid stops the log: later ones wait for it.
            // A view read from nothing (a first fetch of a log of many segments) is sized from
            // the records per segment read so far, instead of growing a record at a time: again
            // whenever it is half full, since a log's first segments can hold fewer records
            // than its later ones (each resize hashes every name again).
            let fromNothing = view.winners.isEmpty, firstSeq = seq
            reading: while true {
                // Numbers from a head are not trusted: compared, never subtracted blindly.
                let announced = log?.seq ?? 0
                guard seq < Int.max - Self.segmentsReadTogether else { break reading }
                let window = announced > seq ? min(Self.segmentsReadTogether, announced - seq) : 1
                for loaded in loadSegments(generation, other, zone, after: seq, count: window) {
                    switch loaded {
                    case nil: break reading
                    case .failure(let problem)?:
                        warn(layout.segment(generation, other, zone, seq + 1), problem.reason, &state)
                        break reading
                    case .success(let segment)?:
                        guard segment.generation == generation, segment.device == other, segment.zone == zone, segment.seq == seq + 1,
                              segment.entries.count <= CloudLimits.maxRecordsPerCommit,
                              segment.entries.allSatisfy({ $0.seq == segment.seq && $0.hlc == segment.hlc && $0.isSound })
                        else {
                            warn(layout.segment(generation, other, zone, seq + 1), "its contents do not match its place", &state)
                            break reading
                        }
                        for entry in segment.entries { view.merge(entry, from: other) }
                        decodedRecords.withLock { $0 += segment.entries.count }
                        seq += 1
                        if let overflow {
                            held.note(view.winners.count)
                            if view.winners.count >= state.spillLimits.batch { overflow(&view.winners) }
                        }
                    }
                }
                if overflow == nil, fromNothing, window == Self.segmentsReadTogether, announced > seq, view.winners.count >= view.winners.capacity / 2 {
                    let perSegment = Double(view.winners.count) / Double(seq - firstSeq)
                    let expected = perSegment * Double(announced - firstSeq) * 1.1
                    view.winners.reserveCapacity(Int(min(expected, Double(Self.largestSizing))))
                }
            }
            view.positions[other] = seq
            if (log?.seq ?? 0) > seq { view.waitingFor.insert(other) }
        }
    }

    /// How many announced segments are read and decoded at once.
    static let segmentsReadTogether = 64
    /// The most records a view is sized for ahead of reading them (a head's numbers are not
    /// trusted: past this, the view grows as it reads).
    static let largestSizing = 1 << 20

    /// Segments `first + 1 …` of `owner`'s log, read and decoded together (each nil when
    /// missing): a run of them per core, each run read through one handle on the folder.
    private func loadSegments(_ generation: CloudGeneration, _ owner: DeviceID, _ zone: ZoneID, after first: Int,
                              count: Int) -> [Result<SegmentBody, FormatProblem>?] {
        let directory = layout.zoneDirectory(generation, owner, zone), folder = self.folder
        let names = (1...count).map { CloudLayout.segmentName(first + $0) }
        let runs = stride(from: 0, to: count, by: Self.segmentsPerRun).map { $0..<min($0 + Self.segmentsPerRun, count) }
        @Sendable func load(_ run: Int) -> [Result<SegmentBody, FormatProblem>?] {
            folder.read(Array(names[runs[run]]), in: directory, limit: CloudLimits.maxSegmentBytes).map {
                Self.decoded($0, kind: .segment, as: SegmentBody.self)
            }
        }
        return (runs.count > 1 ? concurrently(runs.count, load) : [load(0)]).flatMap { $0 }
    }

    /// Segments read through one handle at a time.
    static let segmentsPerRun = 16

    /// A file's body read and decoded, the reason it is not valid, or nil when it is missing.
    private static func decoded<Body: Decodable>(_ path: FolderPath, kind: CloudFileFormat.Kind, as type: Body.Type, limit: Int,
                                                 in folder: any CloudFolder) -> Result<Body, FormatProblem>? {
        decoded(folder.read(path, limit: limit), kind: kind, as: type)
    }

    private static func decoded<Body: Decodable>(_ read: FileRead, kind: CloudFileFormat.Kind, as type: Body.Type) -> Result<Body, FormatProblem>? {
        switch read {
        case .missing: nil
        case .rejected(let reason): .failure(FormatProblem(reason))
        case .data(let data): CloudFileFormat.decode(data, kind: kind, as: type)
        }
    }

    /// The snapshot at `base` of `owner`'s log of `zone` whose every file has arrived, or nil
    /// (missing, or not yet whole: warned about, and read again next time).
    private func arrivedSnapshot(_ zone: ZoneID, _ generation: CloudGeneration, of owner: DeviceID, base: Int, state: inout State) -> SnapshotFiles.Arrived? {
        switch SnapshotFiles.arrived(in: folder, layout: layout, generation, owner, zone, base: base) {
        case nil: return nil
        case .failure(let problem)?:
            warn(problem.path, problem.reason, &state)
            return nil
        case .success(let arrived)?: return arrived
        }
    }

    /// Every entry of the snapshot at `base` of `owner`'s log of `zone`, its parts decoded on
    /// every core; nil when it is missing, not yet whole, or unreadable (warned about).
    private func snapshotEntries(_ zone: ZoneID, _ generation: CloudGeneration, of owner: DeviceID, base: Int, state: inout State) -> [RecordEntry]? {
        guard let arrived = arrivedSnapshot(zone, generation, of: owner, base: base, state: &state) else { return nil }
        switch arrived.entries() {
        case .success(let entries):
            decodedRecords.withLock { $0 += entries.count }
            return entries
        case .failure(let problem):
            warn(problem.path, problem.reason, &state)
            return nil
        }
    }

    /// A valid file's body, or nil (missing, or skipped with a warning).
    private func load<Body: Decodable>(_ path: FolderPath, kind: CloudFileFormat.Kind, as type: Body.Type, limit: Int, state: inout State) -> Body? {
        var incomplete = false
        return load(path, kind: kind, as: type, limit: limit, incomplete: &incomplete, state: &state)
    }

    /// As `load`, telling also whether the file looked like the start of a valid one.
    private func load<Body: Decodable>(_ path: FolderPath, kind: CloudFileFormat.Kind, as type: Body.Type, limit: Int,
                                       incomplete: inout Bool, state: inout State) -> Body? {
        switch Self.decoded(path, kind: kind, as: type, limit: limit, in: folder) {
        case nil: return nil
        case .success(let body)?: return body
        case .failure(let problem)?:
            incomplete = problem.incomplete
            warn(path, problem.reason, &state)
            return nil
        }
    }

    private func warn(_ path: FolderPath, _ reason: String, _ state: inout State) {
        let warning = CloudWarning(path: path.description, reason: reason)
        guard state.warned.insert(warning).inserted else { return }
        options.warnings?(warning)
    }
}

// MARK: - Several commits at once

extension FolderCloudDatabase {
    /// Commits one after another into `zone`, as as many `modifyRecords` calls would make them
    /// (a segment each, numbered and stamped in order, each checked against the ones before),
    /// under one lock, with one refresh of the zone and one head written after all their
    /// segments: a first upload of a long history makes hundreds. The segments are encoded and
    /// written on several threads at once, so their flushes to disk overlap. A commit that would
    /// fail is not made, nor any after it; those before it are. A segment that cannot be written
    /// throws, and the ones written before it are read as any segment beyond its head is.
    public func modifyRecords(in zone: ZoneID, commits: [CommitBatch], policy: SavePolicy) throws(CloudStoreError) -> CommitsMade {
        var seen: Set<String> = []
        for commit in commits {
            let names = commit.saving.map(\.recordName) + commit.deleting
            guard names.count <= CloudLimits.maxRecordsPerCommit else {
                throw .batchTooLarge(count: names.count, limit: CloudLimits.maxRecordsPerCommit)
            }
            seen.removeAll(keepingCapacity: true)
            for name in names where !seen.insert(name).inserted {
                throw .invalidRecord(recordName: name, reason: "appears twice in one commit")
            }
            for record in commit.saving {
                if let problem = RecordEntry.problem(name: record.recordName, type: record.recordType, fields: record.fields) {
                    throw .invalidRecord(recordName: record.recordName, reason: problem)
                }
            }
        }
        return try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            return try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                var view = try refreshedView(zone, generation, &state)
                bringIn(commits.lazy.flatMap { $0.saving.map(\.recordName) + $0.deleting }, to: &view, zone, generation, &state)
                var head = ownHead(generation, &state)
                // This device's own snapshot not read (damaged, or replaced by an older copy): a
                // commit would be numbered under its base, where every reader skips it. Nothing
                // is written until it reads again.
                if let base = head.zones[zone.name]?.snapshotBase, base > (view.positions[device] ?? 0) {
                    throw .unavailable(reason: "this device's snapshot \(base) of \(zone) does not read; nothing is written until it does")
                }
                var segments: [SegmentBody] = [], stopped: CloudStoreError?
                for commit in commits {
                    var failures = options.faults?.failures(among: commit.saving.map(\.recordName) + commit.deleting) ?? [:]
                    if policy != .overwrite {
                        for record in commit.saving {
                            if let failure = conflict(saving: record, against: view.winners[record.recordName]) { failures[record.recordName] = failure }
                        }
                    }
                    guard failures.isEmpty else {
                        stopped = .partialFailure(failures)
                        break
                    }
                    let seq = (view.positions[device] ?? 0) + 1
                    let stamp = state.clock.advanced(wall: options.now(), observed: max(view.latestHLC, head.clock))
                    let entries = commit.saving.map { record in
                        let previous = view.winners[record.recordName]
                        var fields = record.fields
                        if policy == .changedKeys, let kept = previous.flatMap({ $0.entry.deleted ? nil : $0.entry.fields }) {
                            fields = kept.merging(fields) { $1 }
                        }
                        return entry(named: record.recordName, type: record.recordType, fields: fields, seq: seq, stamp: stamp, previous: previous)
                    } + commit.deleting.map { name in
                        entry(named: name, type: view.winners[name]?.entry.type ?? "Deleted", fields: nil, seq: seq, stamp: stamp, previous: view.winners[name])
                    }
                    segments.append(SegmentBody(generation: generation, device: device, zone: zone, seq: seq, hlc: stamp, entries: entries))
                    state.clock = stamp
                    head.clock = stamp
                    for entry in entries { view.merge(entry, from: device) }
                    view.positions[device] = seq
                }
                guard let first = segments.first?.seq, let last = segments.last?.seq else {
                    state.views[zone] = view
                    return CommitsMade(results: [], failure: stopped)
                }
                let sizes = try writeSegments(segments, zone: zone, generation: generation)
                state.views[zone] = view

                // A zone another device started has no entry in this head until this first commit
                // into it: then the log is this one segment, so its sizes are known from the start
                // (sizes left unknown would make every later decision list the log until a compaction).
                // A head that lacks a zone this device already wrote to (a crash before the head)
                // does not know its log's size: left unknown, it is listed once and written back.
                head.zones[zone.name, default: HeadBody.ZoneLog(seq: 0, snapshotBase: 0, logBytes: first == 1 ? 0 : nil,
                                                                  snapshotBytes: first == 1 ? 0 : nil)].seq = last
                head.zones[zone.name]?.logBytes? += sizes.reduce(0, +)
                try write(head, kind: .head, file: .head, to: layout.head(generation, device), mode: .replace)
                let results = zip(commits, segments).map { commit, segment in
                    CommitResult(savedRecords: segment.entries.filter { !$0.deleted }.map { $0.record(device: device) }, deletedRecordNames: commit.deleting)
                }
                return CommitsMade(results: results, failure: stopped)
            }
        }
    }

    /// Threads that encode and write a group's segments at most (each waits mostly on its flush).
    static let segmentWriters = 8

    /// Encodes and writes each segment, returning each file's size: on several threads, unless
    /// faults are injected (they count the steps in order). The first error is thrown once every
    /// writer has stopped.
    private func writeSegments(_ segments: [SegmentBody], zone: ZoneID, generation: CloudGeneration) throws(CloudStoreError) -> [Int] {
        let sizes = Locked([Int](repeating: 0, count: segments.count))
        let failure = Locked<CloudStoreError?>(nil)
        let next = Locked(0)
        let work: @Sendable () -> Void = { [self] in
            while failure.withLock({ $0 == nil }) {
                let index = next.withLock { n -> Int in
                    defer { n += 1 }
                    return n
                }
                guard index < segments.count else { return }
                do throws(CloudStoreError) {
                    let size = try writeSegment(segments[index], zone: zone, generation: generation)
                    sizes.withLock { $0[index] = size }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        if options.faults != nil || segments.count == 1 {
            work()
        } else {
            let writers = min(Self.segmentWriters, segments.count), finished = DispatchSemaphore(value: 0)
            for _ in 0..<writers {
                Thread {
                    work()
                    finished.signal()
                }.start()
            }
            for _ in 0..<writers { finished.wait() }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return sizes.withLock { $0 }
    }

    /// Writes one segment, new in this device's log; returns its size.
    private func writeSegment(_ segment: SegmentBody, zone: ZoneID, generation: CloudGeneration) throws(CloudStoreError) -> Int {
        let path = layout.segment(generation, device, zone, segment.seq)
        let file = CloudFileFormat.encode(segment, kind: .segment)
        if !(try write(sealed: file, file: .segment, to: path, mode: .createNew)) {
            // The refresh stopped before this file, so it is not a valid segment: debris
            // in our own log (planted, or damaged by a copier). Ours to replace, under our lock.
            folder.remove(path)
            guard try write(sealed: file, file: .segment, to: path, mode: .createNew) else {
                throw .unavailable(reason: "segment \(segment.seq) of \(zone) keeps appearing (another writer ignores the device lock)")
            }
        }
        return file.count
    }
}

// MARK: - A first upload written as a snapshot

extension FolderCloudDatabase {
    /// See `CloudDatabase.uploadAsSnapshot`. Under this device's lock, and only while no device
    /// (this one included) has anything in the zone's log: each page's records are stamped as
    /// commit 1 of this device's log at one clock reading, sorted by name and sealed into parts
    /// as they fill; then the list, then the head announcing the snapshot at base 1 (what a
    /// compaction of that one commit would leave). A reader sees nothing of it until the head,
    /// and then all of it. Files of an upload that stopped before its head are debris in this
    /// device's empty log: removed first.
    public func uploadAsSnapshot(_ zone: ZoneID, starting: () -> Bool, next: () -> [CommitBatch]?,
                                 made: ([CommitResult]) -> Bool) throws(CloudStoreError) -> SnapshotUpload {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            return try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                var view = try refreshedView(zone, generation, &state)
                var head = ownHead(generation, &state)
                let log = head.zones[zone.name]
                guard view.winners.isEmpty, view.waitingFor.isEmpty, view.positions.values.allSatisfy({ $0 == 0 }),
                      (log?.seq ?? 0) == 0, (log?.snapshotBase ?? 0) == 0 else {
                    state.views[zone] = view
                    return .declined
                }
                let directory = layout.zoneDirectory(generation, device, zone)
                for entry in (try? folder.list(directory)) ?? [] where entry.kind == .file && entry.name != ".lock" {
                    folder.remove(directory.appending(entry.name))
                }
                let base = 1
                let stamp = state.clock.advanced(wall: options.now(), observed: max(view.latestHLC, head.clock))
                var sealer = partSealer(generation, zone, base: base, partBytes: state.partBytes)
                var records = 0, lastName: String?, left = false, hashes: [Int] = []
                pages: while let page = next() {
                    var entries: [RecordEntry] = [], results: [CommitResult] = []
                    for commit in page {
                        let names = commit.saving.map(\.recordName)
                        guard commit.deleting.isEmpty, names.count <= CloudLimits.maxRecordsPerCommit,
                              options.faults?.failures(among: names).isEmpty ?? true,
                              commit.saving.allSatisfy({ $0.systemFields == nil && RecordEntry.problem(name: $0.recordName, type: $0.recordType, fields: $0.fields) == nil })
                        else {
                            left = true
                            break pages
                        }
                        let stamped = commit.saving.map { entry(named: $0.recordName, type: $0.recordType, fields: $0.fields, seq: base, stamp: stamp, previous: nil) }
                        results.append(CommitResult(savedRecords: stamped.map { $0.record(device: device) }, deletedRecordNames: []))
                        entries += stamped
                    }
                    entries.sort { $0.name < $1.name }
                    // Strictly after every name before it: so the parts are in name order, each record once.
                    guard zip(entries, entries.dropFirst()).allSatisfy({ $0.name < $1.name }),
                          entries.first.map({ first in lastName.map { $0 < first.name } ?? true }) ?? true else {
                        left = true
                        break pages
                    }
                    if records == 0, !entries.isEmpty {
                        guard starting() else { break pages }
                    }
                    try sealed(zone, base: base) { () throws in
                        for entry in entries { try sealer.add(entry) }
                    }
                    records += entries.count
                    lastName = entries.last?.name ?? lastName
                    hashes += entries.lazy.map(\.name.hashValue)
                    guard made(results) else { break pages }
                }
                guard records > 0 else {
                    state.views[zone] = view
                    return SnapshotUpload(records: 0, lastPageLeft: left, token: nil)
                }
                let list = try sealed(zone, base: base) { () throws in try sealer.finish() }
                try write(sealed: list, file: .snapshot, to: layout.snapshot(generation, device, zone, base), mode: .replace)
                head.clock = stamp
                head.zones[zone.name] = HeadBody.ZoneLog(seq: base, snapshotBase: base, logBytes: 0, snapshotBytes: sealer.written + list.count)
                try write(head, kind: .head, file: .head, to: layout.head(generation, device), mode: .replace)
                state.clock = stamp
                // What was sent is not kept: the view knows where every log stands, and looks a
                // record up in the snapshot's parts when a commit or a read needs it (read again
                // from the folder if the snapshot cannot be found whole).
                view.positions[device] = base
                view.latestHLC = max(view.latestHLC, stamp)
                if case .success(let arrived)? = SnapshotFiles.arrived(in: folder, layout: layout, generation, device, zone, base: base),
                   var unread = UnreadSnapshot(device: device, arrived: arrived, counter: decodedRecords) {
                    unread.hashes = hashes.sorted()
                    view.unread[device] = unread
                } else {
                    view.partial = true
                }
                state.views[zone] = view
                return SnapshotUpload(records: records, lastPageLeft: left, token: tokenAfter(view, generation, zone, since: nil))
            }
        }
    }

    public func hasPublished(in zone: ZoneID) throws(CloudStoreError) -> Bool {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            return try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                (ownHead(generation, &state).zones[zone.name]?.seq ?? 0) > 0 || folder.fileExists(layout.segment(generation, device, zone, 1))
            }
        }
    }
}
