import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// What a command needs before it can do anything: the database with the packs loaded,
/// the player and device, and the dictionary when a guess needs checking.
public struct Setup: Sendable {
    /// The options every command takes (`--data-dir`, `--cloud-dir`, `--player`, `--device`, `--no-sync`).
    public struct Options: Sendable {
        public var dataDir: String?
        public var cloudDir: String?
        public var player: String?
        public var device: String?
        public var noSync: Bool

        public init(dataDir: String?, cloudDir: String?, player: String?, device: String?, noSync: Bool) {
            (self.dataDir, self.cloudDir, self.player, self.device, self.noSync) = (dataDir, cloudDir, player, device, noSync)
        }

        /// Where the data lives, by the precedence the README gives (Where your data lives).
        public func resolvedDataDir(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
            if let dataDir, !dataDir.isEmpty { return URL(fileURLWithPath: dataDir).standardizedFileURL }
            if let dir = environment["QIKTIONARY_DATA_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir).standardizedFileURL }
            if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
                return URL(fileURLWithPath: xdg).appendingPathComponent("qiktionary").standardizedFileURL
            }
            let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            return home.appendingPathComponent(".local/share/qiktionary").standardizedFileURL
        }
    }

    public let dataDir: URL
    public let cloudDir: URL?
    public let database: AppDatabase
    public let profile: Profile
    /// The player's handle on the database: their games, reading list, statistics and sync state.
    public var player: PlayerDatabase { database.player(profile) }
    public let lexicon: @Sendable () -> Lexicon
    public let noSync: Bool
    public let clock: @Sendable () -> Date
    /// Where this run's notes and warnings go.
    public let voice: Voice
    let warned: WarnedOnce
    /// This machine's key and pins (docs/trust.md), opened at the first sync of the run.
    private let trust = Locked<TrustBook?>(nil)

