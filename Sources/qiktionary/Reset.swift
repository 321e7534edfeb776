import ArgumentParser
import Foundation
import QiktionaryResources
import Storage
import Sync

/// The reset flags of the root command (CLI.md).
struct ResetOptions: ParsableArguments {
    @Flag(name: .customLong("reset-local"), help: "Erase this machine's games, guesses, reading list and sync state for the player; the next sync brings them back from the cloud.")
    var local = false

    @Flag(name: .customLong("reset-sync"), help: "Keep local data but forget sync tokens and cloud metadata; the next sync reconciles everything.")
    var sync = false

    @Flag(name: .customLong("reset-cloud"), help: "Erase the player's cloud data and start a new cloud generation; local data stays and is uploaded.")
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
        let setup = try Setup.open(shared)
        let player = setup.profile.playerID
        if resets.local {
            try Confirmation.require("Erase every game, guess and bookmark of player '\(player)' on this machine?",
                                     yes: yes, refusal: "nothing reset")
            try setup.database.eraseLocalData(profile: setup.profile)
            try setup.database.forgetPacks()
            _ = try setup.database.importPacks(from: Setup.packFiles(dataDir: setup.dataDir), lexicon: setup.lexicon)
            print("Erased player '\(player)''s games, guesses, reading list and sync state on this machine; packs reloaded.")
            print(setup.cloudDir == nil ? "Nothing can come back: sync was off." : "Run 'qiktionary sync' to bring everything back from the cloud.")
        } else if resets.sync {
            try setup.database.forgetSyncMetadata(profile: setup.profile)
            print("Forgot sync tokens and cloud metadata for player '\(player)'; local data kept.")
            print("The next 'qiktionary sync' compares everything with the cloud; nothing is duplicated or lost.")
        } else if resets.cloud {
            let engine = try setup.syncEngine()
            try Confirmation.require("Erase player '\(player)''s data in the cloud folder and start it afresh from this machine?",
                                     yes: yes, refusal: "nothing reset")
            let report = try engine.resetCloud()
            print("Started a new cloud for player '\(player)' and uploaded this machine's data (\(report.uploaded) records).")
            print("Other machines will be asked to upload their games into it or erase them at their next sync.")
        }
    }
}
