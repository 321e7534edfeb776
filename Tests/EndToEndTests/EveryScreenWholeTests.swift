import Foundation
import TestSupport
import Testing

/// Every screen whole at the sizes the README promises, in tmux: what does not fit scrolls.
extension FullScreenTests {
    /// At 40x12 only the newest guess fits: an arrow says more are above, and Up/PgUp reach the
    /// earlier guesses during play.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func theEarlierGuessesScrollIntoViewAt40x12() throws {
        let session = try TmuxSession(width: 40, height: 12)
        defer { session.close() }
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") }
        for word in ["crane", "moist", "jumpy"] {
            session.send(word.map { String($0) } + ["Enter"])
            try session.waitFor("\(word) played") { $0.contains(word.uppercased()) && !$0.contains("> \(word.uppercased().map { String($0) }.joined(separator: " "))") }
        }
        try session.waitFor("the newest guess and the arrow") { $0.contains("3  JUMPY") && $0.contains("↑") }
        session.send(["Up", "Up"])
        try session.waitFor("the first guess, scrolled to") { $0.contains("1  CRANE") && $0.contains("↓") }
        session.send(["PageDown"])
        try session.waitFor("the newest again") { $0.contains("3  JUMPY") }
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }
}
