import CloudStore
import Foundation
import ProcessMemory
import QiktionaryCore
import Storage

/// One round of docs/sync.md's recipe for one player: send what changed here (changed fields only,
/// at most 400 records a commit), merge conflicts by the game's rules and resend, fetch what
/// changed elsewhere (changed zones only), and apply it with its token in one transaction.
/// Blocking; run it off the interface's thread.
public struct SyncEngine: Sendable {
    public static let batchLimit = 400

    /// The player's handle on the database.
    let player: PlayerDatabase
    let cloud: any CloudDatabase
    var database: AppDatabase { player.database }
    var profile: Profile { player.profile }
    /// How long to wait before a retry; tests pass one that does not sleep.
    let pause: @Sendable (TimeInterval) -> Void
    let now: @Sendable () -> Date
    static let maxAttempts = 5

    /// Told how many fetched records are stored so far, and of how many (for a streamed first
    /// sync, the store's estimate, never below what is done), zone by zone: for a progress line.
    public var progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?

    /// Records handed from the store to the database at a time (tests make it tiny, so games
    /// are split between batches).
    var streamChunk = SyncEngine.defaultStreamChunk

    /// Told how many records are sent so far, and of how many, while a long queue (more than a
    /// fetch's batch of records: a history played before sync was turned on) is sent.
    public var sendProgress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    /// Told of each fetched record refused for a text a terminal would obey (one line each).
    public var warnings: CloudWarningSink?

    public init(player: PlayerDatabase, cloud: any CloudDatabase,
                now: @escaping @Sendable () -> Date = { Date() },
                pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.player = player
        self.cloud = cloud
        self.now = now
        self.pause = pause
    }

    /// Opens the player's store in `folder` as this device, at the generation last synced with.
    public static func openCloud(folder: URL, player: PlayerDatabase, options: CloudStoreOptions = .init()) throws(SyncError) -> FolderCloudDatabase {
        let profile = player.profile
        do {
            let generation = try player.syncRecord().generation.map { name throws(CloudStoreError) in try CloudGeneration(name) }
            return try FolderCloudDatabase.onDisk(root: folder, player: profile.playerID, device: DeviceID(profile.device.id),
                                                  generation: generation, options: options)
        } catch let error as StorageError {
            throw .storage(error)
        } catch let error as CloudStoreError {
            throw .unexpected(error.description)
        } catch {
            throw .unexpected("\(error)")
        }
    }

    @discardableResult
    public func sync() throws(SyncError) -> SyncReport {
        let started = now()
        var report = SyncReport()
        var written = Set<SyncZone>()
        do {
            try recoverInterruptedUpload()
            try send(&report, written: &written)
            let mergedBefore = report.conflictsResolved
            try fetch(&report)
            // A merge that kept something the cloud lacks queued it: send it now, not next time.
            if report.conflictsResolved > mergedBefore { try send(&report, written: &written) }
            compactWhereWorthwhile(written)
            report.durationMs = Int(now().timeIntervalSince(started) * 1000)
            try player.recordSyncOutcome(state: "synced", message: nil, at: now())
            return report
        } catch {
            let failure = Self.classify(error)
            try? player.recordSyncOutcome(state: failure.state, message: failure.detail, at: nil)
            throw failure
        }
    }

    // MARK: Resets (README, resets)

    /// How a machine answers a reset made elsewhere.
    public enum Adoption: String, Sendable, CaseIterable {
        /// Keep this machine's games and put them in the new cloud.
        case upload
        /// Erase this machine's games and take the new cloud's.
        case erase
    }

    /// Erases the player's cloud data and starts a new generation; this machine's games stay
    /// and are uploaded into it. Other machines are told at their next sync.
    @discardableResult
    public func resetCloud() throws(SyncError) -> SyncReport {
        do {
            let generation = try cloud.resetCloud()
            try player.forgetSyncMetadata(newGeneration: generation.name)
        } catch {
            throw Self.classify(error)
        }
        return try sync()
    }

    /// Accepts a reset made on another machine, keeping or erasing this machine's games.
    @discardableResult
    public func adoptReset(_ adoption: Adoption) throws(SyncError) -> SyncReport {
        do {
            let generation = try cloud.adoptCurrentGeneration()
            switch adoption {
            case .upload: try player.forgetSyncMetadata(newGeneration: generation.name)
            case .erase: try player.eraseLocalData(keepingGeneration: generation.name)
            }
        } catch {
            throw Self.classify(error)
        }
        return try sync()
    }

