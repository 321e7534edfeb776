import Foundation
import Testing

/// Two machines syncing through a real replicator: two Syncthing instances of the test's own on
/// 127.0.0.1, one folder pair shared between them, each folder one machine's `--cloud-dir`.
/// docs/syncthing.md is the players' side of the same setup; docs/reliability.md has the figures.
@Suite(.serialized) struct SyncthingTests {
    /// The syncthing executable, or nil; a missing one is said loudly, never passed silently.
    static let syncthing: String? = {
        let found = SyncthingInstance.executable
        if found == nil { print("SKIPPED: syncthing not installed (SyncthingTests need it; CI installs it: apt-get install syncthing)") }
        return found
    }()

    // Skipped, loudly, only where syncthing is missing: the test runs a real Syncthing and
    // cannot stand in for it. `.ci/run` installs Debian's syncthing, so in CI it always runs.
    @Test(.enabled(if: syncthing != nil, "syncthing is not installed (CI installs it: apt-get install syncthing)"))
    func twoMachinesThroughSyncthingConvergeWithNoConflictCopies() throws {
        let began = Date()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-syncthing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let syncthing = try SyncthingPair(root: root)
        defer {
            syncthing.stop()
            let left = syncthing.a.processesLeft() + syncthing.b.processesLeft()
            #expect(!syncthing.a.isRunning && !syncthing.b.isRunning && left.isEmpty, "both Syncthing instances stopped: \(left)")
            try? FileManager.default.removeItem(at: root)
        }
        do {
            try syncthing.start()
        } catch {
            Issue.record("Syncthing did not start: \(error)")
            throw error
        }
        let started = Date().timeIntervalSince(began)
        let folders = SyncthingFolders(pair: syncthing)
        let scenario = ReplicatedScenario(folders: folders, root: root)
        try scenario.run()

        // Everything has gone both ways: nothing left to replicate, and no conflict copy anywhere.
        #expect(syncthing.waitUntilInStep(timeout: 30), "both folders idle and complete")
        let conflicts = folders.conflictCopies()
        #expect(conflicts.isEmpty, "conflict copies: \(conflicts)")
        let took = Date().timeIntervalSince(began)
        print(scenario.report(replicator: "syncthing \(folders.version)", conflicts: conflicts.count, took: took, startup: started))
        #expect(took < 180, "the Syncthing test took \(Int(took)) s; it must take at most three minutes")
    }
}

/// The same scenario over the second real kind of shared folder that runs here: sshfs over
/// loopback (FUSE, an sshd of the test's own on 127.0.0.1). Machine A uses the folder itself,
/// machine B the sshfs mount of it.
@Suite(.serialized) struct SshfsLoopbackTests {
    // Skipped, loudly and with the exact reason (printed as "SKIPPED: sshfs over loopback: …"),
    // where this machine cannot mount sshfs: no sshfs or sshd, no /dev/fuse, or a sandbox that
    // refuses the mount. The reason is found by trying, not guessed.
    @Test(.enabled(if: SshfsFolders.problem == nil, "sshfs over loopback cannot run here; the reason is printed as SKIPPED: sshfs over loopback: …"))
    func twoMachinesThroughAnSshfsMountConverge() throws {
        let began = Date()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-sshfs-\(UUID().uuidString)")
        let folders = SshfsFolders(root: root)
        defer {
            folders.stop()
            let left = folders.processesLeft()
            #expect(!folders.isRunning && left.isEmpty && !folders.mounted, "sshfs unmounted, sshd and sshfs stopped: \(left)")
            if !folders.mounted { try? FileManager.default.removeItem(at: root) }
        }
        try folders.start()
        let started = Date().timeIntervalSince(began)
        let scenario = ReplicatedScenario(folders: folders, root: root)
        try scenario.run()
        let conflicts = folders.conflictCopies()
        #expect(conflicts.isEmpty, "conflict copies: \(conflicts)")
        let took = Date().timeIntervalSince(began)
        print(scenario.report(replicator: "sshfs over loopback", conflicts: conflicts.count, took: took, startup: started))
        #expect(took < 180, "the sshfs test took \(Int(took)) s; it must take at most three minutes")
    }
}

