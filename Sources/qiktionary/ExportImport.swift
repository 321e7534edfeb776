import ArgumentParser
import CloudStore
import Concurrency
import Foundation
import PlainMode
import QiktionaryCore
import Storage

// Keeping the player's data safe: `export`, `import`, backups before a reset, and what to say
// and do when the database is damaged.

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write all your games, guesses, notepad marks, reading list and settings as one JSON document.",
        discussion: """
            The document ("format": "qiktionary-export", "version": 1) holds the player's games with \
            their guesses and marks, hard mode, hints and daily dates, the reading list, this machine's \
            name and the cloud folder. Keep it as a backup, or bring it to another data dir with \
            'qiktionary import FILE'. Without FILE (or with -) it goes to standard output.
            """
    )

    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("Where to write it (default: standard output).", valueName: "file"))
    var file: String?

    func run() throws {
        let setup = try Setup.open(shared)
        let document = try setup.player.exportDocument(cloudDir: setup.cloudDir?.path, reason: "export")
        let data = document.encoded() + Data("\n".utf8)
        guard let file, file != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        let url = URL(fileURLWithPath: file).standardizedFileURL
        try DataSafety.refuseDatabaseFiles(url, dataDir: setup.dataDir)
        do { try data.write(to: url, options: .atomic) } catch {
            throw Failure("cannot write \(url.path): \(DataSafety.describe(error)); nothing was exported", code: DataSafety.ioError)
        }
        say("Exported \(DataSafety.count(document.games.count, "game")) and \(DataSafety.count(document.readingList.count, "bookmark")) "
              + "of player '\(document.player)' to \(url.path).")
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge an export back in: games, guesses, marks and bookmarks, by their ids.",
        discussion: """
            Nothing is duplicated: importing the same file twice, or on a machine that already has \
            the games, changes nothing. Games and bookmarks it adds sync like ones played here. The \
            whole file is checked first and imported in one transaction: a file that is cut short, \
            of another shape, or with a value that fails a check is refused (exit 65) and nothing \
            changes (a missing file: exit 66). An export holds one player's games: import it with \
            that --player. Settings in the file (device name, cloud folder) are shown, not applied.
            """
    )

    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The export to read ('-' for standard input).", valueName: "file"))
    var file: String
    @Flag(help: "Print a JSON summary.") var json = false

    func run() throws {
        let data = try DataSafety.readExport(file)
        let setup = try Setup.open(shared)
        let name = file == "-" ? "standard input" : URL(fileURLWithPath: file).standardizedFileURL.path
        let document: ExportDocument, report: ImportReport
        do {
            document = try ExportDocument.decode(data)
            report = try setup.player.importDocument(document, lexicon: setup.lexicon())
        } catch {
            throw Self.failure(error, file: name)
        }
        if json { return printJSON(report) }
        say(Self.sentence(report, from: name))
        if report.changedAnything && setup.syncEnabled { say("They go to the cloud folder at the next sync.") }
        if let dir = document.settings.cloudDir, dir != setup.cloudDir?.path {
            say("The export names the cloud folder \(dir); to sync with it, run 'qiktionary --cloud-dir \(DataSafety.shellQuoted(dir)) sync'.")
        }
    }

    /// A refused file is named in the one line, with exit 65.
    static func failure(_ error: StorageError, file name: String) -> any Error {
        switch error {
        case .badExport(let reason): Failure("cannot import \(name): \(reason); nothing was changed", code: DataSafety.dataError)
        case .exportOfAnotherPlayer: Failure("cannot import \(name): \(error)", code: DataSafety.dataError)
        default: error
        }
    }

    static func sentence(_ report: ImportReport, from name: String) -> String {
        guard report.changedAnything else {
            return "Nothing new in \(name): its \(DataSafety.count(report.gamesInFile, "game")) and "
                + "\(DataSafety.count(report.bookmarksInFile, "bookmark")) are all here already."
        }
        var parts: [String] = []
        if report.gamesAdded > 0 { parts.append(DataSafety.count(report.gamesAdded, "new game")) }
        if report.gamesUpdated > 0 { parts.append(DataSafety.count(report.gamesUpdated, "game") + " brought up to date") }
        if report.guessesAdded > 0 { parts.append(DataSafety.count(report.guessesAdded, "guess", plural: "guesses")) }
        if report.marksChanged > 0 { parts.append(DataSafety.count(report.marksChanged, "mark")) }
        if report.bookmarksAdded > 0 { parts.append(DataSafety.count(report.bookmarksAdded, "bookmark")) }
        return "Imported from \(name): \(parts.joined(separator: ", "))."
    }
}