    // MARK: Sending (steps 2 and 3)

    private func send(_ report: inout SyncReport, written: inout Set<SyncZone>) throws {
        // A conflict merges the cloud's version into the local game, which queues what the cloud
        // lacks; the next round sends it with the cloud's change tag. Bounded, in case another
        // machine keeps winning the race.
        for attempt in 0..<Self.maxAttempts {
            // A long queue (a history played before sync was turned on) is read and sent a page of
            // games at a time, each with its guesses and marks, so it is never all in memory; the
            // rest of the queue (deletions, bookmarks, anything not of those games) follows.
            let games = try player.queuedGameIDs()
            let paged = games.count > Self.gamesPerPage
            let rest = paged ? nil : try player.outgoingChanges(naming: CloudSchema())
            if let rest, rest.isEmpty { return }
            if attempt == 0 { try refuseAnEmptiedFolder() }
            let total = try rest?.count ?? player.pendingChangeCount()
            var upload = Upload(engine: self, total: total, report: report, written: written)
            do {
                if paged { try sendPages(of: games, &upload) }
                try upload.send(try rest ?? player.outgoingChanges(naming: CloudSchema()))
                try upload.acknowledge()
            } catch {
                // What the cloud took is acknowledged even when a later commit fails.
                try? upload.acknowledge()
                (report, written) = (upload.report, upload.written)
                throw error
            }
            (report, written) = (upload.report, upload.written)
            // Conflicts merged here, or a change made while its record was in flight (its newer
            // version was not cleared): sent now, not at the next sync.
            if !upload.conflicts, try player.pendingChangeCount() == 0 { return }
        }
    }

    /// Sends a long queue's games a page at a time. While the store commits one page, a thread of
    /// the database's acknowledges the page before and reads the next, so the two sides work at
    /// once (a first upload is as much the database's work as the folder's). Into a zone nobody
    /// has written to yet, the store writes the pages as this device's snapshot (no segments to
    /// fold afterwards); whatever it leaves goes as commits.
    private func sendPages(of games: [String], _ upload: inout Upload) throws {
        var pager = Pager(games: games, engine: self)
        do {
            var left = try sendAsSnapshot(&pager, &upload)
            while let batches = try left ?? pager.next(&upload) {
                left = nil
                try upload.commit(batches, waitingFor: pager.ahead)
            }
            try pager.finish()
        } catch {
            // The thread's work ends before the error goes up: nothing is written after the sync.
            try? pager.finish()
            throw error
        }
        // The last page too, before the rest of the queue is read.
        try upload.acknowledge()
        if upload.publishedSnapshot { try player.noteSnapshotUpload(nil) }
    }

    /// The pages of a long queue, each read (and the page before acknowledged) on a thread of
    /// the database's while the one before it is sent.
    private struct Pager {
        let pages: [[String]]
        let player: PlayerDatabase
        let read: @Sendable ([String]) throws -> [Batch]
        private var index = 0
        /// The database's work under way: acknowledging the page before, reading the next.
        private(set) var ahead: Background<[Batch], any Error>

        init(games: [String], engine: SyncEngine) {
            pages = stride(from: 0, to: games.count, by: SyncEngine.gamesPerPage).map { Array(games[$0..<min($0 + SyncEngine.gamesPerPage, games.count)]) }
            let player = engine.player, device = engine.profile.device.name
            let read = { @Sendable (page: [String]) throws -> [Batch] in
                Batch.split(try player.outgoingChanges(ofGames: page, naming: CloudSchema()), device: device)
            }
            (self.player, self.read) = (player, read)
            let first = pages.first ?? []
            ahead = Background { try read(first) }
        }

        /// The next page's batches once read (nil after the last); the page after it is read
        /// meanwhile, once what `upload` committed is acknowledged.
        mutating func next(_ upload: inout Upload) throws -> [Batch]? {
            guard index < pages.count else { return nil }
            let batches: [Batch]
            do {
                batches = try ahead.value()
            } catch {
                try? upload.acknowledge()
                throw error
            }
            index += 1
            let committed = upload.takeCommitted(), player = self.player, read = self.read
            let next = index < pages.count ? pages[index] : nil
            ahead = Background {
                try committed.acknowledge(player)
                return try next.map(read) ?? []
            }
            return batches
        }

