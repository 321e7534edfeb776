import CloudStore
import Foundation
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

    /// Told of each fetched record refused (one line each): for a text a terminal would obey, or
    /// by the game's rules (a game, guess or bookmark of the player's own zones no play here
    /// could have made).
    public var warnings: CloudWarningSink?

    /// The dictionary the player's own records are held to (a game's word, a guess, a bookmark),
    /// read only when a fetched record needs it. Without one, the game's rules are still applied
    /// but no word is looked up.
    public var lexicon: (@Sendable () -> Lexicon)?

    /// Runs at the end of every round, with this round's store and report so far (the shared
    /// zones' exchange); returns how many records it brought from other players or this
    /// player's other machines.
    public var afterRound: (@Sendable (any CloudDatabase, SyncReport) throws -> Int)?

    public init(player: PlayerDatabase, cloud: any CloudDatabase,
                now: @escaping @Sendable () -> Date = { Date() },
                pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.player = player
        self.cloud = cloud
        self.now = now
        self.pause = pause
    }

    /// Opens the player's store in `folder` as this device, at the generation last synced with.
    /// With `trust`, every file this device writes is signed with its key, and every file read
    /// is verified against the device sets the trust book holds (docs/trust.md); without one
    /// (the store's own tests, the benchmark's yardsticks) files are neither signed nor checked.
    public static func openCloud(folder: URL, player: PlayerDatabase, options: CloudStoreOptions = .init(),
                                 trust: TrustBook? = nil) throws(SyncError) -> FolderCloudDatabase {
        let profile = player.profile
        do {
            let generation = try player.syncRecord().generation.map { name throws(CloudStoreError) in try CloudGeneration(name) }
            let disk = DiskFolder(root: folder)
            return try FolderCloudDatabase(folder: trust.map { TrustedFolder(disk, book: $0) } ?? disk, player: profile.playerID,
                                           device: DeviceID(profile.device.id), generation: generation, options: options)
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
            try rewriteOwnFilesIfGone()
            try send(&report, written: &written)
            let mergedBefore = report.conflictsResolved
            try fetch(&report)
            // A merge that kept something the cloud lacks queued it: send it now, not next time.
            if report.conflictsResolved > mergedBefore { try send(&report, written: &written) }
            compactWhereWorthwhile(written)
            report.shared = try afterRound?(cloud, report) ?? 0
            if report.uploaded > 0, let generation = try player.syncRecord().generation ?? cloud.generation?.name,
               try !player.hasSent(generation: generation) {
                try player.noteSent(generation: generation)
            }
            report.durationMs = Int(now().timeIntervalSince(started) * 1000)
            try player.recordSyncOutcome(state: "synced", message: nil, at: now())
            return report
        } catch {
            let failure = Self.classify(error)
            try? player.recordSyncOutcome(state: failure.state, message: failure.detail, at: nil)
            throw failure
        }
    }

    // MARK: Errors and retries

    /// Runs a cloud call, waiting and retrying while the cloud says it is busy, honouring its
    /// retry-after (and backing off when it gives none).
    func withRetries<T>(_ body: () throws -> T) throws -> T {
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

