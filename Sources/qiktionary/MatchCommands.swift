import App
import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore

/// `qiktionary friends`: the players of the shared folder, each with the fingerprints of the
/// machines pinned for them; `friends trust NAME` pins them again.
struct Friends: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The players visible in the shared folder.",
        discussion: """
            Players who share one cloud folder (each with their own --player) can play matches and compare \
            themselves on the leaderboard. A player shows to the others once they make or answer a match, \
            or join with --join. Their own games stay theirs. Each player's machines are pinned the first \
            time they are seen; compare the fingerprints with the player ('qiktionary devices' on their side).
            """,
        subcommands: [List.self, Trust.self], defaultSubcommand: List.self
    )

    struct List: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The players of the folder and their fingerprints.")
        @OptionGroup var shared: SharedOptions
        @Flag(help: "Show yourself to the other players of the folder.") var join = false
        @Flag(help: "Print a JSON object.") var json = false

        func run() throws {
            let setup = try Setup.open(shared)
            if join { try setup.joinFolder() }
            setup.sync.inPassing()
            let lines = try setup.friendLines()
            if json { return printJSON(["players": lines]) }
            if join { say("You are visible to the other players of the folder.") }
            if lines.isEmpty { return say("No players visible yet. Each joins with 'qiktionary friends --join'.") }
            lines.map(\.text).forEach(say)
        }
    }

    struct Trust: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(
            abstract: "Accept a player's machines as the folder shows them now, after comparing fingerprints.",
            discussion: """
                A player's machines are pinned the first time they are seen. When the folder shows others \
                that none of the pinned machines signed in, they are refused until you compare fingerprints \
                with the player and run this. Give FINGERPRINT (8 or more of its hex digits) when the folder \
                shows more than one set for the player.
                """
        )
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The player.", valueName: "name")) var name: String
        @Argument(help: ArgumentHelp("One of the player's machines' fingerprints.", valueName: "fingerprint")) var fingerprint: String?

        func run() throws {
            let setup = try Setup.open(shared)
            let lines = try setup.trustFriend(name, fingerprint: fingerprint)
            say("Trusting \(name)'s machines: " + lines.map { "\($0.name) (\($0.fingerprint))" }.joined(separator: ", "))
            // What the player's machines sent, refused until now, comes in.
            setup.sync.inPassing()
        }
    }
}

/// `qiktionary match`: a round of three games against another player of the folder.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Matches against a friend: a round of three games on the same words.",
        subcommands: [New.self, List.self, Show.self, Decline.self, Cancel.self], defaultSubcommand: List.self
    )

    struct New: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(
            abstract: "Challenge a player of the folder to a match of three games.",
            discussion: """
                The three words are drawn from one pack (the one given, or one at random), under the same \
                rules, hard setting and help level for both players. Play it with 'qiktionary play --match ID'.
                """
        )
        @OptionGroup var shared: SharedOptions
        @Option(help: ArgumentHelp("The player to challenge (see 'qiktionary friends').", valueName: "name")) var against: String
        @Option(help: ArgumentHelp("Draw the words from this pack (see 'qiktionary packs').", valueName: "id")) var pack: String?
        @Option(help: ArgumentHelp("classic or mastermind. Default: the pack's.", valueName: "rules")) var rules: Rules?
        @Flag(help: "Both players play in hard mode.") var hard = false
        @Option(help: ArgumentHelp("""
            The help level both players play every game at: none, proven (default) or coach (see 'play --assist'). \
            A result played at another level does not count.
            """, valueName: "level")) var assist: Assist = .standard
        @Option(help: ArgumentHelp("Draw the match repeatably from this number.", valueName: "n")) var seed: UInt64?
        @Flag(help: "Print the match as a JSON object.") var json = false

        func run() throws {
            let setup = try Setup.open(shared)
            let shown = try setup.sync.around(publishing: true) {
                try setup.games.newMatch(against: against, packID: pack, rules: rules, hard: hard, assist: assist, seed: seed, now: setup.clock())
            }
            if json { return printJSON(MatchJSON(shown.state, words: nil)) }
            MatchText.show(shown).forEach(say)
            say("Play it with 'qiktionary play --match \(shown.state.match.id)'.")
        }
    }

    struct List: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "Your matches, newest first, with what each waits for.")
        @OptionGroup var shared: SharedOptions
        @Flag(help: "Print a JSON array.") var json = false

        func run() throws {
            let setup = try Setup.open(shared)
            setup.sync.inPassing()
            let matches = try setup.games.matches()
            if json { return printJSON(matches.map { MatchJSON($0.state, words: words($0)) }) }
            if matches.isEmpty { return say("No matches yet. Start one with 'qiktionary match new --against NAME'.") }
            MatchText.list(matches).forEach(say)
        }
    }

    struct Show: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "One match, game by game.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The match's id (or its start).", valueName: "id")) var id: String
        @Flag(help: "Print a JSON object.") var json = false

        func run() throws {
            try onMatch(shared, json: json, publishing: false, { try $0.matchOverview(id: id) }, say: MatchText.show)
        }
    }

    struct Decline: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "Decline a match you were asked to play, before playing it.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The match's id (or its start).", valueName: "id")) var id: String

        func run() throws {
            try onMatch(shared, json: false, publishing: true, { try $0.declineMatch(id: id) }) { ["Declined match \($0.state.match.id)."] }
        }
    }
}

