import Foundation
import TestSupport
import Testing

/// The data dir on a real small disk (a tmpfs the test mounts; needs root, skipped otherwise):
/// a first run with little room, a long plain session, the disk filled to the last byte, then
/// room again. Nothing reported saved is lost, the write-ahead log stays small, reading commands
/// work on the full disk, and every command works again once there is room.
@Suite(.serialized) struct FullDiskTests {
    /// The most the log may hold during a session: SQLite folds it into the database at 256 KiB
    /// and cuts it back to that size (without those settings it reached 4 MiB, 40 KiB a guess).
    static let logBound = 512 << 10

    @Test func aFullDataDiskLosesNothingAndEveryCommandWorksAgainOnceThereIsRoom() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let disk = pair.root.appendingPathComponent("disk")
        try SmallDisk.mounted(at: disk, size: "3m", for: "a full data disk") { try playOnASmallDisk(disk, pair: pair) }
    }

    private func playOnASmallDisk(_ disk: URL, pair: Pair) throws {
        let a = Peer("laptop", cloud: pair.cloud, root: disk), b = pair.peer("desktop")
        try b.pair(with: a)
        let log = a.dataDir.appendingPathComponent("qiktionary.sqlite-wal")

        // A first run with 900 KiB free, a little more than the database takes (492 KiB and its
        // 32 KiB index): it used to leave a log of about 870 KiB that could not be folded, and
        // the disk full.
        let before = try Filler(disk, leaving: 900 << 10)
        let first = try a.run(["packs"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(SmallDisk.size(log) == 0, "the first run's log is folded and emptied")
        #expect(SmallDisk.room(disk) > 256 << 10, "the first run leaves room: \(SmallDisk.room(disk)) bytes")
        try before.remove()

        // A long plain session: every guess reported is kept, and the log stays small.
        var reported = 0
        let watch = LogWatch(log)
        let session = try a.run(["play", "--plain", "--json", "--pack", "animals"], input: Self.games(10))
        let largest = watch.stop()
        #expect(session.status == 0, "\(session.stderr)")
        reported += session.events.filter { $0["event"] as? String == "feedback" }.count
        #expect(reported >= 100)
        #expect(largest <= Self.logBound, "the log reached \(largest) bytes in a session of \(reported) guesses")
        #expect(SmallDisk.size(log) == 0, "the log is emptied at the end of the session")
        print("full disk: \(reported) guesses, largest log \(largest) bytes, database \(SmallDisk.size(a.dataDir.appendingPathComponent("qiktionary.sqlite"))) bytes")
        let history = try a.list("history")

        // The disk full to the last byte: reading works (its quiet sync cannot be kept, which
        // one warning says), writing says one line, nothing changes.
        let filler = try Filler(disk)
        for command in [["status"], ["history"], ["stats"], ["history", "--json"]] {
            let result = try a.run(command)
            let warnings = result.stderr.split(separator: "\n")
            #expect(result.status == 0 && !result.stdout.isEmpty, "\(command) on a full disk: \(result.stderr)")
            #expect(warnings.count <= 1 && warnings.allSatisfy { $0.contains("is full") }, "\(command) on a full disk: \(result.stderr)")
        }
        #expect(try a.list("history").count == history.count)
        // The game in progress resumes; each guess that cannot be saved is an error, and play goes on.
        let resumed = try a.run(["play", "--plain", "--json"], input: "crane\npilot\n")
        let answers = resumed.events.compactMap { $0["event"] as? String }
        #expect(resumed.status == 0 && answers == ["started", "error", "error"], "\(resumed.stdout) \(resumed.stderr)")
        #expect(resumed.events.last?["message"] as? String == "the disk holding \(a.dataDir.path) is full: "
                + "nothing more can be saved until some space is freed there (what was saved is kept)")
        let refused = try a.run(["play", "--plain", "--json", "--pack", "animals"], input: Self.games(1))
        Self.expectOneLine(refused, saying: "the disk holding \(a.dataDir.path) is full")
        Self.expectOneLine(try a.run(["sync"]), saying: "is full")

        // Room again: every command works, and what was played before is all there.
        try filler.remove()
        try a.sync()
        let again = try a.run(["play", "--plain", "--json", "--pack", "animals"], input: Self.games(2))
        #expect(again.status == 0, "\(again.stderr)")
        reported += again.events.filter { $0["event"] as? String == "feedback" }.count
        #expect(try a.run(["status"]).status == 0)
        #expect(SmallDisk.size(log) == 0)
        try b.sync()
        for peer in [a, b] {
            let kept = try peer.list("history").compactMap { $0["guesses"] as? Int }.reduce(0, +)
            #expect(kept == reported, "\(peer.device) keeps \(kept) of the \(reported) guesses reported")
        }
    }

    /// Plain-mode lines for `count` games of 15 wrong-but-valid guesses each, a new game after each.
    static func games(_ count: Int) -> String {
        let words = Words.distinct(15 * count, length: 5, avoiding: "")
        return (0..<count).map { game in
            words[(game * 15)..<(game * 15 + 15)].joined(separator: "\n") + "\nnew animals\n"
        }.joined()
    }

    static func expectOneLine(_ result: Binary.Result, saying text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = result.stderr.split(separator: "\n")
        #expect(result.status == 74 && lines.count == 1 && result.stderr.contains(text), "exit \(result.status): \(result.stderr)",
                sourceLocation: sourceLocation)
    }
}

/// The largest a file grows while a command runs, looked at every millisecond on a thread of
/// its own.
final class LogWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var largest = 0
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init(_ file: URL) {
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                let size = SmallDisk.size(file)
                lock.withLock { largest = max(largest, size) }
                usleep(1_000)
            }
            done.signal()
        }
    }

    /// Stops looking; the largest size seen.
    func stop() -> Int {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { largest }
    }
}
