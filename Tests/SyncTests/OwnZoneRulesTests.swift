import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
import TextSafety
@testable import Sync

/// Records of the player's own zones (`Games`, `ReadingList`) that no play could have made,
/// written straight into the folder as another device would (another person who can write the
/// folder, or a machine with a bug): each is refused with one line, and the machine that fetches
/// it changes nothing (issue 35, "The player's own zones are held to the game's rules").
@Suite struct OwnZoneRulesTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// What the player sees of her data.
    struct Seen: Equatable {
        var history: [SavedGame]
        var inProgress: [SavedGame]
        var readingList: [Bookmark]
        var statistics: Statistics
        var achievements: [Achievement]
    }

    func seen(_ machine: Machine) throws -> Seen {
        let p = machine.player
        return Seen(history: try p.history(), inProgress: try p.gamesInProgress(), readingList: try p.readingList(),
                    statistics: try p.statistics(), achievements: try p.achievements())
    }

    static let stranger = "00000000-0000-4000-8000-00000000beef"

    /// One way of poisoning the player's zones, and the records it plants.
    enum Attack: String, CaseIterable, CustomTestStringConvertible {
        case secretNoWord, guessOfAGameRefused, forgedScore, guessNotAWord, guessBeyondTheLimit, anotherWordUnderAGamesID
        case inventedBookmark, bookmarkOfNoWord
        var testDescription: String { rawValue }
    }

    /// The honest history: a won game and a half-played one on the laptop, with a bookmark,
    /// synced to the desktop.
    func setUp() throws -> (laptop: Machine, desktop: Machine, won: SavedGame, half: SavedGame) {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let (won, half) = try a.playWonAndHalf()
        try a.sync()
        try b.sync()
        #expect(try b.player.history().count == 1 && b.player.gamesInProgress().count == 1 && b.player.readingList().count == 1)
        return (a, b, won, half)
    }

    func game(_ id: String, secret: String, rules: Rules, status: GameStatus = .won) -> CloudRecord {
        let at = clock.now
        return CloudSchema.record(SyncGame(id: id, packID: "animals", secret: secret, fact: "Planted.", rules: rules, maxGuesses: 15,
                                           status: status, startedAt: at, updatedAt: at, finishedAt: status.isFinished ? at : nil,
                                           startedOn: "mallory", lastChangedOn: "mallory", hard: false, assist: .standard, hints: "",
                                           daily: nil, matchResult: nil), fields: nil, device: "mallory", systemFields: nil)
    }

    func guess(_ word: String, in game: String, position: Int, _ feedback: Feedback) -> CloudRecord {
        CloudSchema.record(SyncGuess(gameID: game, word: word, position: position, feedback: feedback, playedAt: clock.now, playedOn: "mallory"),
                           device: "mallory")
    }

    func bookmark(_ word: String, pack: String, fact: String) -> CloudRecord {
        CloudSchema.record(SyncBookmark(word: word, packID: pack, fact: fact, addedAt: clock.now, isBookmarked: true), device: "mallory")
    }

    /// What an attack plants, given the honest games.
    func planted(_ attack: Attack, won: SavedGame, half: SavedGame) -> [CloudRecord] {
        let classic = Rules.classic
        switch attack {
        case .secretNoWord:
            return [game(Self.stranger, secret: "qqqqqq", rules: .mastermind)]
        case .guessOfAGameRefused:
            return [game(Self.stranger, secret: "qqqqqq", rules: .mastermind),
                    guess("zzzzzz", in: Self.stranger, position: 1, .mastermind(inPlace: 6, inWord: 0))]
        case .forgedScore:
            // A real word, in its place, but scored as if it had found every letter.
            return [guess("fable", in: half.id, position: 2, .common(5))]
        case .guessNotAWord:
            // Scored as the rules score it, but no word of the dictionary.
            return [guess("qxzjv", in: half.id, position: 2, classic.feedback(for: "qxzjv", against: half.game.secret))]
        case .guessBeyondTheLimit:
            let beyond = half.game.maxGuesses + 1
            return [guess("fable", in: half.id, position: beyond, classic.feedback(for: "fable", against: half.game.secret))]
        case .anotherWordUnderAGamesID:
            // The finished game's id, another word: not a daily game, so no copy of it.
            return [game(won.id, secret: "crane", rules: .classic, status: .lost)]
        case .inventedBookmark:
            // The word of a pack here, under another fact than the pack's and the game's.
            return [bookmark("tiger", pack: "animals", fact: "Tigers are made of cheese; read more at https://example.com/t")]
        case .bookmarkOfNoWord:
            return [bookmark("qxzjv", pack: "animals", fact: "A planted word.")]
        }
    }

    @Test(arguments: Attack.allCases) func aRecordNoPlayCouldHaveMadeIsRefusedWithOneLineAndChangesNothing(_ attack: Attack) throws {
        let (_, desktop, won, half) = try setUp()
        let before = try seen(desktop)
        let records = planted(attack, won: won, half: half)
        let mallory = try FolderCloudDatabase.inMemory(folder, player: "player", device: DeviceID("mallory"),
                                                       options: CloudStoreOptions(now: { clock.now }))
        for zone in SyncZone.allCases {
            let saving = records.filter { ($0.recordType == CloudSchema.bookmark) == (zone == .readingList) }
            if !saving.isEmpty { _ = try mallory.modifyRecords(in: CloudSchema.zone(zone), saving: saving, deleting: [], policy: .overwrite) }
        }

        let warnings = Locked<[String]>([])
        var engine = desktop.engine
        engine.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        let report = try engine.sync()
        let told = warnings.withLock { $0 }
        #expect(told.count == records.count, "\(told)")
        for (line, record) in zip(told, records) {
            #expect(!line.contains("\n") && TerminalText.isSafe(line), "\(line)")
            #expect(line.contains("\(record.recordType) record \(record.recordName)"), "\(line)")
        }
        #expect(report.downloaded == 0)
        #expect(report.skipped == records.count)
        #expect(try seen(desktop) == before)
        // The secret of a game in play is never told.
        #expect(told.allSatisfy { !$0.contains(half.game.secret) }, "\(told)")

        // And the next sync, with nothing new, tells nothing again and changes nothing.
        warnings.withLock { $0 = [] }
        try engine.sync()
        #expect(warnings.withLock { $0 }.isEmpty)
        #expect(try seen(desktop) == before)
    }

    /// A guess from a machine with a bug (scored against another word) never reaches the game
    /// on the others: refused on every machine that fetches it.
    @Test func aMachineWithABugCannotPoisonItsSiblings() throws {
        let (laptop, desktop, _, half) = try setUp()
        let phone = try Machine("phone", folder: folder, shared: clock)
        // The laptop's database scored a guess wrong, and sent it as it holds it.
        let wrong = SyncGuess(gameID: half.id, word: "fable", position: 2, feedback: .common(5), playedAt: clock.now, playedOn: "laptop")
        _ = try laptop.cloud.modifyRecords(in: CloudSchema.zone(.games), saving: [CloudSchema.record(wrong, device: "laptop")], deleting: [],
                                           policy: .overwrite)
        for machine in [desktop, phone] {
            let warnings = Locked<[String]>([])
            var engine = machine.engine
            engine.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
            try engine.sync()
            #expect(warnings.withLock { $0 }.count == 1, "\(machine.name)")
            #expect(try machine.game(half.id).game.guesses.map(\.word) == ["pilot"], "\(machine.name)")
        }
    }

    /// What a game is played by, checked alone (Core): the secret, and each guess's word, place
    /// and score.
    @Test func theRulesOfAGamePlayedElsewhere() {
        let lexicon = Content.lexicon
        #expect(Game.secretProblem("tiger", rules: .classic, lexicon: lexicon) == nil)
        #expect(Game.secretProblem("qqqqqq", rules: .mastermind, lexicon: lexicon) != nil)
        #expect(Game.secretProblem("qqqqqq", rules: .mastermind, lexicon: nil) == nil)
        #expect(Game.secretProblem("tiger", rules: .classic, lexicon: Lexicon(["crane"])) != nil)
        let game = Game(id: Self.stranger, packID: "animals", secret: "tiger", rules: .classic, maxGuesses: 6)
        func problem(_ word: String, _ feedback: Feedback? = nil, at position: Int = 1) -> PlayedGuessProblem? {
            game.playedProblem(word, feedback: feedback ?? Rules.classic.feedback(for: word, against: "tiger"), position: position, lexicon: lexicon)
        }
        #expect(problem("crane") == nil)
        #expect(problem("tiger", at: 6) == nil)
        #expect(problem("crane", .common(4)) == .wrongScore)
        #expect(problem("crane", at: 7) == .beyondTheLimit(position: 7, limit: 6))
        #expect(problem("qxzjv") == .refused(.notInDictionary))
        #expect(problem("cranes") == .refused(.wrongLength(expected: 5)))
        #expect(problem("geese") == .refused(.repeatedLetters))
        // The secret itself is a guess, in the dictionary or not.
        #expect(game.playedProblem("tiger", feedback: .common(5), position: 1, lexicon: Lexicon(["crane"])) == nil)
        // A finished game, or one in hard mode, still takes a guess played elsewhere at once.
        let won = Game(id: Self.stranger, packID: "animals", secret: "tiger", rules: .classic, maxGuesses: 6, hard: true,
                       guesses: [Guess(word: "tiger", feedback: .common(5))], status: .won)
        #expect(won.playedProblem("crane", feedback: .common(2), position: 1, lexicon: lexicon) == nil)
    }
}
