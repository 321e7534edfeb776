import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// The sync scenarios (docs/sync.md, docs/reliability.md) on the engine, with two machines sharing one in-memory cloud folder.
@Suite struct SyncScenarioTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    /// A game's help level goes to the other machine with it, and becomes the player's level
    /// there; two copies of one daily game started at two levels end at the higher, everywhere.
    @Test func theHelpLevelTravelsWithTheGameAndTheHigherOneWins() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        clock.advance(1)
        let coached = try a.player.startGame(GameRequest(word: "tiger", assist: .coach), now: clock.now)
        try a.guess("crane", in: coached.id)
        try a.sync()
        try b.sync()
        #expect(try b.game(coached.id).game.assist == .coach)
        #expect(try b.player.assistLevel() == .coach, "the player's latest game sets their level on every machine")
        clock.advance(1)
        let daily = GameRequest(packID: "animals", word: "zebra", daily: "2026-11-22")
        var low = daily, high = daily
        low.assist = .noHelp
        high.assist = .coach
        let onA = try a.player.startGame(low, now: clock.now), onB = try b.player.startGame(high, now: clock.now)
        #expect(onA.id == onB.id)
        try a.guess("horse", in: onA.id)
        try b.guess("tiger", in: onB.id)
        try a.sync()
        try b.sync()
        try a.sync()
        let onBoth = (try a.game(onA.id).game.assist, try b.game(onA.id).game.assist)
        #expect(onBoth == (.coach, .coach), "\(onBoth)")
    }

    @Test func aFinishedGameShowsOnTheOtherMachineAndAHalfPlayedOneIsFinishedThere() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let (done, half) = try a.playWonAndHalf()
        let sent = try a.sync()
        #expect(sent.uploaded == 6)

        let got = try b.sync()
        #expect(got.downloaded == 6)
        #expect(try b.player.history().map(\.game.secret) == ["tiger"])
        #expect(try b.snapshot(done.id) == a.snapshot(done.id))
        #expect(try b.game(done.id).lastChangedOn == "laptop")
        let resumed = try #require(try b.player.latestGameInProgress())
        #expect(resumed.id == half.id && resumed.game.guesses.map(\.word) == ["pilot"])

        try b.guess("comet", in: half.id)
        try b.sync()
        try a.sync()
        #expect(try a.game(half.id).game.status == .won)
        #expect(try a.game(half.id).lastChangedOn == "desktop")
        #expect(try a.snapshot(half.id) == b.snapshot(half.id))
        #expect(try a.player.pendingChangeCount() == 0)
        #expect(try b.player.pendingChangeCount() == 0)
    }

    /// Two machines that have both synced a game: where one machine's processes race.
    private func twoMachinesWithAGame() throws -> (a: Machine, b: Machine, game: SavedGame) {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        try a.sync()
        try b.sync()
        return (a, b, game)
    }

    /// After two more rounds on each machine nothing waits anywhere, and both hold the same
    /// bookmarks (as many as `bookmarks`) or the same mark (`mark`).
    private func expectAgreement(_ kind: String, _ a: Machine, _ b: Machine, game: SavedGame, bookmarks: Int, mark: LetterMark?,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        #expect(try a.player.pendingChangeCount() == 0 && b.player.pendingChangeCount() == 0, sourceLocation: sourceLocation)
        if kind == "bookmark" {
            let onA = try a.player.readingList().map(\.addedAt)
            #expect(onA.count == bookmarks, sourceLocation: sourceLocation)
            #expect(try b.player.readingList().map(\.addedAt) == onA, sourceLocation: sourceLocation)
        } else {
            #expect(try a.game(game.id).game.marks["q"] == mark, sourceLocation: sourceLocation)
            #expect(try b.game(game.id).game.marks["q"] == mark, sourceLocation: sourceLocation)
        }
    }

    /// A second later, the player bookmarks 'horse' on `machine`, or marks 'q' in `game` there
    /// (out on `outOn`, in elsewhere).
    private func bookmarkOrMark(_ kind: String, on machine: Machine, in game: SavedGame, outOn: Machine) throws {
        clock.advance(1)
        if kind == "bookmark" {
            try machine.player.addBookmark(word: "horse", now: machine.clock.now)
        } else {
            _ = try machine.player.mark("q", as: machine.name == outOn.name ? .out : .in, gameID: game.id, now: machine.clock.now)
        }
    }

    /// How the other process's send and the player's second change fall around a stale send.
    enum Interleaving: String, CaseIterable, Sendable {
        case changedThenSent, sentThenChanged
        /// Changed, sent by the other process, and this process killed once its commit lands.
        case changedSentAndKilled
    }

    /// Two processes of one machine send the same bookmark, and the one that read it first
    /// commits last, so the cloud's latest version is older than the machine's own value. That
    /// value must still reach every machine: it is sent again, later. The player's second change
    /// comes before the other process sends (`changedThenSent`), or after: then the change queued
    /// anew has its first version again, the one the first process sent, and acknowledging that
    /// send must not clear it (the soak's reading lists that differed with nothing pending).
    ///
    /// Killed once its commit lands (`changedSentAndKilled`), the first process could never
    /// send the newer value again, and this machine (which never applies its own commits) would
    /// keep a value every other machine had replaced. A mark or bookmark goes only over the
    /// version this machine last saw, so the older one never lands (the simulation, seed 16364).
    @Test(arguments: ["bookmark", "mark"], Interleaving.allCases)
    func aStaleSendByAnotherProcessOfTheSameMachineDoesNotWin(kind: String, interleaving: Interleaving) throws {
        let (a, b, game) = try twoMachinesWithAGame()
        let killed = interleaving == .changedSentAndKilled
        if killed {
            // Both machines have seen a version of the mark, and a bookmark besides the one changed.
            try bookmarkOrMark(kind, on: b, in: game, outOn: a)
            try b.sync()
            try a.sync()
        }
        let word = killed ? "tiger" : "horse"
        func change(_ step: Int) throws {
            clock.advance(1)
            if kind == "bookmark" {
                if step == 2 { try a.player.removeBookmark(word: word) }
                if step == 1 || interleaving == .changedThenSent { try a.player.addBookmark(word: word, now: a.clock.now) }
            } else {
                _ = try a.player.mark("q", as: step == 1 ? .out : .in, gameID: game.id, now: a.clock.now)
            }
        }
        try change(1)
        var other = a
        try other.restart()
        let watched = WatchedCloud(a.cloud)
        var interleaved = false
        watched.beforeCommit = {
            guard !interleaved else { return }
            interleaved = true
            // Meanwhile the player changes it again, and the other process sends (before or after that).
            #expect(throws: Never.self) {
                if interleaving != .sentThenChanged { try change(2) }
                try other.sync()
                if interleaving == .sentThenChanged { try change(2) }
            }
            if killed {
                #expect((try? a.player.pendingChangeCount()) == 0, "the other process sent the newer value and cleared it")
                watched.killAfterCommit = .notWritable(reason: "the process was killed")
            }
            clock.advance(1)
        }
        let round = SyncEngine(player: a.player, cloud: watched, now: { [clock] in clock.now }, pause: { _ in })
        if killed { _ = try? round.sync() } else { try round.sync() }
        #expect(interleaved)
        try expectAgreement(kind, a, b, game: game, bookmarks: interleaving == .sentThenChanged ? 0 : 1, mark: .in)
        if killed && kind == "bookmark" {
            #expect(try a.player.readingList().map(\.word) == ["horse"], "tiger was unbookmarked last")
        }
    }

    /// A process fetches the other machine's newer bookmark (or mark) while this machine's own
    /// change to it waits, so it keeps its own; but that change is already in the cloud, sent
    /// by another process of the machine that has not acknowledged it yet, and older than the
    /// fetched one. Acknowledged, it must not leave the machine holding a value that lost
    /// everywhere else with nothing queued: the value kept goes up again, later, and wins.
    @Test(arguments: ["bookmark", "mark"])
    func aFetchedVersionNewerThanALocalChangeAlreadySentIsNotLost(kind: String) throws {
        let (a, b, game) = try twoMachinesWithAGame()
        func change(_ machine: Machine) throws { try bookmarkOrMark(kind, on: machine, in: game, outOn: a) }
        var other = a
        try other.restart()
        let sender = WatchedCloud(other.cloud)
        let committed = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        // A mark goes up in its game's commit (one policy for both), a bookmark alone: the sender stops after the first.
        var commits = 0
        sender.duringCommit = {
            commits += 1
            guard commits == 1 else { return }
            committed.signal()
            resume.wait()
        }
        let fetcher = WatchedCloud(a.cloud)
        var interleaved = false
        let sent = Locked<String?>(nil), otherPlayer = other.player
        let thread = Thread { [clock] in
            do {
                try SyncEngine(player: otherPlayer, cloud: sender, now: { clock.now }, pause: { _ in }).sync()
            } catch {
                sent.withLock { $0 = "\(error)" }
            }
        }
        fetcher.beforeFetch = {
            guard !interleaved else { return }
            interleaved = true
            // This machine's change goes up through the other process, which stops before acknowledging it;
            // the other machine then changes the same record, later.
            #expect(throws: Never.self) {
                try change(a)
                thread.start()
                committed.wait()
                try change(b)
                try b.sync()
            }
        }
        try SyncEngine(player: a.player, cloud: fetcher, now: { [clock] in clock.now }, pause: { _ in }).sync()
        resume.signal()
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(sent.withLock { $0 } == nil)
        #expect(interleaved)
        try expectAgreement(kind, a, b, game: game, bookmarks: 1, mark: .out)
    }

    /// A process reads the other machine's bookmark (or mark) and stops before applying it;
    /// meanwhile the player changes the same record here and another process of the machine
    /// sends that newer value and clears it. The older version read before must not be applied
    /// then: nothing here would send the newer one again, and the machine would keep a value
    /// every other machine has replaced (found by the simulation, seed 5268).
    @Test(arguments: ["bookmark", "mark"])
    func aFetchedVersionOlderThanOneSentSinceIsNotApplied(kind: String) throws {
        let (a, b, game) = try twoMachinesWithAGame()
        func change(_ machine: Machine) throws { try bookmarkOrMark(kind, on: machine, in: game, outOn: a) }
        try change(b)
        try b.sync()
        var other = a
        try other.restart()
        let fetcher = WatchedCloud(a.cloud)
        var interleaved = false
        var mine: [Date] = []
        let zone = kind == "bookmark" ? "ReadingList" : "Games"
        fetcher.afterZoneFetch = { fetched in
            guard fetched.name == zone, !interleaved else { return }
            interleaved = true
            #expect(throws: Never.self) {
                try change(a)
                mine = try a.player.readingList().map(\.addedAt)
                try other.sync()
            }
            #expect((try? a.player.pendingChangeCount()) == 0, "the other process sent this machine's change and cleared it")
        }
        try SyncEngine(player: a.player, cloud: fetcher, now: { [clock] in clock.now }, pause: { _ in }).sync()
        #expect(interleaved)
        if kind == "bookmark" {
            let added = try a.player.readingList().map(\.addedAt)
            #expect(added == mine, "this machine keeps its own, later, bookmark (\(mine)), not the one read before: \(added)")
        } else {
            #expect(try a.game(game.id).game.marks["q"] == .out)
        }
        try expectAgreement(kind, a, b, game: game, bookmarks: 1, mark: .out)
    }

    /// One process of a machine fetches the games zone and stops before storing the fetch; while
    /// it waits, another machine plays a game, another process of this machine fetches it, and
    /// the other machine deletes it. The first fetch, older, must not be stored then: its token
    /// would take the zone's back to before the game, and the next fetch from there brings
    /// neither the game nor its deletion, so this machine would keep it for good (found by the
    /// simulation, seed 8471).
    @Test func aFetchOlderThanAnotherProcessesDoesNotTakeTheTokenBack() throws {
        let (a, b, first) = try twoMachinesWithAGame()
        // Something new in the games zone, so the next round of `a` fetches it.
        try b.guess("pilot", in: first.id)
        try b.sync()
        var other = a
        try other.restart()
        let fetcher = WatchedCloud(a.cloud)
        var played: SavedGame?
        fetcher.afterZoneFetch = { fetched in
            guard fetched.name == "Games", played == nil else { return }
            #expect(throws: Never.self) {
                let game = try b.start("zebra")
                try b.guess("zebra", in: game.id)
                try b.sync()
                try other.sync()
                #expect(try a.game(game.id).game.status == .won, "the other process of this machine brought the game")
                try b.player.deleteGame(id: game.id)
                try b.sync()
                played = game
            }
        }
        try SyncEngine(player: a.player, cloud: fetcher, now: { [clock] in clock.now }, pause: { _ in }).sync()
        let game = try #require(played, "the first process fetched the games zone")
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        #expect((try? a.game(game.id)) == nil, "the game deleted on the other machine is gone here too")
        #expect(try a.player.history().map(\.game.id).sorted() == b.player.history().map(\.game.id).sorted())
        #expect(try a.player.pendingChangeCount() == 0)
    }

    /// A finished game deleted from the history while a process of the machine is sending it
    /// (found by the simulation, seed 38): the send puts it in the cloud after the deletion, so
    /// its deletion must go up again, or the other machine keeps it for good.
    @Test(arguments: [true, false])
    func aGameDeletedWhileItIsSentIsDeletedEverywhere(uploadedBefore: Bool) throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try a.sync()
        try b.sync()
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        if uploadedBefore { try a.sync() }
        try a.guess("tiger", in: game.id)
        var other = a
        try other.restart()
        let watched = WatchedCloud(a.cloud)
        var interleaved = false
        watched.beforeCommit = {
            guard !interleaved else { return }
            interleaved = true
            #expect(throws: Never.self) {
                try a.player.deleteGame(id: game.id)
                try other.sync()
            }
            clock.advance(1)
        }
        try SyncEngine(player: a.player, cloud: watched, now: { [clock] in clock.now }, pause: { _ in }).sync()
        #expect(interleaved)
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        #expect(try a.player.pendingChangeCount() == 0 && b.player.pendingChangeCount() == 0)
        #expect(try a.player.history().isEmpty)
        #expect(try b.player.history().isEmpty)
    }

    /// A process reads a new game to send and stops; another process of the machine sends it
    /// first, so the first one's commit meets it in the cloud (a conflict). Before the first
    /// process takes the cloud's version, the player deletes the game and the other process
    /// sends that deletion and clears it. The cloud's version, read before the deletion, must
    /// not bring the game back here: nothing here would delete it again, and every other
    /// machine has it deleted (found by the simulation, seed 25800).
    @Test func aConflictMetBeforeTheGameWasDeletedDoesNotBringItBack() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try a.sync()
        try b.sync()
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        _ = try a.player.giveUp(gameID: game.id)
        var other = a
        try other.restart()
        let watched = WatchedCloud(a.cloud)
        var sentFirst = false, deleted = false
        watched.beforeCommit = {
            guard !sentFirst else { return }
            sentFirst = true
            #expect(throws: Never.self) { try other.sync() }
            clock.advance(1)
        }
        watched.afterRefusedCommit = {
            guard !deleted else { return }
            deleted = true
            #expect(throws: Never.self) {
                try a.player.deleteGame(id: game.id)
                try other.sync()
            }
            #expect((try? a.player.pendingChangeCount()) == 0, "the other process sent the deletion and cleared it")
            clock.advance(1)
        }
        try SyncEngine(player: a.player, cloud: watched, now: { [clock] in clock.now }, pause: { _ in }).sync()
        #expect(sentFirst && deleted, "the commit met the other process's copy of the game")
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        #expect(try a.player.pendingChangeCount() == 0 && b.player.pendingChangeCount() == 0)
        #expect(try a.player.history().map(\.game.id) == [], "the game deleted here stays deleted here")
        #expect(try b.player.history().isEmpty)
    }

    /// A machine that has only ever sent into its games zone (no other machine wrote there, and
    /// the zone was there before its first commit) has no token for it, so its first fetch of it is a full one, which brings what the cloud has
    /// and no deletion. A game of it deleted on another machine meanwhile must go here too, or
    /// it stays here for good (found by the simulation, seed 5137). A game with a change still
    /// waiting is left to the send, which meets the deletion.
    @Test func aGameDeletedElsewhereGoesHereThoughThisMachineNeverFetchedItsGames() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try b.sync()
        try a.sync()
        // Another process of this machine made the games zone, and its round stopped before it
        // sent anything: this round finds the zone there, so takes no first token of it.
        try a.cloud.createZone(SyncZone.games.cloudZone)
        let deleted = try a.start("tiger"), kept = try a.start("zebra")
        try a.guess("crane", in: deleted.id)
        try a.guess("crane", in: kept.id)
        try a.sync()
        #expect(try a.player.zoneToken(.games) == nil, "this machine never fetched its games zone: only it wrote there")
        try b.sync()
        clock.advance(1)
        _ = try b.player.giveUp(gameID: deleted.id, now: b.clock.now)
        try b.player.deleteGame(id: deleted.id)
        try b.sync()
        try a.sync()
        #expect(try a.player.gamesInProgress().map(\.id) == [kept.id])
        #expect(try a.player.history().isEmpty)
        #expect(try a.player.pendingChangeCount() == 0 && b.player.pendingChangeCount() == 0)
        #expect(try a.player.zoneToken(.games) != nil)
    }

    /// The system fields a machine keeps of a fetched game (in their short form) name the
    /// version it read: its change is sent on top of that version, with no conflict to merge.
    @Test func aChangeToAFetchedGameIsSentOnTheVersionItRead() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("comet")
        try a.guess("pilot", in: game.id)
        try a.sync()
        try b.sync()
        try b.guess("crane", in: game.id)
        let sent = try b.sync()
        #expect(sent.uploaded == 2)
        #expect(sent.conflictsResolved == 0)
        try b.guess("comet", in: game.id)
        #expect(try b.sync().conflictsResolved == 0)
        try a.sync()
        #expect(try a.snapshot(game.id) == b.snapshot(game.id))
        #expect(try a.game(game.id).game.status == .won)
    }

    @Test func bookmarksTravelBothWays() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        try a.player.addBookmark(word: "comet")
        try a.sync()
        try b.sync()
        #expect(try b.player.readingList().map(\.word) == ["comet"])
        try b.player.removeBookmark(word: "comet")
        try b.sync()
        try a.sync()
        #expect(try a.player.readingList().isEmpty)
        // Added again on A later: it comes back on B.
        try a.player.addBookmark(word: "comet")
        try a.sync()
        try b.sync()
        #expect(try b.player.readingList().map(\.word) == ["comet"])
    }

    /// Deleted where it was played (its guesses known from acknowledged saves) or on the machine
    /// that fetched it (its guesses known from the fetch).
    @Test(arguments: [false, true])
    func aDeletedGameDisappearsFromTheOtherMachineWithItsGuesses(deletedWhereFetched: Bool) throws {
        let player = try Machine("laptop", folder: folder, shared: clock), fetcher = try Machine("desktop", folder: folder, shared: clock)
        let (a, b) = deletedWhereFetched ? (fetcher, player) : (player, fetcher)
        let game = try player.start("tiger")
        try player.guess("crane", in: game.id)
        try player.guess("tiger", in: game.id)
        try player.sync()
        try fetcher.sync()
        #expect(try fetcher.player.history().count == 1)
        try a.player.deleteGame(id: game.id)
        try a.sync()
        let report = try b.sync()
        #expect(report.deleted >= 1)
        #expect(try b.player.history().isEmpty)
        // A third machine arriving later gets nothing of it, not even orphan guesses.
        let c = try Machine("tablet", folder: folder, shared: clock)
        let fresh = try c.sync()
        #expect(try c.player.history().isEmpty)
        #expect(fresh.waiting == 0 && fresh.downloaded == 0)
    }

    @Test(arguments: [0.0, 86_400.0])
    func bothOfflineOnOneGameKeepEveryGuessAndTheHighestStatus(aheadBy offset: TimeInterval) throws {
        let a = try Machine("laptop", folder: folder, clockOffset: offset, shared: clock)
        let b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        try a.sync()
        try b.sync()
        // Offline, both play on: A marks and gives up, B guesses twice and wins.
        try a.guess("pilot", in: game.id)
        _ = try a.player.mark("z", as: .out, gameID: game.id, now: a.clock.now)
        _ = try a.player.giveUp(gameID: game.id, now: a.clock.now)
        try b.guess("mound", in: game.id)
        _ = try b.player.mark("e", as: .in, gameID: game.id, now: b.clock.now)
        try b.guess("tiger", in: game.id)
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        let onA = try a.snapshot(game.id), onB = try b.snapshot(game.id)
        #expect(onA == onB, "A: \(onA) B: \(onB)")
        #expect(onA.status == .won)
        #expect(Set(onA.guesses) == ["crane", "pilot", "mound", "tiger"])
        #expect(onA.marks == ["z": .out, "e": .in])
        #expect(try a.player.statistics().won == 1)
    }

    @Test func aLaterEditWinsEvenAgainstAClockADayAhead() throws {
        let a = try Machine("laptop", folder: folder, clockOffset: 86_400, shared: clock)
        let b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        _ = try a.player.mark("q", as: .out, gameID: game.id, now: a.clock.now)
        try a.sync()
        try b.sync()
        // B, with the right time, changes the mark after seeing A's: B's edit is the later one.
        _ = try b.player.mark("q", as: .in, gameID: game.id, now: b.clock.now)
        try b.sync()
        try a.sync()
        #expect(try a.game(game.id).game.marks["q"] == .in)
    }

    @Test func theSameGuessOnBothMachinesIsOneGuess() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("pilot", in: game.id)
        try a.sync()
        try b.sync()
        try a.guess("crane", in: game.id)
        try b.guess("crane", in: game.id)
        try a.sync(); try b.sync(); try a.sync()
        #expect(try a.game(game.id).game.guesses.map(\.word) == ["pilot", "crane"])
        #expect(try b.game(game.id).game.guesses.map(\.word) == ["pilot", "crane"])
    }

    @Test func anOfflineFolderKeepsEveryChangeQueuedAndCatchesUp() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        a.faults.setUnavailable(true)
        #expect(throws: SyncError.self) { try a.sync() }
        let status = try a.player.syncStatus()
        #expect(status.state == "offline")
        #expect(status.pendingChanges == 2)
        try a.guess("tiger", in: game.id)
        a.faults.setUnavailable(false)
        try a.sync()
        try b.sync()
        #expect(try b.snapshot(game.id) == a.snapshot(game.id))
        #expect(try a.player.syncStatus().state == "synced")
    }

    @Test func commitsHoldAtMost400RecordsAndAChangeMadeInFlightIsKept() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        for word in ["tiger", "zebra", "camel", "horse", "mouse"] {
            let game = try a.start(word)
            for guess in Words.fiveLetterGuesses(avoiding: word).prefix(14) { try a.guess(guess, in: game.id) }
        }
        for word in Words.packWords.prefix(300) { try a.player.addBookmark(word: word) }
        let watched = WatchedCloud(a.cloud)
        var changedInFlight = false
        let game = try #require(try a.player.gamesInProgress().first)
        // While the first commit (the games) is in flight, one of those games is given up.
        watched.duringCommit = {
            guard !changedInFlight else { return }
            changedInFlight = true
            _ = try? a.player.giveUp(gameID: game.id, now: a.clock.now)
        }
        let engine = SyncEngine(player: a.player, cloud: watched, pause: { _ in })
        let report = try engine.sync()
        #expect(watched.commitSizes.allSatisfy { $0 <= 400 })
        #expect(watched.commitSizes.count >= 2)
        #expect(watched.commitSizes.reduce(0, +) == report.uploaded)
        // The give-up made during the first commit was not cleared by acknowledging that commit:
        // still queued after the upload, it went out in the same sync (one more record than was
        // queued at the start).
        #expect(report.uploaded == 5 + 70 + 300 + 1)
        #expect(try a.player.outgoingChanges(naming: CloudSchema()).isEmpty)
        try engine.sync()
        try b.sync()
        #expect(try b.game(game.id).game.status == .gaveUp)
        #expect(try b.player.readingList().count == 300)
    }

    @Test func rateLimitsAreWaitedOutAsTheCloudAsks() throws {
        let a = try Machine("laptop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        a.faults.rateLimit(retryAfter: 2.5, times: 2)
        let waits = Waits()
        let engine = SyncEngine(player: a.player, cloud: a.cloud, pause: { waits.add($0) })
        try engine.sync()
        #expect(waits.all == [2.5, 2.5])
        #expect(try a.player.pendingChangeCount() == 0)
        a.faults.rateLimit(retryAfter: 1, times: 50)
        let next = try a.start("zebra")
        try a.guess("crane", in: next.id)
        #expect(throws: SyncError.self) { try engine.sync() }
        #expect(try a.player.pendingChangeCount() == 2, "nothing lost when the cloud stays busy")
    }

    @Test func recordsThatMakeNoSenseAreSkippedNotApplied() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        try a.sync()
        let zone = try ZoneID("Games")
        var bad = CloudRecord(recordType: "Guess", recordName: "\(game.id)-zzzzzzzzzz", fields: [
            "game": .string(game.id), "word": .string("zzzzzzzzzz"), "position": .int(1), "playedAt": .date(Date()), "common": .int(3),
        ])
        _ = try a.cloud.modifyRecords(in: zone, saving: [bad], deleting: [], policy: .overwrite)
        bad = CloudRecord(recordType: "Game", recordName: "../../etc", fields: ["secret": .string("tiger")])
        _ = try a.cloud.modifyRecords(in: zone, saving: [bad], deleting: [], policy: .overwrite)
        _ = try a.cloud.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Mystery", recordName: "x")], deleting: [], policy: .overwrite)
        let report = try b.sync()
        #expect(report.skipped == 3)
        #expect(try b.game(game.id).game.guesses.map(\.word) == ["crane"], "only the real guess")
        #expect(try b.player.gamesInProgress().map(\.id) == [game.id])
    }

    @Test func playersNeverSeeEachOthersGamesInTheCloud() throws {
        let ann = try Machine("laptop", folder: folder, player: "ann", shared: clock)
        let bob = try Machine("desktop", folder: folder, player: "bob", shared: clock)
        let game = try ann.start("tiger")
        try ann.guess("crane", in: game.id)
        try ann.sync()
        try bob.sync()
        #expect(try bob.player.gamesInProgress().isEmpty)
        let annElsewhere = try Machine("desktop", folder: folder, player: "ann", shared: clock)
        try annElsewhere.sync()
        #expect(try annElsewhere.player.gamesInProgress().map(\.id) == [game.id])
    }
}

/// Collects the pauses a sync asked for.
final class Waits: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [TimeInterval] = []
    func add(_ t: TimeInterval) { lock.withLock { waits.append(t) } }
    var all: [TimeInterval] { lock.withLock { waits } }
}

enum Words {
    static let packWords: [String] = Content.packFiles.flatMap { (try? PackFile.read($0).words.map(\.word)) ?? [] }
    static func fiveLetterGuesses(avoiding secret: String) -> [String] {
        ["crane", "pilot", "mound", "ghost", "brick", "flame", "dusty", "wharf", "jumbo", "plank", "sword", "quilt", "vexed", "nymph", "glyph"]
            .filter { $0 != secret && Set($0).count == 5 }
    }
}
