@testable import CloudStore
import Concurrency
import Foundation
import Testing

/// Snapshots in parts (format version 3) as a replicated folder delivers them: a part missing,
/// half-arrived, or an older file under its name is waited for and the snapshot never applied
/// half; a folder mixing single-file snapshots and parted ones reads whole.
@Suite struct SnapshotPartsTests {
    /// Device A's folder: 40 records compacted into a snapshot of several parts, then two more
    /// commits after it. The records only the snapshot holds are `game-1` … `game-40`.
    static func partedHistory() throws -> (MemoryFolder, ZoneID, parts: [String]) {
        let (folder, store, zone) = try OversizedSnapshotTests.storeWithCommits(40, padding: 300)
        store.limitSnapshots(partBytes: 3_000)
        _ = try store.compact(zone, keepingRecent: 0)
        for n in 41...42 {
            _ = try store.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: "game-\(n)", fields: ["n": .int(Int64(n))])],
                                        deleting: [], policy: .overwrite)
        }
        let parts = folder.allFiles.filter { $0.hasSuffix(".part") }.sorted()
        return (folder, zone, parts)
    }

    static func copy(_ folder: MemoryFolder, changing path: String? = nil, to data: Data? = nil) -> MemoryFolder {
        let copy = MemoryFolder()
        for file in folder.allFiles where file != path || data != nil {
            copy.place(file == path ? data! : folder.contents(of: file)!, at: file.split(separator: "/").map(String.init))
        }
        return copy
    }

    /// A reader of `folder`: the records it fetched, whether the fetch was complete, what it warned.
    static func read(_ folder: MemoryFolder, zone: ZoneID) throws -> (names: Set<String>, complete: Bool, warnings: [CloudWarning]) {
        let warnings = Locked<[CloudWarning]>([])
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("R"),
                                                      options: CloudStoreOptions(warnings: { warning in warnings.withLock { $0.append(warning) } }))
        let changes = try reader.fetchZoneChanges(zone, since: nil)
        return (Set(changes.changedRecords.map(\.recordName)), changes.isComplete, warnings.withLock { $0 })
    }

    static let everything = Set((1...42).map { "game-\($0)" })
    static let afterTheSnapshot: Set<String> = ["game-41", "game-42"]

    @Test func everyPartArrivedReadsWhole() throws {
        let (folder, zone, parts) = try Self.partedHistory()
        #expect(parts.count >= 4, "\(parts)")
        let read = try Self.read(folder, zone: zone)
        #expect(read.names == Self.everything && read.complete && read.warnings.isEmpty)
    }

    /// A part missing, cut short, damaged, or an older part under its name: no record of the
    /// snapshot is applied, the fetch says it is incomplete and names the part, and once the part
    /// arrives the same reader state gets everything.
    @Test(arguments: ["missing", "half-arrived", "damaged", "another part's bytes"])
    func aPartNotArrivedIsWaitedForAndNothingOfTheSnapshotIsApplied(_ fault: String) throws {
        let (folder, zone, parts) = try Self.partedHistory()
        let victim = parts[parts.count / 2]
        let whole = folder.contents(of: victim)!
        var bytes: Data?
        switch fault {
        case "missing": bytes = nil
        case "half-arrived": bytes = whole.prefix(whole.count / 2)
        case "damaged":
            var damaged = whole
            damaged[damaged.count - 5] ^= 0x5A
            bytes = damaged
        default: bytes = folder.contents(of: parts[0])!
        }
        let broken = Self.copy(folder, changing: victim, to: bytes)
        let read = try Self.read(broken, zone: zone)
        #expect(!read.complete)
        // The segments after the snapshot wait too (they come after it in A's log).
        #expect(read.names.isEmpty, "\(read.names.sorted())")
        #expect(read.warnings.contains { $0.path.hasSuffix(victim.split(separator: "/").last!) }, "\(read.warnings)")

        // The streamed first sync refuses it before handing anything over.
        var handed = 0
        let streamer = try FolderCloudDatabase.inMemory(broken, player: "alice", device: DeviceID("S"))
        #expect(try streamer.fetchAllRecords(zone, chunk: 4) { handed += $0.count; return true } == .refused)
        #expect(handed == 0)

        // The part arrives: the store that waited reads everything.
        let warnings = Locked<[CloudWarning]>([])
        let reader = try FolderCloudDatabase.inMemory(broken, player: "alice", device: DeviceID("W"),
                                                      options: CloudStoreOptions(warnings: { warning in warnings.withLock { $0.append(warning) } }))
        let first = try reader.fetchZoneChanges(zone, since: nil)
        #expect(!first.isComplete && first.changedRecords.isEmpty)
        broken.place(whole, at: victim.split(separator: "/").map(String.init))
        let second = try reader.fetchZoneChanges(zone, since: first.token)
        #expect(second.isComplete)
        #expect(Set(second.changedRecords.map(\.recordName)) == Self.everything)
    }

    @Test func theStreamedFetchOfPartsHandsOverEveryRecordOnceLikeTheUsualFetch() throws {
        let (folder, zone, parts) = try Self.partedHistory()
        #expect(parts.count >= 4)
        var streamed: [CloudRecord] = []
        var expected = 0
        let streamer = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("S"))
        let result = try streamer.fetchAllRecords(zone, chunk: 5, expect: { expected = $0 }) { streamed += $0; return true }
        guard case .complete(_, let complete) = result else {
            Issue.record("the streamed fetch was refused")
            return
        }
        #expect(complete && expected == 42)
        #expect(streamed.count == 42 && Set(streamed.map(\.recordName)) == Self.everything)
        let usual = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("U")).fetchZoneChanges(zone, since: nil)
        let byName = Dictionary(uniqueKeysWithValues: usual.changedRecords.map { ($0.recordName, $0) })
        for record in streamed { #expect(byName[record.recordName] == record) }
    }

    /// Device A's snapshot is the frozen single file of format version 2; device B, today's
    /// build, compacts into parts in the same folder. A reader gets both, and so does B's own
    /// next compaction, which reads its parted snapshot back.
    @Test func aFolderMixingSingleFileAndPartedSnapshotsReadsWhole() throws {
        let folder = MemoryFolder()
        let fixtures = FormatFixtureTests.versionTwo
        for (path, data) in try FormatFixtureTests.frozenFiles(in: fixtures) where !path.contains("generations") {
            folder.place(data, at: path.split(separator: "/").map(String.init))
        }
        let games = try ZoneID("Games")
        let b = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B"))
        b.limitSnapshots(partBytes: 300)
        for n in 1...12 {
            _ = try b.modifyRecords(in: games, saving: [CloudRecord(recordType: "Game", recordName: "b-\(n)", fields: ["n": .int(Int64(n))])],
                                    deleting: [], policy: .overwrite)
        }
        _ = try b.compact(games, keepingRecent: 2)
        #expect(folder.allFiles.filter { $0.contains("/B/") && $0.hasSuffix(".part") }.count >= 2)
        #expect(folder.allFiles.contains { $0.hasSuffix("/A/zones/Games/snapshot-000000000002.snap") })
        let expected = Set(["game-1", "game-3"] + (1...12).map { "b-\($0)" })
        let read = try Self.read(folder, zone: games)
        #expect(read.names == expected && read.complete && read.warnings.isEmpty, "\(read)")
        _ = try b.modifyRecords(in: games, saving: [CloudRecord(recordType: "Game", recordName: "b-13", fields: [:])], deleting: [], policy: .overwrite)
        #expect(try b.compact(games, keepingRecent: 0).snapshotBase == 13)
        let again = try Self.read(folder, zone: games)
        #expect(again.names == expected.union(["b-13"]) && again.complete)
    }

    /// A list of parts that is not what its place says (another snapshot's list copied there)
    /// is refused as a whole.
    @Test func aListFromAnotherPlaceIsRefused() throws {
        let (folder, zone, _) = try Self.partedHistory()
        let list = try #require(folder.allFiles.first { $0.hasSuffix(".snap") })
        var manifest = try CloudFileFormat.decode(folder.contents(of: list)!, kind: .snapshot, as: SnapshotManifest.self).get()
        manifest.base += 1
        let moved = Self.copy(folder, changing: list, to: CloudFileFormat.encode(manifest, kind: .snapshot))
        let read = try Self.read(moved, zone: zone)
        #expect(!read.complete && read.names.isEmpty)
        #expect(read.warnings.contains { $0.reason.contains("does not match its place") })
    }
}

