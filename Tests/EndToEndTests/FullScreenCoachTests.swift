import Foundation
import Testing

extension FullScreenTests {
    /// A hard game in tmux: the header says hard, the board counts the words still possible,
    /// a contradicting guess is refused, F2 shows a hint, the win's card offers the review
    /// and `r` opens it.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func aHardGameWithAHintAndItsReview() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("qk-tmux-coach-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let session = try TmuxSession(width: 100, height: 30,
                                      arguments: ["--data-dir", data.path, "--word", "tiger", "--hard", "--assist", "coach", "--device", "tmux"])
        defer { session.close() }
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") && $0.contains("classic, 5 letters, hard") }

        session.send(["c", "r", "a", "n", "e", "Enter"])
        try session.waitFor("the feedback and the count") { $0.contains("1  CRANE") && $0.contains("words still possible") }

        // GHOST shares nothing with CRANE, which scored 2: hard mode refuses it and says why.
        session.send(["g", "h", "o", "s", "t", "Enter"])
        try session.waitFor("the refusal") { $0.contains("GHOST refused: hard mode: CRANE scored 2 in common") }
        #expect(!session.screen().contains("2  GHOST"))

        session.send(["C-u", "F2"])
        try session.waitFor("the hint") { $0.contains("Hint: ") && $0.contains("on average") }

        session.send(["t", "i", "g", "e", "r", "Enter"])
        try session.waitFor("the win") { $0.contains("You found TIGER in 2 guesses") && $0.contains("r review") }

        session.send(["r"])
        try session.waitFor("the review") { $0.contains("Review: TIGER") && $0.contains("Skill ") && $0.contains("CRANE") }
        session.send(["Escape"])
        try session.waitFor("the card again") { !$0.contains("Review: TIGER") && $0.contains("You found TIGER") }

        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }
}
