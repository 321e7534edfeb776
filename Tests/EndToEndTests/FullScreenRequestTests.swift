import Foundation
import Testing

extension FullScreenTests {
    /// A bad pack or word is refused before the screen opens: one line, status 64, in a terminal
    /// as when piped.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"),
          arguments: [["--pack", "nope"], ["--word", "qzxqz"]])
    func aBadRequestIsOneLineBeforeTheScreenOpens(request: [String]) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("qk-tmux-request-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let session = try TmuxSession(width: 80, height: 24, arguments: ["--data-dir", data.path, "--device", "tmux"] + request)
        defer { session.close() }
        #expect(try session.waitForExit() == 64)
        let screen = session.screen()
        // (The line itself goes to stderr; tmux may redraw over it as the pane's script ends.)
        #expect(!screen.contains("Guesses") && !screen.contains("1 Game"), "no screen opened:\n\(screen)")
    }
}
