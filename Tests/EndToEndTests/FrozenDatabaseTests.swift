import Foundation
import TestSupport
import Testing

/// A database and cloud folder made by the release before issue 12 changed how times are stored
/// (`Fixtures/make-release-fixture.py`, run once with the build of commit 830e52c). Every later
/// build must open it, migrate it, show exactly what that release showed, and send the changes
/// it still had waiting.
@Suite("A database from the previous release")
struct FrozenDatabaseTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/before-issue-12")

    /// Copies the frozen laptop and cloud folder, so the test never changes the fixture.
    static func copy() throws -> (laptop: URL, cloud: URL, root: URL) {
        let root = temporaryFolder("qk-frozen")
        for name in ["laptop", "cloud"] {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
        return (root.appendingPathComponent("laptop"), root.appendingPathComponent("cloud"), root)
    }

    static func expected(_ name: String) throws -> Any {
        let data = try Data(contentsOf: fixture.appendingPathComponent("expected/\(name).json"))
        return try JSONSerialization.jsonObject(with: data)
    }

    /// The commands whose output the release recorded, keyed by the recorded file's name.
    static func commands(player: String) throws -> [(name: String, arguments: [String])] {
        var list: [(String, [String])] = [
            ("\(player)-games", ["games", "--json"]),
            ("\(player)-history", ["history", "--json"]),
            ("\(player)-reading-list", ["reading-list", "--json"]),
            ("\(player)-stats", ["stats", "--json"]),
        ]
        let history = try #require(try expected("\(player)-history") as? [[String: Any]])
        for game in history {
            let id = try #require(game["id"] as? String)
            list.append(("\(player)-show-\(id)", ["history", "show", id, "--json"]))
        }
        return list.map { (name: $0.0, arguments: ["--player", player] + $0.1) }
    }

    /// Keys later releases added to the JSON the release recorded (the daily word's number, a
    /// game's help level, the coached games apart in stats): left out before comparing, so every
    /// key the release printed must still read the same.
    static let addedSince: Set<String> = ["dailyNumber", "assist", "coach"]

    static func withoutAddedKeys(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !addedSince.contains($0.key) }.mapValues(withoutAddedKeys)
        }
        if let array = value as? [Any] { return array.map(withoutAddedKeys) }
        return value
    }

    static func check(dataDir: URL, extra: [String], player: String) throws {
        for command in try commands(player: player) {
            let result = try Binary.run(["--data-dir", dataDir.path] + extra + command.arguments)
            #expect(result.status == 0, "\(command.arguments): \(result.stderr)")
            var got = withoutAddedKeys(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
            var want = try expected(command.name)
            // A game's review and challenge code are worked out from the packs shipped now (the
            // pack's words left at each guess, its version in the code), not read from the
            // database: the game shown must read the same, those may not.
            if command.name.contains("-show-") {
                let fromPacks: Set<String> = ["guesses", "skill", "luck", "challenge"]
                got = (got as? [String: Any])?.filter { !fromPacks.contains($0.key) } ?? got
                want = (want as? [String: Any])?.filter { !fromPacks.contains($0.key) } ?? want
            }
            #expect(NSObject.equal(got, want), "\(command.name) differs:\n\(result.stdout)")
        }
    }

    @Test("opens, migrates and shows every game, guess, mark, hint, bookmark and statistic as before")
    func opensAsBefore() throws {
        let (laptop, _, root) = try Self.copy()
        defer { try? FileManager.default.removeItem(at: root) }
        for player in ["player", "sam"] {
            try Self.check(dataDir: laptop, extra: ["--no-sync"], player: player)
        }
        // Opening twice changes nothing: the migration ran once and its result is stable.
        try Self.check(dataDir: laptop, extra: ["--no-sync"], player: "player")
    }

    @Test("sends the changes it had waiting, and a new machine then shows the same")
    func sendsWhatWasWaiting() throws {
        let (laptop, cloud, root) = try Self.copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let newMachine = root.appendingPathComponent("new")
        for player in ["player", "sam"] {
            let sent = try Binary.run(["--data-dir", laptop.path, "--cloud-dir", cloud.path, "--player", player, "sync", "--json"])
            #expect(sent.status == 0, "\(sent.stderr)")
            // The new machine joins the player's machines once, with a code from the laptop.
            let added = try Binary.run(["--data-dir", laptop.path, "--cloud-dir", cloud.path, "--player", player, "devices", "add", "--json"])
            let code = try #require((added.json as? [String: Any])?["code"] as? String, "devices add: \(added.stderr)")
            let joined = try Binary.run(["--data-dir", newMachine.path, "--cloud-dir", cloud.path, "--device", "new", "--player", player,
                                         "devices", "join", code])
            #expect(joined.status == 0, "devices join: \(joined.stderr)")
            let fetched = try Binary.run(["--data-dir", newMachine.path, "--cloud-dir", cloud.path, "--device", "new",
                                          "--player", player, "sync", "--json"])
            #expect(fetched.status == 0, "\(fetched.stderr)")
            try Self.check(dataDir: newMachine, extra: ["--no-sync"], player: player)
            // And the laptop, after its sync, still shows what it showed.
            try Self.check(dataDir: laptop, extra: ["--no-sync"], player: player)
        }
        // The practice game deleted while offline is gone from the new machine too.
        let history = try Binary.run(["--data-dir", newMachine.path, "--no-sync", "--player", "player", "history", "show",
                                      "a5e1c387-d87e-45c5-ab13-b0a436380ec8", "--json"])
        #expect(history.status != 0)
    }
}

extension NSObject {
    /// Deep equality of two values from `JSONSerialization`.
    static func equal(_ a: Any, _ b: Any) -> Bool {
        (a as? NSObject)?.isEqual(b as? NSObject) ?? false
    }
}
