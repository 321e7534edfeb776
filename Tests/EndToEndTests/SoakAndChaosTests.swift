import Foundation
import QiktionaryCore
import Testing

/// What a machine's games look like from outside: game id → its guesses' words, in order.
func guessesByGame(_ peer: Peer) throws -> [String: [String]] {
    var all: [String: [String]] = [:]
    for command in ["games", "history"] {
        let result = try peer.run([command, "--json", "--no-sync"])
        for game in (result.json as? [[String: Any]]) ?? [] {
            guard let id = game["id"] as? String else { continue }
            if let list = game["guesses"] as? [[String: Any]] {
                all[id] = list.compactMap { $0["word"] as? String }
            } else {
                all[id] = (game["guessed"] as? [String]) ?? []
            }
        }
    }
    return all
}

/// The guesses a session reported (each was saved before it was printed): game id → words.
func reportedGuesses(_ output: String) -> [String: Set<String>] {
    var found: [String: Set<String>] = [:]
    for line in output.split(separator: "\n") {
        guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              event["event"] as? String == "feedback", let id = event["gameId"] as? String, let word = event["guess"] as? String else { continue }
        found[id, default: []].insert(word)
    }
    return found
}

@Suite(.serialized) struct SoakAndChaosTests {
    static let fiveLetterWords = Words.all.filter { $0.count == 5 && Set($0).count == 5 }
    static let secrets = ["tiger", "zebra", "camel", "horse", "mouse", "snake", "comet", "orbit", "lunar", "solar", "bread", "flour"]

    /// Two machines × three processes (two players in plain mode, one `sync --watch`) against one
    /// folder for a minute (QIKTIONARY_SOAK_SECONDS=600 for the ten-minute soak), then a final
    /// sync on both: every guess made appears exactly once on both, bookmarks match, nothing crashed.
    @Test func soak() throws {
        let seconds = ProcessInfo.processInfo.environment["QIKTIONARY_SOAK_SECONDS"].flatMap(Double.init) ?? 60
        let pair = try Pair()
        defer { pair.remove() }
        let machines = [pair.peer("laptop"), pair.peer("desktop")]
        try machines[1].pair(with: machines[0])
        for machine in machines { try machine.sync() }
        let watchers = try machines.map { machine -> Process in
            let watch = Binary.process(["sync", "--watch"] + machine.options)
            watch.standardOutput = FileHandle.nullDevice
            watch.standardError = FileHandle.nullDevice
            try watch.run()
            return watch
        }
        defer { for watch in watchers where watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(seconds)
        let workers = machines.flatMap { machine in (0..<2).map { (machine, $0) } }
        let results = try onThreads(workers.count) { index -> (guesses: [String: Set<String>], failures: [String]) in
            let (machine, worker) = workers[index]
            var rng = SeededGenerator(seed: UInt64(index))
            var guesses: [String: Set<String>] = [:], failures: [String] = []
            var round = 0
            // At least one game each, however slow the machine (a sanitizer build).
            repeat {
                let secret = Self.secrets[(index * 3 + round) % Self.secrets.count]
                var lines = (0..<Int.random(in: 2...6, using: &rng)).map { _ in Self.fiveLetterWords.randomElement(using: &rng)! }
                lines.append(Bool.random(using: &rng) ? secret : "give-up")
                lines.append(Bool.random(using: &rng) ? "bookmark" : "unbookmark")
                let result = try machine.run(["play", "--plain", "--json", "--word", secret], input: lines.map { $0 + "\n" }.joined())
                if result.status != 0 { failures.append("\(machine.device) worker \(worker) exit \(result.status): \(result.stderr)") }
                guesses.merge(reportedGuesses(result.stdout)) { $0.union($1) }
                round += 1
            } while Date() < deadline
            return (guesses, failures)
        }
        let outcome = results.reduce(into: (guesses: [String: Set<String>](), failures: [String]())) {
            $0.guesses.merge($1.guesses) { $0.union($1) }
            $0.failures += $1.failures
        }
        for watch in watchers {
            kill(watch.processIdentifier, SIGINT)
            watch.waitUntilExit()
            #expect(watch.terminationStatus == 0, "sync --watch ended with \(watch.terminationStatus)")
        }
        for _ in 0..<2 { for machine in machines { try machine.sync() } }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(3))")
        print("soak: \(Int(seconds)) s, 2 machines x 3 processes, \(outcome.guesses.count) games, \(outcome.guesses.values.map(\.count).reduce(0, +)) guesses reported, \(outcome.failures.count) failed processes")
        #expect(outcome.guesses.count >= 4, "the soak played games")
        try expectConverged(machines, reported: outcome.guesses)
    }

