import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore
import Storage

extension Rules: ExpressibleByArgument {}

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a game (the default command).",
        discussion: """
            With --plain, one command per line on stdin: a word to guess, new [--hard] [PACK], resume ID, games, \
            hint, mark LETTER out|in|clear, give-up, bookmark, unbookmark, board, help, quit.
            """
    )

    @OptionGroup var shared: SharedOptions

    @Option(help: ArgumentHelp("Start a new game from this pack (see 'qiktionary packs').", valueName: "id"))
    var pack: String?

    @Option(help: ArgumentHelp("Start a new game on this secret word: practice, or a friend's challenge.", valueName: "word"))
    var word: String?

    @Option(help: ArgumentHelp("classic (one count of shared letters) or mastermind (in place / in word). Default: the pack's.", valueName: "rules"))
    var rules: Rules?

    @Option(help: ArgumentHelp("Choose the word repeatably from this number.", valueName: "n"))
    var seed: UInt64?

    @Flag(help: "Start a new hard game: every guess must fit all the feedback so far.")
    var hard = false

    @Flag(help: "Line mode for scripts, screen readers and dumb terminals.")
    var plain = false

    @Flag(help: "With --plain: one JSON object per line.")
    var json = false

    func validate() throws {
        if json && !plain { throw ValidationError("--json goes with --plain") }
        if let word, !word.lowercased().isLowercaseASCIIWord {
            throw ValidationError("--word takes letters a to z only")
        }
    }

    func run() throws {
        let setup = try Setup.open(shared)
        guard plain else {
            return try FullScreen.run(setup: setup, request: GameRequest(packID: pack, word: word, rules: rules, seed: seed, hard: hard))
        }
        let session = PlainSession(
            database: setup.database, profile: setup.profile, lexicon: setup.lexicon,
            rules: rules, seed: seed, hard: hard, json: json, write: writeLine
        )
        // Sync before (to resume a game from the other machine) and after (to hand this one over).
        setup.syncInPassing()
        try session.begin(pack: pack, word: word)
        session.run(readLine: { Swift.readLine() })
        setup.syncInPassing()
    }
}

/// Writes straight to stdout, unbuffered, so a script reading the pipe sees each event as it
/// happens (and only after it has been saved).
func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
