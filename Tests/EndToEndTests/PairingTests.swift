import Foundation
import TestSupport
import Testing

/// Pairing a player's second machine as a person does it, with the real binary (docs/trust.md):
/// `devices add` on the first, `devices join CODE` on the new one, and what each says on the way.
@Suite(.serialized) struct PairingTests {
    @Test func aNewMachineIsToldHowToJoin_joinsWithTheCode_andAMachineTakenOutIsRefused() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let started = Date()
        let laptop = pair.peer("laptop"), desktop = pair.peer("desktop")
        _ = try laptop.play(["--word", "tiger"], ["crane", "tiger"])

        // Not paired: sync says how in one line (exit 77), and play goes on locally.
        let refused = try desktop.run(["sync"])
        #expect(refused.status == 77, "\(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("devices add") && lines[0].contains("devices join CODE"), "\(refused.stderr)")
        let offline = try desktop.run(["play", "--plain", "--json", "--word", "comet"], input: "comet\n")
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.events.last?["result"] as? String == "won")

        // A code: 24 characters in six groups, good for ten minutes.
        let added = try laptop.run(["devices", "add", "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let object = try #require(added.json as? [String: Any])
        let code = try #require(object["code"] as? String)
        #expect(code.range(of: #"^([0-9A-Z]{4}-){5}[0-9A-Z]{4}$"#, options: .regularExpression) != nil, "\(code)")
        let expires = try #require((object["expires"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(abs(expires.timeIntervalSinceNow - 600) < 60)

        // A mistyped code is refused in one line and changes nothing.
        let typo = try desktop.run(["devices", "join", "ZZZZ-" + code.dropFirst(5)])
        #expect(typo.status == 64 && typo.stderr.split(separator: "\n").count == 1, "\(typo.stderr)")
        let short = try desktop.run(["devices", "join", "ABC"])
        #expect(short.status == 64 && short.stderr.contains("24 letters and digits"), "\(short.stderr)")

        let joined = try desktop.run(["devices", "join", code.lowercased()])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("laptop") && joined.stdout.contains("desktop"), "\(joined.stdout)")
        try desktop.sync()
        try laptop.sync()
        #expect(Set(try laptop.words("history")) == ["tiger", "comet"])
        #expect(Set(try desktop.words("history")) == ["tiger", "comet"])
        #expect(Date().timeIntervalSince(started) < Patience.seconds(60), "pairing took \(Date().timeIntervalSince(started)) s")

        // Both list the same two machines with the same fingerprints.
        func devices(_ peer: Peer) throws -> [String: String] {
            let listed = try #require((try peer.run(["devices", "--json"]).json as? [String: Any])?["devices"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: listed.compactMap { entry in
                (entry["name"] as? String).flatMap { name in (entry["fingerprint"] as? String).map { (name, $0) } }
            })
        }
        let seen = try devices(laptop)
        #expect(Set(seen.keys) == ["laptop", "desktop"])
        #expect(try devices(desktop) == seen)
        // The code works once.
        let again = pair.peer("tablet")
        let reused = try again.run(["devices", "join", code])
        #expect(reused.status == 64, "\(reused.stderr)")

        // Taken out: what the desktop writes afterwards reaches nobody, and it is told.
        let removed = try laptop.run(["devices", "remove", "desktop"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try laptop.run(["devices", "remove", "laptop"]).status == 64)
        let after = try desktop.run(["play", "--plain", "--json", "--word", "zebra"], input: "zebra\n")
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try desktop.run(["sync"]).status == 77)
        try laptop.sync()
        #expect(Set(try laptop.words("history")) == ["tiger", "comet"])
    }

    @Test func aFriendSeesThePlayersFingerprints_andTrustsAChangedSetOnlyWhenAsked() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ann = Friend("ann", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        #expect(try ann.run(["friends", "--join"]).status == 0)
        #expect(try ben.run(["friends", "--join"]).status == 0)
        let mine = try #require((try ann.json(["devices"]) as? [String: Any])?["devices"] as? [[String: Any]])
        let fingerprint = try #require(mine.first?["fingerprint"] as? String)
        let friends = try #require((try ben.json(["friends"]) as? [String: Any])?["players"] as? [[String: Any]])
        let annLine = try #require(friends.first { $0["name"] as? String == "ann" })
        #expect(annLine["fingerprint"] as? String == fingerprint, "\(friends)")

        // Ann's folder wiped and started again by a machine nobody paired: Ben refuses it until he trusts it.
        try FileManager.default.removeItem(at: pair.cloud.appendingPathComponent("players/ann"))
        let stranger = Friend("ann", device: "other", in: pair)
        #expect(try stranger.run(["friends", "--join"]).status == 0)
        let warned = try ben.run(["sync"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("friends trust ann"), "\(warned.stderr)")
        let trusted = try ben.run(["friends", "trust", "ann"])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.contains("other"), "\(trusted.stdout)")
        #expect(try ben.run(["friends", "trust", "nobody-here"]).status == 64)
    }
}

