import ArgumentParser
import Foundation
import TextSafety
import ProcessMemory
import QiktionaryResources
import Storage
import Sync

@main
struct Qiktionary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qiktionary",
        abstract: "A word game of deduction: find the secret word, then read its story.",
        discussion: """
            Run with no command to play. Your games, reading list and statistics live in the data \
            dir (see --data-dir). Every command takes --json for scripts.
            """,
        version: "0.1.0",
        subcommands: [Play.self, SyncCommand.self, Games.self, History.self, ReadingList.self, Packs.self, Stats.self, Status.self,
                      ChallengeCommand.self, ExportCommand.self, ImportCommand.self],
        defaultSubcommand: Play.self
    )

    @OptionGroup var shared: SharedOptions
    @OptionGroup var resets: ResetOptions

    /// Parses and runs, turning every failure into one line on stderr and a sysexits code.
    static func main() {
        Memory.limitArenas()
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            // A reset flag makes the whole command line a reset: do it and exit.
            var command: any ParsableCommand = Reset.wanted(arguments) ? try Reset.parse(arguments) : try parseAsRoot(arguments)
            // Every command reads the packs; --help, --version and the completion scripts do not.
            do { _ = try BundledContent.require() } catch { throw Failure(error.description, code: Failure.unavailable) }
            try command.run()
        } catch {
            exit(reporting: error)
        }
    }

    static func exit(reporting error: any Error) -> Never {
        let failure: Failure
        switch error {
        case let error as Failure: failure = error
        case let error as StorageError: failure = Failure(error)
        case let error as SyncError:
            // A damaged database found during a sync is the database's problem, not the cloud's.
            if case .storage(let inner) = error, inner.isDamage { failure = Failure(inner) } else {
                failure = Failure(error.description, code: error.exitCode)
            }
        default:
            let code = exitCode(for: error)
            if code == .success {
                say(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            failure = Failure("\(message) (see 'qiktionary --help')", code: code.rawValue)
        }
        FileHandle.standardError.write(Data("qiktionary: \(oneLine(failure.message))\n".utf8))
        Foundation.exit(failure.code)
    }
}

/// A failure the user can act on: one line of text and a sysexits code (README, Commands).
struct Failure: Error, CustomStringConvertible {
    static let usage: Int32 = 64
    static let unexpected: Int32 = 1
    /// Something the game needs is not there: its own packs and dictionary (sysexits' EX_UNAVAILABLE).
    static let unavailable: Int32 = 69

    var message: String
    var code: Int32

    init(_ message: String, code: Int32 = Failure.usage) {
        self.message = message
        self.code = code
    }

    var description: String { message }

    init(_ error: StorageError) {
        switch error {
        case .database: self.init(error.description, code: Failure.unexpected)
        case .damaged(let path, let reason): self.init(DataSafety.advice(file: path, reason: reason), code: DataSafety.ioError)
        case .badExport, .exportOfAnotherPlayer: self.init(error.description, code: DataSafety.dataError)
        default: self.init(error.description, code: Failure.usage)
        }
    }
}

/// Writes a line to stderr, for warnings that do not stop the command.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("qiktionary: warning: \(oneLine(message))\n".utf8))
}
