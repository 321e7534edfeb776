import Foundation
import TestSupport
import Testing

/// A match on the full screen, in tmux: the opponent's moves appear on the Matches screen by
/// themselves, and the finished match shows both players' grids side by side.
extension FullScreenTests {
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func theOpponentsMovesAppearOnTheMatchesScreenAndTheEndShowsBothGrids() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let laptop = Friend("ana", device: "laptop", in: pair), desk = Friend("ana", device: "desk", in: pair)
        let ben = Friend("ben", device: "pc", in: pair)
        try desk.pair(with: laptop)
        #expect(try ben.run(["friends", "--join"]).status == 0)
        let id = try #require((try laptop.json(["match", "new", "--against", "ben", "--seed", "7"]) as? [String: Any])?["id"] as? String)

        let screen = try TmuxSession(width: 100, height: 30, arguments: Self.screenArguments(laptop.peer) + ["--player", "ana"])
        defer { screen.close() }
        try screen.waitFor("the match waiting on the header") { $0.contains("your turn in a match vs ben") }
        // Tab leaves the game's panes for the other screens, where m opens the matches.
        // F3 opens the Matches screen from the guess line, with no wait on which pane has focus.
        screen.send(["F3"])
        try screen.waitFor("the Matches screen") { $0.contains("Matches (1)") && $0.contains("ben: not started") }

        // Ben gives up his first game on his machine: Ana's screen shows it by itself.
        _ = try ben.playMatch(id, ["give-up"])
        let moved = Date()
        try screen.waitFor("ben's first game") { $0.contains("ben: gave up") }
        let took = Date().timeIntervalSince(moved)
        #expect(took < Patience.seconds(3), "the opponent's move reached the Matches screen in \(took) s")
        print("an opponent's move reached the Matches screen in \(String(format: "%.2f", took)) s")

        // Ana plays her three games on her other machine (giving each up tells the test its
        // word); Ben wins the second in one guess and gives up the third.
        let words = try (0..<3).map { _ in try #require(endedWord(try desk.playMatch(id, ["give-up"]))) }
        #expect(try ben.playMatch(id, [words[1]]).contains { $0["result"] as? String == "won" })
        _ = try ben.playMatch(id, ["give-up"])
        try desk.sync()
        try screen.waitFor("the finished match") { $0.contains("you lost 0–1") }
        // Enter on the finished match: both grids, game by game, side by side.
        screen.send(["Enter"])
        try screen.waitFor("both grids") { screen in
            screen.contains("Game 2\(" · ")\(words[1].uppercased())") && screen.contains("ben won")
                && screen.split(separator: "\n").contains { $0.contains("you") && $0.contains("ben") && $0.contains("Game") == false }
        }
        let grid = screen.screen()
        #expect(grid.contains("●●●●"), "ben's winning row is drawn:\n\(grid)")
        screen.send(["C-c"])
    }
}

extension FullScreenTests {
    /// Outside UTF-8 the Matches screen's scores keep their dash, as ASCII '-' (the en dash
    /// vanished: "0 1"), as the command line prints them.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func asciiMatchScoresKeepTheirDash() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        #expect(try ben.run(["friends", "--join"]).status == 0)
        let id = try #require((try ana.json(["match", "new", "--against", "ben", "--seed", "7"]) as? [String: Any])?["id"] as? String)
        // Game 1: Ana gives up (and learns the word), Ben wins it: 0-1 for Ana.
        let word = try #require(endedWord(try ana.playMatch(id, ["give-up"])))
        #expect(try ben.playMatch(id, [word]).contains { $0["result"] as? String == "won" })
        let screen = try TmuxSession(width: 100, height: 30, arguments: Self.screenArguments(ana.peer) + ["--player", "ana"],
                                     environment: ["LANG=C", "LC_ALL=C"])
        defer { screen.close() }
        try screen.waitFor("the match waiting on the header") { $0.contains("your turn in a match vs ben") }
        screen.send(["Tab", "Tab", "m"])
        try screen.waitFor("the score on the Matches screen") { $0.contains("Matches (1)") && $0.contains("0-1") }
        screen.send(["C-c"])
        #expect(try screen.waitForExit() == 0)
    }
}
