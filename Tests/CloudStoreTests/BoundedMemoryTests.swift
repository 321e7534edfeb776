@testable import CloudStore
@testable import Concurrency
import Foundation
import Testing

/// Reads whose memory must not grow with the history: a first fetch of a log never compacted
/// sorts it on disk a batch at a time, and the parts of a snapshot are decoded by a few
/// threads, however many parts there are. Structural, not timed: what the store counts.
@Suite struct BoundedMemoryTests {
    /// One device's log of `games` commits, never compacted, as a player who syncs after every
    /// game leaves it: a game, then its guesses; every fifth game edited later and every
    /// seventh deleted; a second device edits some of the same records.
    static func neverCompacted(games: Int) throws -> (MemoryFolder, ZoneID) {
        let folder = MemoryFolder()
        let zone = try ZoneID("Games")
        let a = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("A"))
        let b = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("B"))
        try a.createZone(zone)
        for n in 1...games {
            let game = String(format: "game-%06d", n)
            _ = try a.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: game, fields: ["n": .int(Int64(n))])],
                                    deleting: [], policy: .overwrite)
            let guesses = (1...3).map { CloudRecord(recordType: "Guess", recordName: "\(game)-guess-\($0)", fields: ["word": .string("crane")]) }
            _ = try a.modifyRecords(in: zone, saving: guesses, deleting: [], policy: .overwrite)
            if n % 5 == 0 {
                let earlier = String(format: "game-%06d", n / 2)
                _ = try a.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: earlier, fields: ["n": .int(-Int64(n))])],
                                        deleting: [], policy: .overwrite)
            }
            if n % 7 == 0 { _ = try a.modifyRecords(in: zone, saving: [], deleting: ["\(game)-guess-2"], policy: .overwrite) }
            if n % 11 == 0 {
                _ = try b.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: game, fields: ["by": .string("B")])],
                                        deleting: [], policy: .overwrite)
            }
        }
        return (folder, zone)
    }

    static let limits = SpilledRuns.Limits(batch: 40, block: 8)

    /// A first fetch streams what the usual fetch returns, each record once, and holds at most a
    /// batch and a block per run at once: the same bound at 100 and at 400 games.
    @Test func aNeverCompactedLogIsStreamedInBoundedMemory() throws {
        var most: [Int] = []
        for games in [100, 400] {
            let (folder, zone) = try Self.neverCompacted(games: games)
            for reader in ["C", "B"] {
                let expected = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID(reader)).fetchZoneChanges(zone, since: nil)
                let store = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID(reader))
                store.limitSpill(Self.limits)
                var handed: [CloudRecord] = []
                let outcome = try store.fetchAllRecords(zone, chunk: 10) { handed += $0; return true }
                #expect(outcome == .complete(token: expected.token, isComplete: expected.isComplete), "\(games) games, reader \(reader)")
                #expect(handed == expected.changedRecords, "\(games) games, reader \(reader)")
                #expect(handed.count > 3 * games)
                // Nothing kept; what comes next reads the folder again and answers whole.
                #expect(store.keptRecords(in: zone) == 0)
                guard case .complete(let token, _) = outcome else { continue }
                #expect(try store.fetchZoneChanges(zone, since: token).changedRecords.isEmpty)
                let name = handed[3].recordName
                #expect(try store.fetchRecords(in: zone, named: [name])[name] == handed[3])
                most.append(store.recordsHeldAtMost)
            }
        }
        // A batch being gathered, then one block per run (at most batch / block runs at once),
        // and a chunk handed over: never the history.
        let bound = Self.limits.batch + Self.limits.batch + 10
        #expect(most.allSatisfy { $0 <= bound }, "\(most)")
        #expect(most.allSatisfy { $0 > 0 })
    }

    /// Histories of two devices with snapshots, later segments, updates and deletions: sorted on
    /// disk in tiny batches, the stream still hands over exactly what a full fetch returns.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func snapshotsBesideALogSortedOnDiskHandOverWhatAFullFetchReturns(seed: UInt64) throws {
        let (folder, zone) = try StreamedFetchTests.history(seed: seed, partBytes: 300)
        for reader in ["C", "A"] {
            let expected = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID(reader)).fetchZoneChanges(zone, since: nil)
            let store = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID(reader))
            store.limitSpill(.init(batch: 6, block: 2))
            var handed: [CloudRecord] = []
            let outcome = try store.fetchAllRecords(zone, chunk: 7) { handed += $0; return true }
            #expect(outcome == .complete(token: expected.token, isComplete: expected.isComplete), "reader \(reader)")
            #expect(handed == expected.changedRecords, "reader \(reader)")
        }
    }

    /// A block of a run reads back exactly what was written, every kind of field included; a
    /// block cut short is refused rather than misread.
    @Test func aBlockOfARunReadsBackWhatWasWritten() throws {
        let a = try DeviceID("A"), b = try DeviceID("B")
        let clock = HLCTimestamp(millis: 1_700_000_000_123, counter: 7)
        let fields: [String: FieldValue] = [
            "s": .string("crâne ✓"), "i": .int(-42), "d": .double(0.1), "b": .bool(true),
            "t": .date(Date(timeIntervalSince1970: 1_700_000_000.5)), "x": .bytes(Data([0, 255, 7])), "l": .strings(["a", "", "ü"]),
        ]
        let entries = [
            RecordEntry(name: "game-1", type: "Game", seq: 3, hlc: clock, deleted: false, fields: fields,
                        createdBy: b, createdAt: HLCTimestamp(millis: 5, counter: 0)),
            RecordEntry(name: "game-1-guess-1", type: "Guess", seq: 9, hlc: clock, deleted: true, fields: nil, createdBy: a, createdAt: clock),
        ]
        let bytes = BlockCodec.encode(entries, [a, b])
        let back = try #require(bytes.withUnsafeBytes { BlockCodec.decode($0) })
        #expect(back.map(\.0) == entries)
        #expect(back.map(\.1) == [a, b])
        #expect(Array(bytes.dropLast()).withUnsafeBytes { BlockCodec.decode($0) } == nil)
    }

    /// However many parts a snapshot has, its parts are decoded by the pool's few threads (or
    /// the reading thread): no thread is started per part.
    @Test func aSnapshotOfManyPartsStartsNoThreadPerPart() throws {
        let (folder, store, zone) = try OversizedSnapshotTests.storeWithCommits(300, padding: 200)
        store.limitSnapshots(partBytes: 1_000)
        _ = try store.compact(zone, keepingRecent: 0)
        let parts = folder.allFiles.filter { $0.hasSuffix(".part") }.count
        #expect(parts >= 60, "\(parts) parts")
        let jobs = WorkPool.shared.jobsFinished
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("R"))
        var handed = 0
        #expect(try reader.fetchAllRecords(zone, chunk: 50) { handed += $0.count; return true } != .refused)
        #expect(handed == 300)
        #expect(WorkPool.shared.jobsFinished - jobs >= parts)
        #expect(WorkPool.shared.threadsStarted <= WorkPool.shared.limit)
    }

    /// A compaction of a long log folds it in name order a batch at a time: the snapshot it
    /// writes reads back as the log did, and what it held at once is bounded by the batch, at
    /// 100 and at 400 games alike; a second compaction folds that snapshot with the log after it.
    @Test func aCompactionOfALongLogHoldsABatch() throws {
        var most: [Int] = []
        for games in [100, 400] {
            let (folder, zone) = try Self.neverCompacted(games: games)
            let expected = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("C")).fetchZoneChanges(zone, since: nil)
            let a = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("A"))
            a.limitSpill(Self.limits)
            a.limitSnapshots(partBytes: 2_000)
            let report = try a.compact(zone, keepingRecent: 3)
            #expect(report.segmentsRemoved > 2 * games)
            #expect(report.liveRecords + report.tombstones > 3 * games)
            most.append(a.recordsHeldAtMost)
            let after = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("C")).fetchZoneChanges(zone, since: nil)
            #expect(after.changedRecords == expected.changedRecords)
            // More commits, then a compaction that folds the snapshot with them.
            for n in 1...30 {
                _ = try a.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: String(format: "game-%06d", n * 3),
                                                                       fields: ["again": .int(Int64(n))])],
                                        deleting: n % 4 == 0 ? [String(format: "game-%06d-guess-1", n)] : [], policy: .overwrite)
            }
            let full = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("D")).fetchZoneChanges(zone, since: nil)
            _ = try a.compact(zone, keepingRecent: 0)
            let folded = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("E")).fetchZoneChanges(zone, since: nil)
            #expect(folded.changedRecords == full.changedRecords)
            most.append(a.recordsHeldAtMost)
        }
        let bound = 2 * Self.limits.batch + 64
        #expect(most.allSatisfy { $0 <= bound }, "\(most)")
    }
}
