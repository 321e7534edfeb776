import CloudStore
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
@testable import Sync

/// Shared by the sync tests: the shipped dictionary and packs, read once.
enum Content {
    static let lexicon = try! BundledContent.lexicon()
    static let packFiles = PackFile.files(in: BundledContent.packsFolder)
}

/// A wall clock a test moves. Machines share one, each seeing it with its own skew.
final class TestClock: @unchecked Sendable {
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var current = Date(timeIntervalSince1970: 1_790_000_000)
    }
    private let shared: Shared
    private let offset: TimeInterval

    init() {
        shared = Shared()
        offset = 0
    }

    private init(_ shared: Shared, offset: TimeInterval) {
        self.shared = shared
        self.offset = offset
    }

    func skewed(by offset: TimeInterval) -> TestClock { TestClock(shared, offset: self.offset + offset) }
    var now: Date { shared.lock.withLock { shared.current } + offset }
    func advance(_ seconds: TimeInterval) { shared.lock.withLock { shared.current += seconds } }
}

/// One machine: its own database and device, syncing through a shared cloud folder.
struct Machine {
    let name: String
    let database: AppDatabase
    let profile: Profile
    var player: PlayerDatabase { database.player(profile) }
    let clock: TestClock
    var cloud: FolderCloudDatabase
    let folder: MemoryFolder
    let faults: CloudFaults

    /// `databaseOnTheClock`: the database reads the test's clock too (by default, the system's).
    init(_ name: String, folder: MemoryFolder, player: String = "player", clockOffset: TimeInterval = 0, shared clock: TestClock,
         databaseOnTheClock: Bool = false) throws {
        self.name = name
        self.folder = folder
        let skewed = clock.skewed(by: clockOffset)
        database = databaseOnTheClock ? try AppDatabase.inMemory(clock: { skewed.now }) : try AppDatabase.inMemory()
        _ = try database.importPacks(from: Content.packFiles, lexicon: { Content.lexicon })
        profile = try database.profile(player: player, device: name, hostName: name)
        self.clock = skewed
        faults = CloudFaults()
        cloud = try FolderCloudDatabase.inMemory(folder, player: player, device: DeviceID(profile.device.id),
                                                 options: CloudStoreOptions(now: { skewed.now }, faults: faults))
    }

    var engine: SyncEngine {
        var engine = SyncEngine(player: database.player(profile), cloud: cloud, now: { [clock] in clock.now }, pause: { _ in })
        engine.lexicon = { Content.lexicon }
        return engine
    }

    @discardableResult
    func sync() throws -> SyncReport { try engine.sync() }

    /// Reopens the store as a new process would, at the generation the database remembers.
    mutating func restart() throws {
        let generation = try database.player(profile).syncRecord().generation.map { try CloudGeneration($0) }
        let clock = self.clock
        cloud = try FolderCloudDatabase.inMemory(folder, player: profile.playerID, device: DeviceID(profile.device.id),
                                                 generation: generation, options: CloudStoreOptions(now: { clock.now }, faults: faults))
    }

    // Playing, with this machine's clock.

    func start(_ word: String, rules: Rules? = nil) throws -> SavedGame {
        clock.advance(1)
        return try database.player(profile).startGame(GameRequest(word: word, rules: rules), now: clock.now)
    }

    @discardableResult
    func guess(_ word: String, in game: String) throws -> PlayedGuess {
        clock.advance(1)
        return try database.player(profile).submitGuess(word, gameID: game, lexicon: Content.lexicon, now: clock.now)
    }

    func game(_ id: String) throws -> SavedGame { try database.player(profile).game(id: id) }

    /// The history several tests start from: a game won in two guesses (CRANE, then TIGER), one
    /// half played (PILOT against COMET), and the won word bookmarked.
    func playWonAndHalf() throws -> (won: SavedGame, half: SavedGame) {
        let won = try start("tiger")
        try guess("crane", in: won.id)
        try guess("tiger", in: won.id)
        let half = try start("comet")
        try guess("pilot", in: half.id)
        try player.addBookmark(word: "tiger")
        return (won, half)
    }

    /// The comparable part of a game: everything but this machine's own bookkeeping.
    func snapshot(_ id: String) throws -> GameSnapshot { GameSnapshot(try game(id)) }
}

struct GameSnapshot: Equatable, CustomStringConvertible {
    var status: GameStatus
    var guesses: [String]
    var marks: [Character: LetterMark]
    var finishedAt: Date?

    init(_ saved: SavedGame) {
        status = saved.game.status
        guesses = saved.game.guesses.map(\.word)
        marks = saved.game.marks
        finishedAt = saved.finishedAt
    }

    var description: String { "\(status.rawValue) \(guesses) \(marks) \(String(describing: finishedAt))" }
}

/// Forwards to a real store, counting commits and letting a test act while a commit is in flight.
final class WatchedCloud: ForwardingCloudDatabase, @unchecked Sendable {
    let inner: FolderCloudDatabase
    private(set) var commitSizes: [Int] = []
    var duringCommit: (() -> Void)?
    /// Runs before a commit reaches the store: what another process does meanwhile.
    var beforeCommit: (() -> Void)?
    /// Set, the next commit that lands is followed by this error instead of its result: the
    /// process is killed after its commit, before it can acknowledge it.
    var killAfterCommit: CloudStoreError?
    /// Runs before the round's fetch asks which zones changed: what happens meanwhile elsewhere.
    var beforeFetch: (() -> Void)?
    /// Runs once a zone's changes are read, before the round applies them.
    var afterZoneFetch: ((ZoneID) -> Void)?

    init(_ inner: FolderCloudDatabase) { self.inner = inner }

    func fetchDatabaseChanges(since token: ChangeToken?) throws(CloudStoreError) -> DatabaseChanges {
        beforeFetch?()
        return try inner.fetchDatabaseChanges(since: token)
    }

    func fetchZoneChanges(_ zone: ZoneID, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges {
        let changes = try inner.fetchZoneChanges(zone, since: token)
        afterZoneFetch?(zone)
        return changes
    }


    /// Whether full fetches are streamed as the real store streams them (else refused, as a
    /// store that never streams does), and how each streamed one ended.
    var streams = false
    private(set) var streamed: [StreamedFetch] = []
    func fetchAllRecords(_ zone: ZoneID, chunk: Int, deliver: ([CloudRecord]) -> Bool) throws(CloudStoreError) -> StreamedFetch {
        guard streams else { return .refused }
        let outcome = try inner.fetchAllRecords(zone, chunk: chunk, deliver: deliver)
        streamed.append(outcome)
        return outcome
    }

    /// Runs once a commit is refused (a conflict), before the round takes the cloud's versions.
    var afterRefusedCommit: (() -> Void)?

    func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy) throws(CloudStoreError) -> CommitResult {
        beforeCommit?()
        let result: CommitResult
        do {
            result = try inner.modifyRecords(in: zone, saving: saving, deleting: deleting, policy: policy)
        } catch {
            afterRefusedCommit?()
            throw error
        }
        commitSizes.append(saving.count + deleting.count)
        duringCommit?()
        if let killed = killAfterCommit {
            killAfterCommit = nil
            throw killed
        }
        return result
    }
}
