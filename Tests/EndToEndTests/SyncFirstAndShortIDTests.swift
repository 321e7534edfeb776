import Foundation
import Testing

/// Commands that show synced data sync first (unless --no-sync), and a short id works wherever
/// an id is asked for.
@Suite struct SyncFirstAndShortIDTests {
    @Test func historyReadingListAndStatusSyncBeforeTheyShow() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        try b.sync()
        _ = try a.play(["--word", "tiger"], ["crane", "tiger", "bookmark"])
        // B has not synced since A played: --no-sync shows what B had, the plain command what A did.
        #expect(try b.words("history").isEmpty)
        let history = (try b.run(["history", "--json"]).json as? [[String: Any]]) ?? []
        #expect(history.compactMap { $0["word"] as? String } == ["tiger"])
        _ = try a.play(["--word", "comet"], ["comet", "bookmark"])
        let list = (try b.run(["reading-list", "--json"]).json as? [[String: Any]]) ?? []
        #expect(Set(list.compactMap { $0["word"] as? String }) == ["tiger", "comet"])
        _ = try a.play(["--word", "flute"], ["flute"])
        let status = try #require(try b.run(["status", "--json"]).json as? [String: Any])
        #expect((status["sync"] as? [String: Any])?["state"] as? String == "synced")
        #expect((status["games"] as? [String: Any])?["finished"] as? Int == 3)
    }

    @Test func aShortIDWorksWhereAnIDIsAskedForAndAnAmbiguousOneIsOneLine() throws {
        let machine = Machine()
        defer { machine.remove() }
        // Seventeen finished games: two of them share the first character of their ids.
        let lines = Array(repeating: ["give-up", "new"], count: 17).flatMap { $0 }.dropLast()
        _ = try machine.play(["--word", "tiger"], lines: Array(lines))
        let ids = ((try machine.run(["history", "--json", "--no-sync"]).json as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count == 17)
        let id = ids[0]
        let shown = try machine.run(["history", "show", String(id.prefix(8)), "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(((shown.json as? [String: Any])?["game"] as? [String: Any])?["id"] as? String == id)
        let shared = try #require(Dictionary(grouping: ids, by: { $0.prefix(1) }).first { $0.value.count > 1 }?.key)
        let ambiguous = try machine.run(["history", "show", String(shared)])
        #expect(ambiguous.status != 0)
        #expect(ambiguous.stderr.split(separator: "\n").count == 1 && ambiguous.stderr.contains("starts the ids of"), "\(ambiguous.stderr)")
        let unknown = try machine.run(["history", "show", "zzzz"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no game with id 'zzzz'"))
        // Plain mode's resume takes a short id too (here of a finished game: refused as over).
        let resumed = try machine.play([], lines: ["resume \(id.prefix(8))"])
        #expect(resumed.contains { ($0["message"] as? String)?.contains("over") == true || ($0["code"] as? String) == "game-over" }, "\(resumed)")
        // Deleting by a short id deletes that game.
        let deleted = try machine.run(["history", "delete", String(id.prefix(8)), "--yes"])
        #expect(deleted.status == 0 && deleted.stdout.contains(id), "\(deleted.stdout)\(deleted.stderr)")
    }
}