/// The reading list as a Markdown document (`reading-list --markdown`).
enum ReadingListMarkdown {
    static func render(_ list: [Bookmark], packTitles: [String: String]) -> String {
        var lines = ["# Reading list", ""]
        guard !list.isEmpty else {
            return (lines + ["Nothing bookmarked yet: bookmark a fact when a game ends."]).joined(separator: "\n")
        }
        lines.append(list.count == 1 ? "One fact kept from games of qiktionary." : "\(list.count) facts kept from games of qiktionary, newest first.")
        for bookmark in list {
            let pack = packTitles[bookmark.packID] ?? bookmark.packID
            lines += ["", "## \(escape(bookmark.word.prefix(1).uppercased() + bookmark.word.dropFirst()))", "",
                      escape(bookmark.fact.split(whereSeparator: \.isNewline).joined(separator: " ")), "",
                      "*\(escape(pack))* · bookmarked \(String(shortDate(bookmark.addedAt).prefix(10)))"]
        }
        return lines.joined(separator: "\n")
    }

    /// Text that reads as itself in Markdown: the characters that would start emphasis, code,
    /// links or HTML are escaped, and so is a line start that would make a heading or a list.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>|".contains(character) { out.append("\\") }
            out.append(character)
        }
        if let first = out.first, "#+-=>".contains(first) { out = "\\" + out }
        if let dot = out.firstIndex(of: "."), out[..<dot].allSatisfy(\.isNumber), !out[..<dot].isEmpty {
            out.insert("\\", at: dot)
        }
        return out
    }
}

// MARK: Shared by export, import and the resets

enum DataSafety {
    /// sysexits: EX_DATAERR, EX_NOINPUT, EX_IOERR.
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let ioError: Int32 = 74

    /// Where the damage advice comes from: the data dir of this run and whether a cloud folder
    /// is known (given now, or remembered by the database, damaged or not).
    static let context = DamageContext()

    /// Opens the database as `Setup.open` does, noting what the damage advice needs.
    static func openDatabase(_ options: SharedOptions, dataDir: URL, clock: @escaping @Sendable () -> Date, cloudDir given: URL?) throws -> AppDatabase {
        context.set(dataDir: dataDir, dataDirGiven: options.dataDir != nil, cloudKnown: given != nil)
        switch Result(catching: { () throws(StorageError) in try AppDatabase.open(dataDir: dataDir, clock: clock) }) {
        case .success(let database):
            if given == nil, (try? database.setting(.cloudDir)) ?? nil != nil { context.set(cloudKnown: true) }
            return database
        case .failure(let error):
            if error.isDamage, given == nil,
               Damage.rememberedSettings(file: dataDir.appendingPathComponent(AppDatabase.fileName))[.cloudDir] != nil {
                context.set(cloudKnown: true)
            }
            throw error
        }
    }

