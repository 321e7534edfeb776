import App
@testable import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// What a friend who can write the shared folder could do to another player with file edits
/// alone (issue 35), each planted as a well-formed record of a device folder they made under
/// the victim's name: nothing planted is published again as the victim's, nothing it claims of
/// the victim's own play changes what the victim's machine shows, and what no game could give
/// is refused with a line of its own.
@Suite struct FolderWriterAttackTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// Ana's machine, Ben's, a match Ben made against Ana that Ana has read, and Ana's use cases.
    func setUp() throws -> (ana: Machine, ben: Machine, match: Match, games: PlayerGames) {
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock, databaseOnTheClock: true)
        let ben = try Machine("pc", folder: folder, player: "ben", shared: clock)
        let pack = try #require(try ben.player.storedPacks().first { $0.rules == .classic && $0.words.count >= 3 })
        var generator = SeededGenerator(seed: 7)
        let match = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        _ = try ben.player.keepMatch(match, madeHere: true)
        try SharedZone(player: ben.player, cloud: ben.cloud).publish([.match(match), .player(name: "ben", joinedAt: clock.now)])
        let games = PlayerGames(player: ana.player, lexicon: { Content.lexicon })
        let warnings = try exchange(ana, games)
        let friends = try ana.player.friends()
        #expect(try ana.player.keptMatches() == [match], "\(warnings) \(folder.allFiles) \(friends)")
        return (ana, ben, match, games)
    }

    /// One round of Ana's: her sync, then the shared zones' exchange; the warnings told.
    @discardableResult
    func exchange(_ machine: Machine, _ games: PlayerGames) throws -> [String] {
        let warnings = Locked([String]())
        let sink: CloudWarningSink = { warning in warnings.withLock { $0.append(warning.description) } }
        try machine.sync()
        _ = try games.exchangeShared(cloud: machine.cloud, warnings: sink)
        return warnings.withLock { $0 }
    }

    /// Writes `records` into `player`'s shared zone as a device folder of their own would.
    func plant(_ records: [CloudRecord], as player: String, device: String = "evil") throws {
        let evil = try FolderCloudDatabase.inMemory(folder, player: player, device: DeviceID(device),
                                                    options: CloudStoreOptions(now: { clock.now }))
        try evil.createZone(CloudSchema.sharedZone)
        _ = try evil.modifyRecords(in: CloudSchema.sharedZone, saving: records, deleting: [], policy: .overwrite)
    }

    /// Removes every file of `device`'s folder under `player`, as someone tidying up would.
    func removeDevice(_ device: String, of player: String) {
        for file in folder.allFiles where file.hasPrefix("players/\(player)/") {
            let parts = file.split(separator: "/").map(String.init)
            if let at = parts.firstIndex(of: "devices"), parts.count > at + 1, parts[at + 1] == device {
                folder.remove(FolderPath(Array(parts[...(at + 1)])))
                return removeDevice(device, of: player)
            }
        }
    }

    /// What a fresh reader finds in `player`'s shared zone, by record name.
    func published(by player: String) throws -> [String: CloudRecord] {
        let reader = try FolderCloudDatabase.reader(of: player, in: folder)
        let changes = try reader.fetchZoneChanges(CloudSchema.sharedZone, since: nil)
        return Dictionary(changes.changedRecords.map { ($0.recordName, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Ana plays game 1 of the match to a win, in as many guesses as `before` has words, then the word.
    func win(_ match: Match, _ games: PlayerGames, ana: Machine, before: Int) throws -> SavedGame {
        let game = try games.beginMatchGame(matchID: match.id)
        let words = try match.words(lexicon: Content.lexicon, packWords: nil)
        let others = try #require(try ana.player.storedPacks().first { $0.id == match.pack }).words.map(\.word)
            .filter { !words.contains($0) }
        for word in others.prefix(before) { _ = try ana.player.submitGuess(word, gameID: game.id, lexicon: Content.lexicon, now: clock.now) }
        _ = try ana.player.submitGuess(words[0], gameID: game.id, lexicon: Content.lexicon, now: clock.now)
        return try ana.player.game(id: game.id)
    }

    @Test func aForgedPlayInTheVictimsNameIsNotShownAsHersNorPublishedByHer() throws {
        let (ana, _, match, games) = try setUp()
        let won = try win(match, games, ana: ana, before: 2)
        #expect(won.game.status == .won && won.game.guesses.count == 3)
        try exchange(ana, games)
        // A win in 12 with 12 hints where she won in 3, and a loss of a game she never started.
        let rows = Array(repeating: "1", count: 11) + ["5"]
        let forged = MatchPlay.Fields(match: match.id, player: "ana", game: 1, status: "won", guesses: 12, hints: 12,
                                      assist: "proven", grid: rows.joined(separator: ","))
        let lost = MatchPlay.Fields(match: match.id, player: "ana", game: 2, status: "lost", guesses: match.maxGuesses, hints: 0,
                                    assist: "proven", grid: Array(repeating: "0", count: match.maxGuesses).joined(separator: ","))
        try plant([CloudSchema.record(.play(forged), device: "evil"), CloudSchema.record(.play(lost), device: "evil")], as: "ana")
        clock.advance(5)
        try exchange(ana, games)

        let shown = try games.matchOverview(id: match.id)
        #expect(shown.state.result(of: "ana", game: 1)?.guesses == 3, "her own game says how she won")
        #expect(shown.state.nextGame(for: "ana") == 2, "a loss she never played does not count")
        _ = try games.beginMatchGame(matchID: match.id)

        // Once the planted folder is gone, nothing of it is left under her name.
        removeDevice("evil", of: "ana")
        let left = try published(by: "ana")
        let plays = left.values.filter { $0.recordType == "MatchPlay" }
        #expect(plays.allSatisfy { $0.systemFields?.modifiedBy.name == ana.profile.device.id })
        let game1 = try #require(plays.first { $0.fields[CloudSchema.PlayKey.game] == .int(1) })
        #expect(game1.fields[CloudSchema.PlayKey.guesses] == .int(3))
        #expect(!plays.contains { $0.fields[CloudSchema.PlayKey.status] == .string("lost") })
    }

    @Test func aDeclineAfterThePlayersPlayIsRefused_andOneReadIsNeverPublishedAgain() throws {
        let (ana, _, match, games) = try setUp()
        _ = try win(match, games, ana: ana, before: 0)
        try exchange(ana, games)
        try plant([CloudSchema.record(.decline(matchID: match.id), device: "evil")], as: "ana")
        clock.advance(5)
        let warnings = try exchange(ana, games)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("has played the match already") == true, "\(warnings)")
        #expect(try games.matchOverview(id: match.id).state.status == .playing)

        // A decline planted before she plays is shown (only a signature tells it from hers), never published by her.
        let other = try Machine("desk", folder: folder, player: "cat", shared: clock)
        let pack = try #require(try other.player.storedPacks().first { $0.rules == .classic && $0.words.count >= 3 })
        var generator = SeededGenerator(seed: 8)
        let second = try Match.make(by: "cat", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        try SharedZone(player: other.player, cloud: other.cloud).publish([.match(second)])
        try plant([CloudSchema.record(.decline(matchID: second.id), device: "evil")], as: "ana")
        clock.advance(5)
        try exchange(ana, games)
        removeDevice("evil", of: "ana")
        #expect(!(try published(by: "ana")).values.contains { $0.recordType == "MatchDecline" })
    }

    @Test func herLeaderboardLineIsHerHistorysOnHerMachine_andFutureOrImpossibleDaysAreRefused() throws {
        let (ana, _, match, games) = try setUp()
        try games.join(now: clock.now)
        _ = try win(match, games, ana: ana, before: 1)
        try exchange(ana, games)
        let honest = try #require(try games.leaderboards(day: "2026-09-21").allTime.flatMap(\.rows).first { $0.player == "ana" })
        // Ten million games under a device of her name: her own board does not move.
        let flood = Standing(tallies: [.proven: .init(games: 10_000_000, wins: 5, winGuesses: 10)])
        try plant([CloudSchema.record(.standing(device: "evil", flood), device: "evil")], as: "ana")
        clock.advance(5)
        #expect(try exchange(ana, games).isEmpty)
        let after = try #require(try games.leaderboards(day: "2026-09-21").allTime.flatMap(\.rows).first { $0.player == "ana" })
        #expect(after == honest)

        // Ben's machine replaces a device's line by its newer one instead of taking the higher numbers.
        let ben = try Machine("pc2", folder: folder, player: "ben", shared: clock)
        try SharedZone(player: ben.player, cloud: ben.cloud).read()
        let planted = try #require(try ben.player.standings()["ana"])
        #expect(planted.tallies[.proven]?.games == 10_000_000)
        let smaller = Standing(tallies: [.proven: .init(games: 4, wins: 1, winGuesses: 3)])
        clock.advance(5)
        try plant([CloudSchema.record(.standing(device: "evil", smaller), device: "evil")], as: "ana")
        try SharedZone(player: ben.player, cloud: ben.cloud).read()
        #expect(try ben.player.standings()["ana"]?.tallies[.proven]?.games ?? 0 < 10_000_000)

        // Days not yet played, and a daily win with more hints than guesses, are refused one line each.
        let tomorrow = Standing.latestDay(clock.now)
        let one = Standing(tallies: [.proven: .init(games: 1, wins: 1, winGuesses: 1)], bestDailyStreak: 1)
        var future = CloudSchema.record(.standing(device: "future", one), device: "evil")
        future.fields[CloudSchema.StandingKey.days] = .strings(["2999-01-01 won 1 0 proven"])
        var hinted = CloudSchema.record(.standing(device: "hinted", one), device: "evil")
        hinted.fields[CloudSchema.StandingKey.days] = .strings(["\(tomorrow) won 1 2 proven"])
        let warnings = Locked([String]())
        var zone = SharedZone(player: ben.player, cloud: ben.cloud)
        zone.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        clock.advance(5)
        try plant([future, hinted], as: "ana")
        #expect(try zone.read().refused == 2)
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 2 && lines.contains { $0.contains("2999-01-01") } && lines.contains { $0.contains("2 hints") }, "\(lines)")
    }

    @Test func aPlayerRecordPlantedUnderSomeoneWhoNeverJoinedPublishesNothingForThem() throws {
        let cat = try Machine("tablet", folder: folder, player: "cat", shared: clock)
        let games = PlayerGames(player: cat.player, lexicon: { Content.lexicon })
        try plant([CloudSchema.record(.player(name: "cat", joinedAt: clock.now), device: "evil")], as: "cat")
        try exchange(cat, games)
        #expect(try cat.player.joinedAt() == nil)
        removeDevice("evil", of: "cat")
        #expect(!folder.allFiles.contains { $0.hasPrefix("players/cat/") && $0.contains("/zones/Shared/") })
    }

    @Test func gridsOfOtherDigits_impossibleRows_andAGuessLimitNotThePacksAreRefused() throws {
        let (ana, ben, match, _) = try setUp()
        let length = match.length
        func play(_ grid: String, guesses: Int, game: Int = 1) -> CloudRecord {
            CloudSchema.record(.play(MatchPlay.Fields(match: match.id, player: "ben", game: game, status: "lost", guesses: guesses, hints: 0,
                                                      assist: "proven", grid: grid)), device: "evil")
        }
        let limit = match.maxGuesses
        let zeros = Array(repeating: "0", count: limit - 1)
        var other = match
        other.id = UUID().uuidString.lowercased()
        other.maxGuesses = limit == 30 ? 29 : limit + 1
        try plant([play((zeros + ["٣"]).joined(separator: ","), guesses: limit), CloudSchema.record(.match(other), device: "evil")],
                  as: "ben")
        try plant([play((zeros + ["６"]).joined(separator: ","), guesses: limit, game: 2)], as: "ben")
        _ = length
        let warnings = Locked([String]())
        var zone = SharedZone(player: ana.player, cloud: ana.cloud)
        zone.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        #expect(try zone.read().refused == 3)
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.contains("guess limit") }, "\(lines)")
        #expect(try ana.player.keptMatches() == [match])
        _ = ben
    }

    @Test func aMastermindRowNoGuessCanScoreIsRefused() throws {
        var generator = SeededGenerator(seed: 2)
        let ana = try Machine("laptop", folder: folder, player: "ana", shared: clock)
        let pack = try #require(try ana.player.storedPacks().first { $0.rules == .mastermind && $0.words.count >= 3 })
        let match = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        let n = match.length
        let row = "\(n - 1)+1"
        let fields = MatchPlay.Fields(match: match.id, player: "ben", game: 1, status: "gave-up", guesses: 1, hints: 0, assist: "proven",
                                      grid: row)
        #expect(throws: MatchRefusal.self) { try MatchPlay(checking: fields, in: match, publishedBy: "ben") }
        let fine = MatchPlay.Fields(match: match.id, player: "ben", game: 1, status: "gave-up", guesses: 1, hints: 0, assist: "proven",
                                    grid: "\(n - 2)+2")
        _ = try MatchPlay(checking: fine, in: match, publishedBy: "ben")
    }

    @Test func aMatchWhoseWordsDoNotDecodeHereSaysSoInsteadOfYourTurn() throws {
        let (ana, ben, match, games) = try setUp()
        let pack = try #require(try ben.player.storedPacks().first { $0.id == match.pack })
        var generator = SeededGenerator(seed: 99)
        let other = try Match.make(by: "ben", against: "ana", pack: pack, createdAt: clock.now, lexicon: Content.lexicon, using: &generator)
        var garbled = other
        garbled.codes = match.codes
        _ = try ben.player.keepMatch(garbled, madeHere: true)
        try SharedZone(player: ben.player, cloud: ben.cloud).publish([.match(garbled)])
        try exchange(ana, games)
        let shown = try #require(try games.matches().first { $0.state.match.id == garbled.id })
        #expect(shown.summary == "cannot be played on this version")
        #expect(try games.matches().first { $0.state.match.id == match.id }?.summary == "your turn")
    }

    @Test func nineRefusedMatchesWithLongIdsThatStartAlikeAreToldApart() throws {
        let (ana, _, match, _) = try setUp()
        var records: [CloudRecord] = []
        for n in 0..<9 {
            var bad = match
            bad.id = String(repeating: "x", count: 60) + "\(n)"
            records.append(CloudSchema.record(.match(bad), device: "evil"))
        }
        try plant(records, as: "ben")
        let warnings = Locked([String]())
        var zone = SharedZone(player: ana.player, cloud: ana.cloud)
        zone.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        _ = try zone.read()
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 9 && Set(lines).count == 9, "\(lines)")
    }

    @Test func playsForMatchesThatNeverCome_andPlayersWhoseFolderIsGone_areNotKeptForever() throws {
        let (ana, _, _, games) = try setUp()
        // More plays than may wait, from one player, of matches that do not exist.
        var records: [CloudRecord] = []
        for _ in 0..<(SharedZone.mostPlaysWaiting + 40) {
            records.append(CloudSchema.record(.play(MatchPlay.Fields(match: UUID().uuidString.lowercased(), player: "ben", game: 1,
                                                                      status: "in-progress", guesses: 1)), device: "evil"))
        }
        try plant(records, as: "ben")
        let warnings = try exchange(ana, games)
        #expect(try ana.player.waitingPlays()["ben"] == SharedZone.mostPlaysWaiting)
        #expect(warnings.count == SharedZone.mostRefusalsTold + 1, "\(warnings.count) lines: \(warnings.suffix(2))")
        // After the longest wait, they are dropped with one line.
        clock.advance(SharedZone.longestWait + 60)
        let later = try exchange(ana, games)
        #expect(try ana.player.waitingPlays()["ben"] == nil)
        #expect(later.contains { $0.contains("never arrived") }, "\(later)")
        // Ben's folder gone: he is no longer listed.
        #expect(try games.friends().contains("ben"))
        folder.remove(FolderPath(["players", "ben"]))
        try exchange(ana, games)
        #expect(try !games.friends().contains("ben"))
    }

    @Test func damageInAnotherPlayersStoreIsToldAsDamageInOnesOwnIs() throws {
        let (ana, _, _, _) = try setUp()
        try plant([CloudSchema.record(.player(name: "ben", joinedAt: clock.now), device: "evil")], as: "ben")
        let segment = try #require(folder.allFiles.first { $0.hasPrefix("players/ben/") && $0.contains("/devices/evil/") && $0.hasSuffix(".seg") })
        folder.place(Data("QKCS 2 seg 00000000 12\nnot a segment".utf8), at: segment.split(separator: "/").map(String.init))
        let warnings = Locked([String]())
        var zone = SharedZone(player: ana.player, cloud: ana.cloud)
        zone.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        _ = try zone.read(using: SharedZone.Readers())
        let lines = warnings.withLock { $0 }
        #expect(lines.contains { $0.contains("players/ben/") && $0.contains("evil") }, "\(lines)")
    }
}