        /// Waits for the database's work under way.
        func finish() throws { _ = try ahead.value() }
    }

    /// A long first upload into a zone nobody has written to yet, made by the store as this
    /// device's snapshot, page by page. Each page is acknowledged as the store takes it, before
    /// the snapshot is published: the database notes the upload first, and a sync that finds the
    /// note and no snapshot sends everything again (`recoverInterruptedUpload`). Returns the
    /// page the store left, to go as commits with the rest.
    private func sendAsSnapshot(_ pager: inout Pager, _ upload: inout Upload) throws -> [Batch]? {
        let zone = SyncZone.games
        try upload.prepare(zone, waitingFor: pager.ahead)
        var current: [Batch]?, foreign: [Batch]?, failure: (any Error)?
        let player = self.player
        func starting() -> Bool {
            do {
                try player.noteSnapshotUpload(zone)
                return true
            } catch {
                failure = error
                return false
            }
        }
        func next() -> [CommitBatch]? {
            do {
                current = try pager.next(&upload)
            } catch {
                (current, failure) = (nil, error)
            }
            guard let batches = current else { return nil }
            // A page of another zone (none is) would go as commits.
            guard batches.allSatisfy({ $0.zone == zone }) else {
                foreign = batches
                return nil
            }
            return batches.map { CommitBatch(saving: $0.records, deleting: $0.deletions) }
        }
        func made(_ results: [CommitResult]) -> Bool {
            do {
                for (batch, result) in zip(current ?? [], results) { try upload.take(.saved(result), of: batch) }
                return true
            } catch {
                failure = error
                return false
            }
        }
        // The errors tried again here (a missing zone, a rate limit) come before the store asks for a page.
        let outcome = try withRetries {
            do {
                return try cloud.uploadAsSnapshot(zone.cloudZone, starting: starting, next: next, made: made)
            } catch CloudStoreError.zoneNotFound {
                try cloud.createZone(zone.cloudZone)
                return try cloud.uploadAsSnapshot(zone.cloudZone, starting: starting, next: next, made: made)
            }
        }
        if outcome.records > 0 {
            upload.publishedSnapshot = true
            if let token = outcome.token, try player.zoneToken(zone) == nil {
                try pager.finish()
                try player.applyIncoming(IncomingChanges(), zone: zone, token: token.serialized, naming: CloudSchema())
            }
        }
        if let failure { throw failure }
        return outcome.lastPageLeft ? current : foreign
    }

    /// A sync that stopped while a first upload was written as a snapshot acknowledged pages
    /// the cloud may never have published: when this device's log of the zone is still empty,
    /// every game is queued again (the cloud's metadata forgotten, as after a reset) and sent.
    private func recoverInterruptedUpload() throws {
        guard let zone = try player.snapshotUploadZone() else { return }
        if try !withRetries({ try cloud.hasPublished(in: zone.cloudZone) }) {
            try player.forgetSyncMetadata()
        }
        try player.noteSnapshotUpload(nil)
    }

    /// Games read and sent at a time from a long queue (with their guesses and marks, about
    /// 8,000 records for finished games).
    static let gamesPerPage = 1_000

    /// Commits handed to the store at once (their segments are written together).
    static let commitsPerGroup = 16

    /// One attempt at sending the queue: commits, and what they saved, acknowledged a page at a
    /// time in one transaction (each commit's own transaction cost more than its rows).
    private struct Upload {
        let engine: SyncEngine
        /// Records waiting when the attempt began; progress is told when there are more than
        /// a fetch's batch of them.
        let total: Int
        var report: SyncReport
        var written: Set<SyncZone>
        var conflicts = false
        var done = 0
        /// Zones whose first fetch was looked at before the first commit into them.
        var prepared: Set<SyncZone> = []
        /// Whether pages went as a snapshot the store published (the database's note of it is
        /// cleared once every page is acknowledged).
        var publishedSnapshot = false
        /// Committed, not yet acknowledged.
        var sent = OutgoingChanges()
        var saved: [String: Data] = [:]
        var deleted: Set<String> = []

