import CloudStore
import Foundation
import TextSafety
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// What a command needs before it can do anything: the database with the packs loaded,
/// the player and device, and the dictionary when a guess needs checking.
struct Setup {
    let dataDir: URL
    let cloudDir: URL?
    let database: AppDatabase
    let profile: Profile
    /// The player's handle on the database: their games, reading list, statistics and sync state.
    var player: PlayerDatabase { database.player(profile) }
    let lexicon: @Sendable () -> Lexicon
    let noSync: Bool
    let clock: @Sendable () -> Date

    static func open(_ options: SharedOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Setup {
        let dataDir = options.resolvedDataDir(environment: environment)
        let given = try givenCloudDir(options, environment: environment)
        if let given { try refuseNesting(dataDir: dataDir, cloudDir: given) }
        let clock = Self.clock(environment: environment)
        let database = try DataSafety.openDatabase(options, dataDir: dataDir, clock: clock, cloudDir: given)
        if options.cloudDir != nil { try database.remember(.cloudDir, given?.path) }
        let cloudDir = try given ?? database.setting(.cloudDir).map { URL(fileURLWithPath: $0) }
        let lexicon = LoadedLexicon()
        let report = try database.importPacks(from: packFiles(dataDir: dataDir), lexicon: lexicon.get)
        for problem in report.refused { warn("\(problem); it was skipped") }
        let profile = try database.profile(player: options.player, device: options.device, hostName: ProcessInfo.processInfo.hostName)
        // Only on first use: a folder this machine has synced with that is now missing is a
        // share gone away, and making an empty one in its place would hide it.
        if let cloudDir, !options.noSync, try database.player(profile).syncRecord().generation == nil {
            createIfItsParentExists(cloudDir)
        }
        return Setup(dataDir: dataDir, cloudDir: cloudDir, database: database, profile: profile, lexicon: lexicon.get,
                     noSync: options.noSync, clock: clock)
    }

    /// The shipped packs, then the player's own in the data dir.
    static func packFiles(dataDir: URL) -> [URL] {
        PackFile.files(in: BundledContent.packsFolder) + PackFile.files(in: dataDir.appendingPathComponent("packs"))
    }

    /// The wall clock, moved by `QIKTIONARY_CLOCK_OFFSET` seconds: how the tests play a machine
    /// whose clock is wrong.
    static func clock(environment: [String: String]) -> @Sendable () -> Date {
        let offset = environment["QIKTIONARY_CLOCK_OFFSET"].flatMap(TimeInterval.init) ?? 0
        return { Date().addingTimeInterval(offset) }
    }

    /// The daily word's clock: this machine's clock and time zone (`TZ` honoured).
    var dailyClock: DailyClock { DailyClock(now: clock(), timeZone: .current) }

    /// Today's daily game (by the local date of this machine's clock and zone), the word the
    /// shipped schedule names for it, so every player on that date gets the same word whatever
    /// packs they added.
    @Sendable func dailyRequest() throws(StorageError) -> GameRequest {
        let schedule: DailySchedule
        do { schedule = try BundledContent.schedule() } catch { throw .packEmpty("(the daily schedule cannot be read: \(error))") }
        return try database.dailyRequest(day: dailyClock.day, schedule: schedule)
    }

    /// Whether this run may touch the cloud folder.
    var syncEnabled: Bool { cloudDir != nil && !noSync }

    /// The sync engine for this player and device, or a failure saying why sync is off.
    func syncEngine() throws -> SyncEngine {
        guard let cloudDir else {
            throw Failure("sync is off: give the shared folder once with --cloud-dir DIR (it is remembered)")
        }
        if noSync { throw Failure("--no-sync forbids touching the cloud folder in this run") }
        let warnings: CloudWarningSink = { warning in Setup.warnOnce(warning.description) }
        let clock = self.clock
        let cloud = try SyncEngine.openCloud(folder: cloudDir, player: player,
                                             options: CloudStoreOptions(now: clock, warnings: warnings, spillDirectory: dataDir))
        var engine = SyncEngine(player: player, cloud: cloud, now: clock)
        engine.warnings = warnings
        return engine
    }

    /// Syncs quietly when sync is on; a failure is a warning, never the end of the command.
    func syncInPassing() {
        guard syncEnabled else { return }
        do {
            try syncEngine().sync()
        } catch {
            warn("sync: \(error)")
        }
    }

    private static let warned = WarnedOnce()

    static func warnOnce(_ message: String) {
        if warned.first(message) { warn(message) }
    }

    /// The cloud folder named by the option or the environment; the remembered one is read later.
    private static func givenCloudDir(_ options: SharedOptions, environment: [String: String]) throws -> URL? {
        if let given = options.cloudDir {
            guard !given.isEmpty else { throw Failure("--cloud-dir needs a folder") }
            return URL(fileURLWithPath: given).standardizedFileURL
        }
        if let env = environment["QIKTIONARY_CLOUD_DIR"], !env.isEmpty { return URL(fileURLWithPath: env).standardizedFileURL }
        return nil
    }

    /// A cloud folder that does not exist yet is made, on first use, when the folder it goes in
    /// does (a new ~/Sync/qiktionary), and the player is told once, as it is made. When the parent is
    /// missing too it is most likely a share that is not mounted: nothing is made, and sync
    /// says it is offline until the folder is back.
    private static func createIfItsParentExists(_ folder: URL) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard !manager.fileExists(atPath: folder.path),
              manager.fileExists(atPath: folder.deletingLastPathComponent().path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false)
            FileHandle.standardError.write(Data("qiktionary: made the cloud folder \(oneLine(folder.path)); share it with your other machine\n".utf8))
        } catch {
            warn("could not make the cloud folder \(folder.path): \(error.localizedDescription)")
        }
    }

    /// The database must never live inside the cloud folder: a synced folder would copy it
    /// half-written, and SQLite is not safe on network file systems.
    private static func refuseNesting(dataDir: URL, cloudDir: URL) throws {
        if isInside(dataDir, cloudDir) {
            throw Failure("the data dir \(dataDir.path) is inside the cloud folder \(cloudDir.path); choose a data dir outside it")
        }
    }

    static func isInside(_ inner: URL, _ outer: URL) -> Bool {
        let a = inner.resolvingSymlinksInPath().path, b = outer.resolvingSymlinksInPath().path
        return a == b || a.hasPrefix(b.hasSuffix("/") ? b : b + "/")
    }
}

/// Reads the dictionary the first time it is asked for, so commands that never check a
/// word never pay for it.
final class LoadedLexicon: Sendable {
    private let lexicon = Locked<Lexicon?>(nil)

    func get() -> Lexicon {
        lexicon.withLock { lexicon in
            if let lexicon { return lexicon }
            do {
                // With the common tier, which the hint prefers at a near-equal split.
                let loaded = try BundledContent.lexicon().withCommon((try? BundledContent.commonWords()) ?? Lexicon([String]()))
                lexicon = loaded
                return loaded
            } catch {
                Qiktionary.exit(reporting: Failure("the dictionary is missing or unreadable (\(BundledContent.dictionaryURL.path)); reinstall the game", code: Failure.unexpected))
            }
        }
    }
}

/// Remembers which warnings were printed, so a bad file in the cloud folder is named once.
final class WarnedOnce: Sendable {
    private let seen = Locked(Set<String>())

    func first(_ message: String) -> Bool {
        seen.withLock { $0.insert(message).inserted }
    }
}
