import App
import ArgumentParser
import Concurrency
import Foundation
import QiktionaryCore

/// The options every command takes, before or after the command's name.
struct SharedOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "This machine's game data (database, settings).",
        discussion: "Default: $QIKTIONARY_DATA_DIR, else $XDG_DATA_HOME/qiktionary, else ~/.local/share/qiktionary.",
        valueName: "dir"))
    var dataDir: String?

    @Option(name: .customLong("cloud-dir"), help: ArgumentHelp(
        "The folder both machines share for sync; remembered once given.", valueName: "dir"))
    var cloudDir: String?

    @Option(help: ArgumentHelp("Whose games these are; remembered once given (default 'player').", valueName: "name"))
    var player: String?

    @Option(help: ArgumentHelp("This machine's name, shown on the other machine; remembered once given.", valueName: "name"))
    var device: String?

    @Flag(name: .customLong("no-sync"), help: "Do not touch the cloud folder in this run (commands that show your data sync quietly first otherwise).")
    var noSync = false

    /// The options as the application takes them.
    var options: Setup.Options {
        Setup.Options(dataDir: dataDir, cloudDir: cloudDir, player: player, device: device, noSync: noSync)
    }
}

/// A command that opens the player's data: when it fails on a damaged database, the advice
/// names its data dir.
protocol UsesData {
    var shared: SharedOptions { get }
}

extension Setup {
    /// Opens the data as the options say, the program's voice for its notes and warnings. The
    /// data is kept open until the run ends (`finishOpened`).
    static func open(_ shared: SharedOptions) throws -> Setup {
        let setup = try open(shared.options, voice: .standard)
        opened.withLock { $0.append(setup) }
        return setup
    }

    /// What this run opened.
    private static let opened = Locked<[Setup]>([])

    /// The end of the run, its command done or failed: every database it opened checkpointed
    /// and closed (`Setup.finish`).
    static func finishOpened(succeeded: Bool) {
        for setup in opened.withLock({ opened in defer { opened = [] }; return opened }) { setup.finish(succeeded: succeeded) }
    }
}

/// The check of `--word`, for every command that takes one: letters a to z, in either case.
func validateWordOption(_ word: String?) throws {
    if let word, !word.lowercased().isLowercaseASCIIWord { throw ValidationError("--word takes letters a to z only") }
}
