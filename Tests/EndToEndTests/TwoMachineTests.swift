import Foundation
import TestSupport
import Testing

/// One machine of a pair: its own data dir and device, a cloud folder it shares.
struct Peer {
    let dataDir: URL
    let cloudDir: URL
    let device: String
    var environment: [String: String] = [:]

    init(_ device: String, cloud: URL, root: URL) {
        self.device = device
        cloudDir = cloud
        dataDir = root.appendingPathComponent("data-\(device)")
    }

    var options: [String] { ["--data-dir", dataDir.path, "--cloud-dir", cloudDir.path, "--device", device] }

    @discardableResult
    func run(_ arguments: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(arguments + options, input: input, environment: environment)
    }

    /// Plays plain mode (which syncs before and after) and returns its events.
    func play(_ extra: [String] = [], _ lines: [String]) throws -> [[String: Any]] {
        let result = try run(["play", "--plain", "--json"] + extra, input: lines.map { $0 + "\n" }.joined())
        guard result.status == 0 else { throw PlayFailed(device: device, status: result.status, stderr: result.stderr) }
        return result.events
    }

    @discardableResult
    func sync(expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let result = try run(["sync", "--json"])
        #expect(result.status == status, "sync on \(device): \(result.stderr)", sourceLocation: sourceLocation)
        return (result.json as? [String: Any]) ?? [:]
    }

    func list(_ command: String) throws -> [[String: Any]] {
        (try run([command, "--json", "--no-sync"]).json as? [[String: Any]]) ?? []
    }

    func words(_ command: String) throws -> [String] { try list(command).compactMap { $0["word"] as? String } }

    func status() throws -> [String: Any] { (try run(["status", "--json"]).json as? [String: Any]) ?? [:] }

    /// Lets this machine into its player's machines through `first`, as a person does once
    /// (docs/trust.md): `devices add` there, `devices join CODE` here. `extra`: `--player NAME`.
    /// `carry` brings what one machine wrote to the other's folder when they are two folders a
    /// replicator keeps in step (`toFirst`: towards `first`'s): after the code, after the join.
    func pair(with first: Peer, _ extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
              carry: (_ toFirst: Bool) throws -> Void = { _ in }) throws {
        let added = try first.run(["devices", "add", "--json"] + extra)
        #expect(added.status == 0, "devices add on \(first.device): \(added.stderr)", sourceLocation: sourceLocation)
        let code = try #require((added.json as? [String: Any])?["code"] as? String, "devices add printed \(added.stdout)", sourceLocation: sourceLocation)
        try carry(false)
        let joined = try run(["devices", "join", code] + extra)
        try carry(true)
        #expect(joined.status == 0, "devices join on \(device): \(joined.stderr)", sourceLocation: sourceLocation)
    }
}

/// Waits until every file of `player`'s keys folder in `from` is in `to` as well (a replicator
/// carrying a pairing across), saying what it waited for if it never comes.
func waitForKeys(of player: String = "player", from: URL, to: URL, timeout: TimeInterval = 60, nudge: () throws -> Void = {}) throws {
    let manager = FileManager.default
    let source = from.appendingPathComponent("players/\(player)/keys"), target = to.appendingPathComponent("players/\(player)/keys")
    let deadline = Patience.deadline(timeout)
    var missing: [String] = []
    repeat {
        let wanted = ((try? manager.contentsOfDirectory(atPath: source.path)) ?? []).filter { !$0.hasPrefix(".") }
        missing = wanted.filter { !manager.fileExists(atPath: target.appendingPathComponent($0).path) }
        if missing.isEmpty { return }
        try nudge()
        Thread.sleep(forTimeInterval: 0.1)
    } while Date() < deadline
    Issue.record("waited \(Patience.seconds(timeout)) s for \(missing) to be carried from \(source.path) to \(target.path)")
}

/// Copies `player`'s keys folder from one folder to another, as a replicator would.
func copyKeys(of player: String = "player", from: URL, to: URL) throws {
    let manager = FileManager.default
    let source = from.appendingPathComponent("players/\(player)/keys"), target = to.appendingPathComponent("players/\(player)/keys")
    try manager.createDirectory(at: target, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: source.path) where !name.hasPrefix(".") {
        let destination = target.appendingPathComponent(name)
        try? manager.removeItem(at: destination)
        try manager.copyItem(at: source.appendingPathComponent(name), to: destination)
    }
}

