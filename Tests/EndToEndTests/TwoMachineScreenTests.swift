import Foundation
import TestSupport
import Testing

/// Two machines' full-screen games on one cloud folder, in tmux: the second machine's first
/// screen, and one game finished on both at once.
extension FullScreenTests {
    static func screenArguments(_ peer: Peer) -> [String] {
        ["--data-dir", peer.dataDir.path, "--cloud-dir", peer.cloudDir.path, "--device", peer.device]
    }

    static func inProgress(_ peer: Peer) throws -> [[String: Any]] {
        (try peer.run(["games", "--json", "--no-sync"]).json as? [[String: Any]]) ?? []
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func theSecondMachinesFirstScreenShowsTheGameFromTheFirst() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        let events = try a.play(["--word", "tiger"], ["crane", "slate"])
        let id = try #require(gameID(events))
        // B is a fresh data dir: its first screen, after the first sync, is A's game.
        let session = try TmuxSession(width: 100, height: 30, arguments: Self.screenArguments(b))
        defer { session.close() }
        try session.waitFor("A's two guesses on B") { $0.contains("1  CRANE") && $0.contains("2  SLATE") }
        #expect(session.screen().contains("Guess 3 of 15"))
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
        for peer in [a, b] {
            let games = try Self.inProgress(peer)
            #expect(games.count == 1 && games.first?["id"] as? String == id, "\(peer.device): \(games)")
        }
    }

    /// A new machine of a player who already syncs: its first full screen offers the code entry;
    /// a wrong code is refused on the screen, the code `devices add` printed on the first machine
    /// lets it in, and the first machine's game arrives, all within a minute of the screen opening.
    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func aNewMachinesFirstScreenPairsItWithTheCodeFromTheFirst() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        _ = try a.play(["--word", "tiger"], ["crane"])
        let started = Date()
        let session = try TmuxSession(width: 100, height: 30, arguments: Self.screenArguments(b))
        defer { session.close() }
        try session.waitFor("the pairing screen") { $0.contains("Pair this machine") && $0.contains("qiktionary devices add") && $0.contains("not paired") }
        // A code nobody made: refused on the screen, which stays to take another.
        session.send(Array("ZZZZ0000000000000000000Z").map(String.init) + ["Enter"])
        try session.waitFor("the wrong code refused") { $0.contains("No pairing code starting ZZZZ") }
        let added = try a.run(["devices", "add", "--json"])
        let code = try #require((added.json as? [String: Any])?["code"] as? String, "devices add printed \(added.stdout) \(added.stderr)")
        session.send(["C-u"] + Array(code).map(String.init) + ["Enter"])
        // The game B started while it could not sync gives way to A's game in progress.
        try session.waitFor("joined, and A's game on B") {
            $0.contains("Your game from laptop is here") && $0.contains("1  CRANE") && $0.contains("synced")
        }
        #expect(Date().timeIntervalSince(started) < Patience.seconds(60), "paired within a minute")
        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
        let machines = (try b.run(["devices", "--json"]).json as? [String: Any])?["devices"] as? [[String: Any]] ?? []
        #expect(Set(machines.compactMap { $0["name"] as? String }) == ["laptop", "desktop"], "\(machines)")
    }

    /// One game on TIGER with SLATE played, on the screens of laptop (A) and desktop (B).
    static func oneGameOnTwoScreens(_ pair: Pair) throws -> (a: Peer, b: Peer, onA: TmuxSession, onB: TmuxSession) {
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "tiger"], ["slate"])
        let onA = try TmuxSession(width: 100, height: 30, arguments: Self.screenArguments(a))
        let onB = try TmuxSession(width: 100, height: 30, arguments: Self.screenArguments(b))
        for session in [onA, onB] { try session.waitFor("the game on both") { $0.contains("1  SLATE") && $0.contains("Guess 2 of 15") } }
        return (a, b, onA, onB)
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed; the full-screen end-to-end test needs it (CI installs it)"))
    func oneGameFinishedOnBothScreensAtOnce() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let (a, b, onA, onB) = try Self.oneGameOnTwoScreens(pair)
        defer { onA.close(); onB.close() }
        // At once: A finds the word, B plays another guess.
        onA.send(["t", "i", "g", "e", "r"])
        onB.send(["b", "r", "i", "c", "k"])
        try onA.waitFor("typed on A") { $0.contains("> T I G E R") }
        try onB.waitFor("typed on B") { $0.contains("> B R I C K") }
        onA.send(["Enter"])
        onB.send(["Enter"])
        let sent = Date()
        // Two ends are true, and which one comes is the race's: B's Enter is read before A's win
        // reaches B (BRICK is played, and both screens show it), or after (BRICK acts on nothing:
        // B says the word was found on laptop, and nobody shows BRICK). B's end comes either way.
        try onB.waitFor("the end on B") { $0.contains("You found TIGER on laptop in ") }
        let onBoardOfB = try #require((try b.run(["history", "--json", "--no-sync"]).json as? [[String: Any]])?.first)
        let brickPlayed = (onBoardOfB["guessed"] as? [String])?.contains("brick") == true
        if brickPlayed {
            for session in [onA, onB] {
                try session.waitFor("every guess and the end") { screen in
                    screen.contains("SLATE") && screen.contains("TIGER") && screen.contains("BRICK") && screen.contains("You found TIGER on laptop in ")
                }
            }
        } else {
            #expect(onB.screen().contains("Found on laptop"), "B says where the word was found:\n\(onB.screen())")
            try onA.waitFor("A's end, BRICK never played") { $0.contains("You found TIGER in 2 guesses. Score 14.") }
            #expect(!onA.screen().contains("BRICK") && !onB.screen().contains("BRICK"))
        }
        let took = Date().timeIntervalSince(sent)
        #expect(took < Patience.seconds(3), "both screens caught up in \(took) s")
        print("two full-screen games finishing at once: both screens caught up in \(String(format: "%.2f", took)) s (BRICK \(brickPlayed ? "played" : "acted on nothing"))")
        // True: the guesses that count are those up to the win in the order both machines keep
        // (BRICK before TIGER if A had seen it when it played, after the win if not).
        let history = try #require((try a.run(["history", "--json", "--no-sync"]).json as? [[String: Any]])?.first)
        let used = try #require(history["guesses"] as? Int)
        let order = try #require(history["guessed"] as? [String])
        #expect(Set(order) == Set(["slate", "tiger"] + (brickPlayed ? ["brick"] : [])) && used == order.firstIndex(of: "tiger")! + 1)
        if brickPlayed {
            let devices = try #require(history["guessedOn"] as? [String])
            #expect(devices == order.map { $0 == "brick" ? "desktop" : "laptop" }, "history says which machine played each guess")
        } else {
            #expect(history["guessedOn"] == nil, "one machine played every guess: \(history)")
        }
        if brickPlayed {
            for session in [onA, onB] {
                #expect(session.screen().contains("You found TIGER on laptop in \(used) guesses. Score \(16 - used)."))
            }
            if used == 2 { #expect(onB.screen().contains("(on desktop, after the win)")) }
        }
        onA.send(["C-c"])
        onB.send(["C-c"])
        #expect(try onA.waitForExit() == 0)
        #expect(try onB.waitForExit() == 0)
    }
}