    /// 500 kill -9 at random moments of play and sync on both machines
    /// (QIKTIONARY_CHAOS_KILLS to change it), then recovery: nothing lost, nothing duplicated,
    /// both converge.
    @Test func chaos() throws {
        let kills = ProcessInfo.processInfo.environment["QIKTIONARY_CHAOS_KILLS"].flatMap(Int.init) ?? 500
        let pair = try Pair()
        defer { pair.remove() }
        let machines = [pair.peer("laptop"), pair.peer("desktop")]
        try machines[1].pair(with: machines[0])
        var rng = SeededGenerator(seed: 500)
        var reported: [String: Set<String>] = [:]
        var killed = 0, round = 0
        // Until the kills are done: a process that finished before its moment does not count.
        while killed < kills && round < kills * 3 {
            defer { round += 1 }
            let machine = machines[round % 2]
            let arguments: [String]
            var input = ""
            if Int.random(in: 0..<3, using: &rng) == 0 {
                arguments = ["sync"]
            } else {
                let secret = Self.secrets.randomElement(using: &rng)!
                arguments = ["play", "--plain", "--json"] + (Bool.random(using: &rng) ? ["--word", secret] : [])
                input = (0..<4).map { _ in Self.fiveLetterWords.randomElement(using: &rng)! + "\n" }.joined() + (Bool.random(using: &rng) ? "give-up\nbookmark\n" : "")
            }
            let process = Binary.process(arguments + machine.options)
            let stdin = Pipe(), stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            let output = GrowingOutput(stdout.fileHandleForReading)
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
            // Every fourth play is killed just after it reports a guess (what it reported must
            // survive); the rest at any instant from start-up and syncing to the sync at the end.
            if !input.isEmpty && round % 4 == 0 { output.wait(for: "\"feedback\"", seconds: 5) }
            usleep(UInt32.random(in: 0...200_000, using: &rng))
            if kill(process.processIdentifier, SIGKILL) == 0 { killed += 1 }
            process.waitUntilExit()
            reported.merge(reportedGuesses(output.finished())) { $0.union($1) }
        }
        // Recovery: each machine syncs until nothing is left to send, then once more.
        for _ in 0..<3 { for machine in machines { try machine.sync() } }
        #expect(killed == kills, "\(killed) processes killed in \(round) rounds")
        print("chaos: \(killed) kill -9 in \(round) runs of play and sync, \(reported.count) games, \(reported.values.map(\.count).reduce(0, +)) guesses reported before the kills")
        #expect(!reported.isEmpty)
        try expectConverged(machines, reported: reported)
    }

    func expectConverged(_ machines: [Peer], reported: [String: Set<String>], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let states = try machines.map { try guessesByGame($0) }
        #expect(states[0].keys.sorted() == states[1].keys.sorted(), "both machines have the same games", sourceLocation: sourceLocation)
        let games = try machines.map { try $0.run(["games", "--json", "--no-sync"]).stdout }
        let histories = try machines.map { try $0.run(["history", "--json", "--no-sync"]).stdout }
        #expect(games[0] == games[1], sourceLocation: sourceLocation)
        #expect(histories[0] == histories[1], sourceLocation: sourceLocation)
        let lists = try machines.map { try $0.run(["reading-list", "--json", "--no-sync"]).stdout }
        #expect(lists[0] == lists[1], "bookmarks match", sourceLocation: sourceLocation)
        for machine in machines {
            #expect((try machine.status()["sync"] as? [String: Any])?["pendingChanges"] as? Int == 0, sourceLocation: sourceLocation)
        }
        // Every reported guess is there, and no game has a guess twice.
        let everything = states[0]
        for (id, words) in everything {
            #expect(Set(words).count == words.count, "game \(id) has a guess twice: \(words)", sourceLocation: sourceLocation)
        }
        for (id, words) in reported {
            guard let found = everything[id] else {
                Issue.record("game \(id), which reported guesses, is on neither machine", sourceLocation: sourceLocation)
                continue
            }
            #expect(Set(found).isSuperset(of: words), "game \(id) lost a guess: \(words.subtracting(found))", sourceLocation: sourceLocation)
        }
    }
}

/// A process's output as it grows, read on a thread of its own.
final class GrowingOutput: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            done.signal()
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Waits until the output contains `needle`, the process ends, or the time is up.
    func wait(for needle: String, seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while !text.contains(needle) && Date() < deadline {
            if done.wait(timeout: .now() + 0.005) == .success { done.signal(); return }
        }
    }

    /// All of it, once the process has ended.
    func finished() -> String {
        done.wait()
        return text
    }
}

/// Runs `count` bodies at once, each on a thread of its own (blocking work such as waiting for a
/// child process must not hold the test runner's few cooperative threads), and returns their
/// results in order.
func onThreads<T>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
    let results = ThreadResults<T>()
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            let outcome = Result { try body(index) }
            results.lock.withLock { results.values[index] = outcome }
            group.leave()
        }
    }
    group.wait()
    return try (0..<count).map { try results.values[$0]!.get() }
}

final class ThreadResults<T>: @unchecked Sendable {
    var values: [Int: Result<T, any Error>] = [:]
    let lock = NSLock()
}
