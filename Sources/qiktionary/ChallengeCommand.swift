import App
import ArgumentParser
import Foundation
import QiktionaryCore

/// `qiktionary challenge`: a code a friend types to play the same game on any machine.
struct ChallengeCommand: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        commandName: "challenge",
        abstract: "Print a challenge code: a friend plays it with 'qiktionary play --challenge CODE'.",
        discussion: """
            The code names the word (drawn from the pack given, or any pack, or the word you give), \
            its pack and version, the rules and hard mode. It is 12 letters and digits, hides the word, \
            and a mistyped one is refused.
            """
    )

    @OptionGroup var shared: SharedOptions

    @Option(help: ArgumentHelp("Draw the word from this pack (see 'qiktionary packs').", valueName: "id"))
    var pack: String?

    @Option(help: ArgumentHelp("Challenge with this word: a pack's, or any dictionary word of 4 to 7 letters.", valueName: "word"))
    var word: String?

    @Option(help: ArgumentHelp("classic or mastermind. Default: the pack's (a practice word: classic, or mastermind when it repeats a letter).",
                               valueName: "rules"))
    var rules: Rules?

    @Flag(help: "The friend plays it in hard mode.")
    var hard = false

    @Option(help: ArgumentHelp("Draw the word repeatably from this number.", valueName: "n"))
    var seed: UInt64?

    @Flag(help: "Print a JSON object.")
    var json = false

    func validate() throws {
        try validateWordOption(word)
        if word != nil && seed != nil { throw ValidationError("--seed draws a word; it does not go with --word") }
    }

    func run() throws {
        let setup = try Setup.open(shared)
        let code = try setup.games.newChallenge(packID: pack, word: word, rules: rules, hard: hard, seed: seed)
        if json { return printJSON(["code": code]) }
        say(code)
    }
}
