@testable import CloudStore
import Concurrency
import Foundation
import Testing

/// Numbers a file in the folder holds are a writer's claim (issue 35): a clock reading at the
/// end of its range, a reading years ahead, a head whose log numbers or sizes overflow any sum.
/// Each is refused or not followed; nothing a file holds can stop a commit or crash one.
@Suite struct ClockFromTheFolderTests {
    let folder = MemoryFolder()
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let zone = ZoneID(validated: "Games")

    func store(_ device: String, warnings: Locked<[String]> = Locked([])) throws -> FolderCloudDatabase {
        let now = self.now
        return try FolderCloudDatabase.inMemory(folder, player: "ann", device: DeviceID(device),
                                                options: CloudStoreOptions(now: { now }, warnings: { w in warnings.withLock { $0.append(w.description) } }))
    }

    func record(_ name: String) -> CloudRecord {
        CloudRecord(recordType: "Game", recordName: name, fields: ["n": .int(1)])
    }

    /// A segment of device `evil`, well formed and checksummed, holding one entry stamped `clock`.
    func plantSegment(clock: HLCTimestamp, generation: CloudGeneration) {
        let layout = CloudLayout(player: "ann")
        let evil = DeviceID(validated: "evil")
        let entry = RecordEntry(name: "planted", type: "Game", seq: 1, hlc: clock, deleted: false, fields: ["n": .int(9)],
                                createdBy: evil, createdAt: clock)
        let body = SegmentBody(generation: generation, device: evil, zone: zone, seq: 1, hlc: clock, entries: [entry])
        folder.place(CloudFileFormat.encode(body, kind: .segment), at: layout.segment(generation, evil, zone, 1).components)
    }

    func generation(_ store: FolderCloudDatabase) throws -> CloudGeneration {
        try store.operation { (state: inout FolderCloudDatabase.State) throws(CloudStoreError) in try store.requireGeneration(&state) }
    }

    @Test func aClockAtTheEndOfItsRangeIsRefusedWithAWarning_andCommitsGoOn() throws {
        let warnings = Locked([String]())
        let ann = try store("laptop", warnings: warnings)
        try ann.createZone(zone)
        _ = try ann.modifyRecords(in: zone, saving: [record("a")], deleting: [])
        plantSegment(clock: HLCTimestamp(millis: .max, counter: .max), generation: try generation(ann))
        let made = try ann.modifyRecords(in: zone, saving: [record("b")], deleting: [])
        let stamp = try #require(made.savedRecords.first?.systemFields?.modifiedAt)
        #expect(stamp.millis <= Int64(now.timeIntervalSince1970 * 1000) + 1)
        let changes = try store("reader").fetchZoneChanges(zone, since: nil)
        #expect(!changes.changedRecords.contains { $0.recordName == "planted" })
        #expect(warnings.withLock { $0 }.contains { $0.contains("evil") && $0.contains("year 3000") }, "\(warnings.withLock { $0 })")
    }

    @Test func aReadingYearsAheadDoesNotMoveThisMachinesClock() throws {
        let ann = try store("laptop")
        try ann.createZone(zone)
        _ = try ann.modifyRecords(in: zone, saving: [record("a")], deleting: [])
        let wall = Int64(now.timeIntervalSince1970 * 1000)
        let ahead = HLCTimestamp(millis: wall + 10 * 365 * 86_400_000, counter: 7)
        plantSegment(clock: ahead, generation: try generation(ann))
        let made = try ann.modifyRecords(in: zone, saving: [record("b")], deleting: [])
        let stamp = try #require(made.savedRecords.first?.systemFields?.modifiedAt)
        #expect(stamp.millis < wall + HLCTimestamp.trustedAhead, "stamped \(stamp) after a reading of \(ahead)")
    }

