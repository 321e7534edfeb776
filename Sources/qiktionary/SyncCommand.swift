import App
import ArgumentParser
import Foundation
import PlainMode
import Sync

extension SyncEngine.Adoption: ExpressibleByArgument {}

struct SyncCommand: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync games, history and the reading list through the cloud folder.",
        discussion: """
            Give the shared folder once with --cloud-dir; it is remembered. Exit codes: 65 the cloud was \
            reset on another machine (answer with --adopt-reset), 69 the folder is unavailable (changes \
            stay queued), 75 the folder stayed busy.
            """
    )

    @OptionGroup var shared: SharedOptions

    @Flag(help: "Print a JSON summary (with --watch: one per sync).")
    var json = false

    @Flag(help: "Keep syncing as either side changes, until interrupted.")
    var watch = false

    @Option(name: .customLong("adopt-reset"), help: ArgumentHelp(
        "After a reset on another machine: 'upload' this machine's games into the new cloud, or 'erase' them and take the cloud's.",
        valueName: "upload|erase"))
    var adoptReset: SyncEngine.Adoption?

    func validate() throws {
        if watch && adoptReset != nil { throw ValidationError("--adopt-reset is a one-off; run it without --watch") }
    }

    func run() throws {
        let sync = try Setup.open(shared).sync
        // A long import shows a live line on a terminal; never in JSON, never into a pipe.
        let line = !json && isatty(STDERR_FILENO) == 1 ? ProgressLine { FileHandle.standardError.write(Data($0.utf8)) } : nil
        if watch {
            let json = json
            return try sync.watch(progress: { line?.draw($0) }) { report in
                if json { say(JSONLine.encode(report)) } else if report.movedRecords { say(Wording.sentence(report)) }
            }
        }
        let report = try sync.once(adopting: adoptReset, progress: line)
        say(json ? JSONLine.encode(report) : Wording.sentence(report))
    }
}
