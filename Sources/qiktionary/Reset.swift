import App
import ArgumentParser

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
struct Reset: ParsableCommand, UsesData {
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
        let reset = Resets(options: shared.options, voice: .standard) { question in
            try AskFirst.require(question, yes: yes, refusal: "nothing reset")
        }
        if resets.local { return try reset.resetLocal() }
        if resets.sync { return try reset.resetSync() }
        if resets.cloud { try reset.resetCloud() }
    }
}
