import CloudStore
import Foundation
import QiktionaryCore
import Storage
@testable import Sync
import Testing

/// A new machine's first sync streams the cloud's largest snapshot into the database while it is
/// decoded. It must leave exactly what the usual fetch leaves, also when the stream is refused
/// and the usual fetch does it again.
@Suite struct StreamedFirstSyncTests {
    let clock = TestClock()
    let folder = MemoryFolder()

    /// Games won, lost and in progress, marks and bookmarks, compacted into snapshots, then more
    /// played after them: guesses in old games, a game given up, one deleted, a bookmark removed.
    func laptopWithHistory() throws -> Machine {
        let a = try Machine("laptop", folder: folder, shared: clock)
        let secrets = Array(Words.packWords.filter { $0.count == 5 && Set($0).count == 5 }.prefix(24))
        var games: [String] = []
        for (n, secret) in secrets.enumerated() {
            let game = try a.start(secret)
            games.append(game.id)
            for guess in Words.fiveLetterGuesses(avoiding: secret).prefix(n % 4 + 1) { try a.guess(guess, in: game.id) }
            if n % 3 == 0 { try a.guess(secret, in: game.id) }
            if n % 5 == 1 { _ = try a.player.mark("q", as: .out, gameID: game.id, now: a.clock.now) }
            if n % 4 == 0 { try a.player.addBookmark(word: secrets[n]) }
        }
        try a.sync()
        for zone in ["Games", "ReadingList"] { _ = try a.cloud.compact(ZoneID(zone), keepingRecent: 0) }
        try a.guess("plank", in: games[1])
        _ = try a.player.mark("q", as: .in, gameID: games[1], now: a.clock.now)
        _ = try a.player.giveUp(gameID: games[2], now: a.clock.now)
        try a.player.deleteGame(id: games[3])
        try a.player.removeBookmark(word: secrets[4])
        try a.sync()
        return a
    }

    struct Everything: Equatable {
        var history: [String]
        var inProgress: [String]
        var readingList: [String]
        var games: [String: GameSnapshot]

        init(_ machine: Machine) throws {
            let history = try machine.player.history()
            let inProgress = try machine.player.gamesInProgress()
            self.history = history.map(\.id)
            self.inProgress = inProgress.map(\.id)
            readingList = try machine.player.readingList().map { "\($0.word) \($0.addedAt)" }
            games = try Dictionary(uniqueKeysWithValues: (history + inProgress).map { ($0.id, try machine.snapshot($0.id)) })
        }
    }

    @Test func aStreamedFirstSyncLeavesWhatTheUsualOneLeaves() throws {
        let a = try laptopWithHistory()
        let streamed = try Machine("desktop", folder: folder, shared: clock), usual = try Machine("tablet", folder: folder, shared: clock)
        let watched = WatchedCloud(streamed.cloud)
        watched.streams = true
        let streamedReport = try SyncEngine(player: streamed.player, cloud: watched, pause: { _ in }).sync()
        let usualReport = try SyncEngine(player: usual.player, cloud: WatchedCloud(usual.cloud), pause: { _ in }).sync()
        #expect(watched.streamed.contains { if case .complete = $0 { true } else { false } }, "the Games zone was streamed")
        #expect(streamedReport.downloaded == usualReport.downloaded && streamedReport.skipped == usualReport.skipped)
        #expect(streamedReport.waiting == 0 && streamedReport.uploaded == 0 && usualReport.uploaded == 0)
        let expected = try Everything(usual)
        #expect(try Everything(streamed) == expected)
        #expect(try Everything(a) == expected)
        #expect(!expected.games.isEmpty && !expected.readingList.isEmpty && !expected.inProgress.isEmpty)
        // Both go on syncing the same way afterwards.
        try a.guess("wharf", in: expected.inProgress[0])
        try a.sync()
        try streamed.sync()
        try usual.sync()
        #expect(try Everything(streamed) == Everything(usual))
    }

