import Foundation
import TestSupport
import Testing

/// Two full-screen windows on one data dir (which the README allows) stay in step as two
/// machines do: a move in one shows in the other within a second, with no sync at all.
extension FullScreenTests {
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func twoWindowsOnOneDataDirStayInStep() throws {
        let machine = Machine()
        defer { machine.remove() }
        _ = try machine.play(["--word", "tiger"], lines: ["slate"])
        let arguments = machine.options + ["--device", "desk"]
        let one = try TmuxSession(width: 100, height: 30, arguments: arguments)
        defer { one.close() }
        let two = try TmuxSession(width: 100, height: 30, arguments: arguments)
        defer { two.close() }
        for window in [one, two] { try window.waitFor("the game in both windows") { $0.contains("1  SLATE") && $0.contains("Guess 2 of 15") } }

        // A guess in one window shows in the other within a second (stretched for a busy machine).
        one.send(["c", "r", "a", "n", "e", "Enter"])
        try one.waitFor("CRANE played in window one") { $0.contains("2  CRANE") }
        let played = Date()
        try two.waitFor("CRANE in window two") { $0.contains("2  CRANE") && $0.contains("Guess 3 of 15") }
        let took = Date().timeIntervalSince(played)
        #expect(took <= Patience.seconds(1), "window two caught up in \(took) s")

        // The other way round; and a word refused as already guessed is one both boards show.
        two.send(["b", "r", "i", "c", "k", "Enter"])
        try one.waitFor("BRICK in window one") { $0.contains("3  BRICK") }
        one.send(["b", "r", "i", "c", "k", "Enter"])
        try one.waitFor("the refusal") { $0.contains("already guessed") }
        #expect(one.screen().contains("3  BRICK"))
        // A give-up in one window ends the game in the other, which names the machine.
        two.send(["C-g", "y"])
        try one.waitFor("the end in window one") { $0.contains("The word was TIGER") || $0.contains("Given up") }
        for window in [one, two] { window.send(["C-c"]) }
        #expect(try one.waitForExit() == 0)
        #expect(try two.waitForExit() == 0)
    }
}
