import Foundation
import Testing

/// Whole games played through `play --plain --json` by the real binary, then read back
/// through the other commands.
@Suite(.serialized) struct PlainModeEndToEndTests {
    static let gameKeys: Set<String> = ["id", "pack", "length", "rules", "status", "maxGuesses", "guesses", "guessesLeft",
                                        "marks", "startedAt", "updatedAt", "startedOn", "lastChangedOn", "hard", "hints", "assist"]

    func keys(_ object: Any?) -> Set<String> { Set((object as? [String: Any])?.keys.map { $0 } ?? []) }

    @Test func winningUnderClassicReportsEveryEventWithTheContractsKeys() throws {
        let machine = Machine()
        defer { machine.remove() }
        let events = try machine.play(["--word", "tiger", "--device", "laptop"], lines: ["crane", "TIGER"])
        #expect(events.map { $0["event"] as? String } == ["started", "feedback", "feedback", "ended"])

        let started = events[0]
        #expect(keys(started) == ["event", "game", "resumed"])
        #expect(keys(started["game"]) == Self.gameKeys, "no secret while in progress")
        let game = started["game"] as? [String: Any]
        #expect(game?["pack"] as? String == "animals")
        #expect(game?["rules"] as? String == "classic")
        #expect(game?["status"] as? String == "in-progress")
        #expect(game?["maxGuesses"] as? Int == 15)
        #expect(game?["length"] as? Int == 5)

        let feedback = events[1]
        // At the standard help level (proven) no count of words still possible reaches the board.
        #expect(keys(feedback) == ["event", "gameId", "n", "guess", "common", "guessesLeft"])
        #expect(game?["assist"] as? String == "proven")
        #expect(feedback["guess"] as? String == "crane")
        #expect(feedback["common"] as? Int == 2)
        #expect(feedback["n"] as? Int == 1)
        #expect(feedback["guessesLeft"] as? Int == 14)
        #expect(feedback["gameId"] as? String == game?["id"] as? String)

        let ended = events[3]
        #expect(keys(ended) == ["event", "game", "result", "word", "fact", "score", "challenge", "foundOn"])
        #expect(ended["result"] as? String == "won")
        #expect(ended["word"] as? String == "tiger")
        #expect((ended["fact"] as? String)?.isEmpty == false)
        #expect(ended["score"] as? Int == 14)
        let finished = ended["game"] as? [String: Any]
        #expect(finished?["status"] as? String == "won")
        #expect(finished?["word"] as? String == "tiger", "the secret is shown once the game is over")
    }

    @Test func losingAndGivingUpUnderBothRuleSetsAreReportedEverywhere() throws {
        let machine = Machine()
        defer { machine.remove() }
        // Lost: the games pack allows 12 guesses (mastermind, 4 letters).
        let wrong = Words.distinct(12, length: 4, avoiding: "golf")
        let lost = try machine.play(["--word", "golf"], lines: wrong)
        #expect(lost.filter { $0["event"] as? String == "feedback" }.count == 12)
        let lostEnd = try #require(lost.last)
        #expect(lostEnd["event"] as? String == "ended")
        #expect(lostEnd["result"] as? String == "lost")
        #expect((lost[1]["inPlace"] as? Int) != nil && (lost[1]["inWord"] as? Int) != nil && lost[1]["common"] == nil)

        // Lost under classic: 15 guesses by default.
        let classicWrong = Words.distinct(15, length: 5, avoiding: "zebra")
        let lostClassic = try machine.play(["--word", "zebra"], lines: classicWrong)
        #expect(lostClassic.last?["result"] as? String == "lost")

        // Given up, under each rule set, after one guess.
        let gaveUp = try machine.play(["--word", "piano"], lines: ["crane", "give-up", "bookmark"])
        #expect(gaveUp.map { $0["event"] as? String } == ["started", "feedback", "ended", "bookmarked"])
        #expect(gaveUp[2]["result"] as? String == "gave-up")
        #expect(gaveUp[2]["score"] as? Int == 0)
        let gaveUpClassic = try machine.play(["--word", "camel", "--rules", "mastermind"], lines: ["give-up"])
        #expect((gaveUpClassic.last?["game"] as? [String: Any])?["rules"] as? String == "mastermind")

        // Won under mastermind.
        let won = try machine.play(["--word", "heart"], lines: ["heart"])
        #expect(won.last?["result"] as? String == "won")
        #expect(won.last?["score"] as? Int == 15)

        let history = try #require(try machine.run(["history", "--json"]).json as? [[String: Any]])
        #expect(history.map { $0["word"] as? String } == ["heart", "camel", "piano", "zebra", "golf"])
        #expect(history.map { $0["result"] as? String } == ["won", "gave-up", "gave-up", "lost", "lost"])
        #expect(history.map { $0["guesses"] as? Int } == [1, 0, 1, 15, 12])
        #expect(history.map { $0["bookmarked"] as? Bool } == [false, false, true, false, false])
        for entry in history {
            #expect(keys(entry).isSuperset(of: ["id", "pack", "word", "rules", "result", "guesses", "finishedAt", "device", "fact", "bookmarked"]))
            #expect((entry["finishedAt"] as? String)?.hasSuffix("Z") == true, "times are ISO 8601 UTC")
        }

        let stats = try #require(try machine.run(["stats", "--json"]).json as? [String: Any])
        #expect(stats["played"] as? Int == 5)
        #expect(stats["won"] as? Int == 1)
        #expect(stats["winRate"] as? Double == 0.2)
        #expect(stats["currentStreak"] as? Int == 1)
        #expect(stats["maxStreak"] as? Int == 1)
        #expect(stats["averageGuesses"] as? Double == 1)
        #expect((stats["distribution"] as? [String: Int])?["1"] == 1)
        #expect((stats["distribution"] as? [String: Int])?.values.reduce(0, +) == 1)

        let packs = try #require(try machine.run(["packs", "--json"]).json as? [[String: Any]])
        #expect(packs.count >= 10)
        let body = try #require(packs.first { $0["id"] as? String == "body" })
        #expect(body["solved"] as? Int == 1)
        #expect(keys(body).isSuperset(of: ["id", "title", "length", "words", "solved"]))
        #expect(packs.filter { $0["id"] as? String != "body" }.allSatisfy { $0["solved"] as? Int == 0 })

        let list = try #require(try machine.run(["reading-list", "--json"]).json as? [[String: Any]])
        #expect(list.count == 1)
        #expect(keys(list.first) == ["word", "pack", "fact", "addedAt"])
        #expect(list.first?["word"] as? String == "piano")
    }

