import Concurrency
import Foundation

/// Commits: one, or several at once under one lock, each checked against the records it saves.
extension FolderCloudDatabase {
    public func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy = .ifServerRecordUnchanged) throws(CloudStoreError) -> CommitResult {
        let made = try modifyRecords(in: zone, commits: [CommitBatch(saving: saving, deleting: deleting)], policy: policy)
        if let failure = made.failure { throw failure }
        return made.results[0]
    }

    private func conflict(saving record: CloudRecord, against winner: ZoneView.Winner?) -> CloudStoreError? {
        let expected = record.systemFields?.changeTag
        guard let winner else { return expected == nil ? nil : .unknownRecord(recordName: record.recordName) }
        if winner.entry.deleted { return expected == nil ? nil : .unknownRecord(recordName: record.recordName) }
        let current = winner.entry.record(device: winner.device)
        return current.systemFields?.changeTag == expected ? nil : .serverRecordChanged(serverRecord: current)
    }

    /// The stamp of a commit: this device's clock reading, or, when a version it saves over or
    /// deletes carries a later one, the first reading after that version. A save that passed its
    /// change-tag check was made knowing the version it replaces, so it must win over it
    /// everywhere, and the clock reading alone does not promise that: a reading more than a day
    /// ahead of this machine's wall clock does not move its clock (`HLCTimestamp.trustedAhead`),
    /// so a machine whose clock is that far behind would stamp its change before the version it
    /// changed, acknowledge it and keep its value while every other machine kept the one it
    /// replaced (simulation seeds 939 and 4015). Only the stamp moves, never this device's clock:
    /// a version far ahead reaches no other record's stamp.
    static func stamp(_ own: HLCTimestamp, replacing commit: CommitBatch, in view: ZoneView) -> HLCTimestamp {
        var stamp = own
        for name in commit.saving.lazy.map(\.recordName) + commit.deleting {
            guard let replaced = view.winners[name]?.entry.hlc, replaced >= stamp, let after = replaced.readableSuccessor else { continue }
            stamp = after
        }
        return stamp
    }

    func entry(named name: String, type: String, fields: [String: FieldValue]?, seq: Int, stamp: HLCTimestamp, previous: ZoneView.Winner?) -> RecordEntry {
        let live = previous.flatMap { $0.entry.deleted ? nil : $0.entry }
        return RecordEntry(name: name, type: type, seq: seq, hlc: stamp, deleted: fields == nil, fields: fields,
                           createdBy: live?.createdBy ?? device, createdAt: live?.createdAt ?? stamp)
    }

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
                    let own = state.clock.advanced(wall: options.now(), observed: max(view.latestHLC, head.clock))
                    let stamp = Self.stamp(own, replacing: commit, in: view)
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
                    state.clock = own
                    head.clock = own
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
                // Kept within what a head may say (`HeadBody.bound`), whatever the head read said.
                if let logBytes = head.zones[zone.name]?.logBytes {
                    head.zones[zone.name]?.logBytes = min(logBytes + sizes.reduce(0, +), CloudLimits.maxLogBytes)
                }
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
