import Foundation
import Testing

/// The daily word, challenge codes, sharing, practice words and achievements, through the real
/// binary on two machines.
@Suite(.serialized) struct DailyAndChallengeTests {
    /// The clock seam: seconds that move this machine's clock to noon UTC of a fixed date.
    static func clock(on date: String) -> [String: String] {
        let target = ISO8601DateFormatter().date(from: date + "T12:00:00Z")!.timeIntervalSince1970
        return ["QIKTIONARY_CLOCK_OFFSET": String(target - Date().timeIntervalSince1970)]
    }

    @Test func theDailyGamePlayedOfflineOnBothMachinesSyncsIntoOneGame() throws {
        let pair = try Pair()
        defer { pair.remove() }
        var a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        a.environment = Self.clock(on: "2026-03-14")
        b.environment = Self.clock(on: "2026-03-14")
        // Each machine alone (no sync in this run), the same date: the same word, the same game id.
        let firstA = try a.run(["play", "--plain", "--json", "--daily", "--no-sync"], input: "")
        let firstB = try b.run(["play", "--plain", "--json", "--daily", "--no-sync"], input: "")
        let gameA = try #require(firstA.events.first?["game"] as? [String: Any])
        let gameB = try #require(firstB.events.first?["game"] as? [String: Any])
        #expect(gameA["id"] as? String == gameB["id"] as? String)
        #expect(gameA["daily"] as? String == "2026-03-14" && gameA["pack"] as? String == gameB["pack"] as? String)
        // Both play a guess of their own, still offline; a wrong guess from each.
        let length = try #require(gameA["length"] as? Int)
        let guesses = Words.distinct(2, length: length, avoiding: "")
        _ = try a.run(["play", "--plain", "--json", "--daily", "--no-sync"], input: guesses[0] + "\n")
        _ = try b.run(["play", "--plain", "--json", "--daily", "--no-sync"], input: guesses[1] + "\n")
        // Then they sync: one game, with both guesses, on both.
        try a.sync()
        try b.sync()
        try a.sync()
        for peer in [a, b] {
            let games = try peer.list("games") + peer.list("history")
            let daily = games.filter { $0["daily"] as? String == "2026-03-14" }
            #expect(daily.count == 1, "\(peer.device): \(games)")
            let words = Set(((daily.first?["guesses"] as? [[String: Any]]) ?? []).compactMap { $0["word"] as? String })
            #expect(words == Set(guesses) || daily.first?["status"] as? String != "in-progress", "\(peer.device): \(words)")
        }
        // The next day is another word's game.
        var tomorrow = a
        tomorrow.environment = Self.clock(on: "2026-03-15")
        let next = try tomorrow.run(["play", "--plain", "--json", "--daily", "--no-sync"], input: "")
        #expect((next.events.first?["game"] as? [String: Any])?["id"] as? String != gameA["id"] as? String)
    }

    @Test func aChallengeCodePlaysTheSameWordOnAnotherMachineAndAChangedOneIsRefused() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        let made = try a.run(["challenge", "--word", "tiger", "--hard", "--no-sync"])
        #expect(made.status == 0, "\(made.stderr)")
        let code = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code.count == 12 && !code.lowercased().contains("tiger"))
        let events = try b.play(["--challenge", code, "--no-sync"], ["tiger"])
        let game = try #require(events.first?["game"] as? [String: Any])
        #expect(game["pack"] as? String == "animals" && game["hard"] as? Bool == true)
        let ended = try #require(events.last)
        #expect(ended["event"] as? String == "ended" && ended["word"] as? String == "tiger")
        #expect(ended["challenge"] as? String == code, "the finished game offers the same code to pass on")

        var changed = Array(code)
        changed[5] = changed[5] == "A" ? "B" : "A"
        let refused = try b.run(["play", "--plain", "--challenge", String(changed), "--no-sync"])
        #expect(refused.status == 64 && refused.stderr.hasPrefix("qiktionary: challenge code") && refused.stderr.split(separator: "\n").count == 1)
        #expect(try b.list("games").isEmpty, "nothing was started")
        let bad = try b.run(["challenge", "--word", "xqzte", "--no-sync"])
        #expect(bad.status == 64 && bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func aPracticeWordHasNoFactCountsInStatsAndInNoPack() throws {
        let machine = Machine()
        defer { machine.remove() }
        let events = try machine.play(["--word", "plumb"], lines: ["plumb", "share", "bookmark"])
        #expect(events.map { $0["event"] as? String } == ["started", "feedback", "ended", "share", "error"])
        #expect((events[0]["game"] as? [String: Any])?["pack"] as? String == "practice")
        #expect(events[2]["fact"] as? String == "")
        let share = try #require(events[3]["text"] as? String)
        #expect(share.hasPrefix("Qiktionary · Practice · classic · proven marks · 1/15"))
        #expect(!share.lowercased().contains("plumb"))
        let stats = try #require(try machine.run(["stats", "--json"]).json as? [String: Any])
        #expect(stats["played"] as? Int == 1 && stats["won"] as? Int == 1)
        let packs = try #require(try machine.run(["packs", "--json"]).json as? [[String: Any]])
        #expect(packs.allSatisfy { $0["solved"] as? Int == 0 } && !packs.contains { $0["id"] as? String == "practice" })
        let text = try machine.run(["play", "--plain", "--word", "plumb"], input: "plumb\n")
        #expect(text.stdout.contains("No fact for this word"))
    }

    @Test func achievementsAreTheSameOnBothMachinesAfterASync() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "tiger"], ["tiger"])           // first win, in one guess
        _ = try b.play(["--word", "plumb", "--hard"], ["plumb"])  // a practice win, hard
        try a.sync()
        try b.sync()
        try a.sync()
        let statsA = try #require(try a.run(["stats", "--json", "--no-sync"]).json as? [String: Any])
        let statsB = try #require(try b.run(["stats", "--json", "--no-sync"]).json as? [String: Any])
        let earnedA = (statsA["achievements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let earnedB = (statsB["achievements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(Set(earnedA).isSuperset(of: ["first-win", "quick-win", "first-guess", "hard-win", "no-hint-hard-win", "practice-win"]))
        #expect(earnedA == earnedB)
        #expect(NSDictionary(dictionary: statsA).isEqual(to: statsB), "stats --json is the same on both machines")
        let first = try #require((statsA["achievements"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["id", "title", "earnedAt"])
    }
}
