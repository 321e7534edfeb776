@testable import CloudStore
import Foundation
import Testing

/// A streamed full fetch hands over exactly what a full fetch returns, each record once, and
/// refuses (handing over nothing worth keeping) whenever it cannot be sure.
@Suite struct StreamedFetchTests {
    /// Two devices writing, updating and deleting the same records over several rounds, each
    /// compacting now and then, so snapshots, later segments and the other device all hold
    /// versions of the same records.
    static func history(seed: UInt64, partBytes: Int = SnapshotFiles.partBytes) throws -> (MemoryFolder, ZoneID) {
        let folder = MemoryFolder()
        let zone = try ZoneID("Games")
        var rng = SeededGenerator(seed: seed)
        let stores = try ["A", "B"].map { try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID($0)) }
        for store in stores { store.limitSnapshots(partBytes: partBytes) }
        try stores[0].createZone(zone)
        var live = Set<String>()
        for round in 0..<8 {
            for store in stores {
                var saving: [CloudRecord] = [], deleting: [String] = [], names = Set<String>()
                for _ in 0..<Int.random(in: 5...60, using: &rng) {
                    let name = "r-\(String(Int.random(in: 0..<150, using: &rng)))"
                    guard names.insert(name).inserted else { continue }
                    if live.contains(name), Int.random(in: 0..<5, using: &rng) == 0 {
                        deleting.append(name)
                        live.remove(name)
                    } else {
                        saving.append(CloudRecord(recordType: name.hasSuffix("7") ? "Guess" : "Game", recordName: name,
                                                  fields: ["round": .int(Int64(round)), "by": .string(store.device.name)]))
                        live.insert(name)
                    }
                }
                _ = try store.modifyRecords(in: zone, saving: saving, deleting: deleting, policy: .overwrite)
                if Int.random(in: 0..<3, using: &rng) == 0 { _ = try store.compact(zone, keepingRecent: Int.random(in: 0...2, using: &rng)) }
            }
        }
        return (folder, zone)
    }

    /// Both devices' snapshots are read side by side in name order; with small parts, each
    /// snapshot is many files.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64], [SnapshotFiles.partBytes, 300])
    func itHandsOverWhatAFullFetchReturnsEachRecordOnce(seed: UInt64, partBytes: Int) throws {
        let (folder, zone) = try Self.history(seed: seed, partBytes: partBytes)
        for reader in ["C", "A", "B"] {
            let expected = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID(reader)).fetchZoneChanges(zone, since: nil)
            let store = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID(reader))
            var handed: [CloudRecord] = [], batches = 0
            let outcome = try store.fetchAllRecords(zone, chunk: 7) { records in
                handed += records
                batches += 1
                return true
            }
            #expect(outcome == .complete(token: expected.token, isComplete: expected.isComplete), "reader \(reader)")
            #expect(Set(handed.map(\.recordName)).count == handed.count, "each record once")
            #expect(handed.sorted { $0.recordName < $1.recordName } == expected.changedRecords, "reader \(reader)")
            #expect(batches > 1)
            // The store now knows the zone as a full fetch leaves it: nothing new since its token.
            guard case .complete(let token, _) = outcome else { continue }
            #expect(try store.fetchZoneChanges(zone, since: token).changedRecords.isEmpty)
        }
    }

    /// What a streamed fetch keeps is what segments touched, not every record; whatever needs
    /// more reads the folder again and gets the same answers a store that read it all gives.
    @Test func afterAStreamedFetchTheStoreKeepsLittleAndStillAnswersWhole() throws {
        let (folder, zone) = try Self.history(seed: 3, partBytes: 300)
        let store = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("C"))
        var handed: [CloudRecord] = []
        guard case .complete(let token, _) = try store.fetchAllRecords(zone, chunk: 50, deliver: { handed += $0; return true }) else {
            Issue.record("not streamed")
            return
        }
        let kept = try #require(store.keptRecords(in: zone))
        #expect(kept < handed.count / 2, "kept \(kept) of \(handed.count)")
        // A record only a snapshot held reads whole.
        let name = try #require(handed.first?.recordName)
        #expect(try store.fetchRecords(in: zone, named: [name])[name] == handed.first)
        // Another device's new commit comes as a change, and only it.
        let a = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("A"))
        let edited = CloudRecord(recordType: "Game", recordName: name, fields: ["round": .int(99)])
        _ = try a.modifyRecords(in: zone, saving: [edited], deleting: [], policy: .overwrite)
        let changes = try store.fetchZoneChanges(zone, since: token)
        #expect(changes.changedRecords.map(\.recordName) == [name] && changes.changedRecords.first?.fields == ["round": .int(99)])
        // And this store's own save over a record it never kept checks against the right version.
        let stale = handed[1]
        let saved = try store.modifyRecords(in: zone, saving: [stale], deleting: [])
        #expect(saved.savedRecords.map(\.recordName) == [stale.recordName])
    }

    /// A snapshot whose names are not in order (so not one version per record, as compaction
    /// writes it) is not streamed; the usual fetch still reads it.
    @Test func aSnapshotOutOfNameOrderIsNotStreamed() throws {
        let (folder, _, zone) = try OversizedSnapshotTests.storeWithCommits(12)
        let a = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("A"))
        a.limitSnapshots(partBytes: 200)
        _ = try a.compact(zone, keepingRecent: 0)
        let list = try #require(folder.allFiles.first { $0.hasSuffix(".snap") })
        let manifest = try CloudFileFormat.decode(folder.contents(of: list)!, kind: .snapshot, as: SnapshotManifest.self).get()
        var entries: [RecordEntry] = []
        for index in 1...manifest.parts.count {
            let path = list.replacingOccurrences(of: ".snap", with: String(format: "-%04d.part", index))
            entries += try CloudFileFormat.decode(folder.contents(of: path)!, kind: .part, as: SnapshotBody.self).get().entries
        }
        let reversed = SnapshotBody(generation: manifest.generation, device: manifest.device, zone: manifest.zone, base: manifest.base,
                                    entries: entries.reversed())
        for path in folder.allFiles where path.hasSuffix(".part") { folder.remove(FolderPath(path.split(separator: "/").map(String.init))) }
        let sealed = try SnapshotFiles.seal(reversed, partBytes: 200) { part, number in
            let path = list.replacingOccurrences(of: ".snap", with: String(format: "-%04d.part", number))
            folder.place(part, at: path.split(separator: "/").map(String.init))
        }
        folder.place(sealed, at: list.split(separator: "/").map(String.init))
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B"))
        #expect(try reader.fetchAllRecords(zone, chunk: 100) { _ in true } == .refused)
        #expect(try reader.fetchZoneChanges(zone, since: nil).changedRecords.count == 12)
    }

    @Test func aZoneWithNoSnapshotOrAlreadyReadIsNotStreamed() throws {
        let (folder, _, zone) = try OversizedSnapshotTests.storeWithCommits(5)
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B"))
        var called = false
        #expect(try reader.fetchAllRecords(zone, chunk: 10) { _ in called = true; return true } == .refused)
        #expect(!called)

        let (compacted, store, games) = try OversizedSnapshotTests.storeWithCommits(5)
        _ = try store.compact(games, keepingRecent: 0)
        let fresh = try FolderCloudDatabase.inMemory(compacted, player: "alice", device: DeviceID("B"))
        _ = try fresh.fetchZoneChanges(games, since: nil)
        #expect(try fresh.fetchAllRecords(games, chunk: 10) { _ in called = true; return true } == .refused)
        #expect(!called)
    }

    @Test func stoppingRefusesAndTheUsualFetchIsUnharmed() throws {
        let (folder, zone) = try Self.history(seed: 9)
        let expected = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("C")).fetchZoneChanges(zone, since: nil)
        let store = try FolderCloudDatabase.inMemory(folder, player: "p", device: DeviceID("C"))
        #expect(try store.fetchAllRecords(zone, chunk: 3) { _ in false } == .refused)
        #expect(try store.fetchZoneChanges(zone, since: nil) == expected)
    }

    /// A damaged snapshot is refused before anything is handed over; one that is not what its
    /// place says (another device's, copied there) is refused even after records went out.
    @Test func aSnapshotInDoubtIsRefused() throws {
        let (folder, zone) = try Self.history(seed: 4)
        let snapshots = folder.allFiles.filter { $0.hasSuffix(".snap") }
        #expect(snapshots.count >= 2)
        let largest = try #require(snapshots.max { folder.contents(of: $0)!.count < folder.contents(of: $1)!.count })
        let other = try #require(snapshots.first { $0 != largest && !$0.contains(largest.split(separator: "/").dropLast().joined(separator: "/")) })

        let damaged = MemoryFolder()
        for path in folder.allFiles { damaged.place(folder.contents(of: path)!, at: path.split(separator: "/").map(String.init)) }
        var bytes = damaged.contents(of: largest)!
        bytes[bytes.count - 3] ^= 0xFF
        damaged.place(bytes, at: largest.split(separator: "/").map(String.init))
        var handed = 0
        let reader = try FolderCloudDatabase.inMemory(damaged, player: "p", device: DeviceID("C"))
        #expect(try reader.fetchAllRecords(zone, chunk: 5) { handed += $0.count; return true } == .refused)
        #expect(handed == 0)

        let misplaced = MemoryFolder()
        for path in folder.allFiles { misplaced.place(folder.contents(of: path)!, at: path.split(separator: "/").map(String.init)) }
        misplaced.place(folder.contents(of: other)!, at: largest.split(separator: "/").map(String.init))
        let second = try FolderCloudDatabase.inMemory(misplaced, player: "p", device: DeviceID("C"))
        #expect(try second.fetchAllRecords(zone, chunk: 1) { handed += $0.count; return true } == .refused)
        // The usual fetch still reads the rest and says the misplaced file is not to be trusted.
        #expect(try !second.fetchZoneChanges(zone, since: nil).isComplete)
    }
}

extension StreamedFetchTests {
    /// The estimate of a snapshot's live records, counted without decoding it, on the frozen
    /// version-1 snapshot: one live entry and one deletion; a deletion or a look-alike inside a
    /// string is not counted.
    @Test func aSnapshotsLiveEntriesAreCountedWithoutDecodingIt() {
        let body = Data(#"{"base":2,"entries":[{"createdAt":{"counter":0,"millis":1},"createdBy":"A","deleted":false,"fields":{"note":{"string":"x\",\"deleted\":false,\"y"}},"name":"a"},{"createdAt":{"counter":0,"millis":1},"createdBy":"A","deleted":true,"name":"b"}]}"#.utf8)
        #expect(FolderCloudDatabase.liveEntries(in: body) == 1)
        #expect(FolderCloudDatabase.liveEntries(in: Data()) == 0)
    }
}