    /// Batches of a few records split games between them (a game's guesses in the next batch,
    /// its winning guess last): each batch settles its games but the last, and the end is the
    /// same as one batch. Both the streamed fetch and a large usual one are cut this way.
    @Test(arguments: [1, 3, 7])
    func tinyBatchesLeaveWhatOneBatchLeaves(chunk: Int) throws {
        let a = try laptopWithHistory()
        let streamed = try Machine("desktop", folder: folder, shared: clock), usual = try Machine("tablet", folder: folder, shared: clock)
        let batched = try Machine("phone", folder: folder, shared: clock)
        let watched = WatchedCloud(streamed.cloud)
        watched.streams = true
        var streaming = SyncEngine(player: streamed.player, cloud: watched, pause: { _ in })
        streaming.streamChunk = chunk
        _ = try streaming.sync()
        #expect(watched.streamed.contains { if case .complete = $0 { true } else { false } })
        var batching = SyncEngine(player: batched.player, cloud: WatchedCloud(batched.cloud), pause: { _ in })
        batching.streamChunk = chunk
        _ = try batching.sync()
        _ = try SyncEngine(player: usual.player, cloud: WatchedCloud(usual.cloud), pause: { _ in }).sync()
        let expected = try Everything(usual)
        #expect(try Everything(streamed) == expected)
        #expect(try Everything(batched) == expected)
        #expect(try Everything(a) == expected)
        #expect(expected.history.count > 5 && !expected.inProgress.isEmpty)
    }

    /// The largest snapshot replaced by another device's: the stream is refused once the
    /// snapshot is read, its transaction rolled back, and the usual fetch does the sync.
    @Test func aRefusedStreamEndsAsTheUsualSyncDoes() throws {
        _ = try laptopWithHistory()
        let b = try Machine("desktop", folder: folder, shared: clock)
        for (n, word) in Words.packWords.filter({ $0.count == 5 }).prefix(6).enumerated() where n % 2 == 0 {
            let game = try b.start(word)
            try b.guess(word, in: game.id)
        }
        try b.sync()
        _ = try b.cloud.compact(ZoneID("Games"), keepingRecent: 0)
        let snapshots = folder.allFiles.filter { $0.hasSuffix(".snap") && $0.contains("/Games/") }
        let largest = try #require(snapshots.max { folder.contents(of: $0)!.count < folder.contents(of: $1)!.count })
        let smaller = try #require(snapshots.first { $0 != largest })
        folder.place(folder.contents(of: smaller)!, at: largest.split(separator: "/").map(String.init))

        let streamed = try Machine("phone", folder: folder, shared: clock), usual = try Machine("tablet", folder: folder, shared: clock)
        let watched = WatchedCloud(streamed.cloud)
        watched.streams = true
        let streamedReport = try SyncEngine(player: streamed.player, cloud: watched, pause: { _ in }).sync()
        let usualReport = try SyncEngine(player: usual.player, cloud: WatchedCloud(usual.cloud), pause: { _ in }).sync()
        #expect(watched.streamed.contains(.refused))
        #expect(streamedReport.downloaded == usualReport.downloaded)
        #expect(try Everything(streamed) == Everything(usual))
    }
}

extension StreamedFirstSyncTests {
    /// A streamed first sync tells its progress with the store's estimate of the total, which
    /// never reads below what is done and ends equal to it.
    @Test func aStreamedFirstSyncCountsAgainstAnEstimatedTotal() throws {
        _ = try laptopWithHistory()
        let desktop = try Machine("desktop", folder: folder, shared: clock)
        let seen = Seen()
        var engine = desktop.engine
        engine.progress = { done, total in seen.add(done, total) }
        let report = try engine.sync()
        let calls = seen.all
        #expect(!calls.isEmpty)
        #expect(calls.allSatisfy { call in call.total.map { $0 >= call.done } ?? false }, "\(calls)")
        // Zone by zone (games, then the reading list): each counts up and ends at its true count.
        var zones: [[(done: Int, total: Int?)]] = [[]]
        for call in calls {
            if let last = zones[zones.count - 1].last, call.done < last.done { zones.append([]) }
            zones[zones.count - 1].append(call)
        }
        #expect(zones.count == 2, "\(calls)")
        for zone in zones { #expect(zone.last.map { $0.done == $0.total } == true, "\(zone)") }
        #expect(zones.compactMap(\.last?.done).reduce(0, +) >= report.downloaded)
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [(done: Int, total: Int?)] = []
        func add(_ done: Int, _ total: Int?) { lock.withLock { calls.append((done, total)) } }
        var all: [(done: Int, total: Int?)] { lock.withLock { calls } }
    }
}

/// A fetch of more records than one batch that is not streamed (no snapshot to stream: a folder
/// written one small sync at a time) is checked and mapped on a thread of its own, batch by
/// batch, while the batches before it are stored: in one transaction, ending as the laptop.
@Suite struct BatchedFetchTests {
    let clock = TestClock()
    let folder = MemoryFolder()

