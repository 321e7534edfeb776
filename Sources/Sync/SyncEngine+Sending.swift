import CloudStore
import Concurrency
import Foundation
import ProcessMemory
import QiktionaryCore
import Storage

extension SyncEngine {
    // MARK: Sending (steps 2 and 3)

    func send(_ report: inout SyncReport, written: inout Set<SyncZone>) throws {
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
    func sendPages(of games: [String], _ upload: inout Upload) throws {
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
    struct Pager {
        let pages: [[String]]
        let player: PlayerDatabase
        let read: @Sendable ([String]) throws -> [Batch]
        private var index = 0
        private var freed = FreedMemory()
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
            // What the pages before left free between objects still in use is given back once
            // it has grown: the next would not reuse all of it, and a first upload's peak would
            // grow with the history (116 MB at 100,000 games without this and at 1,000 games a page).
            freed.betweenBatches()
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
    func sendAsSnapshot(_ pager: inout Pager, _ upload: inout Upload) throws -> [Batch]? {
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
                try player.applyIncoming(IncomingChanges(), zone: zone, token: token.serialized, naming: CloudSchema(), since: .token(nil))
            }
        }
        if let failure { throw failure }
        return outcome.lastPageLeft ? current : foreign
    }

    /// A sync that stopped while a first upload was written as a snapshot acknowledged pages
    /// the cloud may never have published: when this device's log of the zone is still empty,
    /// every game is queued again (the cloud's metadata forgotten, as after a reset) and sent.
    func recoverInterruptedUpload() throws {
        guard let zone = try player.snapshotUploadZone() else { return }
        if try !withRetries({ try cloud.hasPublished(in: zone.cloudZone) }) {
            try player.forgetSyncMetadata()
        }
        try player.noteSnapshotUpload(nil)
    }

    /// Games read and sent at a time from a long queue (with their guesses and marks, about
    /// 4,000 records for finished games). Two pages are in memory at once (one sent, the next
    /// read); at 1,000 games a page a first upload's peak passed a first sync's bound.
    static let gamesPerPage = 500

    /// Commits handed to the store at once (their segments are written together).
    static let commitsPerGroup = 16

    /// One attempt at sending the queue: commits, and what they saved, acknowledged a page at a
    /// time in one transaction (each commit's own transaction cost more than its rows).
    struct Upload {
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
            // A log that outweighs its snapshot is folded first (a read of this device's head
            // decides): a commit reads the segments since the snapshot to check its records,
            // and a log never compacted (a device that synced after every game and never folded
            // its log) would be read whole, every winner held (1.3 GB at 100,000 games).
            engine.compactWhereWorthwhile([zone])
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
                if !servers.isEmpty { _ = try engine.apply(servers, deletions: [], zone: batch.zone, token: nil, since: .conflict, report: &report) }
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
    func takeFirstToken(_ zone: SyncZone) throws {
        guard try player.zoneToken(zone) == nil, try !withRetries({ try cloud.zones() }).contains(zone.cloudZone) else { return }
        try withRetries { try cloud.createZone(zone.cloudZone) }
        let first = try withRetries { try cloud.fetchZoneChanges(zone.cloudZone, since: nil) }
        guard first.isComplete, first.changedRecords.isEmpty, first.deletedRecords.isEmpty else { return }
        try player.applyIncoming(IncomingChanges(), zone: zone, token: first.token.serialized, naming: CloudSchema(), since: .token(nil))
    }

    /// Folds this device's log into a snapshot once the log outweighs it, so the folder stays
    /// near the size of the live data. Housekeeping: a failure here leaves the log as it was
    /// and is tried again after the next upload; it never fails the sync that has succeeded.
    func compactWhereWorthwhile(_ zones: Set<SyncZone>) {
        for zone in zones { _ = try? cloud.compactIfWorthwhile(zone.cloudZone) }
    }

    enum CommitOutcome {
        case saved(CommitResult)
        case conflicts([CloudRecord], deletedElsewhere: Set<String>)
    }

    /// Commits batches of one zone and policy, together where the store can: an outcome for
    /// each made, then for the first that failed (none after it is tried).
    func commit(_ group: [Batch]) throws -> [CommitOutcome] {
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
    func refuseAnEmptiedFolder() throws {
        // Records the cloud acknowledged mean the cloud had data; none, and it may be empty.
        guard try player.knowsRemoteRecords() else { return }
        if try cloud.zones().isEmpty {
            throw SyncError.offline("the cloud folder is empty though this machine has synced with it before (if it is a mount, is it mounted?); if it was emptied on purpose, run 'qiktionary --reset-cloud'")
        }
    }
}
