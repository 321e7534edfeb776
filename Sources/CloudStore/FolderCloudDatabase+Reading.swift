import Concurrency
import Foundation

/// Reading the folder: generations, heads, the zone's view and what is new in every log.
extension FolderCloudDatabase {
    /// The zone's view with every new segment read. It is moved out of the state, so updating
    /// it does not copy every record (copy-on-write): put it back when done; if the operation
    /// fails it is simply rebuilt next time.
    /// With `whole`, every record is in the view's winners (none left in an unread snapshot).
    func refreshedView(_ zone: ZoneID, _ generation: CloudGeneration, heads known: [DeviceID: HeadBody?]? = nil, whole: Bool = false,
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
    func readAgain(_ zone: ZoneID, _ generation: CloudGeneration, heads: [DeviceID: HeadBody?], _ state: inout State) -> ZoneView {
        var view = ZoneView()
        refresh(&view, zone: zone, generation: generation, heads: heads, state: &state)
        return view
    }

    /// `view` with the versions of `names` an unread snapshot holds brought in (read again from
    /// the folder if that snapshot no longer reads).
    func bringIn(_ names: some Sequence<String>, to view: inout ZoneView, _ zone: ZoneID, _ generation: CloudGeneration,
                 _ state: inout State) {
        guard !view.unread.isEmpty else { return }
        for name in names where !view.fault(name) {
            view = readAgain(zone, generation, heads: readHeads(generation, &state), &state)
            return
        }
    }

    /// Reads the newest valid generation marker; with none, the folder is at `initial`.
    func readCurrentGeneration(_ state: inout State) throws(CloudStoreError) -> GenerationBody {
        try readGenerations(&state).current
    }

    /// The newest generation whose marker reads whole, and the newer ones whose markers have
    /// only partly arrived.
    func readGenerations(_ state: inout State) throws(CloudStoreError) -> (current: GenerationBody, arriving: [CloudGeneration]) {
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
    func readHeads(_ generation: CloudGeneration, _ state: inout State) -> [DeviceID: HeadBody?] {
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
        state.headDevices = heads.keys.sorted()
        state.ownHeadSeen = heads[device] ?? nil
        return heads
    }

    func ownHead(_ generation: CloudGeneration, _ state: inout State) -> HeadBody {
        let head = load(layout.head(generation, device), kind: .head, as: HeadBody.self, limit: CloudLimits.maxSmallFileBytes, state: &state)
        return head ?? HeadBody(generation: generation, device: device, clock: .zero, zones: [:])
    }

    func knownZones(_ heads: [DeviceID: HeadBody?]) -> [ZoneID] {
        Set(heads.values.compactMap { $0 }.flatMap { $0.zones.keys }).compactMap { try? ZoneID($0) }.sorted()
    }

    /// True when no other device has announced or published a segment past `since`:
    /// one head read per device plus one existence check per device, whatever the record count.
    func nothingNew(in zone: ZoneID, _ generation: CloudGeneration, heads: [DeviceID: HeadBody?], since: [DeviceID: Int]) -> Bool {
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
    func refresh(_ view: inout ZoneView, zone: ZoneID, generation: CloudGeneration, heads: [DeviceID: HeadBody?],
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
            let budget = other == device ? nil : options.mostRecordsPerDevice
            if let base = log?.snapshotBase, base > seq {
                // Every part decoded and checked before any entry is merged: never half a snapshot.
                guard let entries = snapshotEntries(zone, generation, of: other, base: base, state: &state) else {
                    view.waitingFor.insert(other)
                    continue
                }
                if let budget, entries.count > budget {
                    warn(layout.snapshot(generation, other, zone, base), "holds \(entries.count) records, more than a read takes of one device (\(budget))", &state)
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
            var taken = 0
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
                              segment.entries.allSatisfy({ $0.seq == segment.seq && $0.hlc == segment.hlc })
                        else {
                            warn(layout.segment(generation, other, zone, seq + 1), "its contents do not match its place", &state)
                            break reading
                        }
                        if let unsound = segment.entries.lazy.compactMap(\.unsound).first {
                            warn(layout.segment(generation, other, zone, seq + 1), unsound, &state)
                            break reading
                        }
                        if let budget, taken + segment.entries.count > budget {
                            warn(layout.zoneDirectory(generation, other, zone), "holds more records than a read takes of one device (\(budget)); the rest waits", &state)
                            break reading
                        }
                        taken += segment.entries.count
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
    func loadSegments(_ generation: CloudGeneration, _ owner: DeviceID, _ zone: ZoneID, after first: Int,
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
    func arrivedSnapshot(_ zone: ZoneID, _ generation: CloudGeneration, of owner: DeviceID, base: Int, state: inout State) -> SnapshotFiles.Arrived? {
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
    func load<Body: Decodable>(_ path: FolderPath, kind: CloudFileFormat.Kind, as type: Body.Type, limit: Int, state: inout State) -> Body? {
        var incomplete = false
        return load(path, kind: kind, as: type, limit: limit, incomplete: &incomplete, state: &state)
    }

    /// As `load`, telling also whether the file looked like the start of a valid one.
    func load<Body: Decodable>(_ path: FolderPath, kind: CloudFileFormat.Kind, as type: Body.Type, limit: Int,
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
