import Foundation
import QiktionaryCore
import Storage
import Sync

/// The resets of the command line (README, Commands): each says what it did through the voice,
/// and the two that erase write a backup first.
public struct Resets {
    let options: Setup.Options
    let voice: Voice
    /// Asks the person before anything is erased; throws when they do not agree.
    let confirm: (String) throws -> Void

    public init(options: Setup.Options, voice: Voice, confirm: @escaping (String) throws -> Void) {
        (self.options, self.voice, self.confirm) = (options, voice, confirm)
    }

    /// Forgets the sync tokens and cloud metadata; the local data stays.
    public func resetSync() throws {
        let setup = try openChecked()
        let player = setup.profile.playerID
        try setup.player.forgetSyncMetadata()
        voice.say("Forgot sync tokens and cloud metadata for player '\(player)'; local data kept.")
        voice.say("The next 'qiktionary sync' compares everything with the cloud; nothing is duplicated or lost.")
    }

    /// Erases the player's cloud data after a backup and starts a new generation from this machine.
    public func resetCloud() throws {
        let setup = try openChecked()
        let player = setup.profile.playerID
        let engine = try setup.syncEngine()
        try confirm("Erase player '\(player)''s data in the cloud folder and start it afresh from this machine?")
        let backup = try DataSafety.writeBackup(setup, before: "--reset-cloud")
        voice.say("Saved player '\(player)''s games and reading list to \(backup.path) first.")
        let report = try engine.resetCloud()
        voice.say("Started a new cloud for player '\(player)' and uploaded this machine's data (\(report.uploaded) records).")
        voice.say("Other machines will be asked to upload their games into it or erase them at their next sync.")
    }

    /// Erases the player's data here, after a backup; on a damaged database, sets the whole
    /// file aside instead (see `Recovery`).
    public func resetLocal() throws {
        var opened: Setup?
        var confirmed = false
        do {
            let setup = try openChecked()
            opened = setup
            let player = setup.profile.playerID
            try confirm("Erase every game, guess and bookmark of player '\(player)' on this machine?")
            confirmed = true
            let backup = try DataSafety.writeBackup(setup, before: "--reset-local")
            try setup.player.eraseLocalData()
            try setup.database.forgetPacks()
            _ = try setup.database.importPacks(from: Setup.packFiles(dataDir: setup.dataDir), lexicon: setup.lexicon)
            voice.say("Saved player '\(player)''s games and reading list to \(backup.path) first.")
            voice.say("Erased player '\(player)''s games, guesses, reading list and sync state on this machine; packs reloaded.")
            voice.say(setup.cloudDir == nil ? "Nothing can come back from a cloud folder: sync was off. 'qiktionary import \(DataSafety.shellQuoted(backup.path))' brings it all back."
                                            : "Run 'qiktionary sync' to bring everything back from the cloud.")
        } catch {
            guard let (path, reason) = Self.damage(error) else { throw error }
            // The connections must be closed before the files move: SQLite removes its -wal by name.
            try? opened?.database.close()
            opened = nil
            try Recovery(options: options, file: path, reason: reason, voice: voice,
                         confirm: confirmed ? { _ in } : confirm).run()
        }
    }

    /// The data, with damage no read has reached yet found first: it must not be carried into
    /// the cloud or the sync state, and a damaged file is set aside, not kept.
    private func openChecked() throws -> Setup {
        let setup = try Setup.open(options, voice: voice)
        try setup.database.quickCheck()
        return setup
    }

    /// Where and why the database is damaged, when that is the error.
    private static func damage(_ error: any Error) -> (String?, String)? {
        if case StorageError.damaged(let path, let reason) = error { return (path, reason) }
        return nil
    }
}
