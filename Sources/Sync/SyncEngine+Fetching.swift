import CloudStore
import Concurrency
import Foundation
import ProcessMemory
import QiktionaryCore
import Storage

extension SyncEngine {
    // MARK: Fetching (steps 4 to 6)

    func fetch(_ report: inout SyncReport) throws {
        let stored = try player.syncRecord()
        let databaseToken = stored.databaseToken.flatMap { try? ChangeToken(serialized: $0) }
        var changes: DatabaseChanges
        do {
            changes = try withRetries { try cloud.fetchDatabaseChanges(since: databaseToken) }
        } catch CloudStoreError.changeTokenExpired {
            changes = try withRetries { try cloud.fetchDatabaseChanges(since: nil) }
        }
        var incomplete = stored.incompleteZones
        let zones = SyncZone.allCases.filter { zone in
            changes.changedZones.contains(zone.cloudZone) || incomplete.contains(zone.rawValue)
        }
        for zone in zones {
            // Each fetch is applied only while the zone's token is still the one read here
            // (`FetchStart`): another process of this machine may fetch the zone meanwhile.
            let storedToken = try player.zoneToken(zone)
            let since = FetchStart.token(storedToken)
            let token = storedToken.flatMap { try? ChangeToken(serialized: $0) }
            // A full fetch brings what the cloud has and no deletion: the games this machine knew
            // the cloud had are read before it reads, and those it does not bring go here too.
            var known = token == nil ? try gamesKnownInCloud(zone) : []
            if token == nil {
                var names = Set<String>()
                let streamed = known.isEmpty ? streamedFullFetch(zone, since: since, report: &report)
                    : streamedFullFetch(zone, since: since, report: &report, gameNames: &names)
                if let complete = streamed {
                    if complete { incomplete.remove(zone.rawValue) } else { incomplete.insert(zone.rawValue) }
                    if complete && !known.isEmpty { try dropGamesGone(known, fetched: names, report: &report) }
                    continue
                }
            }
            var fetched: ZoneChanges
            do {
                fetched = try withRetries { try cloud.fetchZoneChanges(zone.cloudZone, since: token) }
            } catch CloudStoreError.changeTokenExpired {
                known = try gamesKnownInCloud(zone)
                fetched = try withRetries { try cloud.fetchZoneChanges(zone.cloudZone, since: nil) }
            } catch CloudStoreError.zoneNotFound {
                continue
            }
            // Older than what another process applied meanwhile: the zone is fetched again next round.
            guard try apply(fetched.changedRecords, deletions: fetched.deletedRecords, zone: zone, token: fetched.token.serialized,
                            since: since, report: &report) else {
                incomplete.insert(zone.rawValue)
                continue
            }
            if fetched.isComplete { incomplete.remove(zone.rawValue) } else { incomplete.insert(zone.rawValue) }
            if fetched.isComplete && !known.isEmpty {
                try dropGamesGone(known, fetched: Set(fetched.changedRecords.lazy.filter { $0.recordType == CloudSchema.game }.map(\.recordName)),
                                  report: &report)
            }
        }
        // Nothing new: the stored token is already right, and writing it again would cost a commit.
        let token = changes.token.serialized
        if token != stored.databaseToken || incomplete != stored.incompleteZones || cloud.generation?.name != stored.generation {
            try player.saveDatabaseToken(token, generation: cloud.generation?.name, incompleteZones: incomplete)
        }
    }