extension PairingTests {
    /// `export --with-key` carries a machine to a new data dir without pairing again; a plain
    /// export never holds the key; a data dir that signs as a machine of its own keeps its key;
    /// a key that is not one refuses the whole file.
    @Test func anExportWithTheKeyCarriesTheMachineOver_andOnlyWhenAsked() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let laptop = pair.peer("laptop"), desktop = pair.peer("desktop")
        _ = try laptop.play(["--word", "tiger"], ["crane", "tiger"])
        let plain = pair.root.appendingPathComponent("plain.json"), keyed = pair.root.appendingPathComponent("keyed.json")
        #expect(try laptop.run(["export", plain.path]).status == 0)
        #expect(!(try String(contentsOf: plain, encoding: .utf8)).contains("signingKey"), "a plain export holds no key")
        let exported = try laptop.run(["export", "--with-key", keyed.path])
        #expect(exported.status == 0 && exported.stdout.contains("secret signing key"), "\(exported.stdout) \(exported.stderr)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: keyed.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")

        // A new data dir takes the key and syncs as the laptop, with no pairing.
        let moved = Peer("laptop", cloud: pair.cloud, root: pair.root.appendingPathComponent("new-disk"))
        let imported = try moved.run(["import", keyed.path])
        #expect(imported.status == 0 && imported.stdout.contains("now signs as the machine that exported it"), "\(imported.stdout) \(imported.stderr)")
        try moved.sync()
        let listed = (try moved.run(["devices", "--json"]).json as? [String: Any])?["devices"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["name"] as? String } == ["laptop"] && listed.first?["thisMachine"] as? Bool == true, "\(listed)")

        // A machine of its own (paired) keeps its key, and says so; its games are imported.
        try desktop.pair(with: laptop)
        try desktop.sync()
        let keyFile = desktop.dataDir.appendingPathComponent("device-key")
        let before = try Data(contentsOf: keyFile)
        let kept = try desktop.run(["import", keyed.path])
        #expect(kept.status == 0 && kept.stdout.contains("was not taken"), "\(kept.stdout) \(kept.stderr)")
        #expect(try Data(contentsOf: keyFile) == before)

        // A key that is not one: exit 65, nothing imported.
        let fresh = Peer("tablet", cloud: pair.cloud, root: pair.root)
        let text = try String(contentsOf: keyed, encoding: .utf8)
        let broken = pair.root.appendingPathComponent("broken.json")
        try text.replacingOccurrences(of: #""signingKey" : ""#, with: #""signingKey" : "AAAA"#).write(to: broken, atomically: true, encoding: .utf8)
        #expect(text.contains(#""signingKey" : ""#), "the export's spelling of the key")
        let refused = try fresh.run(["import", broken.path, "--no-sync"])
        #expect(refused.status == 65 && refused.stderr.contains("signing key is not a key"), "\(refused.stderr)")
        #expect(try fresh.words("history").isEmpty, "nothing was imported")
        #expect(!FileManager.default.fileExists(atPath: fresh.dataDir.appendingPathComponent("device-key").path), "no key was written")
    }
}
