import Foundation
import TestSupport
import Testing

/// A machine of one player of a folder several players share.
struct Friend {
    let peer: Peer
    let name: String

    init(_ name: String, device: String, in pair: Pair) {
        self.init(name, peer: pair.peer(device))
    }

    init(_ name: String, peer: Peer) {
        self.name = name
        self.peer = peer
    }

    @discardableResult
    func run(_ arguments: [String], input: String = "") throws -> Binary.Result {
        try peer.run(arguments + ["--player", name], input: input)
    }

    func json(_ arguments: [String]) throws -> Any? {
        let result = try run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments) as \(name) on \(peer.device): \(result.stderr)")
        return result.json
    }

    /// Plays the next game of the match in plain mode (syncing before and after): `lines`
    /// given, then the game's events.
    func playMatch(_ id: String, _ lines: [String]) throws -> [[String: Any]] {
        let result = try run(["play", "--plain", "--json", "--match", id], input: lines.map { $0 + "\n" }.joined())
        #expect(result.status == 0, "play --match as \(name): \(result.stderr)")
        return result.events
    }

    /// Lets this machine into the player's machines through `first` (another machine of theirs).
    func pair(with first: Friend) throws { try peer.pair(with: first.peer, ["--player", name]) }

    func sync() throws {
        let result = try run(["sync"])
        #expect(result.status == 0, "sync as \(name) on \(peer.device): \(result.stderr)")
    }

    /// The ids of this player's games in their history here.
    func historyIDs() throws -> [String] {
        ((try run(["history", "--json", "--no-sync"]).json as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }
}

/// The names `friends --json` lists.
func friendNames(_ json: Any?) -> [String] {
    (((json as? [String: Any])?["players"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
}

func endedWord(_ events: [[String: Any]]) -> String? {
    events.first { $0["event"] as? String == "ended" }?["word"] as? String
}

func canonical(_ value: Any?) throws -> String {
    guard let value else { return "nil" }
    return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
}

/// Two players in one folder, one of them on two machines (docs/multiplayer.md).
@Suite(.serialized) struct MatchEndToEndTests {
    @Test func aWholeMatchThroughPlainModeAndSyncs_showsTheSameOnEveryMachine() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let laptop = Friend("ana", device: "laptop", in: pair), desk = Friend("ana", device: "desk", in: pair)
        let ben = Friend("ben", device: "pc", in: pair)
        try desk.pair(with: laptop)
        // Ben joins; Ana's machines see him and she challenges him.
        #expect(try ben.run(["friends", "--join"]).status == 0)
        #expect(friendNames(try laptop.json(["friends"])) == ["ben"])
        let made = try laptop.json(["match", "new", "--against", "ben", "--seed", "7"]) as? [String: Any]
        let id = try #require(made?["id"] as? String)
        #expect(made?["players"] as? [String] == ["ana", "ben"])
        let benList = try ben.json(["match", "list"]) as? [[String: Any]]
        #expect(benList?.first?["id"] as? String == id)
        let anaHistoryBefore = try laptop.historyIDs()

        // Ana gives up every game, on either machine; each gives its word away to the test.
        let w1 = try #require(endedWord(try laptop.playMatch(id, ["give-up"])))
        let w2 = try #require(endedWord(try desk.playMatch(id, ["give-up"])))
        let w3 = try #require(endedWord(try laptop.playMatch(id, ["give-up"])))
        #expect(Set([w1, w2, w3]).count == 3)
        // Ben wins the first two in one guess each and gives up the third.
        #expect(try ben.playMatch(id, [w1]).contains { $0["result"] as? String == "won" })
        #expect(try ben.playMatch(id, [w2]).contains { $0["result"] as? String == "won" })
        _ = try ben.playMatch(id, ["give-up"])
        // Every machine syncs twice, so each has read every other's latest records.
        for _ in 0..<2 { for machine in [laptop, desk, ben] { try machine.sync() } }

        let shown = try [laptop, desk, ben].map { try canonical(try $0.json(["match", "show", id, "--no-sync"])) }
        #expect(Set(shown).count == 1, "\(shown)")
        let show = try #require(try ben.json(["match", "show", id, "--no-sync"]) as? [String: Any])
        #expect(show["winner"] as? String == "ben")
        #expect(show["status"] as? String == "finished")
        #expect((show["score"] as? [String: Int]) == ["ana": 0, "ben": 2])
        let games = try #require(show["games"] as? [[String: Any]])
        #expect(games.map { $0["word"] as? String } == [w1, w2, w3])
        #expect(games.map { $0["winner"] as? String } == ["ben", "ben", "tie"])

        // Ben never holds a game of Ana's, and Ana's history holds only her own.
        let anaIDs = try laptop.historyIDs(), benIDs = try ben.historyIDs()
        #expect(anaIDs.count == anaHistoryBefore.count + 3)
        #expect(benIDs.count == 3)
        #expect(Set(anaIDs).isDisjoint(with: benIDs))
        #expect(try desk.historyIDs().sorted() == anaIDs.sorted())

        // The leaderboards read the same everywhere, and a new machine of Ana's, after its
        // first sync, shows the same.
        let boards = try [laptop, desk, ben].map { try canonical(try $0.json(["leaderboard", "--no-sync"])) }
        #expect(Set(boards).count == 1, "\(boards)")
        let fresh = Friend("ana", device: "tablet", in: pair)
        try fresh.pair(with: desk)
        try fresh.sync()
        #expect(try canonical(try fresh.json(["leaderboard", "--no-sync"])) == boards[0])
        let all = try #require(try ben.json(["leaderboard", "--no-sync"]) as? [String: Any])
        let rows = ((all["allTime"] as? [[String: Any]])?.first?["rows"] as? [[String: Any]]) ?? []
        #expect(rows.first { $0["player"] as? String == "ben" }?["matchesWon"] as? Int == 1)
    }

    @Test func bothPlayersPlayAtTheMakersHelpLevel_andAResultAtAnotherDoesNotCount() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        _ = try ben.run(["friends", "--join"])
        // Ana plays with the coach on otherwise; the match she makes is played at none.
        _ = try ana.run(["play", "--plain", "--assist", "coach"], input: "")
        let made = try #require(try ana.json(["match", "new", "--against", "ben", "--assist", "none"]) as? [String: Any])
        #expect(made["assist"] as? String == "none")
        let id = try #require(made["id"] as? String)
        let anaGame = try ana.playMatch(id, ["give-up"])
        let started = try #require(anaGame.first { $0["event"] as? String == "started" }?["game"] as? [String: Any])
        #expect(started["assist"] as? String == "none", "\(started)")
        let benGame = try ben.playMatch(id, ["give-up"])
        let benStarted = try #require(benGame.first { $0["event"] as? String == "started" }?["game"] as? [String: Any])
        #expect(benStarted["assist"] as? String == "none", "\(benStarted)")
        let text = try ana.run(["match", "show", id])
        #expect(text.stdout.contains("help none"), "\(text.stdout)")
        let unknown = try ana.run(["match", "new", "--against", "ben", "--assist", "all"])
        #expect(unknown.status == 64 && unknown.stderr.split(separator: "\n").count <= 3, "\(unknown.stderr)")
    }

    @Test func theErrorsOfMatches_areOneLineAndExit64() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        let unknown = try ana.run(["match", "new", "--against", "zed"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no player called 'zed'"))
        let yourself = try ana.run(["match", "new", "--against", "ana"])
        #expect(yourself.status == 64)
        let missing = try ana.run(["match", "show", "00000000-0000-4000-8000-000000000000"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no match with id"))
        _ = try ben.run(["friends", "--join"])
        let id = try #require((try ana.json(["match", "new", "--against", "ben", "--pack", "body"]) as? [String: Any])?["id"] as? String)
        // The maker cannot decline; the asked player can, and then nobody plays it.
        #expect(try ana.run(["match", "decline", id]).status == 64)
        #expect(try ben.run(["match", "decline", id]).status == 0)
        try ana.sync()
        let shown = try ana.json(["match", "show", id, "--no-sync"]) as? [String: Any]
        #expect(shown?["status"] as? String == "declined")
        let declined = try ana.run(["play", "--plain", "--match", id], input: "")
        #expect(declined.status == 64)
        #expect(declined.stderr.contains("declined"))
    }

    /// The maker calls off a match nobody has answered: it shows cancelled on every machine of
    /// both players and nobody plays it; a match the other player has started cannot be, in one
    /// line and exit 64; only the maker may.
    @Test func theMakerCancelsAMatchUntilTheOtherPlayerAnswers() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), anaDesk = Friend("ana", device: "desk", in: pair)
        let ben = Friend("ben", device: "pc", in: pair)
        try anaDesk.pair(with: ana)
        _ = try ben.run(["friends", "--join"])
        let id = try #require((try ana.json(["match", "new", "--against", "ben", "--pack", "body"]) as? [String: Any])?["id"] as? String)
        #expect((try ben.json(["match", "list"]) as? [[String: Any]])?.first?["status"] as? String == "playing")
        // Ben, who was asked, cannot cancel it.
        let notHis = try ben.run(["match", "cancel", String(id.prefix(1))])
        #expect(notHis.status == 64 && notHis.stderr == "qiktionary: only 'ana', who made the match, can cancel it, not 'ben'\n", "\(notHis.stderr)")
        // Ana cancels it by a short id; the JSON is the match's, cancelled.
        let cancelled = try ana.json(["match", "cancel", String(id.prefix(2))]) as? [String: Any]
        #expect(cancelled?["id"] as? String == id && cancelled?["status"] as? String == "cancelled", "\(String(describing: cancelled))")
        let again = try ana.run(["match", "cancel", id])
        #expect(again.status == 0 && again.stdout == "Cancelled match \(id).\n", "\(again.stdout) \(again.stderr)")
        // Ben's machine and Ana's other one show it cancelled once they sync.
        let benSees = try ben.run(["match", "list"])
        #expect(benSees.status == 0 && benSees.stdout.contains("ana cancelled"), "\(benSees.stdout)")
        #expect((try ben.json(["match", "show", id, "--no-sync"]) as? [String: Any])?["status"] as? String == "cancelled")
        #expect((try anaDesk.json(["match", "show", id]) as? [String: Any])?["status"] as? String == "cancelled")
        let play = try ben.run(["play", "--plain", "--match", id, "--no-sync"], input: "")
        #expect(play.status == 64 && play.stderr == "qiktionary: match '\(id)' was cancelled by ana\n", "\(play.stderr)")
        let decline = try ben.run(["match", "decline", id, "--no-sync"])
        #expect(decline.status == 64 && decline.stderr.contains("was cancelled by ana; there is nothing to decline"), "\(decline.stderr)")

        // A match Ben has started playing can no longer be cancelled.
        let second = try #require((try ana.json(["match", "new", "--against", "ben", "--pack", "body"]) as? [String: Any])?["id"] as? String)
        let started = try ben.run(["play", "--plain", "--json", "--match", second], input: "guess lemon\n")
        #expect(started.status == 0, "\(started.stderr)")
        let late = try ana.run(["match", "cancel", second])
        #expect(late.status == 64 && late.stderr == "qiktionary: 'ben' has started playing the match, so it can no longer be cancelled\n",
                "\(late.stderr)")
        #expect((try ana.json(["match", "show", second, "--no-sync"]) as? [String: Any])?["status"] as? String == "playing")
    }

    /// One rule for a short id, from one character up while it names one id only: the same for
    /// `match show` as for `history show`.
    @Test func aMatchAndAGameAreNamedByTheSameShortIDs() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        _ = try ben.run(["friends", "--join"])
        let id = try #require((try ana.json(["match", "new", "--against", "ben", "--pack", "body"]) as? [String: Any])?["id"] as? String)
        let shown = try ana.run(["match", "show", String(id.prefix(1)), "--no-sync"])
        #expect(shown.status == 0, "match show \(id.prefix(1)): \(shown.stderr)")
        #expect(shown.stdout.contains(id))
        #expect(try ana.run(["match", "show", String(id.prefix(2)).uppercased(), "--no-sync"]).status == 0)
        _ = try ana.run(["play", "--plain", "--word", "tiger", "--no-sync"], input: "give-up\n")
        let game = try #require(try ana.historyIDs().first)
        #expect(try ana.run(["history", "show", String(game.prefix(1)), "--no-sync"]).status == 0)
        let wrong = try ana.run(["match", "show", "zz", "--no-sync"])
        #expect(wrong.status == 64 && wrong.stderr.contains("no match with id 'zz'"), "\(wrong.stderr)")
    }

    /// Joining the players of a folder with no folder: one line saying a cloud folder is needed
    /// and how to give it, not "You are visible to the other players".
    @Test func joiningWithoutACloudFolderSaysOneIsNeeded() throws {
        let machine = Machine()
        defer { machine.remove() }
        let joined = try machine.run(["friends", "--join"])
        #expect(joined.status == 64)
        #expect(joined.stdout.isEmpty, "\(joined.stdout)")
        #expect(joined.stderr == "qiktionary: friends --join needs a cloud folder shared with the other players: give it once with --cloud-dir DIR (it is remembered)\n")
    }

    /// Plain mode says which game of which match it plays, and at its end offers the next game
    /// of the match rather than "'new' for another game".
    @Test func plainModeSaysTheMatchAndOffersItsNextGame() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let ana = Friend("ana", device: "laptop", in: pair), ben = Friend("ben", device: "pc", in: pair)
        _ = try ben.run(["friends", "--join"])
        let id = try #require((try ana.json(["match", "new", "--against", "ben", "--pack", "body"]) as? [String: Any])?["id"] as? String)
        let text = try ana.run(["play", "--plain", "--match", id], input: "give-up\n")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("New game: match vs ben, game 1 of 3, pack body"), "\(text.stdout)")
        #expect(text.stdout.contains("'new --match \(id)' for game 2 of the match vs ben"), "\(text.stdout)")
        #expect(!text.stdout.contains("'new' for another game"), "\(text.stdout)")
        let events = try ana.playMatch(id, ["give-up"])
        #expect(events.first?["match"] as? String == "match vs ben, game 2 of 3")
        let ended = try #require(events.first { $0["event"] as? String == "ended" })
        #expect((ended["nextMatchGame"] as? [String: Any])?["game"] as? Int == 3, "\(ended)")
        let last = try ana.playMatch(id, ["give-up"])
        #expect(last.first { $0["event"] as? String == "ended" }?["nextMatchGame"] == nil, "no game of the match is left")
    }
}
