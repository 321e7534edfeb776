import App
import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore

extension Rules: ExpressibleByArgument {}
extension Assist: ExpressibleByArgument {}

struct Play: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        abstract: "Play a game (the default command).",
        discussion: """
            With --plain, one command per line on stdin: a word to guess, new [--hard] [PACK], new --daily, \
            new --challenge CODE, new --match ID, resume ID, games, hint, mark LETTER out|in|clear, give-up, bookmark, unbookmark, \
            share, board, help, quit.
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

    @Option(help: ArgumentHelp("""
        How much help the board gives unasked, remembered for your next games on every machine: none (only your \
        own notepad marks), proven (default: the notepad also marks what your guesses prove over the dictionary) \
        or coach (the words still possible from the pack, their count and their marks). Hints are there at every \
        level (F2, or 'hint'), counted with the game.
        """, valueName: "level"))
    var assist: Assist?

    @Flag(help: "Play the day's word (by your local date; TZ honoured, POSIX strings like JST-9 as the C library reads them), numbered from the first daily: the same word for everyone on that date, one game per day on all your machines.")
    var daily = false

    @Option(help: ArgumentHelp("Play the game a friend's challenge code names (see 'qiktionary challenge').", valueName: "code"))
    var challenge: String?

    @Option(help: ArgumentHelp("""
        Start or resume your next game of this match (see 'qiktionary match'; the id's start will do). In the \
        full-screen game F3 opens your matches from anywhere, the guess line included.
        """, valueName: "id"))
    var match: String?

    @Flag(help: "Line mode for scripts, screen readers and dumb terminals.")
    var plain = false

    @Flag(help: "With --plain: one JSON object per line.")
    var json = false

    func validate() throws {
        if json && !plain { throw ValidationError("--json goes with --plain") }
        let starts = [pack != nil || word != nil, daily, challenge != nil, match != nil].filter { $0 }.count
        if starts > 1 { throw ValidationError("choose one of --pack/--word, --daily, --challenge and --match") }
        if match != nil && (rules != nil || seed != nil || hard) {
            throw ValidationError("--match plays the match's games as it was made: no --rules, --seed or --hard")
        }
        if (daily || challenge != nil) && (rules != nil || seed != nil || hard) {
            throw ValidationError(daily ? "--daily plays the day's word as it is: no --rules, --seed or --hard"
                                        : "--challenge plays the game as the code says: no --rules, --seed or --hard")
        }
        try validateWordOption(word)
    }

    func run() throws {
        let setup = try Setup.open(shared)
        guard plain else {
            // A match's game is started before the screen opens, on what the other player sent.
            if match != nil { setup.sync.inPassing() }
            let options = GameOptions(pack: pack, word: word, rules: rules, seed: seed, hard: hard, assist: assist,
                                      daily: daily, challenge: challenge, match: match)
            return try FullScreen.run(setup: setup, opening: try setup.games.opening(options))
        }
        let asText = !json
        let write: @Sendable (String) -> Void = { line in
            if asText { writeTextLine(line) } else { writeLine(line) }
        }
        let session = PlainSession(games: setup.games, rules: rules, seed: seed, hard: hard, assist: assist, json: json, write: write)
        // Sync before (to resume a game from the other machine) and after (to hand this one over).
        try setup.sync.around(publishing: true) {
            try session.begin(pack: pack, word: word, daily: daily, challenge: challenge, match: match)
            session.run(readLine: { Swift.readLine() })
        }
    }
}

/// A plain-mode text line, in ASCII when the locale is not UTF-8.
func writeTextLine(_ line: String) {
    writeLine(forLocale(line))
}

/// Writes straight to stdout, unbuffered, so a script reading the pipe sees each event as it
/// happens (and only after it has been saved).
func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
