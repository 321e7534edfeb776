import CloudStore
import Foundation
import QiktionaryCore
import Storage

/// `export` and `import` as the person asks for them: the file checked and written or read,
/// what it did in sentences. The document's shape and its merge are storage's (`ExportDocument`).
public enum Transfer {
    /// The player's export as bytes, and where it was written with what it holds (nil when
    /// `file` is nil or "-": the caller prints the bytes). `withKey`: this machine's secret
    /// signing key goes in too (docs/trust.md), and the file is made readable by its owner alone.
    public static func export(_ setup: Setup, to file: String?, withKey: Bool = false) throws -> (data: Data, summary: String?) {
        var document = try setup.player.exportDocument(cloudDir: setup.cloudDir?.path, reason: "export")
        if withKey {
            do { document.settings.signingKey = try DeviceKey.loadOrCreate(at: setup.keyFile).secretBytes.base64EncodedString() } catch {
                throw Failure("\(error); nothing was exported", code: Failure.ioError)
            }
        }
        let data = document.encoded() + Data("\n".utf8)
        guard let file, file != "-" else { return (data, nil) }
        let url = URL(fileURLWithPath: file).standardizedFileURL
        try DataSafety.refuseDatabaseFiles(url, dataDir: setup.dataDir)
        do {
            try data.write(to: url, options: .atomic)
            if withKey { chmod(url.path, 0o600) }
        } catch {
            throw Failure("cannot write \(url.path): \(DataSafety.describe(error)); nothing was exported", code: Failure.ioError)
        }
        let key = withKey ? " It holds this machine's secret signing key: keep it private (mode 0600)." : ""
        return (data, "Exported \(DataSafety.count(document.games.count, "game")) and \(DataSafety.count(document.readingList.count, "bookmark")) "
                    + "of player '\(document.player)' to \(url.path).\(key)")
    }

    /// Imports an export's bytes (`file` names where they came from, "-" for standard input):
    /// the report, and what to tell the person.
    public static func importExport(_ data: Data, from file: String, into setup: Setup) throws -> (report: ImportReport, lines: [String]) {
        let name = file == "-" ? "standard input" : URL(fileURLWithPath: file).standardizedFileURL.path
        let document: ExportDocument, report: ImportReport
        do { document = try ExportDocument.decode(data) } catch { throw failure(error, file: name) }
        // A key that is not one refuses the whole file, before anything changes.
        let key = try document.settings.signingKey.map { text in
            guard let bytes = Data(base64Encoded: text), let key = DeviceKey(secretBytes: bytes) else {
                throw Failure("cannot import \(name): its signing key is not a key; nothing was changed", code: Failure.dataError)
            }
            return key
        }
        do { report = try setup.player.importDocument(document, lexicon: setup.lexicon()) } catch { throw failure(error, file: name) }
        var lines = [sentence(report, from: name)]
        if let key { lines.append(try restore(key, into: setup)) }
        if report.changedAnything && setup.syncEnabled { lines.append("They go to the cloud folder at the next sync.") }
        if let dir = document.settings.cloudDir, dir != setup.cloudDir?.path {
            lines.append("The export names the cloud folder \(dir); to sync with it, run 'qiktionary --cloud-dir \(DataSafety.shellQuoted(dir)) sync'.")
        }
        return (report, lines)
    }

    /// Makes an export's signing key this data dir's (a machine brought to a new disk keeps its
    /// place among its player's machines), unless this data dir already signs with a key of its
    /// own that its player's machines know (it is a machine of its own then).
    static func restore(_ key: DeviceKey, into setup: Setup) throws -> String {
        let manager = FileManager.default
        let current = try? DeviceKey.loadOrCreate(at: setup.keyFile, create: false)
        if current?.publicKey == key.publicKey { return "The signing key in it is this machine's already." }
        if let current, manager.fileExists(atPath: setup.pinsFile.path) {
            return "The signing key in it was not taken: this data dir already signs as a machine of its own "
                + "(fingerprint \(current.publicKey.fingerprint)); import it into a new data dir to carry that machine over."
        }
        do { try key.write(to: setup.keyFile, replacing: current != nil) } catch {
            throw Failure("\(error); the games were imported, the signing key was not", code: Failure.ioError)
        }
        return "This data dir now signs as the machine that exported it (fingerprint \(key.publicKey.fingerprint))."
    }

    /// A refused file is named in the one line, with exit 65.
    static func failure(_ error: StorageError, file name: String) -> any Error {
        switch error {
        case .badExport(let reason): Failure("cannot import \(name): \(reason); nothing was changed", code: Failure.dataError)
        case .exportOfAnotherPlayer: Failure("cannot import \(name): \(Wording.sentence(error))", code: Failure.dataError)
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
