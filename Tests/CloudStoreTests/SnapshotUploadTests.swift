@testable import CloudStore
import Foundation
import Testing

/// A long first upload into a zone nobody has written to, written straight as the device's
/// snapshot: readers get exactly what the same commits would have given, nothing of it before
/// it is published, and whatever does not fit (a page out of name order, a record that is not
/// new, a deletion) is left for the usual commits.
@Suite struct SnapshotUploadTests {
    let zone = ZoneID(validated: "Games")

    static func record(_ n: Int, padding: Int = 0) -> CloudRecord {
        CloudRecord(recordType: "Game", recordName: String(format: "game-%05d", n),
                    fields: ["n": .int(Int64(n)), "note": .string(String(repeating: "x", count: padding))])
    }

    /// Pages of `perPage` records, in name order, each split into commits of at most `perCommit`.
    static func pages(_ range: ClosedRange<Int>, perPage: Int, perCommit: Int = 7, padding: Int = 0) -> [[CommitBatch]] {
        stride(from: range.lowerBound, through: range.upperBound, by: perPage).map { start in
            let records = (start...min(start + perPage - 1, range.upperBound)).map { record($0, padding: padding) }
            return stride(from: 0, to: records.count, by: perCommit).map {
                CommitBatch(saving: Array(records[$0..<min($0 + perCommit, records.count)]), deleting: [])
            }
        }
    }

    /// Uploads `pages` from `store`: what the store reported, and every page it told made.
    static func upload(_ store: FolderCloudDatabase, _ zone: ZoneID, _ pages: [[CommitBatch]], stopAfter: Int? = nil,
                       starting: () -> Bool = { true }) throws -> (SnapshotUpload, made: [[CommitResult]], asked: Int) {
        var remaining = pages[...], made: [[CommitResult]] = [], asked = 0
        let outcome = try store.uploadAsSnapshot(zone, starting: starting, next: {
            asked += 1
            return remaining.popFirst()
        }, made: { results in
            made.append(results)
            return stopAfter.map { made.count < $0 } ?? true
        })
        return (outcome, made, asked)
    }

