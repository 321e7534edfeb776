import Foundation
import TestSupport
import Testing

/// A terminal that cannot draw the game is told so in one line, and a terminal that goes away
/// takes the game with it, the game saved.
extension FullScreenTests {
    /// `dumb`, a type terminfo lacks, and one terminfo has but without cursor addressing (`cup`):
    /// exit 64 with one line naming the type and plain mode, and nothing drawn.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"),
          arguments: ["dumb", "qk-no-such-terminal", "qk-nocup"])
    func aTerminalThatCannotMoveTheCursorIsToldSo(type: String) throws {
        let terminfo = temporaryFolder("qk-terminfo")
        defer { try? FileManager.default.removeItem(at: terminfo) }
        // A terminal type of our own: a description with a screen size and a clear but no `cup`.
        let source = terminfo.appendingPathComponent("nocup.src")
        try "qk-nocup|a terminal without cursor addressing,\n\tam, cols#80, lines#24,\n\tbel=^G, clear=\\E[H\\E[J, cr=\\r, cud1=\\n, ind=\\n,\n"
            .write(to: source, atomically: true, encoding: .utf8)
        if type == "qk-nocup" {
            let compiled = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/tic"), ["-x", "-o", terminfo.path, source.path], environment: [:])
            try #require(compiled.status == 0, "tic compiled the test's terminal type: \(compiled.stderr)")
        }
        let session = try TmuxSession(width: 140, height: 10, environment: ["TERM=\(type)", "TERMINFO=\(terminfo.path)"], seconds: 20)
        defer { session.close() }
        let status = try session.waitForExit()
        let lines = session.transcript().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(status == 64, "exit status for TERM=\(type)")
        let said = lines.filter { $0.contains("'\(type)'") }
        #expect(said.count == 1 && said[0].contains("play --plain"),
                "one line names the type and plain mode:\n\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("Guess") }, "nothing of the game drawn:\n\(lines.joined(separator: "\n"))")
    }

    /// The window closes (tmux's server killed, the pty's other end gone) and no SIGHUP reaches
    /// the game (a session of its own, as under a shell that does not pass it on): the game ends
    /// within a second, its guess kept. (SIGHUP itself is `sigtermRestoresTheTerminal`'s way out.)
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func aGameWhoseTerminalWentAwayEndsAndKeepsItsGame() throws {
        let session = try TmuxSession(width: 80, height: 24, ownSession: true)
        defer { session.close() }
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") }
        session.send(["c", "r", "a", "n", "e", "Enter"])
        try session.waitFor("the guess") { $0.contains("1  CRANE") }
        let pid = try session.gamePID()
        session.hangUp()
        let closed = Date()
        let limit = Patience.seconds(1)
        while Self.isRunning(pid) && Date().timeIntervalSince(closed) < limit + 5 { Thread.sleep(forTimeInterval: 0.02) }
        let took = Date().timeIntervalSince(closed)
        #expect(!Self.isRunning(pid), "the game still ran \(String(format: "%.1f", took)) s after its terminal went away")
        #expect(took <= limit, "the game ended \(String(format: "%.2f", took)) s after its terminal went away (at most \(limit) s)")
        let games = try Binary.run(["games", "--json", "--no-sync", "--data-dir", session.folder.appendingPathComponent("data").path])
        let game = try #require((games.json as? [[String: Any]])?.first, "the game is kept: \(games.stdout) \(games.stderr)")
        #expect((game["guesses"] as? [[String: Any]])?.count == 1, "the guess is kept: \(game)")
    }

    /// Running and not a zombie waiting for a parent to collect it.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return true }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}

extension TmuxSession {
    func gamePID() throws -> pid_t {
        let text = try String(contentsOf: folder.appendingPathComponent("game.pid"), encoding: .utf8)
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The screen with the lines scrolled off above it (a dead pane's note pushes the first off).
    func transcript() -> String { (try? run(["capture-pane", "-p", "-S", "-100", "-t", "game"])) ?? "" }

    /// Closes the terminal under the game: the tmux server goes, and with it the pty's master.
    func hangUp() { _ = try? run(["kill-server"]) }
}