extension MatchCommand {
    struct Cancel: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(
            abstract: "Cancel a match you made, until the other player answers it.",
            discussion: """
                The other player's machines show the match cancelled once both have synced. Once they have \
                declined it or played any of it, it can no longer be cancelled.
                """
        )
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The match's id (or its start).", valueName: "id")) var id: String
        @Flag(help: "Print the match as a JSON object.") var json = false

        func run() throws {
            try onMatch(shared, json: json, publishing: true, { try $0.cancelMatch(id: id) }) { ["Cancelled match \($0.state.match.id)."] }
        }
    }
}

/// A command on one match: syncs, acts (`publishing`: and syncs what it did at once), then prints
/// the match as JSON or as `say`'s lines.
private func onMatch(_ shared: SharedOptions, json: Bool, publishing: Bool, _ act: (PlayerGames) throws -> MatchOverview,
                     say lines: (MatchOverview) -> [String]) throws {
    let setup = try Setup.open(shared)
    let shown = try setup.sync.around(publishing: publishing) { try act(setup.games) }
    if json { return printJSON(MatchJSON(shown.state, words: words(shown))) }
    lines(shown).forEach(say)
}

/// The words a match shows: each game's once both players finished it ("" stands for one not shown).
private func words(_ shown: MatchOverview) -> [String] { shown.words.map { $0 ?? "" } }

/// `qiktionary leaderboard`: the players of the folder, the day's word and all time.
struct LeaderboardCommand: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "The players of the shared folder: the day's word and all time.",
        discussion: """
            Each player's line is worked out by their own machines from their whole history and published \
            at sync, so a new machine never lowers it. Games played with more help are ranked apart.
            """
    )
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Only the day's word.") var daily = false
    @Argument(help: ArgumentHelp("With --daily: the day (YYYY-MM-DD). Default: today.", valueName: "date")) var date: String?
    @Flag(help: "Print a JSON object.") var json = false

    func validate() throws {
        if date != nil && !daily { throw ValidationError("a date goes with --daily") }
        if let date, !DailyWord.isDate(date) { throw ValidationError("'\(date)' is not a date (YYYY-MM-DD)") }
    }

    func run() throws {
        let setup = try Setup.open(shared)
        setup.sync.inPassing()
        let boards = try setup.games.leaderboards(day: date ?? setup.dailyClock.date)
        if json { return printJSON(LeaderboardJSON(boards, dailyOnly: daily)) }
        MatchText.leaderboards(boards, daily: daily).forEach(say)
    }
}