/// A machine whose own files someone deleted from the folder writes them again (issue 35).
@Suite struct OwnFilesDeletedTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    @Test func aMachineWhoseDeviceFolderWasDeletedWritesItsGamesAgain_andEveryMachineStillAgrees() throws {
        let laptop = try Machine("laptop", folder: folder, shared: clock)
        let desk = try Machine("desk", folder: folder, shared: clock)
        let won = try laptop.start("tiger")
        try laptop.guess("crane", in: won.id)
        try laptop.guess("tiger", in: won.id)
        let half = try laptop.start("comet")
        try laptop.guess("pilot", in: half.id)
        try laptop.sync()
        try desk.sync()
        #expect(try desk.snapshot(won.id) == laptop.snapshot(won.id))

        // Someone removes the laptop's device folder.
        let device = laptop.profile.device.id
        let files = folder.allFiles.filter { $0.contains("/devices/\(device)/") }
        #expect(!files.isEmpty)
        let prefix = try #require(files.first.map { String($0[..<$0.range(of: "/devices/\(device)/")!.upperBound]) })
        folder.remove(FolderPath(prefix.split(separator: "/").map(String.init)))

        let warnings = Locked([String]())
        var engine = laptop.engine
        engine.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        clock.advance(5)
        try engine.sync()
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 1 && lines[0].contains("written again"), "\(lines)")
        #expect(folder.allFiles.contains { $0.contains("/devices/\(device)/") })
        #expect(try engine.sync().uploaded == 0, "written again once")

        // A new machine finds every game; the desk, which had read the old files, goes on.
        let fresh = try Machine("tablet", folder: folder, shared: clock)
        try fresh.sync()
        #expect(try fresh.snapshot(won.id) == laptop.snapshot(won.id))
        #expect(try fresh.snapshot(half.id) == laptop.snapshot(half.id))
        try laptop.guess("comet", in: half.id)
        try laptop.sync()
        try desk.sync()
        try fresh.sync()
        #expect(try desk.snapshot(half.id) == laptop.snapshot(half.id))
        #expect(try fresh.snapshot(half.id) == laptop.snapshot(half.id))
    }

    @Test func aMachineWhoseSegmentsWereDeletedButNotItsHeadWritesThemAgain() throws {
        let laptop = try Machine("laptop", folder: folder, shared: clock)
        let game = try laptop.start("tiger")
        try laptop.guess("crane", in: game.id)
        let warnings = Locked([String]())
        var engine = laptop.engine
        engine.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        try engine.sync()
        // A compaction moves the log's base: what was folded is not a gap.
        _ = try laptop.cloud.compact(SyncZone.games.cloudZone, keepingRecent: 0)
        try laptop.guess("pilot", in: game.id)
        try engine.sync()
        #expect(warnings.withLock { $0 }.isEmpty, "\(warnings.withLock { $0 })")
        let device = laptop.profile.device.id
        for file in folder.allFiles where file.contains("/devices/\(device)/zones/Games/") && file.hasSuffix(".seg") {
            folder.remove(FolderPath(file.split(separator: "/").map(String.init)))
        }
        clock.advance(5)
        try engine.sync()
        #expect(warnings.withLock { $0 }.count == 1 && warnings.withLock { $0 }[0].contains("Games"), "\(warnings.withLock { $0 })")
        let fresh = try Machine("tablet", folder: folder, shared: clock)
        try fresh.sync()
        #expect(try fresh.snapshot(game.id) == laptop.snapshot(game.id))
    }
}
