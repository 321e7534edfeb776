import Concurrency
import Foundation

/// A new machine's first fetch, streamed in bounded memory: segments first (a long log sorted on
/// disk), then every snapshot part by part in name order.
extension FolderCloudDatabase {
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
            /// The smallest name still to come, from the snapshots and the sorted log.
            func nextName() -> String? {
                var smallest = fromLog?.0.name
                for cursor in cursors {
                    if let name = cursor.current?.name, smallest.map({ name < $0 }) ?? true { smallest = name }
                }
                return smallest
            }
            while let name = nextName() {
                // Once the log went to disk the view holds nothing: no name to hash.
                var winner = view.winners.isEmpty ? nil : view.winners[name]
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
    struct SnapshotCursor {
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
}
