import Foundation
import QiktionaryCore
import QiktionaryResources
import Testing
@testable import Storage

/// Help levels (`Assist`): what the notepad proves at `proven` is true of every dictionary word
/// that fits the feedback, nothing comes from the pack's list before the game is over, and a
/// game's level is kept through storage, export and import.
@Suite struct AssistTests {
    static let lexicon = try! BundledContent.lexicon()
    static let packs: [Pack] = PackFile.files(in: BundledContent.packsFolder).map { try! PackFile.read($0) }

    /// The words of `words` that fit a guess's score, worked out here by scoring each one, not
    /// through the solver.
    static func fitting(_ guess: Guess, rules: Rules, in words: [String]) -> [String] {
        words.filter { rules.feedback(for: guess.word, against: $0) == guess.feedback }
    }

    @Test func underProvenEveryCertainMarkHoldsForEveryDictionaryWordThatFits() {
        var random = SeededGenerator(seed: 25)
        var checked = 0
        for pack in Self.packs {
            for rules in [Rules.classic, .mastermind] {
                let secrets = pack.words.map(\.word).filter(rules.allows)
                let guessable = Self.lexicon.words(ofLength: pack.length).filter(rules.allows)
                for _ in 0..<2 {
                    guard let secret = secrets.randomElement(using: &random) else { continue }
                    var game = Game(id: "g", packID: pack.id, secret: secret, rules: rules, assist: .proven)
                    #expect(game.notepad(candidates: game.notepadWords(lexicon: { Self.lexicon }, packCandidates: { [] }))
                        .entries.allSatisfy { $0.deduced == nil }, "\(pack.id): a mark before any guess")
                    var fits = guessable
                    for _ in 0..<6 where !game.isFinished {
                        guard let word = guessable.randomElement(using: &random), (try? game.submit(word, lexicon: Self.lexicon)) != nil else { continue }
                        let words = game.notepadWords(lexicon: { Self.lexicon }, packCandidates: { Issue.record("the pack's list was asked for"); return [] })
                        fits = Self.fitting(game.guesses.last!, rules: rules, in: fits)
                        #expect(fits.contains(secret))
                        for entry in game.notepad(candidates: words).entries {
                            switch entry.deduced {
                            case .in?: #expect(fits.allSatisfy { $0.contains(entry.letter) }, "\(pack.id) \(rules) \(game.guesses.map(\.word)): \(entry.letter) marked in")
                            case .out?: #expect(!fits.contains { $0.contains(entry.letter) }, "\(pack.id) \(rules) \(game.guesses.map(\.word)): \(entry.letter) marked out")
                            case nil: break
                            }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    @Test func underNoneOnlyThePlayersMarksShowAndTheCoachUsesThePacksWords() {
        var game = Game(id: "g", packID: "animals", secret: "tiger", rules: .classic, assist: .noHelp, marks: ["z": .out])
        _ = try? game.submit("jumpy", lexicon: Self.lexicon)
        #expect(game.notepadWords(lexicon: { Self.lexicon }, packCandidates: { ["tiger"] }) == nil)
        let notepad = game.notepad(candidates: nil)
        #expect(notepad.entries.allSatisfy { $0.deduced == nil }, "jumpy scored 0, yet nothing is proven under none")
        #expect(notepad["z"]?.marked == .out)
        let coached = Game(id: "c", packID: "animals", secret: "tiger", rules: .classic, assist: .coach)
        #expect(coached.notepadWords(lexicon: { Self.lexicon }, packCandidates: { ["tiger", "tiler"] }) == ["tiger", "tiler"])
    }

    /// After a game every letter is known, in or out, and what the guesses proved during it
    /// stays: a win, a loss and a give-up alike, whatever the pack here holds (the pack's list
    /// is not asked for: the word is told).
    @Test func afterAGameTheNotepadKeepsItsProvenMarksAndKnowsEveryLetter() throws {
        for (rules, secret, guesses) in [(Rules.mastermind, "sinus", ["jumpy", "quack"]), (.classic, "tiger", ["quack", "jumpy"]),
                                         (.mastermind, "flute", ["quiet", "jumpy"])] {
            for ending in ["won", "gave up"] {
                var game = Game(id: "g", packID: "animals", secret: secret, rules: rules, assist: .proven)
                for word in guesses { _ = try game.submit(word, lexicon: Self.lexicon) }
                // What the guesses proved while the game was on, over the dictionary.
                let during = game.notepad(candidates: Notepad.provenWords(rules: rules, length: game.length, guesses: game.guesses,
                                                                          lexicon: Self.lexicon))
                if ending == "won" { _ = try game.submit(secret, lexicon: Self.lexicon) } else { try game.giveUp() }
                #expect(game.isFinished)
                let words = game.notepadWords(lexicon: { Self.lexicon }, packCandidates: { Issue.record("the pack's list was asked for"); return [] })
                let after = game.notepad(candidates: words)
                for entry in after.entries {
                    #expect(entry.deduced == (secret.contains(entry.letter) ? .in : .out), "\(secret) \(ending): \(entry.letter)")
                    if let proven = during[entry.letter]?.deduced { #expect(entry.deduced == proven, "\(secret): \(entry.letter) proven \(proven)") }
                }
                #expect(during.entries.contains { $0.deduced == .out }, "\(secret): nothing was proven out to keep")
            }
        }
    }

    @Test func aGamesLevelIsStoredAndThePlayersLevelFollowsTheirLatestGame() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { Self.lexicon })
        let player = db.player(try db.profile(player: "p", device: "laptop", hostName: "laptop"))
        #expect(try player.assistLevel() == .proven, "a new player's level")
        let proven = try player.startGame(GameRequest(word: "tiger"), now: Date(timeIntervalSince1970: 1_000))
        #expect(proven.game.assist == .proven)
        try player.chooseAssist(.noHelp, now: Date(timeIntervalSince1970: 2_000))
        #expect(try player.startGame(GameRequest(word: "zebra"), now: Date(timeIntervalSince1970: 3_000)).game.assist == .noHelp)
        // A game started later elsewhere (as sync brings it) at another level makes that level the player's.
        let coached = try player.startGame(GameRequest(word: "horse", assist: .coach), now: Date(timeIntervalSince1970: 4_000))
        #expect(try player.game(id: coached.id).game.assist == .coach)
        #expect(try player.assistLevel() == .coach)
        try player.chooseAssist(.proven, now: Date(timeIntervalSince1970: 5_000))
        #expect(try player.assistLevel() == .proven)
        #expect(try player.game(id: proven.id).game.assist == .proven, "a game keeps its own level")
    }

    @Test func statisticsCountCoachedGamesApart() {
        let stats = Statistics(games: [FinishedGame(status: .won, guessesUsed: 3, assist: .coach),
                                       FinishedGame(status: .lost, guessesUsed: 15, assist: .coach),
                                       FinishedGame(status: .won, guessesUsed: 4, assist: .proven),
                                       FinishedGame(status: .won, guessesUsed: 5, assist: .noHelp)])
        #expect(stats.played == 4 && stats.won == 3)
        #expect(stats.coachPlayed == 2 && stats.coachWon == 1)
    }
}