    @Test func everyBadGuessIsRefusedWithAReasonAndChangesNothing() throws {
        let machine = Machine()
        defer { machine.remove() }
        let events = try machine.play(["--word", "tiger"], lines: [
            "crane", "xqzte", "cran", "cr4ne", "cra-e", "sheep", "crane", "bogus command here", "tiger", "horse",
        ])
        let rejected = events.filter { $0["event"] as? String == "rejected" }
        #expect(rejected.map { $0["input"] as? String } == ["xqzte", "cran", "cr4ne", "cra-e", "sheep", "crane", "horse"])
        #expect(rejected.map { $0["reason"] as? String } == [
            "not in the dictionary", "the word must have 5 letters", "letters a to z only", "letters a to z only",
            "repeated letters are not allowed under classic rules", "already guessed", "the game is over",
        ])
        #expect(events.contains { $0["event"] as? String == "error" && ($0["message"] as? String)?.contains("unknown command") == true })
        let feedback = events.filter { $0["event"] as? String == "feedback" }
        #expect(feedback.map { $0["n"] as? Int } == [1, 2], "refusals cost no guess")
        let history = try #require(try machine.run(["history", "--json"]).json as? [[String: Any]])
        #expect(history.first?["guesses"] as? Int == 2)
    }

    @Test func resumingNotepadAndGamesCommands() throws {
        let machine = Machine()
        defer { machine.remove() }
        let first = try machine.play(["--word", "comet"], lines: ["crane", "mark z out", "mark Q in", "mark q clear", "mark 1 in", "board"])
        let id = try #require((first[0]["game"] as? [String: Any])?["id"] as? String)
        let board = try #require(first.last)
        #expect(board["event"] as? String == "board")
        #expect(((board["game"] as? [String: Any])?["marks"] as? [String: String]) == ["z": "out"])
        #expect(first.contains { $0["event"] as? String == "error" && ($0["message"] as? String)?.contains("not a letter") == true })

        // Without --word or --pack, play resumes the latest game in progress.
        let again = try machine.play(lines: ["games"])
        #expect(again[0]["event"] as? String == "started")
        #expect(again[0]["resumed"] as? Bool == true)
        #expect((again[0]["game"] as? [String: Any])?["id"] as? String == id)
        #expect(((again[0]["game"] as? [String: Any])?["guesses"] as? [[String: Any]])?.first?["word"] as? String == "crane")
        let listed = try #require(again.last?["games"] as? [[String: Any]])
        #expect(listed.map { $0["id"] as? String } == [id])
        #expect(listed.allSatisfy { $0["word"] == nil }, "games never show a secret")

        let games = try #require(try machine.run(["games", "--json"]).json as? [[String: Any]])
        #expect(games.map { $0["id"] as? String } == [id])

        // A new game elsewhere, then back to the first one by its id.
        let other = try machine.play(["--pack", "nature"], lines: ["resume \(id)", "comet", "resume \(id)", "resume nope"])
        #expect((other[0]["game"] as? [String: Any])?["pack"] as? String == "nature")
        #expect(other[1]["event"] as? String == "started" && other[1]["resumed"] as? Bool == true)
        #expect(other.contains { $0["event"] as? String == "ended" && $0["result"] as? String == "won" })
        #expect(other.suffix(2).map { $0["event"] as? String } == ["rejected", "error"], "a finished or unknown game cannot be resumed")
    }

    @Test func theSameSeedStartsTheSameWordOnAnotherMachine() throws {
        let a = Machine(), b = Machine()
        defer { a.remove(); b.remove() }
        let wordA = try a.play(["--pack", "space", "--seed", "12345"], lines: ["give-up"]).last?["word"] as? String
        let wordB = try b.play(["--pack", "space", "--seed", "12345"], lines: ["give-up"]).last?["word"] as? String
        #expect(wordA != nil && wordA == wordB)
    }

    @Test func textModeTellsTheStoryInWords() throws {
        let machine = Machine()
        defer { machine.remove() }
        let result = try machine.run(["play", "--plain", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains(" 1. CRANE  2 common"))
        #expect(result.stdout.contains("You won! The word was TIGER."))
    }
}

