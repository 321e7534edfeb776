import Foundation
import QiktionaryCore
import Storage

// Keeping the player's data safe: opening the database (and what to say when it is damaged),
// backups before a reset, the export file's checks.

/// What the advice for a damaged database names: the data dir of this run (given on the
/// command line or not) and whether a cloud folder is known (given now, or remembered by the
/// database, damaged or not).
public struct DamageAdvice: Sendable {
    public var dataDir: URL?
    public var dataDirGiven = false
    public var cloudKnown = false

    public init(dataDir: URL? = nil, dataDirGiven: Bool = false, cloudKnown: Bool = false) {
        self.dataDir = dataDir
        self.dataDirGiven = dataDirGiven
        self.cloudKnown = cloudKnown
    }

    /// The advice for a run with these options: the database is opened again to read what it
    /// remembers, as `Setup.open` did.
    public static func find(_ options: Setup.Options, environment: [String: String] = ProcessInfo.processInfo.environment) -> DamageAdvice {
        let dataDir = options.resolvedDataDir(environment: environment)
        let given = (try? Setup.givenCloudDir(options, environment: environment)) ?? nil
        let (opened, advice) = DataSafety.openDatabase(dataDir: dataDir, dataDirGiven: options.dataDir != nil, cloudGiven: given != nil)
        if case .success(let database) = opened { try? database.close() }
        return advice
    }

    /// One line: what happened and what to do, for a damaged database found anywhere.
    public func advice(file path: String?, reason: String) -> String {
        let file = path ?? dataDir.map { $0.appendingPathComponent(AppDatabase.fileName).path } ?? AppDatabase.fileName
        let command = "qiktionary" + (dataDirGiven ? " --data-dir \(DataSafety.shellQuoted(dataDir?.path ?? ""))" : "") + " --reset-local"
        if cloudKnown {
            return "the database \(file) is damaged (\(reason)); your synced games are safe in the cloud folder: "
                + "run '\(command)' to set it aside and bring them back"
        }
        return "the database \(file) is damaged (\(reason)); run '\(command)' to set it aside (it is kept), "
            + "save what can still be read and start afresh"
    }
}

public enum DataSafety {
    /// Opens the database of `dataDir`, noting what the damage advice needs.
    static func openDatabase(dataDir: URL, dataDirGiven: Bool, cloudGiven: Bool,
                             clock: @escaping @Sendable () -> Date = { Date() }) -> (Result<AppDatabase, StorageError>, DamageAdvice) {
        var advice = DamageAdvice(dataDir: dataDir, dataDirGiven: dataDirGiven, cloudKnown: cloudGiven)
        let opened = Result { () throws(StorageError) in try AppDatabase.open(dataDir: dataDir, clock: clock) }
        switch opened {
        case .success(let database):
            if !cloudGiven, (try? database.setting(.cloudDir)) ?? nil != nil { advice.cloudKnown = true }
        case .failure(let error):
            if error.isDamage, !cloudGiven,
               Damage.rememberedSettings(file: dataDir.appendingPathComponent(AppDatabase.fileName))[.cloudDir] != nil {
                advice.cloudKnown = true
            }
        }
        return (opened, advice)
    }

    /// A time for file names: 20261122T231500Z.
    public static func stamp(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The first of `name(1)`, `name(2)`… of which no file is there yet (with any of `suffixes`).
    public static func unused(suffixes: [String] = [""], _ name: (Int) -> URL) -> URL {
        let manager = FileManager.default
        for n in 1...1_000 {
            let candidate = name(n)
            if suffixes.allSatisfy({ !manager.fileExists(atPath: candidate.path + $0) }) { return candidate }
        }
        return name(1_001)
    }

    /// Writes a backup export of the player's data to DATA_DIR/backups/ before a reset.
    public static func writeBackup(_ setup: Setup, before reset: String) throws -> URL {
        let document = try setup.player.exportDocument(cloudDir: setup.cloudDir?.path, reason: "backup before \(reset)")
        let folder = setup.dataDir.appendingPathComponent("backups")
        let time = stamp()
        let url = unused { n in folder.appendingPathComponent("before-\(reset.drop { $0 == "-" })-\(time)\(n == 1 ? "" : "-\(n)").json") }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (document.encoded() + Data("\n".utf8)).write(to: url, options: .atomic)
        } catch {
            throw Failure("cannot write the backup \(url.path): \(describe(error)); nothing was reset", code: Failure.ioError)
        }
        return url
    }

    /// An export file as bytes: refused when missing or larger than any export can be.
    public static func readExport(_ file: String) throws -> Data {
        let limit = ExportLimits.bytes
        if file == "-" {
            var data = Data()
            while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                data += chunk
                if data.count > limit { break }
            }
            if data.count > limit { throw Failure("cannot import standard input: it is more than the \(limit >> 20) MiB an export can be; nothing was changed", code: Failure.dataError) }
            return data
        }
        let url = URL(fileURLWithPath: file).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw Failure("cannot import \(url.path): there is no such file", code: Failure.noInput)
        }
        guard !isDirectory.boolValue else { throw Failure("cannot import \(url.path): it is a folder, not an export file", code: Failure.noInput) }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limit else {
            throw Failure("cannot import \(url.path): it is \(size >> 20) MiB, more than the \(limit >> 20) MiB an export can be; nothing was changed", code: Failure.dataError)
        }
        do { return try Data(contentsOf: url) } catch {
            throw Failure("cannot import \(url.path): \(describe(error))", code: Failure.noInput)
        }
    }

    /// An export must never land on the database it came from.
    public static func refuseDatabaseFiles(_ url: URL, dataDir: URL) throws {
        let database = dataDir.appendingPathComponent(AppDatabase.fileName).resolvingSymlinksInPath().path
        let target = url.resolvingSymlinksInPath().path
        if ["", "-wal", "-shm", "-journal"].contains(where: { database + $0 == target }) {
            throw Failure("\(url.path) is the game's database; choose another file for the export")
        }
    }

    public static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }

    public static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }

    /// A path as it can be pasted into a shell.
    public static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+:@%,".unicodeScalars.contains($0) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