        init(engine: SyncEngine, total: Int, report: SyncReport, written: Set<SyncZone>) {
            self.engine = engine
            self.total = total
            self.report = report
            self.written = written
        }

        mutating func send(_ outgoing: OutgoingChanges) throws {
            try commit(Batch.split(outgoing, device: engine.profile.device.name))
        }

        /// Commits `batches`; before a conflict writes to the database, `background` (the
        /// database's thread, acknowledging what went before) is waited for.
        mutating func commit(_ batches: [Batch], waitingFor background: Background<[Batch], any Error>? = nil) throws {
            var next = 0
            while next < batches.count {
                // Consecutive batches of one zone and policy go to the store together.
                var end = next + 1
                while end < batches.count, end - next < SyncEngine.commitsPerGroup,
                      batches[end].zone == batches[next].zone, batches[end].policy == batches[next].policy { end += 1 }
                try prepare(batches[next].zone, waitingFor: background)
                let outcomes = try engine.commit(Array(batches[next..<end]))
                guard !outcomes.isEmpty else { return }
                for (batch, outcome) in zip(batches[next...], outcomes) {
                    if case .conflicts = outcome { _ = try background?.value() }
                    try take(outcome, of: batch)
                }
                next += outcomes.count
            }
        }

        /// Before the first commit into a zone: its first token, if it is new (`takeFirstToken`).
        mutating func prepare(_ zone: SyncZone, waitingFor background: Background<[Batch], any Error>?) throws {
            guard prepared.insert(zone).inserted else { return }
            _ = try background?.value()
            try engine.takeFirstToken(zone)
        }

        mutating func take(_ outcome: CommitOutcome, of batch: Batch) throws {
            switch outcome {
            case .saved(let result):
                sent.append(batch.changes)
                saved.merge(try SyncEngine.encoded(result.savedRecords)) { $1 }
                deleted.formUnion(result.deletedRecordNames)
                report.uploaded += result.savedRecords.count + result.deletedRecordNames.count
                written.insert(batch.zone)
                done += batch.count
                if total > SyncEngine.defaultStreamChunk { engine.sendProgress?(done, max(done, total)) }
            case .conflicts(let servers, let deletedElsewhere):
                // Applying the cloud's versions writes to the rows sent before: acknowledge those first.
                try acknowledge()
                conflicts = true
                report.conflictsResolved += servers.count + deletedElsewhere.count
                if !servers.isEmpty { try engine.apply(servers, deletions: [], zone: batch.zone, token: nil, report: &report) }
                if !deletedElsewhere.isEmpty {
                    try engine.player.dropDeletedElsewhere(recordNames: deletedElsewhere, sent: batch.changes, naming: CloudSchema())
                }
            }
        }

        mutating func acknowledge() throws {
            try takeCommitted().acknowledge(engine.player)
        }

        /// What was committed and not yet acknowledged, handed over to be.
        mutating func takeCommitted() -> Committed {
            defer { (sent, saved, deleted) = (OutgoingChanges(), [:], []) }
            return Committed(sent: sent, saved: saved, deleted: deleted)
        }
    }

    /// Commits made, to acknowledge together in one transaction.
    struct Committed: Sendable {
        var sent: OutgoingChanges
        var saved: [String: Data]
        var deleted: Set<String>

        func acknowledge(_ player: PlayerDatabase) throws {
            guard !sent.isEmpty || !deleted.isEmpty else { return }
            try player.acknowledge(sent, saved: saved, deleted: deleted, naming: CloudSchema())
        }
    }

    /// Before the first commit into a zone this machine has no token for and no device has
    /// written to yet (a cloud folder new to this player): the zone is made and its first fetch,
    /// empty, is done now, keeping its token. The fetch after the upload then asks only for what
    /// other devices wrote meanwhile, instead of reading back every record just sent (all of
    /// them, for a long history). Anything else (the zone exists, the fetch finds a record)
    /// leaves the zone as it was, for the usual full fetch.
    private func takeFirstToken(_ zone: SyncZone) throws {
        guard try player.zoneToken(zone) == nil, try !withRetries({ try cloud.zones() }).contains(zone.cloudZone) else { return }
        try withRetries { try cloud.createZone(zone.cloudZone) }
        let first = try withRetries { try cloud.fetchZoneChanges(zone.cloudZone, since: nil) }
        guard first.isComplete, first.changedRecords.isEmpty, first.deletedRecords.isEmpty else { return }
        try player.applyIncoming(IncomingChanges(), zone: zone, token: first.token.serialized, naming: CloudSchema())
    }

