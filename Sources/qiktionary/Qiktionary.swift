import App
import ArgumentParser
import Foundation
import ProcessMemory
import QiktionaryResources
import TextSafety

@main
struct Qiktionary: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        commandName: "qiktionary",
        abstract: "A word game of deduction: find the secret word, then read its story.",
        discussion: """
            Run with no command to play. Your games, reading list and statistics live in the data \
            dir (see --data-dir). Every command takes --json for scripts.
            """,
        version: "0.1.0",
        subcommands: [Play.self, SyncCommand.self, Games.self, History.self, ReadingList.self, Packs.self, Stats.self, Status.self,
                      ChallengeCommand.self, ExportCommand.self, ImportCommand.self, Friends.self, MatchCommand.self,
                      LeaderboardCommand.self, DevicesCommand.self],
        defaultSubcommand: Play.self
    )

    @OptionGroup var shared: SharedOptions
    @OptionGroup var resets: ResetOptions

    /// Parses and runs, turning every failure into one line on stderr and a sysexits code.
    static func main() {
        Memory.limitArenas()
        var options: SharedOptions?
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            // A reset flag makes the whole command line a reset: do it and exit.
            var command: any ParsableCommand = Reset.wanted(arguments) ? try Reset.parse(arguments) : try parseAsRoot(arguments)
            options = (command as? UsesData)?.shared
            // Every command reads the packs; --help, --version and the completion scripts do not.
            do { _ = try BundledContent.require() } catch { throw Failure(error.description, code: Failure.unavailable) }
            try command.run()
            Setup.finishOpened(succeeded: true)
        } catch {
            // Out of every transaction by now: the log can be folded before the line is said.
            Setup.finishOpened(succeeded: false)
            exit(reporting: error, options: options)
        }
    }

    /// Ends the program with the error as one line on stderr (a damaged database's advice names
    /// the data dir of `options`), or the parser's help and usage.
    static func exit(reporting error: any Error, options: SharedOptions? = nil) -> Never {
        let failure = Failure(reporting: error) { options.map { DamageAdvice.find($0.options) } ?? DamageAdvice() } ?? {
            let code = exitCode(for: error)
            if code == .success {
                say(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            return Failure("\(message) (see 'qiktionary --help')", code: code.rawValue)
        }()
        FileHandle.standardError.write(Data("qiktionary: \(oneLine(failure.message))\n".utf8))
        Foundation.exit(failure.code)
    }
}

// The commands whose options are in a group, for the damage advice (the others declare UsesData).
extension Games: UsesData { var shared: SharedOptions { list.shared } }
extension Packs: UsesData { var shared: SharedOptions { list.shared } }
extension History.List: UsesData { var shared: SharedOptions { list.shared } }
extension ReadingList.List: UsesData { var shared: SharedOptions { list.shared } }
extension History.Show: UsesData { var shared: SharedOptions { finished.shared } }
extension History.Delete: UsesData { var shared: SharedOptions { finished.shared } }

/// Writes a line to stderr, for warnings that do not stop the command.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("qiktionary: warning: \(oneLine(message))\n".utf8))
}