    /// A machine whose clock is more than a day behind another changes a record it fetched from
    /// that machine (simulation seeds 939 and 4015): its version, made knowing the other, wins
    /// on every reader, and its clock still does not follow the reading ahead.
    @Test(arguments: [false, true])
    func aChangeMadeOverAVersionADayAheadWinsEverywhere(deleting: Bool) throws {
        let ahead = try FolderCloudDatabase.inMemory(folder, player: "ann", device: DeviceID("desktop"),
                                                     options: CloudStoreOptions(now: { [now] in now.addingTimeInterval(25 * 3600) }))
        try ahead.createZone(zone)
        let theirs = try ahead.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Bookmark", recordName: "zebra", fields: ["on": .int(1)])],
                                             deleting: [])
        let aheadStamp = try #require(theirs.savedRecords.first?.systemFields?.modifiedAt)
        let behind = try store("laptop")
        var fetched = try #require(try behind.fetchZoneChanges(zone, since: nil).changedRecords.first { $0.recordName == "zebra" })
        fetched.fields["on"] = .int(0)
        let made = try behind.modifyRecords(in: zone, saving: deleting ? [] : [fetched], deleting: deleting ? ["zebra"] : [])
        if !deleting {
            let stamp = try #require(made.savedRecords.first?.systemFields?.modifiedAt)
            #expect(stamp > aheadStamp, "a change made over \(aheadStamp) was stamped \(stamp)")
        }
        for reader in [try store("reader"), ahead] {
            let changes = try reader.fetchZoneChanges(zone, since: nil)
            if deleting {
                #expect(!changes.changedRecords.contains { $0.recordName == "zebra" }, "\(changes.changedRecords)")
            } else {
                #expect(changes.changedRecords.first { $0.recordName == "zebra" }?.fields["on"] == .int(0), "\(changes.changedRecords)")
            }
        }
        let next = try behind.modifyRecords(in: zone, saving: [record("other")], deleting: [])
        let wall = Int64(now.timeIntervalSince1970 * 1000)
        #expect(try #require(next.savedRecords.first?.systemFields?.modifiedAt).millis < wall + 1000, "this machine's clock followed the reading ahead")
    }

    @Test func theLastReadingHasNoSuccessor() {
        #expect(HLCTimestamp(millis: 5, counter: 2).readableSuccessor == HLCTimestamp(millis: 5, counter: 3))
        #expect(HLCTimestamp(millis: 5, counter: .max).readableSuccessor == HLCTimestamp(millis: 6, counter: 0))
        #expect(HLCTimestamp(millis: HLCTimestamp.latestReadable, counter: .max).readableSuccessor == nil)
    }

    @Test func advancingNeverOverflows() {
        let wall = Date(timeIntervalSince1970: 1_790_000_000)
        let top = HLCTimestamp(millis: .max, counter: .max)
        #expect(top.advanced(wall: wall) == top)
        #expect(HLCTimestamp.zero.advanced(wall: wall, observed: top).millis == 1_790_000_000_000)
        #expect(HLCTimestamp(millis: 5, counter: .max).advanced(wall: .distantPast) == HLCTimestamp(millis: 6, counter: 0))
        #expect(HLCTimestamp.zero.advanced(wall: Date(timeIntervalSince1970: .infinity)).millis == 0)
        #expect(HLCTimestamp.zero.advanced(wall: .distantFuture).millis == HLCTimestamp.latestReadable)
    }

    @Test func aHeadWhoseNumbersWouldOverflowIsReadWithinRange() throws {
        let warnings = Locked([String]())
        let ann = try store("laptop", warnings: warnings)
        try ann.createZone(zone)
        _ = try ann.modifyRecords(in: zone, saving: [record("a")], deleting: [])
        let generation = try generation(ann)
        let layout = CloudLayout(player: "ann")
        for (device, log) in [("wide", HeadBody.ZoneLog(seq: .max, snapshotBase: -1, logBytes: .max, snapshotBytes: .min)),
                              ("far", HeadBody.ZoneLog(seq: 3, snapshotBase: 2, logBytes: .max))] {
            let head = HeadBody(generation: generation, device: DeviceID(validated: device), clock: .zero, zones: [zone.name: log])
            folder.place(CloudFileFormat.encode(head, kind: .head), at: layout.head(generation, DeviceID(validated: device)).components)
        }
        // This machine's own head rewritten with the largest numbers a head may hold: its next
        // commit is stamped by its own clock, and deciding on a compaction overflows nothing.
        let own = HeadBody(generation: generation, device: DeviceID(validated: "laptop"),
                           clock: HLCTimestamp(millis: HLCTimestamp.latestReadable, counter: .max),
                           zones: [zone.name: HeadBody.ZoneLog(seq: CloudLimits.maxSequence, snapshotBase: 0, logBytes: CloudLimits.maxLogBytes,
                                                               snapshotBytes: CloudLimits.maxLogBytes)])
        folder.place(CloudFileFormat.encode(own, kind: .head), at: layout.head(generation, DeviceID(validated: "laptop")).components)
        let made: CommitResult
        do { made = try ann.modifyRecords(in: zone, saving: [record("b")], deleting: []) } catch {
            Issue.record("\(error) \(warnings.withLock { $0 })"); return
        }
        #expect(try #require(made.savedRecords.first?.systemFields?.modifiedAt).millis < Int64(now.timeIntervalSince1970 * 1000) + 10)
        do { _ = try ann.compactIfWorthwhile(zone) } catch { Issue.record("compaction: \(error)") }
        let names = try store("reader").fetchZoneChanges(zone, since: nil).changedRecords.map(\.recordName).sorted()
        #expect(names == ["a", "b"])
    }

    @Test func aHeadOfThisMachineClaimingAnEndlessLogIsNotFollowedByCompaction() throws {
        let ann = try store("laptop")
        try ann.createZone(zone)
        for n in 0..<3 { _ = try ann.modifyRecords(in: zone, saving: [record("r\(n)")], deleting: []) }
        let generation = try generation(ann)
        let own = HeadBody(generation: generation, device: DeviceID(validated: "laptop"), clock: .zero,
                           zones: [zone.name: HeadBody.ZoneLog(seq: CloudLimits.maxSequence, snapshotBase: 0)])
        folder.place(CloudFileFormat.encode(own, kind: .head), at: CloudLayout(player: "ann").head(generation, DeviceID(validated: "laptop")).components)
        let report = try ann.compact(zone)
        #expect(report.snapshotBase == 3)
        let names = try store("reader").fetchZoneChanges(zone, since: nil).changedRecords.map(\.recordName).sorted()
        #expect(names == ["r0", "r1", "r2"])
    }
}

