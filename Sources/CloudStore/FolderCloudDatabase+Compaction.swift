import Foundation

/// Compaction: this device's log folded into a snapshot in parts, a batch at a time.
extension FolderCloudDatabase {
    public func compact(_ zone: ZoneID, keepingRecent: Int = 0) throws(CloudStoreError) -> CompactionReport {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            return try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                // Only this device's log is read, never the zone's view: where it ends is its
                // head's count and any segment written after it (a crash before the head).
                var head = ownHead(generation, &state)
                let oldBase = head.zones[zone.name]?.snapshotBase ?? 0
                let read = state.views[zone]?.positions[device] ?? 0
                var end = max(head.zones[zone.name]?.seq ?? 0, read)
                // A head that names a last segment not there (rewritten by someone, or its
                // segments deleted) is not followed: only what was read is folded.
                if end > read, end > oldBase, !folder.fileExists(layout.segment(generation, device, zone, end)) { end = max(read, oldBase) }
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
            // In floating point: a head's numbers are bounded (`HeadBody.bound`), their product is not.
            let folded = Int(min(Double(logBytes) / Double(segments) * Double(segments - Self.recentSegmentsKept), Double(CloudLimits.maxLogBytes)))
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

    private func ownHeadIfKnown(_ generation: CloudGeneration) -> HeadBody? {
        state.withLock { state in
            load(layout.head(generation, device), kind: .head, as: HeadBody.self, limit: CloudLimits.maxSmallFileBytes, state: &state)
        }
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
}
