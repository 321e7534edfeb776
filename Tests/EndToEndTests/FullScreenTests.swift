import Foundation
import Testing

/// The full-screen game driven in a real terminal: tmux runs the built binary in a detached
/// session of a known size, sends keys, and reads the screen back.
@Suite(.serialized) struct FullScreenTests {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func aGameInTmuxFromStartToCtrlC() throws {
        let session = try TmuxSession(width: 100, height: 30)
        defer { session.close() }

        // Start: the first screen shows the board, the input line and the sync state.
        try session.waitFor("the board") { $0.contains("Guesses") && $0.contains("> _ _ _ _ _") }
        let first = session.screen()
        #expect(first.contains("sync off"))
        #expect(first.contains("Animals"))
        #expect(first.contains("Guess 1 of 15"))

        // Type a guess and see its feedback (crane shares r and e with tiger).
        session.send(["c", "r", "a", "n", "e"])
        try session.waitFor("the typed letters") { $0.contains("> C R A N E") }
        session.send(["Enter"])
        try session.waitFor("the feedback") { $0.contains("1  CRANE") && $0.contains("2 common") }
        #expect(session.screen().contains("Guess 2 of 15"))

        // Tab to the notepad, mark C out with Space; Tab on to the packs screen; 1 back to the game.
        session.send(["Tab"])
        try session.waitFor("the notepad hint") { $0.contains("Space, -, + to mark") }
        session.send(["c", "Space"])
        try session.waitFor("C marked out") { $0.contains("C✗") }
        session.send(["Tab"])
        try session.waitFor("the packs screen") { $0.contains("Packs (") && $0.contains("Enter play") }
        session.send(["1"])
        try session.waitFor("the game again") { $0.contains("1  CRANE") }

        // Resize down to 60x20 and back: the input line and the newest guess stay in view.
        for (width, height) in [(60, 20), (100, 30)] {
            session.resize(width: width, height: height)
            try session.waitFor("the layout at \(width)x\(height)") { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                return lines.count == height && lines.allSatisfy { $0.count <= width }
                    && screen.contains("> _ _ _ _ _") && screen.contains("1  CRANE")
            }
        }

        // Ctrl-C quits with status 0 and gives the terminal back as it was.
        session.send(["C-c"])
        let status = try session.waitForExit()
        #expect(status == 0)
        #expect(session.alternateScreenIsOff())
        #expect(session.terminalSettingsBefore() == session.terminalSettingsAfter(), "stty settings restored")
        #expect(!session.screen().contains("Guesses"))
    }
}

/// One tmux server on a private socket, running the game in a throwaway data dir.
struct TmuxSession {
    let socket = "qk-e2e-\(UUID().uuidString.prefix(8))"
    let folder: URL

    init(width: Int, height: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("qk-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = folder.appendingPathComponent("data").path
        let binary = Binary.url.path
        // Record the terminal settings before and after, and the exit status, in files.
        let script = """
            stty -a > '\(folder.path)/stty-before'
            '\(binary)' play --data-dir '\(data)' --word tiger --device tmux
            echo $? > '\(folder.path)/status.tmp' && mv '\(folder.path)/status.tmp' '\(folder.path)/status'
            stty -a > '\(folder.path)/stty-after'
            echo 'game over, shell back'
            sleep 600
            """
        try script.write(to: folder.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
        _ = try run(["new-session", "-d", "-s", "game", "-x", "\(width)", "-y", "\(height)",
                     "env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=tmux-256color", "HOME=\(folder.path)",
                     "sh", folder.appendingPathComponent("run.sh").path])
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FullScreenTests.tmux!)
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func send(_ keys: [String]) { _ = try? run(["send-keys", "-t", "game"] + keys) }

    func resize(width: Int, height: Int) {
        _ = try? run(["resize-window", "-t", "game", "-x", "\(width)", "-y", "\(height)"])
    }

    func screen() -> String { (try? run(["capture-pane", "-p", "-t", "game"])) ?? "" }

    /// Polls the screen until `condition` holds; fails with the screen after 10 s.
    func waitFor(_ what: String, _ condition: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition(screen()) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(what); the screen was:\n\(screen())")
        throw CancellationError()
    }

    func waitForExit() throws -> Int32? {
        let file = folder.appendingPathComponent("status")
        try waitFor("the game to exit") { _ in FileManager.default.fileExists(atPath: file.path) }
        return (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func alternateScreenIsOff() -> Bool {
        (try? run(["display-message", "-p", "-t", "game", "#{alternate_on}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    func terminalSettingsBefore() -> String? { try? String(contentsOf: folder.appendingPathComponent("stty-before"), encoding: .utf8) }
    func terminalSettingsAfter() -> String? { try? String(contentsOf: folder.appendingPathComponent("stty-after"), encoding: .utf8) }

    func close() {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
    }
}