    /// Folds this device's log into a snapshot once the log outweighs it, so the folder stays
    /// near the size of the live data. Housekeeping: a failure here leaves the log as it was
    /// and is tried again after the next upload; it never fails the sync that has succeeded.
    private func compactWhereWorthwhile(_ zones: Set<SyncZone>) {
        for zone in zones { _ = try? cloud.compactIfWorthwhile(zone.cloudZone) }
    }

    private enum CommitOutcome {
        case saved(CommitResult)
        case conflicts([CloudRecord], deletedElsewhere: Set<String>)
    }

    /// Commits batches of one zone and policy, together where the store can: an outcome for
    /// each made, then for the first that failed (none after it is tried).
    private func commit(_ group: [Batch]) throws -> [CommitOutcome] {
        let zone = group[0].zone.cloudZone, policy = group[0].policy
        let commits = group.map { CommitBatch(saving: $0.records, deleting: $0.deletions) }
        func attempt() throws -> CommitsMade {
            let made = try cloud.modifyRecords(in: zone, commits: commits, policy: policy)
            // None made: the store's error, as one commit throws it (retried while busy).
            if made.results.isEmpty, let failure = made.failure {
                if case .partialFailure = failure { return made }
                throw failure
            }
            return made
        }
        let made = try withRetries {
            do {
                return try attempt()
            } catch CloudStoreError.zoneNotFound {
                try cloud.createZone(zone)
                return try attempt()
            }
        }
        var outcomes = made.results.map(CommitOutcome.saved)
        switch made.failure {
        case nil: break
        case .partialFailure(let failures)?:
            var servers: [CloudRecord] = [], gone = Set<String>()
            for (name, failure) in failures {
                switch failure {
                case .serverRecordChanged(let server): servers.append(server)
                case .unknownRecord: gone.insert(name)
                default: throw CloudStoreError.partialFailure(failures)
                }
            }
            outcomes.append(.conflicts(servers, deletedElsewhere: gone))
        case .some:
            // Stopped after some were made (the folder gone, busy): those are taken, and the
            // next commit meets the error again.
            break
        }
        return outcomes
    }

    /// A mount point whose file system is not mounted is an empty folder that looks usable:
    /// what is written there is hidden when the file system comes back, and would be lost.
    /// A machine that has synced before therefore never writes into a folder with no store
    /// in it; it stays offline until the folder is back (or the player starts the cloud anew).
    private func refuseAnEmptiedFolder() throws {
        // Records the cloud acknowledged mean the cloud had data; none, and it may be empty.
        guard try player.knowsRemoteRecords() else { return }
        if try cloud.zones().isEmpty {
            throw SyncError.offline("the cloud folder is empty though this machine has synced with it before (if it is a mount, is it mounted?); if it was emptied on purpose, run 'qiktionary --reset-cloud'")
        }
    }

    // MARK: Fetching (steps 4 to 6)

