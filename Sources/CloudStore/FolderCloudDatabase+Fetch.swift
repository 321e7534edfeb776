import Foundation

/// Fetching: what changed since a token, in the database and in a zone, and records by name.
extension FolderCloudDatabase {
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
    func tokenAfter(_ view: ZoneView, _ generation: CloudGeneration, _ zone: ZoneID, since: [DeviceID: Int]?) -> ChangeToken {
        var positions: [String: Int] = [:]
        for (other, seq) in view.positions where other != device {
            positions[other.name] = max(seq, since?[other] ?? 0)
        }
        return ChangeToken(generation: generation, scope: zone.name, positions: positions)
    }

    /// Complete unless another device's announced file has not arrived intact.
    func isComplete(_ view: ZoneView) -> Bool { view.waitingFor.subtracting([device]).isEmpty }

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
}