    /// Device `device`'s store of `folder`, with the zone made.
    static func store(_ folder: MemoryFolder, _ device: String, faults: CloudFaults? = nil) throws -> FolderCloudDatabase {
        let store = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID(device), options: CloudStoreOptions(faults: faults))
        try store.createZone(ZoneID(validated: "Games"))
        return store
    }

    @Test func readersGetWhatTheSameCommitsWouldHaveGiven() throws {
        let pages = Self.pages(1...90, perPage: 20)
        let viaSnapshot = MemoryFolder(), viaCommits = MemoryFolder()
        let a = try Self.store(viaSnapshot, "A")
        a.limitSnapshots(partBytes: 1_000)
        try a.createZone(zone)
        let (outcome, made, _) = try Self.upload(a, zone, pages)
        #expect(outcome.records == 90 && !outcome.lastPageLeft && outcome.token != nil)
        #expect(made.count == pages.count && zip(made, pages).allSatisfy { $0.count == $1.count })
        // Only the head, the list and its parts: no segment to fold later.
        let files = viaSnapshot.allFiles.filter { !$0.hasSuffix(".lock") }
        #expect(!files.contains { $0.hasSuffix(".seg") }, "\(files)")
        #expect(files.filter { $0.hasSuffix(".part") }.count > 3, "parts of about 1,000 bytes: \(files)")
        #expect(files.contains { $0.hasSuffix("snapshot-000000000001.snap") })

        let b = try Self.store(viaCommits, "A")
        for commit in pages.joined() { _ = try b.modifyRecords(in: zone, saving: commit.saving, deleting: [], policy: .overwrite) }
        let fromSnapshot = try Self.store(viaSnapshot, "R").fetchZoneChanges(zone, since: nil)
        let fromCommits = try Self.store(viaCommits, "R").fetchZoneChanges(zone, since: nil)
        #expect(fromSnapshot.isComplete)
        #expect(fromSnapshot.changedRecords.map(\.recordName) == fromCommits.changedRecords.map(\.recordName))
        #expect(fromSnapshot.changedRecords.map(\.fields) == fromCommits.changedRecords.map(\.fields))
        #expect(fromSnapshot.changedRecords.count == 90)
        // What the uploader was told saved is what readers see: a later save with its tag is no conflict.
        let told = Dictionary(uniqueKeysWithValues: made.joined().flatMap(\.savedRecords).map { ($0.recordName, $0) })
        for record in fromSnapshot.changedRecords { #expect(told[record.recordName]?.systemFields == record.systemFields) }
        var edited = told["game-00042"]!
        edited.fields["n"] = .int(-42)
        _ = try a.modifyRecords(in: zone, saving: [edited], deleting: [], policy: .ifServerRecordUnchanged)
        #expect(try Self.store(viaSnapshot, "R2").fetchRecords(in: zone, named: ["game-00042"])["game-00042"]?.fields["n"] == .int(-42))
        // A streamed first fetch reads it too.
        var streamed: [String] = []
        let reader = try Self.store(viaSnapshot, "R3")
        guard case .complete = try reader.fetchAllRecords(zone, chunk: 16, deliver: { streamed += $0.map(\.recordName); return true }) else {
            Issue.record("the uploaded snapshot was not streamed")
            return
        }
        #expect(Set(streamed) == Set(fromCommits.changedRecords.map(\.recordName)))
    }

    @Test func theUploadersTokenSeesOnlyWhatOthersWriteAfter() throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A"), other = try Self.store(folder, "B")
        try a.createZone(zone)
        let (outcome, _, _) = try Self.upload(a, zone, Self.pages(1...30, perPage: 10))
        let token = try #require(outcome.token)
        let quiet = try a.fetchZoneChanges(zone, since: token)
        #expect(quiet.changedRecords.isEmpty && quiet.deletedRecords.isEmpty)
        _ = try other.modifyRecords(in: zone, saving: [Self.record(500)], deleting: [], policy: .overwrite)
        #expect(try a.fetchZoneChanges(zone, since: token).changedRecords.map(\.recordName) == ["game-00500"])
        // The store kept nothing of what it sent, yet a commit still checks against it.
        #expect(try a.fetchRecords(in: zone, named: ["game-00007"])["game-00007"] != nil)
        #expect(throws: CloudStoreError.self) {
            _ = try a.modifyRecords(in: zone, saving: [Self.record(7)], deleting: [], policy: .ifServerRecordUnchanged)
        }
    }

    /// Anything already in the zone (another device's record, this device's own commit) and
    /// the store declines before asking for a page: nothing written.
    @Test(arguments: ["another device's record", "this device's commit"])
    func aZoneSomeoneWroteToIsDeclined(_ writer: String) throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A")
        let first = writer == "this device's commit" ? a : try Self.store(folder, "B")
        _ = try first.modifyRecords(in: zone, saving: [Self.record(999)], deleting: [], policy: .overwrite)
        let before = folder.allFiles
        var started = false
        let (outcome, made, asked) = try Self.upload(a, zone, Self.pages(1...10, perPage: 5), starting: { started = true; return true })
        #expect(outcome == .declined && made.isEmpty && asked == 0 && !started)
        #expect(folder.allFiles == before)
    }

    /// A page whose names do not all follow the ones before, or that holds a deletion or a
    /// record that is not new: the upload ends before it, publishing the pages before it.
    @Test(arguments: ["out of order", "a name twice", "a deletion", "a record with a change tag"])
    func aPageThatDoesNotFitIsLeftForCommits(_ fault: String) throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A")
        try a.createZone(zone)
        var pages = Self.pages(1...30, perPage: 10)
        switch fault {
        case "out of order": pages[2] = Self.pages(5...14, perPage: 10)[0]
        case "a name twice": pages[2][0].saving.append(Self.record(25))
        case "a deletion": pages[2][0].deleting = ["game-00099"]
        default:
            let saved = try Self.store(MemoryFolder(), "X").modifyRecords(in: zone, saving: [Self.record(21)], deleting: [], policy: .overwrite)
            pages[2][0].saving[0] = saved.savedRecords[0]
        }
        let (outcome, made, asked) = try Self.upload(a, zone, pages)
        #expect(outcome.records == 20 && outcome.lastPageLeft && made.count == 2 && asked == 3)
        let read = try Self.store(folder, "R").fetchZoneChanges(zone, since: nil)
        #expect(read.changedRecords.map(\.recordName) == (1...20).map { String(format: "game-%05d", $0) })
        // The first page not fitting: nothing written, nothing started (out of order needs a page before it).
        guard fault != "out of order" else { return }
        let fresh = MemoryFolder(), b = try Self.store(fresh, "A")
        var started = false
        let (none, _, _) = try Self.upload(b, zone, Array(pages[2...]), starting: { started = true; return true })
        #expect(none.records == 0 && none.lastPageLeft && !started)
        #expect(!fresh.allFiles.contains { $0.contains("snapshot") })
    }

    /// Told to stop (the caller could not take a page), the store publishes what it made.
    @Test func stoppedHalfWayWhatWasMadeIsPublished() throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A")
        let (outcome, made, _) = try Self.upload(a, zone, Self.pages(1...50, perPage: 10), stopAfter: 2)
        #expect(outcome.records == 20 && made.count == 2)
        #expect(try Self.store(folder, "R").fetchZoneChanges(zone, since: nil).changedRecords.count == 20)
        #expect(try a.hasPublished(in: zone))
        // Not started: nothing written.
        let empty = MemoryFolder(), b = try Self.store(empty, "A")
        let (refused, told, _) = try Self.upload(b, zone, Self.pages(1...10, perPage: 5), starting: { false })
        let published = try b.hasPublished(in: zone)
        #expect(refused.records == 0 && told.isEmpty && !published)
    }

    /// A failure before the head is published leaves nothing a reader sees; the files it left
    /// are debris the next upload clears.
    @Test(arguments: [CrashPoint(file: .snapshot, step: .publish, timing: .before), CrashPoint(file: .head, step: .publish, timing: .before)])
    func anUploadThatFailsBeforeItsHeadPublishesNothing(_ point: CrashPoint) throws {
        let folder = MemoryFolder(), faults = CloudFaults()
        let a = try Self.store(folder, "A", faults: faults)
        a.limitSnapshots(partBytes: 600)
        faults.crash(at: point)
        #expect(throws: CloudStoreError.self) { _ = try Self.upload(a, zone, Self.pages(1...40, perPage: 10)) }
        let published = try a.hasPublished(in: zone)
        #expect(!published)
        #expect(try Self.store(folder, "R").fetchZoneChanges(zone, since: nil).changedRecords.isEmpty)
        let retried = try Self.store(folder, "A")
        retried.limitSnapshots(partBytes: 10_000)
        let (outcome, _, _) = try Self.upload(retried, zone, Self.pages(1...12, perPage: 6))
        #expect(outcome.records == 12)
        let read = try Self.store(folder, "R2").fetchZoneChanges(zone, since: nil)
        #expect(read.isComplete && read.changedRecords.count == 12)
        let parts = folder.allFiles.filter { $0.hasSuffix(".part") }
        #expect(parts.count == 1, "the first attempt's parts are gone: \(parts)")
    }

    /// After the upload the store keeps none of the records it sent, yet every commit and read
    /// sees them: a record is looked up in the snapshot's parts when it is needed.
    @Test func theUploaderKeepsNothingAndStillSeesEveryRecord() throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A"), b = try Self.store(folder, "B")
        a.limitSnapshots(partBytes: 800)
        let (outcome, made, _) = try Self.upload(a, zone, Self.pages(1...120, perPage: 25))
        let token = try #require(outcome.token)
        #expect(a.keptRecords(in: zone) == 0)
        #expect(folder.allFiles.filter { $0.hasSuffix(".part") }.count > 5)
        let told = Dictionary(uniqueKeysWithValues: made.joined().flatMap(\.savedRecords).map { ($0.recordName, $0) })
        // A changed-keys save merges onto the uploaded version; a stale tag is a conflict; a new record is none.
        var changed = told["game-00077"]!
        changed.fields = ["n": .int(-77)]
        _ = try a.modifyRecords(in: zone, saving: [changed], deleting: [], policy: .changedKeys)
        let read = try #require(try b.fetchRecords(in: zone, named: ["game-00077"])["game-00077"])
        #expect(read.fields["n"] == .int(-77) && read.fields["note"] == .string(""), "\(read.fields)")
        #expect(throws: CloudStoreError.self) {
            _ = try a.modifyRecords(in: zone, saving: [told["game-00077"]!], deleting: [], policy: .ifServerRecordUnchanged)
        }
        _ = try a.modifyRecords(in: zone, saving: [Self.record(500)], deleting: [], policy: .ifServerRecordUnchanged)
        #expect(a.keptRecords(in: zone)! <= 3, "only what was looked up")
        // Another device deletes an uploaded record and changes another: the uploader's token sees both.
        var third = told["game-00003"]!
        third.fields["n"] = .int(-3)
        _ = try b.modifyRecords(in: zone, saving: [third], deleting: ["game-00110"], policy: .overwrite)
        let seen = try a.fetchZoneChanges(zone, since: token)
        #expect(seen.changedRecords.map(\.recordName) == ["game-00003"])
        #expect(seen.deletedRecords.map(\.recordName) == ["game-00110"])
        // Its own full fetch has every record.
        #expect(try a.fetchZoneChanges(zone, since: nil).changedRecords.count == 120)
    }

    /// The unread snapshot gone from under the view (a compaction folded it into a new one): a
    /// lookup fails, and the store reads the folder again instead of taking a record for new.
    @Test func anUnreadSnapshotThatIsGoneMakesTheStoreReadTheFolderAgain() throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A")
        a.limitSnapshots(partBytes: 800)
        let (_, made, _) = try Self.upload(a, zone, Self.pages(1...60, perPage: 20))
        let told = Dictionary(uniqueKeysWithValues: made.joined().flatMap(\.savedRecords).map { ($0.recordName, $0) })
        _ = try a.modifyRecords(in: zone, saving: [Self.record(500)], deleting: [], policy: .overwrite)
        #expect(try a.compact(zone, keepingRecent: 0).snapshotBase == 2)
        #expect(!folder.allFiles.contains { $0.contains("snapshot-000000000001") })
        var stale = told["game-00030"]!
        stale.systemFields = nil
        #expect(throws: CloudStoreError.self, "a record of the old snapshot taken for new") {
            _ = try a.modifyRecords(in: zone, saving: [stale], deleting: [], policy: .ifServerRecordUnchanged)
        }
        _ = try a.modifyRecords(in: zone, saving: [told["game-00031"]!], deleting: [], policy: .ifServerRecordUnchanged)
        #expect(try Self.store(folder, "R").fetchZoneChanges(zone, since: nil).changedRecords.count == 61)
    }

    /// This device's own snapshot damaged under it (a replicator, a hand): nothing is written
    /// until it reads again. Before, the next commit was numbered from nothing, under the
    /// snapshot's base, where every reader skips it, and the head went back to it.
    @Test func aCommitWaitsWhileThisDevicesOwnSnapshotDoesNotRead() throws {
        let folder = MemoryFolder()
        let a = try Self.store(folder, "A")
        for n in 1...3 { _ = try a.modifyRecords(in: zone, saving: [Self.record(n)], deleting: [], policy: .overwrite) }
        _ = try a.compact(zone, keepingRecent: 0)
        let list = try #require(folder.allFiles.first { $0.hasSuffix(".snap") })
        let whole = try #require(folder.contents(of: list))
        folder.place(Data("damaged".utf8), at: list.split(separator: "/").map(String.init))
        let later = try Self.store(folder, "A")
        #expect(throws: CloudStoreError.self) {
            _ = try later.modifyRecords(in: zone, saving: [Self.record(4)], deleting: [], policy: .overwrite)
        }
        #expect(!folder.allFiles.contains { $0.hasSuffix("000000000001.seg") }, "nothing written under the snapshot's base")
        folder.place(whole, at: list.split(separator: "/").map(String.init))
        _ = try later.modifyRecords(in: zone, saving: [Self.record(4)], deleting: [], policy: .overwrite)
        #expect(try Self.store(folder, "R").fetchZoneChanges(zone, since: nil).changedRecords.count == 4)
    }
}
