import App
import Foundation
@testable import PlainMode
import QiktionaryCore
import Storage
import Testing

/// Plain-mode input, fuzzed: random bytes and Unicode, mutated commands, words of the wrong
/// length or with digits, punctuation and accents. Every line must give well-formed JSON Lines
/// events, refusals with a one-line reason, and no change to data it is not about.
@Suite struct PlainModeFuzzTests {
    static let batches = 4
    static let linesPerBatch = Fuzz.count(750)

    @Test(arguments: 0..<batches)
    func plainModeLinesGiveWellFormedEventsAndTouchNothingElse(batch: Int) throws {
        let seed = Fuzz.seed(kind: 1, batch: batch)
        let start = Date()
        defer { Fuzz.report("plain", batch: batch, cases: Self.linesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        let fixture = try PlainFixture()
        var output: [String] = []
        let session = PlainSession(games: PlayerGames(player: fixture.database.player(fixture.player), lexicon: { Fuzz.lexicon }),
                                   rules: nil, seed: seed, json: true, write: { output.append($0) })
        try session.begin(pack: nil, word: nil)
        var knownIDs = fixture.otherIDs
        var finished: [String: SavedGame] = [:]

        for index in 0..<Self.linesPerBatch {
            let label = Fuzz.label(seed, index)
            let line = PlainLines.next(&rng, current: session.current, knownIDs: knownIDs)
            // A line that does not parse never reaches the database; the others are checked against it.
            let parses = (try? PlainCommand.parse(line)) != nil
            let before = parses || index % 16 == 0 ? try session.current.map { try fixture.database.player(fixture.player).game(id: $0.id) } : nil
            output.removeAll(keepingCapacity: true)
            Fuzz.bounded("plain line \(label) \(line.debugDescription.prefix(200))") { _ = session.handle(line) }

            let events = PlainLines.check(output, line: line, label: label)
            for event in events {
                if let game = event["game"] as? [String: Any], let id = game["id"] as? String {
                    #expect(!fixture.otherIDs.contains(id), "\(label) another player's game \(id) was shown for \(line.debugDescription)")
                    knownIDs.insert(id)
                }
            }
            // A line that played no guess leaves the game's guesses as they were.
            if let before, !events.contains(where: { $0["event"] as? String == "feedback" }) {
                let after = try fixture.database.player(fixture.player).game(id: before.id)
                #expect(after.game.guesses == before.game.guesses, "\(label) guesses changed by \(line.debugDescription)")
                if !events.contains(where: { ["ended", "marked"].contains($0["event"] as? String) }) {
                    #expect(after.game.status == before.game.status && after.game.marks == before.game.marks,
                            "\(label) game changed by \(line.debugDescription)")
                }
            }
            if index % 250 == 0 || index == Self.linesPerBatch - 1 {
                try fixture.expectOtherPlayerUntouched(label)
                // Finished games of this player never change again (but their bookmark flag may).
                for game in try fixture.database.player(fixture.player).history() {
                    var game = game
                    game.bookmarked = false
                    if let earlier = finished[game.id] {
                        #expect(earlier == game, "\(label) a finished game changed")
                    }
                    finished[game.id] = game
                }
            }
        }
    }

    /// The text form (no --json): no crash, no empty answer to a command.
    @Test func plainTextModeSurvivesTheSameLines() throws {
        let seed = Fuzz.seed(kind: 1, batch: 1000)
        let start = Date()
        defer { Fuzz.report("plain-text", batch: 1000, cases: Fuzz.count(500), since: start) }
        var rng = SeededGenerator(seed: seed)
        let fixture = try PlainFixture()
        var output: [String] = []
        let session = PlainSession(games: PlayerGames(player: fixture.database.player(fixture.player), lexicon: { Fuzz.lexicon }),
                                   rules: nil, seed: seed, json: false, write: { output.append($0) })
        try session.begin(pack: nil, word: nil)
        for index in 0..<Fuzz.count(500) {
            let line = PlainLines.next(&rng, current: session.current, knownIDs: fixture.otherIDs)
            output.removeAll(keepingCapacity: true)
            Fuzz.bounded("text line \(Fuzz.label(seed, index))") { _ = session.handle(line) }
            for text in output {
                #expect(!text.isEmpty, "\(Fuzz.label(seed, index)) empty output for \(line.debugDescription)")
            }
        }
        try fixture.expectOtherPlayerUntouched(Fuzz.label(seed, -1))
    }
}

/// The line parser on its own, at volume: every line parses to a command or is refused with
/// a one-line usage message, and a guess keeps the word as typed.
@Suite struct PlainCommandFuzzTests {
    static let batches = 2
    static let linesPerBatch = Fuzz.count(30_000)