/// Help levels in plain mode (`--assist`): the count of words still possible only under the
/// coach, the notepad's proven marks told apart from the player's, and the level remembered.
@Suite struct AssistEndToEndTests {
    @Test func theCountIsTheCoachsAndTheBoardSaysWhichMarksAreProven() throws {
        let machine = Machine()
        defer { machine.remove() }
        // JUMPY scores 0 against TIGER: its letters are proven out at proven, and at none nothing is.
        let proven = try machine.play(["--word", "tiger"], lines: ["mark c out", "jumpy", "board"])
        #expect(proven.first { $0["event"] as? String == "feedback" }?["candidates"] == nil)
        let board = try #require(proven.last?["notepad"] as? [String: String])
        #expect(board["j"] == "out (proven)" && board["u"] == "out (proven)" && board["c"] == "out (yours)", "\(board)")
        #expect(board["t"] == nil, "nothing proves T yet")

        let none = try machine.play(["--word", "tiger", "--assist", "none"], lines: ["mark c out", "jumpy", "board"])
        #expect((none.first?["game"] as? [String: Any])?["assist"] as? String == "none")
        #expect(none.last?["notepad"] as? [String: String] == ["c": "out (yours)"])

        let coach = try machine.play(["--word", "tiger", "--assist", "coach"], lines: ["jumpy"])
        #expect(coach.first { $0["event"] as? String == "feedback" }?["candidates"] as? Int != nil)

        // The level chosen last is the player's: a game started without --assist takes it, and
        // history, stats and the share text show it.
        let next = try machine.play(["--word", "zebra"], lines: ["zebra", "share"])
        #expect((next.first?["game"] as? [String: Any])?["assist"] as? String == "coach")
        #expect((next.last?["text"] as? String)?.contains("· coach ·") == true)
        let stats = try #require(try machine.run(["stats", "--json"]).json as? [String: Any])
        #expect((stats["coach"] as? [String: Any])?["played"] as? Int == 1)
        let history = try #require(try machine.run(["history", "--json"]).json as? [[String: Any]])
        #expect(history.first?["assist"] as? String == "coach")
        #expect(try machine.run(["play", "--plain", "--assist", "everything"]).status == 64)
    }
}

/// A classic guess sharing every letter without winning (an anagram) says why, in text and JSON.
@Suite struct AnagramNoteTests {
    @Test func anAnagramsFullScoreIsExplained() throws {
        let machine = Machine()
        defer { machine.remove() }
        let text = try machine.run(["play", "--plain", "--word", "thing"], input: "night\n")
        #expect(text.stdout.contains("NIGHT") && text.stdout.contains("all letters, wrong order"), "\(text.stdout)")
        let events = try machine.play(["--word", "thing"], lines: ["night"])
        let feedback = try #require(events.first { $0["event"] as? String == "feedback" })
        #expect(feedback["note"] as? String == "all letters, wrong order")
        let plain = try machine.play(["--word", "tiger"], lines: ["crane"])
        #expect(plain.first { $0["event"] as? String == "feedback" }?["note"] == nil, "no note on an ordinary score")
    }
}
