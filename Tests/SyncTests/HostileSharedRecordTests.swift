import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// Records of the shared zones that the match's rules make impossible, or that are malformed,
/// oversized or hostile, written straight into the folder by a writer that skips every check:
/// each is refused with one line and the reading machine changes nothing else
/// (docs/multiplayer.md, "What is checked").
@Suite struct HostileSharedRecordTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// What the reading machine keeps of the shared folder, and its own games.
    struct Kept: Equatable {
        var matches: [Match]
        var plays: [MatchPlay.Fields]
        var declined: [String: Set<String>]
        var friends: [String]
        var standings: [String: Standing]
        var history: [SavedGame]
    }

    func kept(_ machine: Machine, match: String) throws -> Kept {
        let p = machine.player
        return Kept(matches: try p.keptMatches(), plays: try p.plays(ofMatch: match), declined: try p.declines(),
                    friends: try p.friends(), standings: try p.standings(), history: try p.history())
    }

    /// Ana's machine, Ben's, and a match Ben made against Ana, published and read by Ana.
    func setUp() throws -> (ana: Machine, ben: Machine, match: Match) {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let ben = try Machine("pc", folder: folder, player: "ben", shared: clock)
        let pack = try #require(try ben.player.storedPacks().first { $0.rules == .classic && $0.words.count >= 3 })
        var generator = SeededGenerator(seed: 1)
        let match = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        let play = MatchPlay.Fields(match: match.id, player: "ben", game: 1, status: "in-progress", guesses: 1)
        try SharedZone(player: ben.player, cloud: ben.cloud).publish([
            .match(match), .play(play), .standing(device: "pc", Standing(tallies: [.proven: .init(games: 2, wins: 1, winGuesses: 3)])),
        ])
        try ana.sync()
        #expect(try SharedZone(player: ana.player, cloud: ana.cloud).read().refused == 0)
        #expect(try ana.player.keptMatches() == [match])
        return (ana, ben, match)
    }

    /// Writes `record` into `player`'s shared zone as another device of the folder would.
    func plant(_ record: CloudRecord, as player: String = "ben") throws {
        let mallory = try FolderCloudDatabase.inMemory(folder, player: player, device: DeviceID("mallory"),
                                                       options: CloudStoreOptions(now: { clock.now }))
        try mallory.createZone(CloudSchema.sharedZone)
        _ = try mallory.modifyRecords(in: CloudSchema.sharedZone, saving: [record], deleting: [], policy: .overwrite)
    }

    func play(_ match: Match, player: String = "ben", game: Int = 2, status: String, guesses: Int, hints: Int? = 0,
              assist: String? = "proven", grid: String?) -> CloudRecord {
        CloudSchema.record(.play(MatchPlay.Fields(match: match.id, player: player, game: game, status: status, guesses: guesses,
                                                  hints: hints, assist: assist, grid: grid)), device: "mallory")
    }

    /// Plants each record in turn; each is refused with one warning and changes nothing.
    func expectRefused(_ records: [(String, CloudRecord, String)], ana: Machine, match: Match) throws {
        for (why, record, player) in records {
            let before = try kept(ana, match: match.id)
            try plant(record, as: player)
            let warnings = Locked([String]())
            var zone = SharedZone(player: ana.player, cloud: ana.cloud)
            zone.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
            #expect(try zone.read().refused == 1, "\(why)")
            let lines = warnings.withLock { $0 }
            #expect(lines.count == 1, "\(why): \(lines)")
            #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\u{1B}") }, "\(why): \(lines)")
            #expect(try kept(ana, match: match.id) == before, "\(why)")
        }
    }

    @Test func impossiblePlaysAreRefused() throws {
        let (ana, _, match) = try setUp()
        // Ben finishes game 1 honestly first, so game 2's plays are read on their own merits.
        let limit = match.maxGuesses
        try expectRefused([
            ("a win in no guesses", play(match, status: "won", guesses: 0, grid: ""), "ben"),
            ("more guesses than the limit", play(match, status: "lost", guesses: limit + 1,
                                                 grid: Array(repeating: "0", count: limit + 1).joined(separator: ",")), "ben"),
            ("a game index outside 1-3", play(match, game: 4, status: "in-progress", guesses: 1, hints: nil, assist: nil, grid: nil), "ben"),
            ("a player not in the match", play(match, player: "zed", status: "in-progress", guesses: 1, hints: nil, assist: nil, grid: nil), "zed"),
            ("a player other than the publisher", play(match, player: "ana", status: "in-progress", guesses: 1, hints: nil, assist: nil, grid: nil), "ben"),
            ("a game still on at the limit", play(match, status: "in-progress", guesses: limit, hints: nil, assist: nil, grid: nil), "ben"),
            ("a finished game without its grid", play(match, status: "gave-up", guesses: 1, grid: nil), "ben"),
            ("an unknown status", play(match, status: "cheated", guesses: 1, hints: nil, assist: nil, grid: nil), "ben"),
        ], ana: ana, match: match)
    }

    @Test func malformedOversizedAndHostileRecordsAreRefused() throws {
        let (ana, _, match) = try setUp()
        var wrongType = play(match, status: "in-progress", guesses: 1, hints: nil, assist: nil, grid: nil)
        wrongType.fields[CloudSchema.PlayKey.guesses] = .string("one")
        let oversized = play(match, status: "lost", guesses: 1, grid: String(repeating: "1,", count: 300) + "1")
        let hostileName = CloudSchema.record(.player(name: "be\u{1B}[31mn", joinedAt: clock.now), device: "mallory")
        var hostileMatch = CloudSchema.record(.match(match), device: "mallory")
        hostileMatch.fields[CloudSchema.MatchKey.pack] = .string("pack\u{202E}kcap")
        var unknownType = CloudSchema.record(.decline(matchID: match.id), device: "mallory")
        unknownType.recordType = "Surprise"
        try expectRefused([
            ("a field of the wrong type", wrongType, "ben"),
            ("an oversized field", oversized, "ben"),
            ("a name with control characters", hostileName, "ben"),
            ("a match with a bidirectional override", hostileMatch, "ben"),
            ("a record of no shared type", unknownType, "ben"),
        ], ana: ana, match: match)
    }

    @Test func aChangedMatch_andAnImpossibleLineAreRefused() throws {
        let (ana, _, match) = try setUp()
        var changed = match
        changed.hard.toggle()
        try expectRefused([
            ("a match changed after it was made", CloudSchema.record(.match(changed), device: "mallory"), "ben"),
            ("more wins than games", CloudSchema.record(.standing(device: "mallory",
                Standing(tallies: [.proven: .init(games: 1, wins: 5, winGuesses: 5)])), device: "mallory"), "ben"),
            ("a win in no guesses on the board", CloudSchema.record(.standing(device: "mallory",
                Standing(tallies: [.noHelp: .init(games: 3, wins: 2, winGuesses: 0)])), device: "mallory"), "ben"),
        ], ana: ana, match: match)
    }

    /// The maker's decline record is a cancel (`match cancel`): kept while the asked player has
    /// played nothing, refused with one line once they have.
    @Test func aMakersDeclineIsACancel_refusedOnceTheAskedPlayerHasPlayed() throws {
        let (ana, _, match) = try setUp()
        try plant(CloudSchema.record(.decline(matchID: match.id), device: "mallory"), as: "ben")
        #expect(try SharedZone(player: ana.player, cloud: ana.cloud).read().refused == 0)
        #expect(try ana.player.declines()[match.id] == ["ben"])

        // A second match, which Ana has started here before the cancel arrives.
        let pack = try #require(try ana.player.storedPacks().first { $0.id == match.pack })
        var generator = SeededGenerator(seed: 2)
        let second = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        try plant(CloudSchema.record(.match(second), device: "mallory"), as: "ben")
        #expect(try SharedZone(player: ana.player, cloud: ana.cloud).read().refused == 0)
        let word = try second.words(lexicon: Content.lexicon)[0]
        let game = try ana.player.startMatchGame(id: second.gameID(player: "ana", index: 1),
                                                 request: GameRequest(packID: second.pack, word: word, rules: second.rules, hard: second.hard, assist: second.assist),
                                                 maxGuesses: second.maxGuesses, lexicon: { Content.lexicon })
        let other = try #require(Content.lexicon.words(ofLength: second.length).first { $0 != word && second.rules.allows($0) })
        _ = try ana.player.submitGuess(other, gameID: game.id, lexicon: Content.lexicon)
        try expectRefused([("a cancel after the asked player played", CloudSchema.record(.decline(matchID: second.id), device: "mallory"), "ben")],
                          ana: ana, match: second)
    }

    @Test func aDeclineBeforeItsMatchWaits() throws {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let ben = try Machine("pc", folder: folder, player: "ben", shared: clock)
        let pack = try #require(try ben.player.storedPacks().first { $0.words.count >= 3 })
        var generator = SeededGenerator(seed: 3)
        let match = try Match.make(by: "ana", against: "ben", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        try SharedZone(player: ben.player, cloud: ben.cloud).publish([.decline(matchID: match.id)])
        #expect(try SharedZone(player: ana.player, cloud: ana.cloud).read().refused == 0)
        #expect(try ana.player.declines()[match.id] == ["ben"])
        try SharedZone(player: ana.player, cloud: ana.cloud).publish([.match(match)])
        #expect(try SharedZone(player: ana.player, cloud: ana.cloud).read().refused == 0)
        #expect(try ana.player.keptMatches() == [match])
        #expect(try ana.player.declines()[match.id] == ["ben"])
    }

    @Test func aPlayBeforeTheGameBeforeItIsHeld_andAPlayNeverGoesBack() throws {
        let (ana, ben, match) = try setUp()
        try SharedZone(player: ben.player, cloud: ben.cloud).publish([
            .play(MatchPlay.Fields(match: match.id, player: "ben", game: 1, status: "in-progress", guesses: 3)),
        ])
        try SharedZone(player: ana.player, cloud: ana.cloud).read()
        // An older version read later does not take the play back.
        try plant(play(match, game: 1, status: "in-progress", guesses: 2, hints: nil, assist: nil, grid: nil))
        try SharedZone(player: ana.player, cloud: ana.cloud).read()
        #expect(try ana.player.plays(ofMatch: match.id).first { $0.game == 1 }?.guesses == 3)
        // Game 3 finished before game 2 is kept but not counted.
        try plant(play(match, game: 3, status: "gave-up", guesses: 1, grid: "0"))
        try SharedZone(player: ana.player, cloud: ana.cloud).read()
        let plays = try ana.player.plays(ofMatch: match.id).compactMap { try? MatchPlay(checking: $0, in: match, publishedBy: $0.player) }
        let state = MatchState(match: match, plays: plays)
        #expect(state.result(of: "ben", game: 3) == nil)
    }
}