    @Test(arguments: 0..<batches)
    func plainLinesParseOrAreRefusedInOneLine(batch: Int) {
        let seed = Fuzz.seed(kind: 7, batch: batch)
        let start = Date()
        defer { Fuzz.report("plain-parse", batch: batch, cases: Self.linesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        for index in 0..<Self.linesPerBatch {
            let line = PlainLines.next(&rng, current: nil, knownIDs: ["00000000-0000-0000-0000-000000000000"])
            // Built only for a failure: escaping a long line costs more than parsing it.
            var label: String { "\(Fuzz.label(seed, index)) \(line.debugDescription.prefix(200))" }
            Fuzz.bounded(label) {
                let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
                do {
                    switch try PlainCommand.parse(line) {
                    case .nothing: #expect(words.isEmpty, "\(label) a line with words parsed as nothing")
                    case .guess(let word): #expect(words.last == word, "\(label) the guess is not the word typed")
                    case .mark(let letter, _): #expect(("a"..."z").contains(String(letter)), "\(label) marked \(letter)")
                    default: #expect(!words.isEmpty, "\(label) a blank line parsed as a command")
                    }
                } catch let error as PlainCommand.Unknown {
                    #expect(!error.message.isEmpty && !Fuzz.spansLines(error.message), "\(label) a bad message: \(error.message.debugDescription.prefix(300))")
                } catch {
                    Issue.record("\(label) threw \(error)")
                }
            }
        }
    }
}

/// An in-memory database with the shipped packs, a player to fuzz, and another player whose
/// finished game, game in progress and reading list must never change.
struct PlainFixture {
    let database: AppDatabase
    let player: Profile
    let other: Profile
    let otherIDs: Set<String>
    private let snapshot: OtherPlayerSnapshot

    struct OtherPlayerSnapshot: Equatable {
        var history: [SavedGame]
        var inProgress: [SavedGame]
        var readingList: [Bookmark]
    }

    init() throws {
        database = try AppDatabase.inMemory()
        _ = try database.importPacks(from: Fuzz.packFiles, lexicon: { Fuzz.lexicon })
        other = try database.profile(player: "other", device: "other-machine", hostName: "h")
        let finished = try database.player(other).startGame(GameRequest(packID: "animals", word: "tiger"))
        _ = try database.player(other).submitGuess("crane", gameID: finished.id, lexicon: Fuzz.lexicon)
        _ = try database.player(other).submitGuess("tiger", gameID: finished.id, lexicon: Fuzz.lexicon)
        _ = try database.player(other).bookmarkGame(id: finished.id)
        let playing = try database.player(other).startGame(GameRequest(packID: "animals", word: "zebra"))
        _ = try database.player(other).submitGuess("crane", gameID: playing.id, lexicon: Fuzz.lexicon)
        _ = try database.player(other).mark("q", as: .out, gameID: playing.id)
        otherIDs = [finished.id, playing.id]
        player = try database.profile(player: "fuzz", device: "fuzz-machine", hostName: "h")
        snapshot = try Self.snapshot(database, other)
    }

    static func snapshot(_ database: AppDatabase, _ profile: Profile) throws -> OtherPlayerSnapshot {
        OtherPlayerSnapshot(history: try database.player(profile).history(),
                            inProgress: try database.player(profile).gamesInProgress(),
                            readingList: try database.player(profile).readingList())
    }

    func expectOtherPlayerUntouched(_ label: String) throws {
        #expect(try Self.snapshot(database, other) == snapshot, "\(label) another player's data changed")
    }
}

/// Lines to feed plain mode, and the checks on what comes back.
enum PlainLines {
    static let commands = ["guess", "new", "resume", "games", "mark", "give-up", "bookmark", "unbookmark", "board", "help", "quit"]
    static let packs = ["animals", "body", "everyday", "games", "inventions", "kitchen", "music", "nature", "ocean", "origins",
                        "space", "weather", "nope", "../x", "ANIMALS", ""]
    static let spaces = [" ", "  ", "\t", "\r", "\u{B}", "\u{C}", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", ""]

    static func next(_ rng: inout SeededGenerator, current: SavedGame?, knownIDs: Set<String>) -> String {
        let length = current?.game.length ?? 5
        switch rng.int(0...19) {
        case 0:
            return rng.byteString(rng.length(upTo: 80, rarely: 70_000))
        case 1:
            return rng.unicodeString(rng.length(upTo: 40, rarely: 20_000))
        case 2, 3, 4:
            // A real word of the right length: games progress, win, lose and end.
            if let current, rng.chance(0.15) { return current.game.secret }
            return rng.word(length: length)
        case 5:
            return rng.word(length: rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 30].filter { $0 != length }))
        case 6:
            let word = rng.word(length: length)
            return rng.mutate(word)
        case 7:
            var word = Array(rng.word(length: length))
            if !word.isEmpty { word[rng.int(0...word.count - 1)] = rng.pick(["1", "0", "-", "'", ".", "é", "ï", "ß", "_", "\u{0}", "?"]) }
            return String(word)
        case 8:
            return "guess" + rng.pick(spaces) + (rng.chance(0.5) ? rng.word(length: length) : rng.unicodeString(rng.int(0...8)))
                + (rng.chance(0.2) ? " " + rng.word(length: length) : "")
        case 9:
            return "new" + (rng.chance(0.7) ? rng.pick(spaces) + rng.pick(packs) : "") + (rng.chance(0.1) ? " extra" : "")
        case 10:
            let id: String = rng.chance(0.7) && !knownIDs.isEmpty ? rng.pick(knownIDs.sorted())
                : rng.pick([UUID().uuidString, "", "'; DROP TABLE game; --", String(repeating: "f", count: 5000), "%", "_"])
            return "resume " + (rng.chance(0.2) ? rng.mutate(id) : id)
        case 11:
            let letter = rng.pick(["a", "z", "Q", "é", "1", "", "ab", "\u{0}", "-", rng.unicodeString(1)])
            let state = rng.pick(["out", "in", "clear", "OUT", "maybe", "", "in out"])
            return "mark \(letter) \(state)"
        case 12:
            let command = rng.pick(commands)
            return rng.chance(0.5) ? rng.mutate(command) : command.uppercased() + rng.pick(spaces)
        case 13:
            return rng.pick(commands) + " " + rng.unicodeString(rng.int(1...6))
        case 14:
            return rng.pick(["bookmark", "unbookmark", "board", "games", "help", "give-up"])
        case 15:
            return rng.pick(["", " ", "\t", "\r", "\r\n", "\u{0}", "\u{1B}[2J", "quit", "QUIT", "quit now"])
        case 16:
            return String(repeating: rng.pick(["a", "guess ", "é", "\u{0}", " "]), count: rng.int(1_000...20_000))
        case 17:
            return rng.pick(spaces) + rng.pick(commands) + rng.pick(spaces)
        default:
            return rng.mutate(rng.pick(commands) + " " + rng.word(length: length))
        }
    }

    /// Every output line is one JSON object with an "event"; refusals and errors say why in one line.
    static func check(_ output: [String], line: String, label: String) -> [[String: Any]] {
        let words = line.split(whereSeparator: \.isWhitespace)
        let isBlank = words.isEmpty
        let isQuit = words.count == 1 && words[0].lowercased() == "quit"
        if !isBlank && !isQuit && output.isEmpty {
            Issue.record("\(label) no answer to \(line.debugDescription.prefix(200))")
        }
        if isBlank { #expect(output.isEmpty, "\(label) a blank line answered \(output)") }
        var events: [[String: Any]] = []
        for text in output {
            #expect(!Fuzz.commandsTheTerminal(text), "\(label) a character a terminal would obey: \(text.debugDescription.prefix(300))")
            guard !text.contains("\n"), !text.contains("\r"),
                  let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let event = object["event"] as? String, !event.isEmpty else {
                Issue.record("\(label) not one JSON object with an event: \(text.prefix(300)) for \(line.debugDescription.prefix(200))")
                continue
            }
            events.append(object)
            switch event {
            case "error":
                expectOneLine(object["message"], "message", label, line)
            case "rejected":
                expectOneLine(object["reason"], "reason", label, line)
                if let input = object["input"] as? String {
                    #expect(!Fuzz.spansLines(input), "\(label) the refused input shown spans lines: \(input.debugDescription.prefix(200))")
                }
            case "started", "feedback", "ended", "bookmarked", "unbookmarked", "marked", "games", "board", "help":
                break
            default:
                Issue.record("\(label) unknown event \(event)")
            }
        }
        return events
    }

    private static func expectOneLine(_ value: Any?, _ key: String, _ label: String, _ line: String) {
        guard let text = value as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            Issue.record("\(label) no \(key) for \(line.debugDescription.prefix(200))")
            return
        }
        #expect(!Fuzz.spansLines(text), "\(label) \(key) spans lines: \(text.debugDescription.prefix(300))")
    }
}