/// A temporary root with a cloud folder and any number of machines.
struct Pair {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-pair-\(UUID().uuidString)")
    var cloud: URL { root.appendingPathComponent("cloud") }

    init() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cloud"), withIntermediateDirectories: true)
    }

    func peer(_ device: String, cloud: URL? = nil) -> Peer { Peer(device, cloud: cloud ?? self.cloud, root: root) }
    func remove() { try? FileManager.default.removeItem(at: root) }
}

func gameID(_ events: [[String: Any]]) -> String? {
    (events.first { $0["event"] as? String == "started" }?["game"] as? [String: Any])?["id"] as? String
}

/// The sync scenarios (docs/reliability.md) with the real binary: two data dirs, one cloud folder.
@Suite(.serialized) struct TwoMachineTests {
    @Test func scenario1_finishedOnAShowsOnB_andAHalfGameIsFinishedOnB() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "tiger"], ["crane", "tiger"])
        let half = try a.play(["--word", "comet"], ["pilot"])
        try b.sync()
        #expect(try b.words("history") == ["tiger"])
        #expect(try b.list("history").first?["device"] as? String == "laptop")
        // Plain mode on B resumes the game started on A and finishes it.
        let resumed = try b.play([], ["comet"])
        #expect(gameID(resumed) == gameID(half))
        #expect(resumed.first?["resumed"] as? Bool == true)
        #expect(resumed.last?["result"] as? String == "won")
        try a.sync()
        let history = try a.list("history")
        #expect(history.compactMap { $0["word"] as? String } == ["comet", "tiger"])
        #expect(history.first?["device"] as? String == "desktop")
        #expect(history.first?["guesses"] as? Int == 2)
        #expect(try a.list("games").isEmpty)
    }

    @Test func scenario2_bookmarksTravelBothWays() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "tiger"], ["give-up", "bookmark"])
        try b.sync()
        #expect(try b.words("reading-list") == ["tiger"])
        #expect(try b.run(["reading-list", "remove", "tiger"]).status == 0)
        try b.sync()
        try a.sync()
        #expect(try a.words("reading-list").isEmpty)
    }

    @Test func scenario3_aGameDeletedOnADisappearsFromB() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        let events = try a.play(["--word", "tiger"], ["crane", "give-up"])
        try b.sync()
        #expect(try b.words("history") == ["tiger"])
        #expect(try a.run(["history", "delete", try #require(gameID(events)), "--yes"]).status == 0)
        try a.sync()
        let report = try b.sync()
        #expect(report["deleted"] as? Int ?? 0 >= 1)
        #expect(try b.words("history").isEmpty)
    }

    @Test(arguments: ["0", "86400"])
    func scenario4_bothOfflineOnOneGameKeepEveryGuessAndTheHighestStatus(clockOffset: String) throws {
        let pair = try Pair()
        defer { pair.remove() }
        var a = pair.peer("laptop")
        a.environment = ["QIKTIONARY_CLOCK_OFFSET": clockOffset]
        let b = pair.peer("desktop")
        try b.pair(with: a)
        let id = try #require(gameID(try a.play(["--word", "tiger"], ["crane"])))
        try b.sync()
        // Offline: each plays on without the cloud.
        _ = try a.play(["--no-sync"], ["pilot", "mark z out", "give-up"])
        _ = try b.play(["--no-sync"], ["mound", "mark e in", "tiger"])
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        let onA = try #require(try a.list("history").first), onB = try #require(try b.list("history").first)
        #expect(onA["id"] as? String == id && onB["id"] as? String == id)
        #expect(onA["result"] as? String == "won" && onB["result"] as? String == "won")
        #expect(onA["guesses"] as? Int == 4 && onB["guesses"] as? Int == 4)
        #expect(onA["finishedAt"] as? String == onB["finishedAt"] as? String)
        let boardA = try a.play(["--no-sync"], ["resume \(id)"]), boardB = try b.play(["--no-sync"], ["resume \(id)"])
        #expect(boardA.isEmpty == false && boardB.isEmpty == false)
        #expect(try a.run(["stats", "--json"]).stdout == b.run(["stats", "--json"]).stdout)
    }

    @Test func scenario5_killedAtAnyMomentOfASyncLosesNothingAndDuplicatesNothing() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        var rng = SystemRandomNumberGenerator()
        var expected: [String: Int] = [:]
        let secrets = ["tiger", "zebra", "camel", "horse", "mouse", "snake"]
        for (round, secret) in secrets.enumerated() {
            let guesses = Words.distinct(3 + round % 3, length: 5, avoiding: secret)
            let events = try a.play(["--word", secret, "--no-sync"], guesses + ["give-up"])
            expected[try #require(gameID(events))] = guesses.count
            for _ in 0..<3 {
                let process = Binary.process(["sync"] + a.options)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                usleep(UInt32.random(in: 0...60_000, using: &rng))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        try a.sync()
        try b.sync()
        for peer in [a, b] {
            let history = try peer.list("history")
            #expect(history.count == secrets.count, "\(peer.device): \(history.count) games")
            for entry in history {
                #expect(expected[entry["id"] as? String ?? ""] == entry["guesses"] as? Int, "\(peer.device): \(entry)")
            }
            #expect((try peer.status()["sync"] as? [String: Any])?["pendingChanges"] as? Int == 0)
        }
    }

    @Test func scenario7_aMissingFolderMeansOfflineWithChangesQueuedUntilItReturns() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        try a.sync()
        let away = pair.root.appendingPathComponent("unmounted")
        try FileManager.default.moveItem(at: pair.cloud, to: away)
        // Play goes on; plain mode warns and keeps going.
        let played = try a.run(["play", "--plain", "--json", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(played.status == 0)
        #expect(played.events.last?["result"] as? String == "won")
        #expect(played.stderr.contains("offline"))
        let failed = try a.run(["sync"])
        #expect(failed.status == 69)
        #expect(failed.stderr.split(separator: "\n").count == 1 && failed.stderr.contains("offline"))
        let status = try a.status()
        #expect((status["sync"] as? [String: Any])?["state"] as? String == "offline")
        #expect((status["sync"] as? [String: Any])?["pendingChanges"] as? Int == 3)
        try FileManager.default.moveItem(at: away, to: pair.cloud)
        try a.sync()
        try b.sync()
        #expect(try b.words("history") == ["tiger"])
    }

    /// Root ignores file permissions, so the machine that meets a read-only folder runs as
    /// the unprivileged user `nobody` (through setpriv), as a player would.
    static let setpriv: String? = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? "/usr/bin/setpriv" : nil

    @Test(.enabled(if: setpriv != nil, "needs root and setpriv to play a user without write access"))
    func scenario7_aReadOnlyFolderSaysItIsNotWritableWithChangesQueuedUntilItIs() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop")
        let b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "comet"], ["give-up"])
        // B was paired as root (its key and database made then): all of its data dir becomes its user's.
        let owned = Process()
        owned.executableURL = URL(fileURLWithPath: "/bin/chown")
        owned.arguments = ["-R", "65534:65534", b.dataDir.path]
        try owned.run()
        owned.waitUntilExit()
        chmod(pair.root.path, 0o755)
        func asNobody(_ arguments: [String], input: String = "") throws -> Binary.Result {
            try Binary.run(["--reuid=65534", "--regid=65534", "--clear-groups", Binary.url.path] + arguments + b.options,
                           input: input, environment: ["HOME": b.dataDir.path], executable: URL(fileURLWithPath: Self.setpriv!))
        }
        // The folder belongs to root and is not writable by B's user: B reads but cannot write.
        let played = try asNobody(["play", "--plain", "--json", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.events.last?["result"] as? String == "won")
        let failed = try asNobody(["sync"])
        #expect(failed.status == 69, "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1 && failed.stderr.contains("is not writable by this user")
                && !failed.stderr.contains("offline"), "\(failed.stderr)")
        #expect(Set(((try asNobody(["history", "--json", "--no-sync"]).json as? [[String: Any]]) ?? []).compactMap { $0["word"] as? String }) == ["tiger", "comet"])
        // Writable again: everything queued goes, and A gets it.
        let writable = Process()
        writable.executableURL = URL(fileURLWithPath: "/bin/chmod")
        writable.arguments = ["-R", "a+rwX", pair.cloud.path]
        try writable.run()
        writable.waitUntilExit()
        #expect(try asNobody(["sync"]).status == 0)
        try a.sync()
        #expect(Set(try a.words("history")) == ["tiger", "comet"])
    }

    /// Three processes per machine, each playing whole games and syncing in a loop against the
    /// one folder for a minute (QIKTIONARY_SCENARIO8_SECONDS to change it), then both converge.
    @Test func scenario8_threeProcessesPerMachineSyncingAtOnceForAMinuteConverge() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let machines = [pair.peer("laptop"), pair.peer("desktop")]
        try machines[1].pair(with: machines[0])
        for machine in machines { try machine.sync() }
        let seconds = ProcessInfo.processInfo.environment["QIKTIONARY_SCENARIO8_SECONDS"].flatMap(Double.init) ?? 60
        let deadline = Date().addingTimeInterval(seconds)
        let secrets = ["tiger", "zebra", "camel", "horse", "mouse", "snake", "comet", "orbit", "lunar", "solar"]
        let workers = machines.flatMap { machine in (0..<3).map { (machine, $0) } }
        let results = try onThreads(workers.count) { index -> [String: Int] in
            let (machine, worker) = workers[index]
            var games: [String: Int] = [:]
            var round = 0
            repeat {
                let secret = secrets[(worker * 3 + round) % secrets.count]
                let guesses = Words.distinct(2 + round % 4, length: 5, avoiding: secret)
                let events = try machine.play(["--word", secret], guesses + [secret])
                if let id = gameID(events) { games[id] = guesses.count + 1 }
                try machine.run(["sync"])
                round += 1
            } while Date() < deadline
            return games
        }
        let played = results.reduce(into: [String: Int]()) { $0.merge($1) { a, _ in a } }
        for _ in 0..<2 { for machine in machines { try machine.sync() } }
        let histories = try machines.map { try $0.run(["history", "--json", "--no-sync"]).stdout }
        #expect(histories[0] == histories[1])
        let history = try machines[0].list("history")
        #expect(history.count == played.count, "every game, once")
        for entry in history {
            #expect(played[entry["id"] as? String ?? ""] == entry["guesses"] as? Int, "\(entry)")
            #expect(entry["result"] as? String == "won")
        }
        #expect(played.count >= 6)
    }

    @Test func syncWatchKeepsAMachineInStepUntilInterrupted() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        try b.sync()
        let watch = Binary.process(["sync", "--watch", "--json"] + b.options)
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        let lines = Drain(output.fileHandleForReading)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // A's finished game reaches B's database with no command run on B.
        _ = try a.play(["--word", "tiger"], ["crane", "tiger"])
        let deadline = Date().addingTimeInterval(10)
        while try b.words("history").isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try b.words("history") == ["tiger"])
        // A change made on B by another process goes out without a sync command either.
        #expect(try b.run(["reading-list", "add", "comet", "--no-sync"]).status == 0)
        let sent = Date().addingTimeInterval(10)
        repeat {
            Thread.sleep(forTimeInterval: 0.2)
            try a.sync()
        } while try a.words("reading-list").isEmpty && Date() < sent
        #expect(try a.words("reading-list") == ["comet"])
        kill(watch.processIdentifier, SIGINT)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        let reports = lines.text().split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(reports.contains { ($0["downloaded"] as? Int ?? 0) > 0 })
        #expect(reports.contains { ($0["uploaded"] as? Int ?? 0) > 0 })
    }

    @Test func scenario10_resetFlags() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "tiger"], ["crane", "tiger", "bookmark"])
        _ = try b.play(["--word", "comet"], ["pilot", "give-up", "bookmark"])
        try a.sync()
        let before = try a.run(["history", "--json", "--no-sync"]).stdout

        // --reset-sync: a full reconciliation, nothing duplicated or lost.
        #expect(try a.run(["--reset-sync"]).status == 0)
        try a.sync()
        try b.sync()
        #expect(try a.run(["history", "--json", "--no-sync"]).stdout == before)
        #expect(try b.list("history").count == 2)

        // --reset-local refuses without a terminal or --yes, then erases; sync brings it all back.
        let refused = try a.run(["--reset-local"])
        #expect(refused.status == 64)
        #expect(try a.list("history").count == 2)
        #expect(try a.run(["--reset-local", "--yes"]).status == 0)
        #expect(try a.list("history").isEmpty)
        #expect(try a.words("reading-list").isEmpty)
        try a.sync()
        #expect(try a.run(["history", "--json", "--no-sync"]).stdout == before)
        #expect(Set(try a.words("reading-list")) == ["tiger", "comet"])

        // --reset-cloud on A: B's next sync exits 65 until it adopts the reset either way.
        #expect(try a.run(["--reset-cloud"]).status == 64)
        #expect(try a.run(["--reset-cloud", "--yes"]).status == 0)
        _ = try a.play(["--word", "zebra"], ["give-up"])
        let blocked = try b.run(["sync"])
        #expect(blocked.status == 65)
        #expect(blocked.stderr.contains("--adopt-reset") && blocked.stderr.split(separator: "\n").count == 1)
        #expect(try b.run(["sync"]).status == 65, "still blocked until adopted")
        #expect((try b.status()["sync"] as? [String: Any])?["state"] as? String == "needs-attention")
        #expect(try b.run(["sync", "--adopt-reset", "upload"]).status == 0)
        try a.sync()
        #expect(Set(try a.words("history")) == ["tiger", "comet", "zebra"])
        #expect(Set(try b.words("history")) == ["tiger", "comet", "zebra"])

        // A second reset, answered by erasing: B ends with exactly the cloud's games.
        #expect(try a.run(["history", "delete", try #require(a.list("history").first { $0["word"] as? String == "comet" }?["id"] as? String), "--yes"]).status == 0)
        #expect(try a.run(["--reset-cloud", "--yes"]).status == 0)
        #expect(try b.run(["sync"]).status == 65)
        #expect(try b.run(["sync", "--adopt-reset", "erase"]).status == 0)
        #expect(Set(try b.words("history")) == ["tiger", "zebra"])
    }
}