    private func fetch(_ report: inout SyncReport) throws {
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
            let token = try player.zoneToken(zone).flatMap { try? ChangeToken(serialized: $0) }
            if token == nil, let complete = streamedFullFetch(zone, report: &report) {
                if complete { incomplete.remove(zone.rawValue) } else { incomplete.insert(zone.rawValue) }
                continue
            }
            var fetched: ZoneChanges
            do {
                fetched = try withRetries { try cloud.fetchZoneChanges(zone.cloudZone, since: token) }
            } catch CloudStoreError.changeTokenExpired {
                fetched = try withRetries { try cloud.fetchZoneChanges(zone.cloudZone, since: nil) }
            } catch CloudStoreError.zoneNotFound {
                continue
            }
            try apply(fetched.changedRecords, deletions: fetched.deletedRecords, zone: zone, token: fetched.token.serialized, report: &report)
            if fetched.isComplete { incomplete.remove(zone.rawValue) } else { incomplete.insert(zone.rawValue) }
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
    private func streamedFullFetch(_ zone: SyncZone, report: inout SyncReport) -> Bool? {
        let handoff = Handoff()
        let cloud = self.cloud, device = cloud.device, chunk = streamChunk, warnings = self.warnings
        var counts = (skipped: 0, own: 0)
        var stored = 0
        let progress = self.progress, expected = Expected()
        var outcome: StreamedFetch = .refused
        do {
            let applied = try player.applyIncoming(zone: zone, naming: CloudSchema()) { apply in
                let reader = Thread {
                    let result = Result { () throws(CloudStoreError) -> StreamedFetch in
                        try cloud.fetchAllRecords(zone.cloudZone, chunk: chunk, expect: { expected.set($0) }) { records in
                            // Records are checked and mapped on this side: the storing side is
                            // the slower one, and the whole fetch waits on it (docs/performance.md).
                            handoff.put(Self.mapped(records, device: device, warnings: warnings))
                        }
                    }
                    handoff.finish(result.mapError { $0 as any Error })
                }
                reader.stackSize = FolderCloudDatabase.readerStackSize
                reader.start()
                // However this ends, the reader is stopped and waited for before the transaction ends.
                defer { handoff.stopAndWait() }
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
                    Memory.returnFreed()
                }
                outcome = try handoff.result()
                guard case .complete(let token, _) = outcome else { throw Handoff.Refused() }
                progress?(stored, stored)
                return token.serialized
            }
            guard case .complete(_, let isComplete) = outcome else { return nil }
            Self.count(applied, skipped: counts.skipped, own: counts.own, into: &report)
            return isComplete
        } catch {
            return nil
        }
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

    /// What applying a fetch did, in the report (this device's own records are not downloads).
    private static func count(_ applied: ApplyReport, skipped: Int, own: Int, into report: inout SyncReport) {
        report.skipped += skipped
        report.downloaded += max(0, applied.applied - own)
        report.deleted += applied.deleted
        report.conflictsResolved += applied.merged
        report.waiting = applied.waiting
    }

    private func apply(_ records: [CloudRecord], deletions: [DeletedRecord], zone: SyncZone, token: Data?, report: inout SyncReport) throws {
        let chunk = streamChunk
        guard records.count > chunk else {
            let mapped = Self.mapped(records, deletions: deletions, device: cloud.device, warnings: warnings)
            let applied = try player.applyIncoming(mapped.changes, zone: zone, token: token, naming: CloudSchema())
            return Self.count(applied, skipped: mapped.skipped, own: mapped.own, into: &report)
        }
        // A large fetch is stored in batches (one transaction still), so progress can be told;
        // each batch is checked and mapped on a thread of its own while the one before is stored
        // (a first sync from a folder with no snapshot to stream fetches everything at once).
        // The store gives records by name, so a game comes before its guesses and marks.
        var counts = (skipped: 0, own: 0)
        let device = cloud.device, total = records.count + deletions.count, progress = self.progress, warnings = self.warnings
        let handoff = Handoff()
        let applied = try player.applyIncoming(zone: zone, naming: CloudSchema()) { apply in
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
        Self.count(applied, skipped: counts.skipped, own: counts.own, into: &report)
    }

    // MARK: Errors and retries

    /// Runs a cloud call, waiting and retrying while the cloud says it is busy, honouring its
    /// retry-after (and backing off when it gives none).
    private func withRetries<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch CloudStoreError.rateLimited(let after) where attempt + 1 < Self.maxAttempts {
                attempt += 1
                pause(min(30, max(after, 0.05 * Double(1 << attempt))))
            }
        }
    }

    static func classify(_ error: any Error) -> SyncError {
        switch error {
        case let error as SyncError: return error
        case let error as StorageError: return .storage(error)
        case let error as CloudStoreError:
            switch error {
            case .cloudReset: return .cloudReset
            case .unavailable(let reason): return .offline(reason)
            case .notWritable(let reason): return .notWritable(reason)
            case .rateLimited, .partialFailure: return .busy(error.description)
            default: return .unexpected(error.description)
            }
        default: return .unexpected("\(error)")
        }
    }

    static func encoded(_ records: [CloudRecord]) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for record in records {
            if let system = record.systemFields { out[record.recordName] = system.encoded }
        }
        return out
    }
}

extension SyncZone {
    var cloudZone: ZoneID { CloudSchema.zone(self) }
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
