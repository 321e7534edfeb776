import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Sync

/// The kinds of history a new machine may meet on its first sync. Each is seeded on a laptop of
/// its own, uploaded to a cloud folder of its own, then pulled by new machines and measured
/// against its own floor (the same rows inserted straight into SQLite).
enum History: String, CaseIterable {
    /// Finished games, mostly won: the benchmark's main history (measured by `sync.firstSync`).
    case won
    /// Half lost (six wrong guesses of six), half given up after two guesses.
    case lost
    /// Games in progress, with guesses and notepad marks.
    case inProgress
    /// A reading list: as many bookmarks as the scale has games, and no games.
    case readingList
    /// Won games of which every other one was then deleted: tombstones in the folder.
    case deleted
    /// Won games synced one game at a time (a player who syncs after every game): two small
    /// segments a game (the game, then its guesses), and no snapshot yet.
    case syncedPerGame

    var label: String {
        switch self {
        case .won: "won games"
        case .lost: "lost and given-up games"
        case .inProgress: "games in progress, with marks"
        case .readingList: "a reading list (bookmarks)"
        case .deleted: "half the games deleted (tombstones)"
        case .syncedPerGame: "one sync per game, no snapshot"
        }
    }

    /// Seeds `laptop` with this history at `games` games and uploads it to its cloud folder.
    func seedAndUpload(_ laptop: Machine, games: Int) throws {
        switch self {
        case .won: try Seeding.seed(laptop, games: games, kind: .won)
        case .lost: try Seeding.seed(laptop, games: games, kind: .lostOrGivenUp)
        case .inProgress: try Seeding.seed(laptop, games: games, kind: .inProgress)
        case .readingList: try Seeding.seedReadingList(laptop, bookmarks: games)
        case .deleted, .syncedPerGame: try Seeding.seed(laptop, games: games, kind: .won)
        }
        if self == .syncedPerGame {
            let store = OneGamePerCommit(laptop.store)
            try SyncEngine(player: laptop.player, cloud: store).sync()
            guard store.commits >= 2 * games else { throw BenchFailure("\(games) games went up in \(store.commits) commits") }
            return
        }
        try laptop.engine.sync()
        if self == .deleted {
            for game in try laptop.player.history() where Int(game.game.id.suffix(12), radix: 16)! % 2 == 1 {
                try laptop.player.deleteGame(id: game.game.id)
            }
            try laptop.engine.sync()
        }
    }
}

/// What a player sees of their data, the same on every machine that has synced: every game with
/// its guesses and marks, the reading list, the history, the games in progress and the statistics.
struct PlayerView: Equatable {
    var document: ExportDocument
    var history: [SavedGame]
    var inProgress: [SavedGame]
    var readingList: [Bookmark]
    var statistics: Statistics

    init(_ machine: Machine) throws {
        // Written at one moment, with no machine's own settings, so two machines compare equal.
        document = try machine.player.exportDocument(cloudDir: nil, now: Date(timeIntervalSince1970: 0))
        document.settings = ExportDocument.Settings(device: nil, cloudDir: nil)
        history = try machine.player.history()
        inProgress = try machine.player.gamesInProgress()
        readingList = try machine.player.readingList()
        statistics = try machine.player.statistics()
    }

    /// Throws unless `machine` ends with exactly what `self` holds.
    func check(_ machine: Machine, _ history: History) throws {
        let other = try PlayerView(machine)
        guard other != self else { return }
        var differences: [String] = []
        if other.document.games != document.games { differences.append("games (\(other.document.games.count) of \(document.games.count))") }
        if other.document.readingList != document.readingList { differences.append("reading list (\(other.readingList.count) of \(readingList.count))") }
        if other.history != self.history { differences.append("history") }
        if other.inProgress != inProgress { differences.append("games in progress") }
        if other.statistics != statistics { differences.append("statistics") }
        throw BenchFailure("\(history.label): the new machine differs from the laptop in \(differences.joined(separator: ", "))")
    }
}

/// The store as a player who syncs after every game leaves it: each commit the engine makes is
/// split into one commit per game (a game's record, or its guesses and marks), and the log is
/// never compacted (no snapshot yet). Everything else goes to the store as it is.
final class OneGamePerCommit: ForwardingCloudDatabase, @unchecked Sendable {
    let inner: FolderCloudDatabase
    private(set) var commits = 0

    init(_ store: FolderCloudDatabase) { inner = store }

    func compactIfWorthwhile(_ zone: ZoneID) throws(CloudStoreError) -> CompactionReport? { nil }

    func modifyRecords(in zone: ZoneID, saving: [CloudRecord], deleting: [String], policy: SavePolicy) throws(CloudStoreError) -> CommitResult {
        var order: [String] = [], groups: [String: [CloudRecord]] = [:]
        for record in saving {
            let game = CloudSchema.game(of: record)
            if groups[game] == nil { order.append(game) }
            groups[game, default: []].append(record)
        }
        var result: CommitResult?
        for game in order {
            let saved = try inner.modifyRecords(in: zone, saving: groups[game]!, deleting: [], policy: policy)
            if result == nil { result = saved } else { result!.savedRecords += saved.savedRecords }
            commits += 1
        }
        if !deleting.isEmpty || result == nil {
            let deleted = try inner.modifyRecords(in: zone, saving: [], deleting: deleting, policy: policy)
            if result == nil { result = deleted } else { result!.deletedRecordNames = deleted.deletedRecordNames }
            commits += 1
        }
        return result!
    }
}
