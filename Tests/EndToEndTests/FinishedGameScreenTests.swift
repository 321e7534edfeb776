import Foundation
import TestSupport
import Testing

/// Keys meant for a guess never act on a finished game, on real screens in tmux: a race with the
/// other machine, a double Enter on the winning word, Ctrl-H, a refused guess.
extension FullScreenTests {
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func typingIntoAGameTheOtherMachineJustWonActsOnNothing() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let (a, b, onA, onB) = try Self.oneGameOnTwoScreens(pair)
        defer { onA.close(); onB.close() }
        onA.send(["t", "i", "g", "e", "r", "Enter"])
        try onB.waitFor("the win on B") { $0.contains("Found on laptop") }
        #expect(onB.screen().contains("Found on laptop."), "the notice names the machine that won:\n\(onB.screen())")
        // Within a second of the win arriving, B types a guess (b, r, c: the card's keys) and Enter:
        // the notice swallows the letters, and the Enter closes it as it asked.
        onB.send(["b", "r", "i", "c", "k", "Enter"])
        try onB.waitFor("the notice closed by the Enter") { !$0.contains("Enter or Esc to go on") }
        Thread.sleep(forTimeInterval: Patience.seconds(0.5))
        let screen = onB.screen()
        #expect(screen.contains("You found TIGER on laptop in 2 guesses"), "\(screen)")
        #expect(!screen.contains("was not played"), "the letters typed during the notice made no guess:\n\(screen)")
        #expect(!screen.contains("Review: TIGER") && !screen.contains("Challenge code:") && !screen.contains("is not a challenge code"), "\(screen)")
        #expect(!screen.contains("on your reading list"), "\(screen)")
        // Both machines' reading lists stay empty, and A's end message names no other machine.
        onA.send(["C-c"])
        onB.send(["C-c"])
        #expect(try onA.waitForExit() == 0)
        #expect(try onB.waitForExit() == 0)
        for peer in [a, b] {
            let list = try peer.run(["reading-list", "--json", "--no-sync"]).json as? [Any]
            #expect(list?.isEmpty == true, "\(peer.device) bookmarked: \(String(describing: list))")
        }
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func aDoubleEnterOnTheWinningWordKeepsTheFactCard() throws {
        let session = try TmuxSession(width: 100, height: 30)
        defer { session.close() }
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") }
        session.send(["t", "i", "g", "e", "r", "Enter", "Enter"])
        try session.waitFor("the card") { $0.contains("You found TIGER in 1 guess") }
        Thread.sleep(forTimeInterval: Patience.seconds(1))
        let screen = session.screen()
        #expect(screen.contains("You found TIGER in 1 guess") && screen.contains("Game over"), "the card stays:\n\(screen)")
        session.send(["Enter"])
        try session.waitFor("the next game after a deliberate Enter") { $0.contains("Guess 1 of 15") }
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func ctrlHDeletesALetterAndARefusedGuessStaysEditable() throws {
        let session = try TmuxSession(width: 100, height: 30)
        defer { session.close() }
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") }
        session.send(["c", "r", "a", "n", "x"])
        try session.waitFor("typed") { $0.contains("> C R A N X") }
        session.send(["C-h"])
        try session.waitFor("Ctrl-H deleted the X") { $0.contains("> C R A N _") }
        #expect(!session.screen().contains("Hint:") && !session.screen().contains("Thinking"))
        // A word the dictionary does not have is refused; typing starts a new word, Enter plays it.
        session.send(["q"])
        try session.waitFor("the word") { $0.contains("> C R A N Q") }
        session.send(["Enter"])
        try session.waitFor("the refusal") { $0.contains("CRANQ refused") }
        session.send(["Enter"])
        try session.waitFor("not sent again") { $0.contains("CRANQ was refused") }
        session.send(["s", "l", "a", "t", "e"])
        try session.waitFor("a new word") { $0.contains("> S L A T E") }
        session.send(["Enter"])
        try session.waitFor("played") { $0.contains("1  SLATE") }
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }

    /// At 60x20 and at the minimum 40x12 a win shows its card, which scrolls to the fact's end
    /// and the challenge code; the tabs never cut a name.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"),
          arguments: [(60, 20), (40, 12)])
    func aWinShowsItsCardAndScrollsAtSmallSizes(width: Int, height: Int) throws {
        let session = try TmuxSession(width: width, height: height)
        defer { session.close() }
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") }
        if height >= 16 { #expect(!session.screen().contains("In p"), "a cut tab name:\n\(session.screen())") }
        session.send(["t", "i", "g", "e", "r", "Enter"])
        try session.waitFor("the card") { $0.contains("You found TIGER in 1") }
        var seen = session.screen()
        for _ in 0..<12 {
            session.send(["Down"])
            Thread.sleep(forTimeInterval: Patience.seconds(0.05))
            seen += session.screen()
        }
        #expect(seen.contains("Challenge a friend:"), "the code was reached:\n\(seen)")
        #expect(seen.contains("camera-trap"), "the fact's end was reached")
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }
}