/// What the scenario needs of a pair of shared folders: where each machine's folder is, a nudge
/// after a machine has written (a Syncthing scan), and the conflict copies left in them.
protocol ReplicatedFolders {
    var cloudA: URL { get }
    var cloudB: URL { get }
    /// Called right after a sync on one machine wrote to its folder.
    func wrote(onA: Bool) throws
    func conflictCopies() -> [String]
}

struct SyncthingFolders: ReplicatedFolders {
    let pair: SyncthingPair
    var cloudA: URL { pair.folderA }
    var cloudB: URL { pair.folderB }

    func wrote(onA: Bool) throws { try (onA ? pair.a : pair.b).scan() }

    /// Every file below either folder, hidden ones and Syncthing's own included, whose name
    /// holds `.sync-conflict-`.
    func conflictCopies() -> [String] {
        [cloudA, cloudB].flatMap { folder -> [String] in
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
            return walker.compactMap { $0 as? String }.filter { ($0 as NSString).lastPathComponent.contains(".sync-conflict-") }
                .map { folder.lastPathComponent + "/" + $0 }
        }
    }

    var version: String {
        ((try? pair.a.json("GET", "/rest/system/version"))?["version"] as? String) ?? "?"
    }
}

/// The three steps the issue asks for, played by two machines (laptop on folder A, desktop on
/// folder B) through replicated folders, with an expected model of every game and bookmark that
/// both machines must end with exactly.
final class ReplicatedScenario {
    let folders: any ReplicatedFolders
    let a: Peer
    let b: Peer
    /// Seconds from a sync on one machine to the change visible on the other, per wait.
    private(set) var latencies: [(String, Double)] = []
    /// The same for changes left to the replicator's own watcher (no nudge), kept apart.
    private(set) var unnudged: [(String, Double)] = []
    /// Finished games: id → word, result, words guessed.
    private var history: [String: (word: String, result: String, guessed: [String])] = [:]
    /// Games in progress: id → words guessed.
    private var inProgress: [String: Set<String>] = [:]
    private var bookmarks: Set<String> = []

    init(folders: any ReplicatedFolders, root: URL) {
        self.folders = folders
        a = Peer("laptop", cloud: folders.cloudA, root: root)
        b = Peer("desktop", cloud: folders.cloudB, root: root)
    }

    /// Guesses that are dictionary words of five letters, none repeating a letter, none a secret.
    static let secrets = ["tiger", "orbit", "zebra", "camel", "comet"]
    static let guesses: [String] = Words.all.filter { word in
        word.count == 5 && Set(word).count == 5 && !secrets.contains(word) && !secrets.contains { Set($0) == Set(word) }
    }.prefix(12).map { $0 }