/// Numbers in a head are not trusted: a head announcing the smallest or largest segment
/// numbers there are, or a snapshot at the largest base, is read without a crash, and the
/// records of the files that are there still come.
@Suite struct HostileHeadNumbersTests {
    @Test(arguments: [(Int.min, 0), (Int.max, 0), (Int.max, Int.max), (-5, Int.max - 3), (3, Int.min)])
    func extremeNumbersInAHeadAreHarmless(seq: Int, base: Int) throws {
        let (folder, _, zone) = try OversizedSnapshotTests.storeWithCommits(3)
        let path = try #require(folder.allFiles.first { $0.hasSuffix("/A/head") })
        var head = try CloudFileFormat.decode(folder.contents(of: path)!, kind: .head, as: HeadBody.self).get()
        head.zones["Games"] = HeadBody.ZoneLog(seq: seq, snapshotBase: base)
        folder.place(CloudFileFormat.encode(head, kind: .head), at: path.split(separator: "/").map(String.init))
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("R"))
        let changes = try reader.fetchZoneChanges(zone, since: nil)
        // With no snapshot at that base there is nothing to wait for but it; else the 3 segments read.
        #expect(changes.changedRecords.count == (base > 0 ? 0 : 3))
        _ = try reader.fetchDatabaseChanges(since: nil)
        var handed = 0
        _ = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("S")).fetchAllRecords(zone, chunk: 2) { handed += $0.count; return true }
    }
}
