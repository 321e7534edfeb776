import CloudStore
import Foundation
import Testing

/// Several commits made at once (`modifyRecords(in:commits:policy:)`, the first upload of a long
/// history): what readers see is what the same commits made one by one would have left, and a
/// commit that would fail stops the group there.
@Suite struct SeveralCommitsTests {
    static let zone = try! ZoneID("Games")
    static let moment = Date(timeIntervalSince1970: 1_790_000_000)

    static func commits(_ count: Int, of size: Int, from start: Int = 0) -> [CommitBatch] {
        (0..<count).map { n in
            CommitBatch(saving: (0..<size).map { i in
                CloudRecord(recordType: "Note", recordName: "note-\(start + n * size + i)", fields: ["n": .int(Int64(start + n * size + i))])
            }, deleting: [])
        }
    }

    @Test(arguments: Backend.allCases) func togetherTheyLeaveWhatOneByOneLeaves(backend: Backend) throws {
        let together = backend.makeCloud(), oneByOne = backend.makeCloud()
        let a = try together.store("A", now: { Self.moment }), b = try oneByOne.store("A", now: { Self.moment })
        try a.createZone(Self.zone)
        try b.createZone(Self.zone)
        let commits = Self.commits(20, of: 30)
        let made = try a.modifyRecords(in: Self.zone, commits: commits, policy: .overwrite)
        #expect(made.failure == nil)
        let alone = try commits.map { try b.modifyRecords(in: Self.zone, saving: $0.saving, deleting: $0.deleting, policy: .overwrite) }
        #expect(made.results == alone)
        let seenTogether = try together.store("R").fetchZoneChanges(Self.zone, since: nil)
        let seenAlone = try oneByOne.store("R").fetchZoneChanges(Self.zone, since: nil)
        #expect(seenTogether.changedRecords.count == 600)
        #expect(seenTogether.changedRecords == seenAlone.changedRecords)
        // The head announces every segment: a new process of the device goes on after them.
        let again = try together.store("A", now: { Self.moment })
        _ = try again.modifyRecords(in: Self.zone, saving: Self.commits(1, of: 1, from: 600)[0].saving, deleting: [], policy: .overwrite)
        let later = try together.store("R").fetchZoneChanges(Self.zone, since: seenTogether.token)
        #expect(later.changedRecords.map(\.recordName) == ["note-600"])
    }

    @Test func aCommitThatWouldFailStopsTheGroupThereAndTheOnesBeforeAreMade() throws {
        let cloud = Backend.memory.makeCloud()
        let a = try cloud.store("A", now: { Self.moment })
        try a.createZone(Self.zone)
        // note-70 exists: saving it again without its change tag conflicts.
        _ = try a.modifyRecords(in: Self.zone, saving: Self.commits(1, of: 1, from: 70)[0].saving, deleting: [], policy: .ifServerRecordUnchanged)
        let made = try a.modifyRecords(in: Self.zone, commits: Self.commits(5, of: 30), policy: .ifServerRecordUnchanged)
        #expect(made.results.count == 2)
        guard case .partialFailure(let failures)? = made.failure else { Issue.record("no conflict: \(String(describing: made.failure))"); return }
        #expect(Array(failures.keys) == ["note-70"])
        let seen = Set(try cloud.store("R").fetchZoneChanges(Self.zone, since: nil).changedRecords.map(\.recordName))
        #expect(seen == Set((0..<60).map { "note-\($0)" } + ["note-70"]), "the first two commits, and nothing of the rest")
    }
}
