import ArgumentParser
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// The reset flags of the root command (README, Commands).
struct ResetOptions: ParsableArguments {
    @Flag(name: .customLong("reset-local"), help: ArgumentHelp(
        "Erase this machine's games, guesses, reading list and sync state for the player, after a backup in DATA_DIR/backups/; the next sync brings them back from the cloud.",
        discussion: "On a damaged database: set the file aside (renamed with the time, never deleted), save what it still holds that was never synced as an export beside it, start a fresh database and sync."))
    var local = false

    @Flag(name: .customLong("reset-sync"), help: "Keep local data but forget sync tokens and cloud metadata; the next sync reconciles everything.")
    var sync = false

    @Flag(name: .customLong("reset-cloud"), help: "Erase the player's cloud data and start a new cloud generation, after a backup in DATA_DIR/backups/; local data stays and is uploaded.")
    var cloud = false

    var requested: Int { [local, sync, cloud].filter { $0 }.count }

    static let names = ["--reset-local", "--reset-sync", "--reset-cloud"]
}

/// Runs when a reset flag is on the command line: does the reset, says what was done, exits.
struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "qiktionary")

    @OptionGroup var shared: SharedOptions
    @OptionGroup var resets: ResetOptions
    // Not in ResetOptions: the root command shows those flags in its help, and a root-level
    // --yes would swallow the --yes of `history delete`.
    @Flag(help: "With a reset: do not ask for confirmation.")
    var yes = false

    static func wanted(_ arguments: [String]) -> Bool {
        arguments.contains { ResetOptions.names.contains($0) }
    }

    func validate() throws {
        if resets.requested > 1 { throw ValidationError("choose one reset at a time") }
    }

    func run() throws {
        if resets.local { return try resetLocal() }
        let setup = try Setup.open(shared)
        // Damage no read has reached yet must not be carried into the cloud or the sync state.
        try setup.database.quickCheck()
        let player = setup.profile.playerID
        if resets.sync {
            try setup.player.forgetSyncMetadata()
            say("Forgot sync tokens and cloud metadata for player '\(player)'; local data kept.")
            say("The next 'qiktionary sync' compares everything with the cloud; nothing is duplicated or lost.")
        } else if resets.cloud {
            let engine = try setup.syncEngine()
            try AskFirst.require("Erase player '\(player)''s data in the cloud folder and start it afresh from this machine?",
                                     yes: yes, refusal: "nothing reset")
            let backup = try DataSafety.writeBackup(setup, before: "--reset-cloud")
            say("Saved player '\(player)''s games and reading list to \(backup.path) first.")
            let report = try engine.resetCloud()
            say("Started a new cloud for player '\(player)' and uploaded this machine's data (\(report.uploaded) records).")
            say("Other machines will be asked to upload their games into it or erase them at their next sync.")
        }
    }

    /// Erases the player's data here, after a backup; on a damaged database, sets the whole
    /// file aside instead (see `Recovery`).
    private func resetLocal() throws {
        var opened: Setup?
        var confirmed = false
        do {
            let setup = try Setup.open(shared)
            opened = setup
            // A file damaged where no read has reached yet is set aside too, not kept.
            try setup.database.quickCheck()
            let player = setup.profile.playerID
            try AskFirst.require("Erase every game, guess and bookmark of player '\(player)' on this machine?",
                                     yes: yes, refusal: "nothing reset")
            confirmed = true
            let backup = try DataSafety.writeBackup(setup, before: "--reset-local")
            try setup.player.eraseLocalData()
            try setup.database.forgetPacks()
            _ = try setup.database.importPacks(from: Setup.packFiles(dataDir: setup.dataDir), lexicon: setup.lexicon)
            say("Saved player '\(player)''s games and reading list to \(backup.path) first.")
            say("Erased player '\(player)''s games, guesses, reading list and sync state on this machine; packs reloaded.")
            say(setup.cloudDir == nil ? "Nothing can come back from a cloud folder: sync was off. 'qiktionary import \(DataSafety.shellQuoted(backup.path))' brings it all back."
                                        : "Run 'qiktionary sync' to bring everything back from the cloud.")
        } catch let error as StorageError where error.isDamage {
            // The connections must be closed before the files move: SQLite removes its -wal by name.
            try? opened?.database.close()
            opened = nil
            guard case .damaged(let path, let reason) = error else { throw error }
            try Recovery(shared: shared, yes: yes || confirmed, file: path, reason: reason).run()
        }
    }
}

