import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// `--reset-local` on a damaged database: the file (with its -wal and -shm) is renamed with the
/// time and kept; whatever can still be read of it and was never synced is saved as an export
/// beside it; a fresh database takes its place with the settings it remembered; and a sync
/// brings back everything the cloud folder has, when there is one.
public struct Recovery {
    let options: Setup.Options
    let file: String?
    let reason: String
    let voice: Voice
    /// Asks the person before the file is moved; throws when they do not agree.
    let confirm: (String) throws -> Void
    /// The wall clock: the time in the names of what is set aside, and the salvage's "now".
    let clock: @Sendable () -> Date

    public init(options: Setup.Options, file: String?, reason: String, voice: Voice, confirm: @escaping (String) throws -> Void,
                clock: @escaping @Sendable () -> Date = Setup.clock(environment: ProcessInfo.processInfo.environment)) {
        (self.options, self.file, self.reason, self.voice, self.confirm, self.clock) = (options, file, reason, voice, confirm, clock)
    }

    public func run() throws {
        let dataDir = options.resolvedDataDir()
        let database = URL(fileURLWithPath: file ?? dataDir.appendingPathComponent(AppDatabase.fileName).path)
        try confirm("The database \(database.path) is damaged (\(reason)). Set it aside (it is kept), save what can still be read and start a fresh database?")
        let time = DataSafety.stamp(clock())
        let aside = DataSafety.unused(suffixes: ["", "-wal", "-shm"]) { n in
            URL(fileURLWithPath: "\(database.path).damaged-\(time)\(n == 1 ? "" : "-\(n)")")
        }
        let manager = FileManager.default
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: database.path + suffix) {
            do { try manager.moveItem(atPath: database.path + suffix, toPath: aside.path + suffix) } catch {
                throw Failure("cannot set the damaged database aside as \(aside.path)\(suffix): \(DataSafety.describe(error))", code: Failure.ioError)
            }
        }
        voice.say("Set the damaged database aside as \(aside.path); it is kept, never deleted.")

        let lexicon: Lexicon
        do { lexicon = try BundledContent.lexicon() } catch {
            throw Failure("the dictionary is missing or unreadable (\(BundledContent.dictionaryURL.path)); reinstall the game", code: Failure.unexpected)
        }
        let salvage = Damage.salvage(file: aside, player: options.player, lexicon: lexicon, now: clock())
        let player = options.player ?? salvage.settings[.player] ?? AppDatabase.defaultPlayer
        var saved: [(URL, ExportDocument)] = []
        for document in salvage.exports {
            let url = DataSafety.unused { n in
                URL(fileURLWithPath: aside.path + ".unsynced" + (document.player == player ? "" : "-\(document.player)") + (n == 1 ? "" : "-\(n)") + ".json")
            }
            do { try (document.encoded() + Data("\n".utf8)).write(to: url, options: .atomic) } catch {
                throw Failure("cannot save the unsynced games to \(url.path): \(DataSafety.describe(error)); the damaged database is kept as \(aside.path)",
                              code: Failure.ioError)
            }
            saved.append((url, document))
        }

        // A fresh database that remembers what the damaged one did.
        let fresh = try AppDatabase.open(dataDir: dataDir)
        for key in [Setting.player, .device, .cloudDir] {
            if let value = salvage.settings[key] { try fresh.remember(key, value) }
        }
        try fresh.close()
        let setup = try Setup.open(options, voice: voice)
        voice.say("Started a fresh database: \(database.path).")

        for (url, document) in saved {
            let what = "\(DataSafety.count(document.games.count, salvage.knewWhatWasSynced ? "unsynced game" : "game")) and "
                + "\(DataSafety.count(document.readingList.count, "bookmark"))"
            let command = "qiktionary" + (options.dataDir != nil ? " --data-dir \(DataSafety.shellQuoted(dataDir.path))" : "")
                + (document.player == setup.profile.playerID ? "" : " --player \(document.player)") + " import \(DataSafety.shellQuoted(url.path))"
            voice.say("\(what) of player '\(document.player)' saved to \(url.path): run '\(command)' to add them back.")
        }
        if saved.isEmpty { voice.say(salvage.knewWhatWasSynced ? "Nothing unsynced could be found in it." : "Nothing of it could be read.") }
        if !salvage.knewWhatWasSynced, !saved.isEmpty {
            voice.say("It did not say which games the cloud has, so every game that could be read was saved; importing one the cloud has duplicates nothing.")
        }
        if salvage.unreadable > 0 {
            voice.say("\(DataSafety.count(salvage.unreadable, "part")) of it could not be read or failed the export's checks.")
        }

        if setup.syncEnabled {
            do {
                let report = try setup.sync.once()
                voice.say("Synced with the cloud folder: \(report.downloaded) records brought back.")
            } catch {
                voice.warn("sync: \(error)")
                voice.say("Run 'qiktionary sync' when the cloud folder is back to bring your synced games back.")
            }
        } else if setup.cloudDir != nil {
            voice.say("Run 'qiktionary sync' to bring your synced games back from the cloud folder.")
        } else {
            voice.say("Sync was off, so nothing comes back from a cloud folder; set up sync with 'qiktionary --cloud-dir DIR sync'.")
        }
    }
}