    /// A full fetch read and stored at once, on two threads: the store decodes and hands over
    /// records while the database stores the ones before (docs/performance.md). One transaction,
    /// as ever. Returns whether the zone is complete, or nil when the store did not stream it or
    /// anything went wrong: nothing is then kept, and the usual fetch does it all again.
    /// `gameNames`, when given: told the names of the games it brings, valid or not (`dropGamesGone`).
    /// A fetch older than another process's (`since`, `ApplyReport.stale`) is not complete.
    func streamedFullFetch(_ zone: SyncZone, since: FetchStart, report: inout SyncReport,
                           gameNames: UnsafeMutablePointer<Set<String>>? = nil) -> Bool? {
        let handoff = Handoff()
        let games = gameNames == nil ? nil : Locked(Set<String>())
        let cloud = self.cloud, device = cloud.device, chunk = streamChunk, warnings = self.warnings
        var counts = (skipped: 0, own: 0)
        var stored = 0
        let progress = self.progress, expected = Expected()
        var outcome: StreamedFetch = .refused
        do {
            let applied = try player.applyIncoming(zone: zone, naming: CloudSchema(), lexicon: lexicon, since: since) { apply in
                let reader = Thread {
                    let result = Result { () throws(CloudStoreError) -> StreamedFetch in
                        try cloud.fetchAllRecords(zone.cloudZone, chunk: chunk, expect: { expected.set($0) }) { records in
                            // Records are checked and mapped on this side: the storing side is
                            // the slower one, and the whole fetch waits on it (docs/performance.md).
                            if let games {
                                games.withLock { $0.formUnion(records.lazy.filter { $0.recordType == CloudSchema.game }.map(\.recordName)) }
                            }
                            return handoff.put(Self.mapped(records, device: device, warnings: warnings))
                        }
                    }
                    handoff.finish(result.mapError { $0 as any Error })
                }
                reader.stackSize = FolderCloudDatabase.readerStackSize
                reader.start()
                // However this ends, the reader is stopped and waited for before the transaction ends.
                defer { handoff.stopAndWait() }
                var freed = FreedMemory()
                while let mapped = handoff.take() {
                    try apply(mapped.changes)
                    stored += mapped.count
                    // The total is the store's estimate; it never reads below what is done.
                    progress?(stored, expected.get().map { max($0, stored) })
                    counts.skipped += mapped.skipped
                    counts.own += mapped.own
                    // What a batch leaves free between objects still in use would stay the
                    // process's, a little more with every batch: a first sync's peak would grow
                    // with the history (docs/performance.md, *A first sync's memory flat...*).
                    // Given back once it has grown, not after every batch (the faults of
                    // touching the pages again cost more than the batches' own work).
                    freed.betweenBatches()
                }
                outcome = try handoff.result()
                guard case .complete(let token, _) = outcome else { throw Handoff.Refused() }
                progress?(stored, stored)
                return token.serialized
            }
            if applied.stale { return false }
            guard case .complete(_, let isComplete) = outcome else { return nil }
            Self.count(applied, skipped: counts.skipped, own: counts.own, into: &report, warnings: warnings)
            if let games { gameNames?.pointee = games.withLock { $0 } }
            return isComplete
        } catch {
            return nil
        }
    }

    /// The games this machine knew the cloud had, read before a full fetch of the games zone.
    private func gamesKnownInCloud(_ zone: SyncZone) throws -> Set<String> {
        zone == .games ? try player.gamesKnownInCloud() : []
    }

    /// After a complete full fetch: the games known in the cloud before it that it did not
    /// bring were deleted there, and go here too.
    private func dropGamesGone(_ known: Set<String>, fetched names: Set<String>, report: inout SyncReport) throws {
        let naming = CloudSchema()
        let gone = known.filter { !names.contains(naming.game($0)) }
        report.deleted += try player.dropGamesGoneFromCloud(gone)
    }

    /// What the store expects to hand over, set on its reading thread.
    final class Expected: Sendable {
        private let value = Locked<Int?>(nil)
        func set(_ count: Int) { value.withLock { $0 = count } }
        func get() -> Int? { value.withLock { $0 } }
    }

    /// Records handed from the store to the database at a time.
    static let defaultStreamChunk = 2_000

    static func mapped(_ records: [CloudRecord], deletions: [DeletedRecord] = [], device: DeviceID,
                       warnings: CloudWarningSink?) -> Handoff.Mapped {
        var changes = IncomingChanges()
        let sorted = CloudSchema.incoming(records, deletions: deletions, device: device, into: &changes) { warnings?($0) }
        return Handoff.Mapped(changes: changes, skipped: sorted.skipped, own: sorted.own, count: records.count)
    }