    func run() throws {
        let g = Self.guesses
        try #require(g.count == 12, "enough guess words in the dictionary")
        try a.sync()
        // The desktop joins the laptop's machines once, the code and the join carried by the replicator.
        try b.pair(with: a) { toFirst in
            try folders.wrote(onA: !toFirst)
            try waitForKeys(from: toFirst ? folders.cloudB : folders.cloudA, to: toFirst ? folders.cloudA : folders.cloudB) {
                try folders.wrote(onA: !toFirst)
            }
        }
        try b.sync()

        // 1. Started on A (two guesses, A syncs), resumed and finished on B.
        let first = try play(a, ["--word", "tiger", "--no-sync"], [g[0], g[1]])
        let id1 = try #require(gameID(first))
        try sent(from: a, "A's game with two guesses reaches B") { _ in
            try self.b.list("games").first { $0["id"] as? String == id1 }.map(Self.guessWords) == [g[0], g[1]]
        }
        let resumed = try play(b, ["--no-sync"], ["tiger"])
        #expect(gameID(resumed) == id1 && resumed.first?["resumed"] as? Bool == true, "B resumed A's game")
        #expect(resumed.last?["result"] as? String == "won")
        history[id1] = ("tiger", "won", [g[0], g[1], "tiger"])
        try sent(from: b, "B's win reaches A") { _ in try self.finished(on: self.a, id1) }

        // 2. Concurrent: a shared game both play into at once, and one game each finished at once.
        let shared = try #require(gameID(try play(a, ["--word", "orbit", "--no-sync"], [g[2]])))
        inProgress[shared] = [g[2]]
        try sent(from: a, "the shared game reaches B") { _ in
            try self.b.list("games").contains { $0["id"] as? String == shared }
        }
        // Both machines start at the same moment: each plays a guess into the shared game and
        // then a game of its own to the end, plain mode syncing before and after each.
        let go = Date().addingTimeInterval(0.5)
        let (peerA, peerB) = (a, b)
        let outcomes = try onThreads(2) { index -> (id: String, result: String) in
            let peer = index == 0 ? peerA : peerB
            Thread.sleep(until: go)
            let intoShared = try Binary.run(["play", "--plain", "--json"] + peer.options, input: "resume \(shared)\n\(g[3 + index])\n")
            let own = index == 0 ? (["--word", "zebra"], [g[5], g[6], "zebra"]) : (["--word", "camel"], [g[7], "give-up"])
            let finished = try Binary.run(["play", "--plain", "--json"] + own.0 + peer.options, input: own.1.map { $0 + "\n" }.joined())
            guard intoShared.status == 0, finished.status == 0,
                  intoShared.events.contains(where: { $0["event"] as? String == "feedback" }) else {
                throw SyncthingError("play on \(peer.device): \(intoShared.stderr) \(finished.stderr)")
            }
            return (gameID(finished.events) ?? "", finished.events.last?["result"] as? String ?? "")
        }
        #expect(outcomes[0].result == "won" && outcomes[1].result == "gave-up", "\(outcomes)")
        let zebra = outcomes[0].id, camel = outcomes[1].id
        history[zebra] = ("zebra", "won", [g[5], g[6], "zebra"])
        history[camel] = ("camel", "gave-up", [g[7]])
        inProgress[shared] = [g[2], g[3], g[4]]
        try sent(from: a, "A's finished game and shared guess reach B") { _ in
            try self.finished(on: self.b, zebra) && self.progress(on: self.b, shared).contains(g[3])
        }
        try sent(from: b, "B's finished game and shared guess reach A") { _ in
            try self.finished(on: self.a, camel) && self.progress(on: self.a, shared) == [g[2], g[3], g[4]]
        }

        // 3. A bookmark on each machine, and a game B finished deleted on A.
        try check(a.run(["reading-list", "add", "tiger", "--no-sync"]))
        try check(b.run(["reading-list", "add", "comet", "--no-sync"]))
        try check(a.run(["history", "delete", camel, "--yes", "--no-sync"]))
        history[camel] = nil
        bookmarks = ["tiger", "comet"]
        try sent(from: a, "A's bookmark and deletion reach B") { _ in
            try Set(self.b.words("reading-list")).contains("tiger") && !self.b.list("history").contains { $0["id"] as? String == camel }
        }
        // This one without the nudge: how long the replicator's own watcher takes.
        try sent(from: b, "B's bookmark reaches A", nudge: false) { _ in try Set(self.a.words("reading-list")) == self.bookmarks }

        // The cloud reset on A (which uploads A's games into a new generation): B's sync exits
        // 65 once the new generation's marker has arrived. A plays on; B plays on offline until
        // it adopts the reset, which uploads what it has into the new cloud.
        try sent(from: a, by: ["--reset-cloud", "--yes"], "A's cloud reset reaches B (its sync exits 65)", statuses: [0, 65, 69]) { $0.status == 65 }
        let blocked = try b.run(["sync", "--json"])
        #expect(blocked.status == 65 && blocked.stderr.contains("--adopt-reset"), "still blocked until adopted: \(blocked.stderr)")
        let comet = try #require(gameID(try play(a, ["--word", "comet", "--no-sync"], [g[8], "comet"])))
        history[comet] = ("comet", "won", [g[8], "comet"])
        _ = try play(b, ["--no-sync"], ["resume \(shared)", g[9]])
        inProgress[shared]?.insert(g[9])
        try sent(from: b, by: ["sync", "--adopt-reset", "upload"], "B's games, adopted into the new cloud, reach A") { _ in
            try self.progress(on: self.a, shared).contains(g[9]) && self.finished(on: self.a, id1) && !self.a.list("history").contains { $0["id"] as? String == camel }
        }
        try sent(from: a, "A's game after the reset reaches B") { _ in try self.finished(on: self.b, comet) }

        // Both sync in turn (what one merges, the other fetches) until they hold exactly the
        // same, and exactly what was played.
        let deadline = Date().addingTimeInterval(45)
        while true {
            for peer in [a, b] {
                try check(peer.run(["sync", "--json"]))
                try folders.wrote(onA: peer.device == a.device)
            }
            if try same() && asExpected(a) && asExpected(b) { break }
            guard Date() < deadline else {
                Issue.record("the two machines did not converge in 45 s")
                break
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        try verify()
    }

    /// The end: both machines hold the same games, history, reading list and stats, and those
    /// are exactly what was played: nothing lost, nothing twice, nothing deleted come back.
    func verify() throws {
        for peer in [a, b] {
            let entries = try peer.list("history")
            let ids = entries.compactMap { $0["id"] as? String }
            #expect(ids.count == Set(ids).count, "\(peer.device): no game twice in history")
            #expect(Set(ids) == Set(history.keys), "\(peer.device): history \(ids) should be \(history.keys.sorted())")
            for entry in entries {
                let id = entry["id"] as? String ?? "", expected = history[id]
                #expect(entry["word"] as? String == expected?.word && entry["result"] as? String == expected?.result, "\(peer.device): \(entry)")
                if let guessed = entry["guessed"] as? [String] { #expect(guessed == expected?.guessed, "\(peer.device): \(entry)") }
                #expect(entry["guesses"] as? Int == expected?.guessed.count, "\(peer.device): \(entry)")
            }
            let games = try peer.list("games")
            #expect(Set(games.compactMap { $0["id"] as? String }) == Set(inProgress.keys) && games.count == inProgress.count, "\(peer.device): games in progress")
            for game in games {
                let words = Self.guessWords(game)
                #expect(words.count == Set(words).count && Set(words) == inProgress[game["id"] as? String ?? ""], "\(peer.device): \(words)")
            }
            let list = try peer.words("reading-list")
            #expect(list.count == Set(list).count && Set(list) == bookmarks, "\(peer.device): reading list \(list)")
            #expect((try peer.status()["sync"] as? [String: Any])?["pendingChanges"] as? Int == 0, "\(peer.device): nothing left to send")
        }
        for command in ["games", "history", "reading-list", "stats"] {
            let onA = try a.run([command, "--json", "--no-sync"]), onB = try b.run([command, "--json", "--no-sync"])
            #expect(onA.status == 0 && onA.stdout == onB.stdout, "\(command) --json differs:\nA: \(onA.stdout)\nB: \(onB.stdout)")
        }
    }

    func same() throws -> Bool {
        try ["games", "history", "reading-list", "stats"].allSatisfy { command in
            try a.run([command, "--json", "--no-sync"]).stdout == b.run([command, "--json", "--no-sync"]).stdout
        }
    }

    func asExpected(_ peer: Peer) throws -> Bool {
        let games = try peer.list("games")
        guard Set(try peer.list("history").compactMap { $0["id"] as? String }) == Set(history.keys),
              games.count == inProgress.count, Set(try peer.words("reading-list")) == bookmarks else { return false }
        return try history.keys.allSatisfy { try finished(on: peer, $0) }
            && games.allSatisfy { Set(Self.guessWords($0)) == inProgress[$0["id"] as? String ?? ""] }
    }

    // MARK: Helpers

    /// Plays plain mode (which syncs before and after) and returns its events.
    func play(_ peer: Peer, _ extra: [String], _ lines: [String]) throws -> [[String: Any]] {
        let result = try peer.run(["play", "--plain", "--json"] + extra, input: lines.map { $0 + "\n" }.joined())
        try #require(result.status == 0, "play on \(peer.device): \(result.stderr)")
        return result.events
    }

    static func guessWords(_ game: [String: Any]) -> [String] {
        ((game["guesses"] as? [[String: Any]]) ?? []).compactMap { $0["word"] as? String }
    }

    func check(_ result: Binary.Result, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(result.status == 0, "exited \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// The words guessed so far in a game in progress on `peer`.
    func progress(on peer: Peer, _ id: String) throws -> Set<String> {
        Set(try peer.list("games").first { $0["id"] as? String == id }.map(Self.guessWords) ?? [])
    }

    func finished(on peer: Peer, _ id: String) throws -> Bool {
        guard let expected = history[id] else { return false }
        guard let entry = try peer.list("history").first(where: { $0["id"] as? String == id }) else { return false }
        return entry["word"] as? String == expected.word && entry["result"] as? String == expected.result
            && (entry["guessed"] as? [String]).map { Set($0) == Set(expected.guessed) } ?? (entry["guesses"] as? Int == expected.guessed.count)
    }

    /// Runs `command` (a sync, or another command that writes to the cloud folder) on `sender`,
    /// nudges the replicator, then syncs the other machine until `arrived` holds, recording how
    /// long that took from the end of the command.
    func sent(from sender: Peer, by command: [String] = ["sync", "--json"], _ what: String, statuses allowed: Set<Int32> = [0], timeout: TimeInterval = 45,
                       nudge: Bool = true, _ arrived: (Binary.Result) throws -> Bool) throws {
        let sync = try sender.run(command)
        try #require(sync.status == 0, "\(command.joined(separator: " ")) on \(sender.device): \(sync.stderr)")
        let receiver = sender.device == a.device ? b : a
        let t0 = Date()
        if nudge { try folders.wrote(onA: sender.device == a.device) }
        let deadline = t0.addingTimeInterval(timeout)
        var last = ""
        repeat {
            let result = try receiver.run(["sync", "--json"])
            #expect(allowed.contains(result.status), "\(what): sync on \(receiver.device) exited \(result.status): \(result.stderr)")
            if try arrived(result) {
                if nudge { latencies.append((what, Date().timeIntervalSince(t0))) } else { unnudged.append((what, Date().timeIntervalSince(t0))) }
                return
            }
            last = result.stderr
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        Issue.record("timed out after \(Int(timeout)) s waiting for: \(what) (last stderr: \(last))")
        throw SyncthingError("timed out: \(what)")
    }

    func report(replicator: String, conflicts: Int, took: Double, startup: Double) -> String {
        let values = latencies.map(\.1).sorted()
        let median = values.isEmpty ? 0 : values.count % 2 == 1 ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
        let steps = (latencies + unnudged.map { ("\($0.0) (not nudged)", $0.1) }).map { String(format: "%@ %.2f s", $0.0, $0.1) }.joined(separator: "; ")
        let watcher = unnudged.map { String(format: "%.2f s", $0.1) }.joined(separator: ", ")
        return String(format: "%@: replication latency median %.2f s, max %.2f s over %d changes (%@ for a change not nudged); conflict copies: %d; took %.1f s (%.1f s to start the replicator)\n  per change: %@",
                      replicator, median, values.last ?? 0, values.count, watcher.isEmpty ? "none" : watcher, conflicts, took, startup, steps)
    }
}