    /// One line: what happened and what to do, for a damaged database found anywhere.
    static func advice(file path: String?, reason: String) -> String {
        let state = context.state
        let file = path ?? state.dataDir.map { $0.appendingPathComponent(AppDatabase.fileName).path } ?? AppDatabase.fileName
        let command = "qiktionary" + (state.dataDirGiven ? " --data-dir \(shellQuoted(state.dataDir?.path ?? ""))" : "") + " --reset-local"
        if state.cloudKnown {
            return "the database \(file) is damaged (\(reason)); your synced games are safe in the cloud folder: "
                + "run '\(command)' to set it aside and bring them back"
        }
        return "the database \(file) is damaged (\(reason)); run '\(command)' to set it aside (it is kept), "
            + "save what can still be read and start afresh"
    }

    /// A time for file names: 20261122T231500Z.
    static func stamp(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The first of `name(1)`, `name(2)`… of which no file is there yet (with any of `suffixes`).
    static func unused(suffixes: [String] = [""], _ name: (Int) -> URL) -> URL {
        let manager = FileManager.default
        for n in 1...1_000 {
            let candidate = name(n)
            if suffixes.allSatisfy({ !manager.fileExists(atPath: candidate.path + $0) }) { return candidate }
        }
        return name(1_001)
    }

    /// Writes a backup export of the player's data to DATA_DIR/backups/ before a reset.
    static func writeBackup(_ setup: Setup, before reset: String) throws -> URL {
        let document = try setup.player.exportDocument(cloudDir: setup.cloudDir?.path, reason: "backup before \(reset)")
        let folder = setup.dataDir.appendingPathComponent("backups")
        let time = stamp()
        let url = unused { n in folder.appendingPathComponent("before-\(reset.drop { $0 == "-" })-\(time)\(n == 1 ? "" : "-\(n)").json") }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (document.encoded() + Data("\n".utf8)).write(to: url, options: .atomic)
        } catch {
            throw Failure("cannot write the backup \(url.path): \(describe(error)); nothing was reset", code: ioError)
        }
        return url
    }

    /// An export file as bytes: refused when missing or larger than any export can be.
    static func readExport(_ file: String) throws -> Data {
        let limit = ExportLimits.bytes
        if file == "-" {
            var data = Data()
            while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                data += chunk
                if data.count > limit { break }
            }
            if data.count > limit { throw Failure("cannot import standard input: it is more than the \(limit >> 20) MiB an export can be; nothing was changed", code: dataError) }
            return data
        }
        let url = URL(fileURLWithPath: file).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw Failure("cannot import \(url.path): there is no such file", code: noInput)
        }
        guard !isDirectory.boolValue else { throw Failure("cannot import \(url.path): it is a folder, not an export file", code: noInput) }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limit else {
            throw Failure("cannot import \(url.path): it is \(size >> 20) MiB, more than the \(limit >> 20) MiB an export can be; nothing was changed", code: dataError)
        }
        do { return try Data(contentsOf: url) } catch {
            throw Failure("cannot import \(url.path): \(describe(error))", code: noInput)
        }
    }

    /// An export must never land on the database it came from.
    static func refuseDatabaseFiles(_ url: URL, dataDir: URL) throws {
        let database = dataDir.appendingPathComponent(AppDatabase.fileName).resolvingSymlinksInPath().path
        let target = url.resolvingSymlinksInPath().path
        if ["", "-wal", "-shm", "-journal"].contains(where: { database + $0 == target }) {
            throw Failure("\(url.path) is the game's database; choose another file for the export")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }

    static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }

    /// A path as it can be pasted into a shell.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+:@%,".unicodeScalars.contains($0) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// What this run knows for the damage advice, set once the data dir is known.
final class DamageContext: Sendable {
    struct State {
        var dataDir: URL?
        var dataDirGiven = false
        var cloudKnown = false
    }

    private let value = Locked(State())

    var state: State { value.withLock { $0 } }

    func set(dataDir: URL, dataDirGiven: Bool, cloudKnown: Bool) {
        value.withLock { $0 = State(dataDir: dataDir, dataDirGiven: dataDirGiven, cloudKnown: cloudKnown) }
    }

    func set(cloudKnown: Bool) { value.withLock { $0.cloudKnown = cloudKnown } }
}