    @Test func aLargeFetchNotStreamedIsStoredInBatchesAndEndsAsTheLaptop() throws {
        let a = try Machine("laptop", folder: folder, shared: clock)
        let fields = try SystemFields(changeTag: "seed", createdBy: DeviceID("seed"), createdAt: HLCTimestamp(millis: 0, counter: 0),
                                      modifiedBy: DeviceID("seed"), modifiedAt: HLCTimestamp(millis: 0, counter: 0)).encoded
        let secrets = Words.packWords.filter { $0.count == 5 && Set($0).count == 5 }
        var incoming = IncomingChanges()
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        // 700 games of 2 to 9 guesses: won, lost, given up and in progress, some with marks.
        for n in 0..<700 {
            let secret = secrets[n % secrets.count]
            let id = String(format: "00000000-0000-4000-8000-%012x", n)
            let status: GameStatus = [.won, .lost, .gaveUp, .inProgress][n % 4]
            var words = Array(Words.fiveLetterGuesses(avoiding: secret).prefix(n % 7 + 2))
            if status == .won { words.append(secret) }
            for (position, word) in words.enumerated() {
                incoming.guesses.append(SyncGuess(gameID: id, word: word, position: position + 1, feedback: Rules.classic.feedback(for: word, against: secret),
                                                  playedAt: start.addingTimeInterval(Double(n * 100 + position)), playedOn: "laptop"))
            }
            if n % 3 == 0 {
                incoming.marks.append((SyncMark(gameID: id, letter: "q", state: .out, markedAt: start.addingTimeInterval(Double(n * 100 + 50))), fields))
            }
            let end = start.addingTimeInterval(Double(n * 100 + words.count))
            incoming.games.append((SyncGame(id: id, packID: "stones", secret: secret, fact: "", rules: .classic, maxGuesses: status == .lost ? words.count : 15,
                                            status: status, startedAt: start.addingTimeInterval(Double(n * 100)), updatedAt: end,
                                            finishedAt: status.isFinished ? end : nil, startedOn: "laptop", lastChangedOn: "laptop", hard: false, assist: .before, hints: "", daily: nil, matchResult: nil), fields))
        }
        #expect(incoming.count > 2 * SyncEngine.defaultStreamChunk)
        try a.player.applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
        try a.player.forgetSyncMetadata()
        try a.sync()

        let expected = try StreamedFirstSyncTests.Everything(a)
        #expect(expected.history.count == 525 && expected.inProgress.count == 175)
        // With and without a progress line: the same batches, and the line counts each.
        for (name, told) in [("desktop", true), ("tablet", false)] {
            let b = try Machine(name, folder: folder, shared: clock)
            let seen = StreamedFirstSyncTests.Seen()
            var engine = SyncEngine(player: b.player, cloud: WatchedCloud(b.cloud), now: { [clock] in clock.now }, pause: { _ in })
            if told { engine.progress = { done, total in seen.add(done, total) } }
            let report = try engine.sync()
            #expect(report.downloaded == incoming.count && report.skipped == 0 && report.waiting == 0 && report.uploaded == 0)
            #expect(try StreamedFirstSyncTests.Everything(b) == expected)
            if told {
                #expect(seen.all.map(\.done) == [2_000, 4_000, incoming.count])
                #expect(seen.all.allSatisfy { $0.total == incoming.count })
            }
        }
    }
}