/// `--reset-local` on a damaged database: the file (with its -wal and -shm) is renamed with the
/// time and kept; whatever can still be read of it and was never synced is saved as an export
/// beside it; a fresh database takes its place with the settings it remembered; and a sync
/// brings back everything the cloud folder has, when there is one.
struct Recovery {
    let shared: SharedOptions
    let yes: Bool
    let file: String?
    let reason: String

    func run() throws {
        let dataDir = shared.resolvedDataDir()
        let database = URL(fileURLWithPath: file ?? dataDir.appendingPathComponent(AppDatabase.fileName).path)
        try AskFirst.require("The database \(database.path) is damaged (\(reason)). Set it aside (it is kept), save what can still be read and start a fresh database?",
                                 yes: yes, refusal: "nothing reset")
        let time = DataSafety.stamp()
        let aside = DataSafety.unused(suffixes: ["", "-wal", "-shm"]) { n in
            URL(fileURLWithPath: "\(database.path).damaged-\(time)\(n == 1 ? "" : "-\(n)")")
        }
        let manager = FileManager.default
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: database.path + suffix) {
            do { try manager.moveItem(atPath: database.path + suffix, toPath: aside.path + suffix) } catch {
                throw Failure("cannot set the damaged database aside as \(aside.path)\(suffix): \(DataSafety.describe(error))", code: DataSafety.ioError)
            }
        }
        say("Set the damaged database aside as \(aside.path); it is kept, never deleted.")

        let lexicon: Lexicon
        do { lexicon = try BundledContent.lexicon() } catch {
            throw Failure("the dictionary is missing or unreadable (\(BundledContent.dictionaryURL.path)); reinstall the game", code: Failure.unexpected)
        }
        let salvage = Damage.salvage(file: aside, player: shared.player, lexicon: lexicon, now: Date())
        let player = shared.player ?? salvage.settings[.player] ?? AppDatabase.defaultPlayer
        var saved: [(URL, ExportDocument)] = []
        for document in salvage.exports {
            let url = DataSafety.unused { n in
                URL(fileURLWithPath: aside.path + ".unsynced" + (document.player == player ? "" : "-\(document.player)") + (n == 1 ? "" : "-\(n)") + ".json")
            }
            do { try (document.encoded() + Data("\n".utf8)).write(to: url, options: .atomic) } catch {
                throw Failure("cannot save the unsynced games to \(url.path): \(DataSafety.describe(error)); the damaged database is kept as \(aside.path)",
                              code: DataSafety.ioError)
            }
            saved.append((url, document))
        }

        // A fresh database that remembers what the damaged one did.
        let fresh = try AppDatabase.open(dataDir: dataDir)
        for key in [Setting.player, .device, .cloudDir] {
            if let value = salvage.settings[key] { try fresh.remember(key, value) }
        }
        try fresh.close()
        let setup = try Setup.open(shared)
        say("Started a fresh database: \(database.path).")

        for (url, document) in saved {
            let what = "\(DataSafety.count(document.games.count, salvage.knewWhatWasSynced ? "unsynced game" : "game")) and "
                + "\(DataSafety.count(document.readingList.count, "bookmark"))"
            let command = "qiktionary" + (shared.dataDir != nil ? " --data-dir \(DataSafety.shellQuoted(dataDir.path))" : "")
                + (document.player == setup.profile.playerID ? "" : " --player \(document.player)") + " import \(DataSafety.shellQuoted(url.path))"
            say("\(what) of player '\(document.player)' saved to \(url.path): run '\(command)' to add them back.")
        }
        if saved.isEmpty { say(salvage.knewWhatWasSynced ? "Nothing unsynced could be found in it." : "Nothing of it could be read.") }
        if !salvage.knewWhatWasSynced, !saved.isEmpty {
            say("It did not say which games the cloud has, so every game that could be read was saved; importing one the cloud has duplicates nothing.")
        }
        if salvage.unreadable > 0 {
            say("\(DataSafety.count(salvage.unreadable, "part")) of it could not be read or failed the export's checks.")
        }

        if setup.syncEnabled {
            do {
                let report = try setup.syncEngine().sync()
                say("Synced with the cloud folder: \(report.downloaded) records brought back.")
            } catch {
                warn("sync: \(error)")
                say("Run 'qiktionary sync' when the cloud folder is back to bring your synced games back.")
            }
        } else if setup.cloudDir != nil {
            say("Run 'qiktionary sync' to bring your synced games back from the cloud folder.")
        } else {
            say("Sync was off, so nothing comes back from a cloud folder; set up sync with 'qiktionary --cloud-dir DIR sync'.")
        }
    }
}