    public static func open(_ options: Options, voice: Voice,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Setup {
        let dataDir = options.resolvedDataDir(environment: environment)
        let given = try givenCloudDir(options, environment: environment)
        if let given { try refuseNesting(dataDir: dataDir, cloudDir: given) }
        let clock = Self.clock(environment: environment)
        // A damaged database is reported with `DamageAdvice.find`, as damage found later is.
        let database = try DataSafety.openDatabase(dataDir: dataDir, dataDirGiven: options.dataDir != nil, cloudGiven: given != nil,
                                                   clock: clock).0.get()
        let warned = WarnedOnce()
        // On a full disk what is saved can still be read: what opening would only note (the
        // folder given, packs updated) waits for a run with room, said at the end of the run.
        func unlessDiskFull(_ body: () throws(StorageError) -> Void) throws(StorageError) {
            do { try body() } catch where error.isDiskFull { warned.hold(Wording.sentence(error)) }
        }
        if options.cloudDir != nil { try unlessDiskFull { () throws(StorageError) in try database.remember(.cloudDir, given?.path) } }
        let cloudDir = try given ?? database.setting(.cloudDir).map { URL(fileURLWithPath: $0) }
        let lexicon = LoadedLexicon(voice: voice)
        try unlessDiskFull { () throws(StorageError) in
            let report = try database.importPacks(from: packFiles(dataDir: dataDir), lexicon: lexicon.get)
            for problem in report.refused { voice.warn("\(problem); it was skipped") }
        }
        let profile = try database.profile(player: options.player, device: options.device, hostName: ProcessInfo.processInfo.hostName)
        // Only on first use: a folder this machine has synced with that is now missing is a
        // share gone away, and making an empty one in its place would hide it.
        if let cloudDir, !options.noSync, try database.player(profile).syncRecord().generation == nil {
            createIfItsParentExists(cloudDir, voice: voice)
        }
        return Setup(dataDir: dataDir, cloudDir: cloudDir, database: database, profile: profile, lexicon: lexicon.get,
                     noSync: options.noSync, clock: clock, voice: voice, warned: warned)
    }

    /// The shipped packs, then the player's own in the data dir.
    public static func packFiles(dataDir: URL) -> [URL] {
        PackFile.files(in: BundledContent.packsFolder) + PackFile.files(in: dataDir.appendingPathComponent("packs"))
    }

    /// The wall clock, moved by `QIKTIONARY_CLOCK_OFFSET` seconds: how the tests play a machine
    /// whose clock is wrong.
    public static func clock(environment: [String: String]) -> @Sendable () -> Date {
        let offset = environment["QIKTIONARY_CLOCK_OFFSET"].flatMap(TimeInterval.init) ?? 0
        return { Date().addingTimeInterval(offset) }
    }

    /// The daily word's clock: this machine's clock and time zone (`TZ` honoured).
    public var dailyClock: DailyClock { DailyClock(now: clock(), timeZone: Self.systemTimeZone()) }

    /// The zone the system's clock is read in, `TZ` read as the C library reads it: a zone
    /// file's name (`Asia/Tokyo`, `:Europe/Paris`) as Foundation reads it; any other value is
    /// POSIX (`JST-9`, `UTC+09`: the offset is west of UTC, so `UTC+09` is nine hours behind),
    /// taken as the C library's offset now. Foundation reads those as UTC and as UTC+9.
    public static func systemTimeZone(environment: [String: String] = ProcessInfo.processInfo.environment) -> TimeZone {
        guard var name = environment["TZ"], !name.isEmpty else { return .current }
        if name.hasPrefix(":") { name.removeFirst() }
        let folder = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        var isFolder: ObjCBool = false
        let file = name.hasPrefix("/") ? name : folder + "/" + name
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
           let zone = TimeZone(identifier: name) { return zone }
        tzset()
        var now = time(nil), parts = tm()
        guard localtime_r(&now, &parts) != nil else { return .current }
        return TimeZone(secondsFromGMT: parts.tm_gmtoff) ?? .current
    }

    /// The player's games, as every front end plays them.
    public var games: PlayerGames {
        PlayerGames(player: player, lexicon: lexicon, daily: { [self] () throws(StorageError) in try dailyRequest() }, dailyClock: { [self] in dailyClock })
    }

    /// Today's daily game (by the local date of this machine's clock and zone), the word the
    /// shipped schedule names for it, so every player on that date gets the same word whatever
    /// packs they added.
    @Sendable public func dailyRequest() throws(StorageError) -> GameRequest {
        let schedule: DailySchedule
        do { schedule = try BundledContent.schedule() } catch { throw .packEmpty("(the daily schedule cannot be read: \(error))") }
        return try database.dailyRequest(day: dailyClock.day, schedule: schedule)
    }

    /// The database's files in the data dir (the database and its write-ahead log): every
    /// commit, by any process, changes one of them.
    public var databaseFiles: [URL] {
        let file = dataDir.appendingPathComponent(AppDatabase.fileName)
        return [file, URL(fileURLWithPath: file.path + "-wal")]
    }

    /// Whether this run may touch the cloud folder.
    public var syncEnabled: Bool { cloudDir != nil && !noSync }

    /// A command that only means something to the players of a shared folder (`friends --join`)
    /// refuses to run without one, saying how to give it.
    public func requireCloudFolder(for command: String) throws {
        guard cloudDir == nil else { return }
        throw Failure("\(command) needs a cloud folder shared with the other players: give it once with --cloud-dir DIR (it is remembered)")
    }

    /// The sync engine for this player and device, or a failure saying why sync is off.
    public func syncEngine() throws -> SyncEngine {
        guard let cloudDir else {
            throw Failure("sync is off: give the shared folder once with --cloud-dir DIR (it is remembered)")
        }
        if noSync { throw Failure("--no-sync forbids touching the cloud folder in this run") }
        let (warned, voice) = (warned, voice)
        let warnings: CloudWarningSink = { warning in warned.warnOnce(warning.description, voice: voice) }
        let clock = self.clock
        let book = try trustBook(warnings: warnings)
        try enroll(book, cloudDir: cloudDir)
        let cloud = try SyncEngine.openCloud(folder: cloudDir, player: player,
                                             options: CloudStoreOptions(now: clock, warnings: warnings, spillDirectory: dataDir), trust: book)
        var engine = SyncEngine(player: player, cloud: cloud, now: clock)
        engine.warnings = warnings
        engine.lexicon = lexicon
        let games = self.games, database = self.database
        let exchange = SharedExchange()
        engine.afterRound = { cloud, report in
            defer {
                try? database.checkpoint()
                book.keepHeads()
            }
            return try games.exchangeShared(cloud: cloud, warnings: warnings, round: report, memory: exchange)
        }
        return engine
    }

    /// Where this machine's signing key is kept: in the data dir, never in the cloud folder.
    public var keyFile: URL { dataDir.appendingPathComponent("device-key") }
    /// The device sets this machine has pinned, its own player's and each friend's.
    public var pinsFile: URL { dataDir.appendingPathComponent("trust.json") }

    /// This machine's trust book: its key (made on first use) and its pins.
    public func trustBook(warnings: CloudWarningSink? = nil) throws -> TrustBook {
        let sink = warnings ?? { [warned, voice] warning in warned.warnOnce(warning.description, voice: voice) }
        return try trust.withLock { kept in
            if let kept { return kept }
            let key: DeviceKey
            do { key = try DeviceKey.loadOrCreate(at: keyFile) } catch { throw Failure("\(error)", code: Failure.ioError) }
            let book = TrustBook(player: profile.playerID, device: DeviceID(validated: profile.device.id), label: profile.device.name, key: key, file: pinsFile,
                                 warnings: sink, now: clock)
            kept = book
            return book
        }
    }

    /// Makes sure this machine is one of its player's machines before it syncs (docs/trust.md):
    /// the first machine starts the set, a device folder from before signing claims its place,
    /// any other machine is told how to join.
    func enroll(_ book: TrustBook, cloudDir: URL) throws {
        let folder = DiskFolder(root: cloudDir)
        // A folder that is not there is reported by the sync itself, with nothing written.
        guard (try? folder.checkAvailable()) != nil else { return }
        let upgrading = (try? player.syncRecord().generation) != nil
        // A folder this machine synced with that holds nothing of the player now is a share not
        // mounted (or emptied): nothing is written into it; the sync says it is offline.
        if upgrading, !FileManager.default.fileExists(atPath: cloudDir.appendingPathComponent("players/\(profile.playerID)").path) { return }
        switch Result(catching: { () throws(PairingError) in try book.enroll(in: folder, upgrading: upgrading) }) {
        case .success(.member), .success(.founded(takenIn: [])): return
        case .success(.founded(let taken)):
            voice.note("This machine now signs its files for \(profile.playerID) (fingerprint \(book.key.publicKey.fingerprint)); "
                       + "took in the machines already in the folder as they were: \(taken.joined(separator: ", ")); "
                       + "take one out with 'qiktionary devices remove NAME'")
        case .success(.claimed):
            voice.note("This machine now signs its files for \(profile.playerID) (fingerprint \(book.key.publicKey.fingerprint)); see 'qiktionary devices'")
        case .failure(.notAMember(let player)):
            throw SyncError.notPaired(PairingError.notAMember(player: player).description)
        case .failure(.folder(let reason)):
            throw SyncError.offline(reason)
        case .failure(let other):
            throw Failure(other.description)
        }
    }

    /// The end of a run: the write-ahead log folded into the database file and emptied, and
    /// the database closed. A full disk or another process's long write leaves the log (bounded,
    /// and safe) for a later checkpoint. A full disk met on the way is said here, once, when the
    /// command `succeeded` (a command that failed said so in its own line).
    public func finish(succeeded: Bool) {
        try? database.checkpoint()
        try? database.close()
        if succeeded, let held = warned.held() { voice.warn(held) }
    }

    /// The cloud folder named by the option or the environment; the remembered one is read later.
    static func givenCloudDir(_ options: Options, environment: [String: String]) throws -> URL? {
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
    private static func createIfItsParentExists(_ folder: URL, voice: Voice) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard !manager.fileExists(atPath: folder.path),
              manager.fileExists(atPath: folder.deletingLastPathComponent().path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false)
            voice.note("made the cloud folder \(folder.path); share it with your other machine")
        } catch {
            voice.warn("could not make the cloud folder \(folder.path): \(error.localizedDescription)")
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

/// Where the use cases' words for a person go: the front end prints them (escaped) where it
/// prints, and stops the program when the game cannot go on.
public struct Voice: Sendable {
    /// A line for the person, on standard output.
    public var say: @Sendable (String) -> Void
    /// A line on standard error that does not stop the command.
    public var warn: @Sendable (String) -> Void
    /// A note on standard error: something done on the person's behalf.
    public var note: @Sendable (String) -> Void
    /// Ends the program with a failure (the dictionary missing mid-command).
    public var stop: @Sendable (Failure) -> Never

    public init(say: @escaping @Sendable (String) -> Void, warn: @escaping @Sendable (String) -> Void,
                note: @escaping @Sendable (String) -> Void, stop: @escaping @Sendable (Failure) -> Never) {
        (self.say, self.warn, self.note, self.stop) = (say, warn, note, stop)
    }
}

/// Reads the dictionary the first time it is asked for, so commands that never check a
/// word never pay for it.
final class LoadedLexicon: Sendable {
    private let lexicon = Locked<Lexicon?>(nil)
    private let voice: Voice

    init(voice: Voice) { self.voice = voice }

    func get() -> Lexicon {
        lexicon.withLock { lexicon in
            if let lexicon { return lexicon }
            do {
                // With the common tier, which the hint prefers at a near-equal split.
                let loaded = try BundledContent.lexicon().withCommon(loading: { (try? BundledContent.commonWords()) ?? Lexicon([String]()) })
                lexicon = loaded
                return loaded
            } catch {
                voice.stop(Failure("the dictionary is missing or unreadable (\(BundledContent.dictionaryURL.path)); reinstall the game", code: Failure.unexpected))
            }
        }
    }
}

/// Remembers which warnings were printed, so a bad file in the cloud folder is named once, and
/// the one held for the end of the run.
final class WarnedOnce: Sendable {
    private let seen = Locked(Set<String>())
    private let kept = Locked<String?>(nil)

    /// Keeps a warning for the end of the run (the first one kept).
    func hold(_ message: String) {
        kept.withLock { kept in kept = kept ?? message }
    }

    /// The warning kept, once.
    func held() -> String? {
        kept.withLock { kept in defer { kept = nil }; return kept }
    }

    func first(_ message: String) -> Bool {
        seen.withLock { $0.insert(message).inserted }
    }

    /// Warns through `voice` unless the same warning was given before.
    func warnOnce(_ message: String, voice: Voice) {
        if first(message) { voice.warn(message) }
    }
}