/// A reader of another player's store takes a bounded number of records of one device a read
/// (issue 35): a device folder filled with records costs each read no more, the rest waits.
@Suite struct DeviceBudgetTests {
    @Test func aReaderTakesAtMostItsBudgetOfOneDeviceARead_andTheRestLater() throws {
        let folder = MemoryFolder()
        let zone = ZoneID(validated: "Shared")
        let writer = try FolderCloudDatabase.inMemory(folder, player: "ben", device: DeviceID("evil"))
        try writer.createZone(zone)
        for batch in 0..<4 {
            _ = try writer.modifyRecords(in: zone, saving: (0..<3).map { CloudRecord(recordType: "X", recordName: "r\(batch)-\($0)") },
                                         deleting: [], policy: .overwrite)
        }
        let warnings = Locked([String]())
        let reader = try FolderCloudDatabase.inMemory(folder, player: "ben", device: DeviceID("reader"),
                                                      options: CloudStoreOptions(warnings: { w in warnings.withLock { $0.append(w.description) } },
                                                                                 mostRecordsPerDevice: 7))
        let first = try reader.fetchZoneChanges(zone, since: nil)
        #expect(first.changedRecords.count == 6 && !first.isComplete)
        #expect(warnings.withLock { $0 }.count == 1, "\(warnings.withLock { $0 })")
        let second = try reader.fetchZoneChanges(zone, since: first.token)
        #expect(second.changedRecords.count == 6 && second.isComplete)
        #expect(Set((first.changedRecords + second.changedRecords).map(\.recordName)).count == 12)
    }
}

/// A snapshot's list of parts whose numbers would overflow a sum (issue 35) is refused whole.
@Suite struct SnapshotListNumbersTests {
    @Test(arguments: [(Int.max, 1, 1), (10, Int.max, 1), (10, 5, Int.max), (-1, 1, 1), (10, -1, 0), (10, 2, 3)])
    func aListNamingAPartOfAnImpossibleSizeIsRefused(bytes: Int, entries: Int, live: Int) throws {
        let (folder, zone, _) = try SnapshotPartsTests.partedHistory()
        let list = try #require(folder.allFiles.first { $0.hasSuffix(".snap") })
        var manifest = try CloudFileFormat.decode(folder.contents(of: list)!, kind: .snapshot, as: SnapshotManifest.self).get()
        manifest.parts[0].bytes = bytes
        manifest.parts[0].entries = entries
        manifest.parts[0].live = live
        let changed = SnapshotPartsTests.copy(folder, changing: list, to: CloudFileFormat.encode(manifest, kind: .snapshot))
        let read = try SnapshotPartsTests.read(changed, zone: zone)
        #expect(!read.complete)
        #expect(read.warnings.contains { $0.reason.contains("impossible size") }, "\(read.warnings)")
        // The streamed first fetch refuses it too, without a crash.
        let reader = try FolderCloudDatabase.inMemory(changed, player: "alice", device: DeviceID("S"))
        _ = try reader.fetchAllRecords(zone, chunk: 5) { _ in true }
    }
}
