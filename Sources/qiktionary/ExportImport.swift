import App
import ArgumentParser
import Foundation
import PlainMode

// `export` and `import`: the workflow is the application's (`Transfer`); here, its arguments.

struct ExportCommand: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write all your games, guesses, notepad marks, reading list and settings as one JSON document.",
        discussion: """
            The document ("format": "qiktionary-export", "version": 1) holds the player's games with \
            their guesses and marks, hard mode, hints and daily dates, the reading list, this machine's \
            name and the cloud folder. Keep it as a backup, or bring it to another data dir with \
            'qiktionary import FILE'. Without FILE (or with -) it goes to standard output. With \
            --with-key it also holds this machine's secret signing key (docs/trust.md), so that \
            importing it into a new data dir carries this machine over without pairing again: keep \
            such a file private.
            """
    )

    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("Where to write it (default: standard output).", valueName: "file"))
    var file: String?
    @Flag(help: "Include this machine's secret signing key (the file is made mode 0600).") var withKey = false

    func run() throws {
        let (data, summary) = try Transfer.export(try Setup.open(shared), to: file, withKey: withKey)
        guard let summary else { return FileHandle.standardOutput.write(data) }
        say(summary)
    }
}

struct ImportCommand: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge an export back in: games, guesses, marks and bookmarks, by their ids.",
        discussion: """
            Nothing is duplicated: importing the same file twice, or on a machine that already has \
            the games, changes nothing. Games and bookmarks it adds sync like ones played here. The \
            whole file is checked first and imported in one transaction: a file that is cut short, \
            of another shape, or with a value that fails a check is refused (exit 65) and nothing \
            changes (a missing file: exit 66). An export holds one player's games: import it with \
            that --player. Settings in the file (device name, cloud folder) are shown, not applied; a \
            signing key in it (export --with-key) becomes this data dir's unless it signs as a \
            machine of its own already.
            """
    )

    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The export to read ('-' for standard input).", valueName: "file"))
    var file: String
    @Flag(help: "Print a JSON summary.") var json = false

    func run() throws {
        let data = try DataSafety.readExport(file)
        let (report, lines) = try Transfer.importExport(data, from: file, into: try Setup.open(shared))
        if json { return printJSON(report) }
        lines.forEach(say)
    }
}
