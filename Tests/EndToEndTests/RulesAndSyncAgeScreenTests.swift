import Foundation
import TestSupport
import Testing

/// The game's rules at every size, and the header's sync age, on the real program in tmux.
extension FullScreenTests {
    /// At 60x20 and 40x12 the Rules box does not fit beside the board: F1 (named in the footer
    /// at 60x20) opens the help screen, which starts with the game's rules. At 80x24 the box is
    /// cut: its last line names F1, with an arrow.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func theRulesAreReachableAtEverySize() throws {
        let session = try TmuxSession(width: 60, height: 20)
        defer { session.close() }
        try session.waitFor("the board at 60x20") { $0.contains("> _ _ _ _ _") }
        session.send(["c", "r", "a", "n", "e", "Enter"])
        try session.waitFor("CRANE played at 60x20, F1 in the footer") { $0.contains("1  CRANE") && $0.contains("F1 help") }
        #expect(!session.screen().contains("Rules"), "no room for the Rules box at 60x20")
        for (width, height) in [(60, 20), (40, 12)] {
            session.resize(width: width, height: height)
            try session.waitFor("the board at \(width)x\(height)") { $0.contains("1  CRANE") || $0.contains("Guesses") }
            session.send(["F1"])
            try session.waitFor("the rules on the help screen at \(width)x\(height)") {
                $0.contains("This game") && $0.contains("Classic: a guess") && $0.contains("Win in 15 guesses or fewer.")
                    && $0.contains("Started on tmux.")
            }
            session.send(["Escape"])
            try session.waitFor("the board again at \(width)x\(height)") { !$0.contains("This game") && $0.contains("> _ _ _ _ _") }
        }
        session.resize(width: 80, height: 24)
        try session.waitFor("the Rules box cut at 80x24, naming F1") { $0.contains("Rules") && $0.contains("F1: all the rules ") && $0.contains("↓") }
        session.send(["F1"])
        try session.waitFor("the rest of the rules on the help screen at 80x24") { $0.contains("Win in 15 guesses or fewer.") && $0.contains("Started on tmux.") }
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }

    /// A new full screen on a machine that synced from the command line, its folder now gone:
    /// the header says offline and when the machine last synced, read from its database.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func aNewScreenTellsTheMachinesLastSync() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-age-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data"), cloud = root.appendingPathComponent("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let synced = try Binary.run(["sync", "--data-dir", data.path, "--cloud-dir", cloud.path, "--device", "laptop"])
        #expect(synced.status == 0, "\(synced.stderr)")
        try FileManager.default.moveItem(at: cloud, to: root.appendingPathComponent("cloud-unmounted"))
        let session = try TmuxSession(width: 100, height: 30, arguments: ["--data-dir", data.path, "--word", "tiger", "--device", "laptop"])
        defer { session.close() }
        try session.waitFor("the header: offline, with the last sync from the command line") {
            $0.contains("> _ _ _ _ _") && $0.split(separator: "\n").first?.contains("offline, synced ") == true
        }
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }
}

extension FullScreenTests {
    /// F3 opens Matches with one press, whatever the game is busy with: sent before the first
    /// board is drawn, and in the same burst as the Enter that wins (the win saved, the packs and
    /// the sync asked for while the key waits), with a cloud folder.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func f3OpensMatchesAtOnceAfterTheFirstLoadAndAfterAWin() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-f3-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let arguments = ["--data-dir", root.appendingPathComponent("data").path, "--cloud-dir", root.appendingPathComponent("cloud").path,
                         "--word", "tiger", "--device", "tmux"]
        let session = try TmuxSession(width: 100, height: 30, arguments: arguments)
        defer { session.close() }
        session.send(["F3"])
        try session.waitFor("the Matches screen, opened by the F3 sent as the game started") { $0.contains("┌─ Matches") && $0.contains("No matches yet") }
        session.send(["1"])
        try session.waitFor("the board") { $0.contains("> _ _ _ _ _") }
        session.send(["t", "i", "g", "e", "r", "Enter", "F3"])
        try session.waitFor("the Matches screen, opened by the F3 sent with the winning Enter") {
            $0.contains("┌─ Matches") && $0.contains("You found TIGER")
        }
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }
}
