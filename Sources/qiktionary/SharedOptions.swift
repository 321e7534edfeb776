import ArgumentParser
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

    /// Where the data lives, by the precedence the README gives (Where your data lives).
    func resolvedDataDir(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dataDir, !dataDir.isEmpty { return URL(fileURLWithPath: dataDir).standardizedFileURL }
        if let dir = environment["QIKTIONARY_DATA_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir).standardizedFileURL }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("qiktionary").standardizedFileURL
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/qiktionary").standardizedFileURL
    }
}

/// The check of `--word`, for every command that takes one: letters a to z, in either case.
func validateWordOption(_ word: String?) throws {
    if let word, !word.lowercased().isLowercaseASCIIWord { throw ValidationError("--word takes letters a to z only") }
}
