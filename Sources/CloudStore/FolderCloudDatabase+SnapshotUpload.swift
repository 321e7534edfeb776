import Foundation

/// A first upload written as a snapshot.
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
                    hashes.sort()
                    unread.hashes = hashes
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

    /// See `CloudDatabase.restartOwnLogWhereGone`. The new base is past every number the old log
    /// can have reached: past the head's end when the head is there, and when it is gone past
    /// the seconds since 1970 too (a device writes far fewer segments than one a second), and
    /// past what this process has read of its own log. A reader at a position behind the base
    /// finds its token expired and reads the zone again whole; what the old log held that the
    /// caller sends again comes after the base. Files left in the zone's folder go first.
    public func restartOwnLogWhereGone(_ zones: [ZoneID], wroteBefore: () -> Bool) throws(CloudStoreError) -> [ZoneID] {
        try operation { (state: inout State) throws(CloudStoreError) in
            let generation = try requireGeneration(&state)
            let path = layout.head(generation, device)
            var wrote: Bool?
            func missing(_ head: HeadBody?, there: Bool) -> [ZoneID] {
                if !there {
                    wrote = wrote ?? wroteBefore()
                    return wrote! ? zones : []
                }
                return zones.filter { zone in
                    guard let log = head?.zones[zone.name] else { return false }
                    return (log.snapshotBase > 0 && !folder.fileExists(layout.snapshot(generation, device, zone, log.snapshotBase)))
                        || (log.seq > log.snapshotBase && !folder.fileExists(layout.segment(generation, device, zone, log.snapshotBase + 1)))
                }
            }
            // Asked every round, so it costs no file read and no lock when all is well: the
            // head's existence, and the files its last read named (a process's first round,
            // which has read no head yet, looks at the head's existence alone).
            let there = folder.fileExists(path)
            guard !missing(there ? state.ownHeadSeen : nil, there: there).isEmpty else { return [] }
            // No store at all (not even the generation's folder of devices): an unmounted mount
            // point, which nothing is written into, not even this device's lock.
            let devices = ((try? folder.list(layout.generationDirectory(generation))) ?? []).contains { $0.name == "devices" && $0.kind == .directory }
            guard devices else { return [] }
            return try folder.withExclusiveLock(layout.deviceDirectory(generation, device)) { () throws(CloudStoreError) in
                // What the last read of the heads saw may be older than this device's own
                // writes since (a compaction moves its base): a gap it suggests is checked
                // against the head read now, under the lock.
                let there = folder.fileExists(path)
                let found = there ? load(path, kind: .head, as: HeadBody.self, limit: CloudLimits.maxSmallFileBytes, state: &state) : nil
                state.ownHeadSeen = found
                let gone = missing(found, there: there)
                guard !gone.isEmpty else { return [] }
                var head = found ?? HeadBody(generation: generation, device: device, clock: state.clock, zones: [:])
                var restarted: [ZoneID] = []
                for zone in gone {
                    let log = head.zones[zone.name]
                    let seconds = Int(min(max(options.now().timeIntervalSince1970, 0), Double(CloudLimits.maxSequence / 2)))
                    let read = state.views[zone]?.positions[device] ?? 0
                    let base = max(log?.seq ?? 0, read, found == nil ? seconds : 0) + 1
                    let directory = layout.zoneDirectory(generation, device, zone)
                    for entry in (try? folder.list(directory)) ?? [] where entry.kind == .file && entry.name != ".lock" {
                        folder.remove(directory.appending(entry.name))
                    }
                    var sealer = partSealer(generation, zone, base: base, partBytes: state.partBytes)
                    let list = try sealed(zone, base: base) { () throws in try sealer.finish() }
                    try write(sealed: list, file: .snapshot, to: layout.snapshot(generation, device, zone, base), mode: .replace)
                    head.zones[zone.name] = HeadBody.ZoneLog(seq: base, snapshotBase: base, logBytes: 0, snapshotBytes: sealer.written + list.count)
                    state.views[zone] = nil
                    restarted.append(zone)
                }
                if !restarted.isEmpty { try write(head, kind: .head, file: .head, to: path, mode: .replace) }
                return restarted
            }
        }
    }
}
