import Foundation
import Testing

/// A match between two players through a real Syncthing pair (the suite's own instances): Ana on
/// folder A, Ben on folder B. It converges, with no conflict copies.
@Suite(.serialized) struct MatchSyncthingTests {
    @Test(.enabled(if: SyncthingTests.syncthing != nil, "syncthing is not installed (CI installs it: apt-get install syncthing)"))
    func aMatchThroughSyncthingConvergesWithNoConflictCopies() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-match-syncthing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let syncthing = try SyncthingPair(root: root)
        defer {
            syncthing.stop()
            try? FileManager.default.removeItem(at: root)
        }
        try syncthing.start()
        let folders = SyncthingFolders(pair: syncthing)
        let ana = Friend("ana", peer: Peer("laptop", cloud: folders.cloudA, root: root))
        let ben = Friend("ben", peer: Peer("pc", cloud: folders.cloudB, root: root))

        /// Syncs `reader` (after nudging both folders) until `done` holds, or 60 s pass.
        func wait(_ what: String, _ reader: Friend, until done: () throws -> Bool) throws {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                try folders.wrote(onA: true)
                try folders.wrote(onA: false)
                try reader.sync()
                if try done() { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
            Issue.record("\(what) did not arrive within 60 s")
        }

        #expect(try ben.run(["friends", "--join"]).status == 0)
        try wait("ben's joining", ana) { friendNames(try ana.json(["friends", "--no-sync"])) == ["ben"] }
        let id = try #require((try ana.json(["match", "new", "--against", "ben", "--seed", "11"]) as? [String: Any])?["id"] as? String)
        try wait("the match", ben) { ((try ben.json(["match", "list", "--no-sync"]) as? [[String: Any]]) ?? []).contains { $0["id"] as? String == id } }

        let words = try (1...3).map { _ in try #require(endedWord(try ana.playMatch(id, ["give-up"]))) }
        _ = try ben.playMatch(id, [words[0]])
        _ = try ben.playMatch(id, ["give-up"])
        _ = try ben.playMatch(id, [words[2]])
        func finished(_ friend: Friend) throws -> Bool {
            (try friend.json(["match", "show", id, "--no-sync"]) as? [String: Any])?["status"] as? String == "finished"
        }
        try wait("ben's games", ana) { try finished(ana) }
        try wait("ana's games", ben) { try finished(ben) }
        let shown = try [ana, ben].map { try canonical(try $0.json(["match", "show", id, "--no-sync"])) }
        #expect(shown[0] == shown[1])
        #expect((try ben.json(["match", "show", id, "--no-sync"]) as? [String: Any])?["winner"] as? String == "ben")

        #expect(syncthing.waitUntilInStep(timeout: 30), "both folders idle and complete")
        #expect(folders.conflictCopies().isEmpty, "conflict copies: \(folders.conflictCopies())")
    }
}