/// Sync scenario 9: the full-screen game on B shows A's new guess and bookmark by itself.
@Suite(.serialized) struct LiveUpdateTests {
    @Test(.enabled(if: FullScreenTests.tmux != nil, "tmux is not installed (CI installs it)"))
    func scenario9_anOpenGameShowsTheOtherMachinesMovesWithinThreeSeconds() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        let id = try #require(gameID(try a.play(["--word", "tiger"], ["crane"])))
        try b.sync()
        let session = try TmuxSession(width: 100, height: 30, arguments: b.options)
        defer { session.close() }
        try session.waitFor("B's board with A's first guess") { $0.contains("CRANE") && $0.contains("synced") }

        // A plays a guess (plain mode syncs when it ends); B's screen shows it unprompted.
        _ = try a.play(["--no-sync"], ["resume \(id)", "pilot"])
        let played = Date()
        try a.sync()
        try session.waitFor("A's guess on B's screen") { $0.contains("PILOT") }
        #expect(Date().timeIntervalSince(played) < 3, "the guess showed after \(Date().timeIntervalSince(played)) s")

        // A bookmark made on A shows on B's reading list screen by itself too.
        session.send(["4"])
        try session.waitFor("the reading list") { $0.contains("Reading list") }
        #expect(try a.run(["reading-list", "add", "comet"]).status == 0)
        let bookmarked = Date()
        try a.sync()
        try session.waitFor("A's bookmark on B's reading list") { $0.contains("COMET") || $0.contains("comet") }
        #expect(Date().timeIntervalSince(bookmarked) < 3)

        session.send(["C-c"])
        #expect(try session.waitForExit() == 0)
    }
}
