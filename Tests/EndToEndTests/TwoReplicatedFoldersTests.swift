import Foundation
import QiktionaryCore
import Testing

/// A stand-in for Syncthing or Dropbox between two cloud folders: it copies each device's files
/// from its owner's folder to the other one, late (a random part each round), out of order,
/// sometimes half-written first, sometimes twice, leaving conflict copies and junk behind.
struct Copier {
    var rng: SeededGenerator

    /// Copies the files below `devices/<owner>/` (and generation markers) from `source` to `target`.
    mutating func round(from source: URL, to target: URL, owner: String, everything: Bool = false) throws {
        let files = Self.files(below: source).filter { $0.contains("/devices/\(owner)/") || $0.contains("/generations/") }
        for path in files.shuffled(using: &rng) {
            if !everything && rng.chance(0.4) { continue }  // late: next round, maybe
            let from = source.appendingPathComponent(path), to = target.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: from) else { continue }
            if (try? Data(contentsOf: to)) == data { continue }
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !everything && rng.chance(0.25) {
                try data.prefix(data.count / 2).write(to: to)  // half arrived; the rest comes later
                continue
            }
            try data.write(to: to)
            if rng.chance(0.2) {
                let name = to.lastPathComponent
                let copy = rng.chance(0.5) ? "\(name).sync-conflict-20261122-101010-QKTEST1" : "\(name) (conflicted copy 2026-11-22)"
                try data.write(to: to.deletingLastPathComponent().appendingPathComponent(copy))
            }
        }
    }

    static func files(below root: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            found.append(String(url.path.dropFirst(root.path.count + 1)))
        }
        return found.filter { !$0.contains(".tmp-") && !$0.hasSuffix(".lock") }
    }
}

extension SeededGenerator {
    mutating func chance(_ p: Double) -> Bool { Double(next() % 10_000) / 10_000 < p }
}

@Suite(.serialized) struct TwoReplicatedFoldersTests {
    /// Sync scenario 6 (docs/reliability.md) with the binary: late, reordered, half-written and duplicated files,
    /// conflict copies, garbage, an enormous file, hostile names: both machines converge.
    @Test(arguments: [UInt64(1), 2, 3])
    func scenario6_twoReplicatedFoldersConverge(seed: UInt64) throws {
        let pair = try Pair()
        defer { pair.remove() }
        let cloudA = pair.cloud, cloudB = pair.root.appendingPathComponent("cloud-b")
        try FileManager.default.createDirectory(at: cloudB, withIntermediateDirectories: true)
        let a = pair.peer("laptop"), b = pair.peer("desktop", cloud: cloudB)
        try b.pair(with: a) { toFirst in try copyKeys(from: toFirst ? cloudB : cloudA, to: toFirst ? cloudA : cloudB) }
        let idA = try #require((try a.status()["device"] as? [String: Any])?["id"] as? String)
        let idB = try #require((try b.status()["device"] as? [String: Any])?["id"] as? String)
        var copier = Copier(rng: SeededGenerator(seed: seed))

        let shared = try #require(gameID(try a.play(["--word", "tiger"], ["crane"])))
        _ = try a.play(["--word", "zebra"], ["pilot", "give-up", "bookmark"])
        _ = try b.play(["--word", "comet"], ["mound", "comet", "bookmark"])
        try a.sync(); try b.sync()

        // Junk the replicator or a stranger left in B's copy.
        let devicesB = cloudB.appendingPathComponent("players/player/g0/devices")
        try FileManager.default.createDirectory(at: devicesB.appendingPathComponent("junk/zones/Games"), withIntermediateDirectories: true)
        try Data((0..<999).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: devicesB.appendingPathComponent("junk/head"))
        let huge = devicesB.appendingPathComponent("junk/zones/Games/000000000001.seg")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        try FileHandle(forWritingTo: huge).truncate(atOffset: 300 << 20)
        try FileManager.default.createDirectory(at: devicesB.appendingPathComponent("..sneaky"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: devicesB.appendingPathComponent("outside"), withDestinationURL: URL(fileURLWithPath: "/etc"))

        var playedOnB = false
        for round in 0..<8 {
            // The first round delivers everything, so the shared game reaches B; then files lag.
            try copier.round(from: cloudA, to: cloudB, owner: idA, everything: round == 0)
            try copier.round(from: cloudB, to: cloudA, owner: idB)
            // B plays on the shared game as soon as its copy of the folder has brought it.
            if !playedOnB, try b.list("games").contains(where: { $0["id"] as? String == shared }) {
                let events = try b.play(["--no-sync"], ["resume \(shared)", "pilot"])
                playedOnB = events.contains { $0["event"] as? String == "feedback" }
            }
            if round == 2 { _ = try a.play(["--no-sync"], ["resume \(shared)", "mound"]) }
            for peer in [a, b] {
                let result = try peer.run(["sync", "--json"])
                #expect(result.status == 0, "round \(round) on \(peer.device): \(result.stderr)")
            }
        }
        // The replicator catches up in the end: a round to carry the last changes, one for the
        // merges they cause, one to carry those back.
        for _ in 0..<3 {
            try copier.round(from: cloudA, to: cloudB, owner: idA, everything: true)
            try copier.round(from: cloudB, to: cloudA, owner: idB, everything: true)
            try a.sync(); try b.sync()
        }
        let historyA = try a.run(["history", "--json", "--no-sync"]).stdout, historyB = try b.run(["history", "--json", "--no-sync"]).stdout
        #expect(historyA == historyB)
        #expect(Set(try a.words("history")) == ["zebra", "comet"])
        let gamesA = try a.run(["games", "--json", "--no-sync"]).stdout, gamesB = try b.run(["games", "--json", "--no-sync"]).stdout
        #expect(gamesA == gamesB)
        #expect(playedOnB, "the shared game reached B through the replicated folder")
        let game = try #require(try a.list("games").first)
        #expect(Set(((game["guesses"] as? [[String: Any]]) ?? []).compactMap { $0["word"] as? String }) == ["crane", "pilot", "mound"])
        let listA = Set(try a.words("reading-list")), listB = Set(try b.words("reading-list"))
        #expect(listA == ["zebra", "comet"] && listB == listA)
    }
}