    /// What applying a fetch did, in the report (this device's own records are not downloads),
    /// and each record the game's rules refused told in one line (once the fetch is stored, so a
    /// fetch done again after a failure tells nothing twice).
    static func count(_ applied: ApplyReport, skipped: Int, own: Int, into report: inout SyncReport, warnings: CloudWarningSink?) {
        for refusal in applied.refused {
            warnings?(CloudWarning(path: "\(CloudSchema.recordType(refusal.kind)) record \(refusal.name)", reason: refusal.reason))
        }
        report.skipped += skipped + applied.refused.count
        report.downloaded += max(0, applied.applied - own)
        report.deleted += applied.deleted
        report.conflictsResolved += applied.merged
        report.waiting = applied.waiting
    }

    /// Stores a fetch of the zone begun from `since`; false when another process of this
    /// machine stored a later one meanwhile, and nothing was stored.
    func apply(_ records: [CloudRecord], deletions: [DeletedRecord], zone: SyncZone, token: Data?, since: FetchStart,
               report: inout SyncReport) throws -> Bool {
        let chunk = streamChunk
        guard records.count > chunk else {
            let mapped = Self.mapped(records, deletions: deletions, device: cloud.device, warnings: warnings)
            let applied = try player.applyIncoming(mapped.changes, zone: zone, token: token, naming: CloudSchema(), lexicon: lexicon, since: since)
            if applied.stale { return false }
            Self.count(applied, skipped: mapped.skipped, own: mapped.own, into: &report, warnings: warnings)
            return true
        }
        // A large fetch is stored in batches (one transaction still), so progress can be told;
        // each batch is checked and mapped on a thread of its own while the one before is stored
        // (a first sync from a folder with no snapshot to stream fetches everything at once).
        // The store gives records by name, so a game comes before its guesses and marks.
        var counts = (skipped: 0, own: 0)
        let device = cloud.device, total = records.count + deletions.count, progress = self.progress, warnings = self.warnings
        let handoff = Handoff()
        let applied = try player.applyIncoming(zone: zone, naming: CloudSchema(), lexicon: lexicon, since: since) { apply in
            let mapper = Thread {
                for start in stride(from: 0, to: records.count, by: chunk) {
                    let last = start + chunk >= records.count
                    let batch = Array(records[start..<min(start + chunk, records.count)])
                    guard handoff.put(Self.mapped(batch, deletions: last ? deletions : [], device: device, warnings: warnings)) else { break }
                }
                handoff.finish(.success(.refused))
            }
            mapper.start()
            // However this ends, the mapping thread is stopped and waited for before the transaction ends.
            defer { handoff.stopAndWait() }
            var done = 0
            while let mapped = handoff.take() {
                try apply(mapped.changes)
                counts.skipped += mapped.skipped
                counts.own += mapped.own
                done += mapped.count + (done + mapped.count == records.count ? deletions.count : 0)
                progress?(done, total)
            }
            return token
        }
        if applied.stale { return false }
        Self.count(applied, skipped: counts.skipped, own: counts.own, into: &report, warnings: warnings)
        return true
    }
}

/// Batches of a streamed fetch, from the thread that reads them to the one that stores them:
/// at most a few waiting, so reading never runs far ahead of storing.
final class Handoff: @unchecked Sendable {
    struct Mapped: Sendable {
        var changes: IncomingChanges
        var skipped: Int
        var own: Int
        /// The records read, valid or not.
        var count: Int
    }
    struct Refused: Error {}

    private let condition = NSCondition()
    private var waiting: [Mapped] = []
    private var ended: Result<StreamedFetch, any Error>?
    private var stopped = false
    private let capacity = 3

    /// From the reader: false once the storing side has stopped, so the reader stops too.
    func put(_ batch: Mapped) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity && !stopped { condition.wait() }
        guard !stopped else { return false }
        waiting.append(batch)
        condition.broadcast()
        return true
    }

    func finish(_ result: Result<StreamedFetch, any Error>) {
        condition.lock()
        ended = result
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, or nil once the reader has finished and all were taken.
    func take() -> Mapped? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && ended == nil { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        condition.broadcast()
        return waiting.removeFirst()
    }

    func result() throws -> StreamedFetch {
        condition.lock()
        defer { condition.unlock() }
        return try ended?.get() ?? .refused
    }

    func stopAndWait() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while ended == nil { condition.wait() }
        condition.unlock()
    }
}
