import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage

/// The shared zones of a folder (docs/multiplayer.md): this player's machines write only their
/// own player's shared zone, and read every player's (their own other machines' records
/// included) without writing anything in another player's folder or reading their games.
/// Every record read is checked (`CloudSchema.shared`, then Core's rules); a record refused is
/// told through `warnings` in one line and changes nothing.
public struct SharedZone: Sendable {
    let player: PlayerDatabase
    let cloud: any CloudDatabase
    /// The folder of every player's store (`CloudDatabase.sharedFolder`).
    let folder: any CloudFolder
    public var warnings: CloudWarningSink?

    public init(player: PlayerDatabase, cloud: any CloudDatabase, folder: any CloudFolder, warnings: CloudWarningSink? = nil) {
        self.player = player
        self.cloud = cloud
        self.folder = folder
        self.warnings = warnings
    }

    /// A folder's store and the folder it is in.
    public init(player: PlayerDatabase, cloud: FolderCloudDatabase, warnings: CloudWarningSink? = nil) {
        self.init(player: player, cloud: cloud, folder: cloud.folder, warnings: warnings)
    }

    private var viewer: String { player.profile.playerID }

    // MARK: Reading

    /// What one reading of the shared zones did.
    public struct Reading: Sendable, Equatable {
        /// Records kept that another player, or another machine of this player, wrote: what
        /// the screens showing matches and leaderboards must load again.
        public var arrived = 0
        /// Records refused, each told in one line.
        public var refused = 0
    }

    /// What a run of rounds remembers of every player's store between them, so a round where
    /// nothing changed reads no file: each player's reader and the stamp (`FolderCloudDatabase
    /// .stamp()`) taken before its last complete read. A store whose stamp is unchanged is
    /// passed over, except that each is read again at least every `rereadAfter` seconds: a
    /// segment that arrives before its head changes no stamp. A fresh `Readers` reads every
    /// store, as every process's first round does; the stamp is taken before a read and needs
    /// what a read found, so a store's second round reads it too and keeps the first stamp.
    public final class Readers: Sendable {
        struct Seen {
            var reader: FolderCloudDatabase
            var stamp: String?
            var readAt: UInt64
        }

        let rereadAfter: TimeInterval
        let uptime: @Sendable () -> UInt64
        let seen = Locked<[String: Seen]>([:])

        /// - Parameters:
        ///   - rereadAfter: the longest a store goes unread, in seconds, however unchanged.
        ///   - uptime: a monotonic clock in nanoseconds (tests move their own).
        public init(rereadAfter: TimeInterval = 15, uptime: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
            self.rereadAfter = rereadAfter
            self.uptime = uptime
        }

        /// The reader of `name`'s store, and whether a read of it can be skipped. A new reader
        /// tells what it finds damaged through `warnings`, as this player's own store does.
        func look(_ name: String, in folder: any CloudFolder, warnings: CloudWarningSink?) throws(CloudStoreError)
            -> (reader: FolderCloudDatabase, stamp: String?, unchanged: Bool) {
            let kept = seen.withLock { $0[name] }
            let reader: FolderCloudDatabase
            if let kept {
                reader = kept.reader
            } else {
                reader = try FolderCloudDatabase.reader(of: name, in: folder,
                                                        options: CloudStoreOptions(warnings: warnings, mostRecordsPerDevice: SharedZone.mostRecordsRead))
            }
            let stamp = reader.stamp()
            let recent = kept.map { Double(uptime() &- $0.readAt) / 1e9 < rereadAfter } ?? false
            return (reader, stamp, stamp != nil && stamp == kept?.stamp && recent)
        }

        /// Remembers a read of `name`: its stamp from before it when it was complete, else none.
        func read(_ name: String, by reader: FolderCloudDatabase, stamp: String?) {
            seen.withLock { $0[name] = Seen(reader: reader, stamp: stamp, readAt: uptime()) }
        }

        /// Forgets `name`'s reader (its store was reset): the next look opens a new one.
        func forget(_ name: String) { seen.withLock { _ = $0.removeValue(forKey: name) } }
    }

    /// The most other players' stores a round reads: the players already seen first, then new
    /// ones in name order. A family's folder holds a handful; a folder holding thousands of
    /// player folders (made by anyone who can write it) costs a round no more than this many.
    public static let mostPlayersRead = 100

    /// The most plays of one player kept waiting for a match not here, and for how long: a
    /// play read before its match (a replicator's order) counts once the match comes; one whose
    /// match never comes is dropped with a warning, and the ones past the limit are refused.
    public static let mostPlaysWaiting = 60
    public static let longestWait: TimeInterval = 14 * 86_400

    /// The most records a round reads of one device of another player's store: a player
    /// publishes a few records a match, so an honest device stays far below it; a device folder
    /// filled with records by anyone costs a round no more than this (the rest is read in later
    /// rounds, this many a round).
    public static let mostRecordsRead = 10_000

    /// The most refusals one store's records are told in one at a time, in a round; the rest
    /// are counted in one more line.
    public static let mostRefusalsTold = 20

    /// Reads what every player's shared zone has new and keeps what passes; with `readers`
    /// kept from earlier rounds, a store where nothing changed is not read.
    @discardableResult
    public func read(using readers: Readers = Readers()) throws -> Reading {
        var read: [(publisher: String, record: SharedRecord, elsewhere: Bool)] = []
        let start = try player.sharedRoundStart()
        let known = start.tokens
        var tokens: [String: String] = [:]
        var reading = Reading()
        var told = Told(warnings: warnings)
        let device = player.profile.device.id
        let present = try FolderCloudDatabase.players(in: folder).filter(PlayerName.isValid)
        let seen = Set(start.friends)
        // This player's own store and the players seen before first, then the new ones.
        let ordered = present.filter { $0 == viewer } + present.filter { $0 != viewer && seen.contains($0) }
            + present.filter { $0 != viewer && !seen.contains($0) }
        if ordered.count > Self.mostPlayersRead + 1 {
            told.note("the shared folder holds \(ordered.count - 1) other players; only \(Self.mostPlayersRead) are read each round")
        }
        let readNow = ordered.prefix(Self.mostPlayersRead + 1)
        if !seen.subtracting(readNow).subtracting([viewer]).isEmpty { try player.keepOnlyFriends(Set(readNow)) }
        for name in readNow {
            let token = known[name].flatMap { Data(base64Encoded: $0) }.flatMap { try? ChangeToken(serialized: $0) }
            guard let changes = try fetch(name, since: token, readers: readers) else { continue }
            for record in changes.changedRecords {
                switch CloudSchema.shared(record) {
                case .success(let value):
                    // This machine's own records come back to it through the reader: not news.
                    let elsewhere = name != viewer || record.systemFields?.modifiedBy.name != device
                    read.append((name, value, elsewhere))
                case .failure(let refusal):
                    reading.refused += 1
                    told.refused(name, refusal)
                }
            }
            // A player whose Player record is gone is listed no longer.
            if name != viewer, changes.deletedRecords.contains(where: { $0.recordType == CloudSchema.player }) {
                try player.forgetFriend(name)
            }
            let after = changes.token.serialized.base64EncodedString()
            if after != known[name] { tokens[name] = after }
        }
        // Plays that waited too long for their match are dropped, each player's told once.
        let cutoff = player.now().addingTimeInterval(-Self.longestWait)
        let stale = start.oldestWaiting.map { $0 < cutoff } ?? false
        for (publisher, count) in try stale ? player.dropWaitingPlays(before: cutoff).sorted(by: { $0.key < $1.key }) : [] {
            told.note("\(publisher)'s \(count) play\(count == 1 ? "" : "s") of matches that never arrived, dropped after \(Int(Self.longestWait / 86_400)) days")
        }
        // Asked of the database only when something was read.
        var waiting = read.isEmpty ? [:] : try player.waitingPlays()
        var kept = read.isEmpty ? [] : Set(try player.keptMatches().map(\.id))
        // Matches first, so a play or decline read in the same round finds its match.
        let sorted = read.filter { if case .match = $0.record { true } else { false } }
            + read.filter { if case .match = $0.record { false } else { true } }
        let latestDay = Standing.latestDay(player.now())
        for (publisher, record, elsewhere) in sorted {
            if case .match(let match) = record, match.players.contains(viewer) { kept.insert(match.id) }
            if let refusal = try keep(record, publishedBy: publisher, latestDay: latestDay, waiting: &waiting, kept: kept) {
                reading.refused += 1
                told.refused(publisher, SharedRefusal(record: Self.describe(record), reason: refusal.description))
            } else if elsewhere {
                reading.arrived += 1
            }
        }
        told.finish()
        if !tokens.isEmpty { try player.saveSharedTokens(tokens) }
        return reading
    }

    /// The round's warnings: each refused record in a line of its own, up to
    /// `mostRefusalsTold` a store, then one line counting the rest of that store's.
    struct Told {
        let warnings: CloudWarningSink?
        var refusedBy: [String: Int] = [:]

        func note(_ line: String) {
            warnings?(CloudWarning(path: "shared folder", reason: line))
        }

        mutating func refused(_ publisher: String, _ refusal: SharedRefusal) {
            refusedBy[publisher, default: 0] += 1
            guard refusedBy[publisher]! <= SharedZone.mostRefusalsTold else { return }
            warnings?(CloudWarning(path: "\(publisher)'s \(refusal.record)", reason: refusal.reason))
        }

        func finish() {
            for (publisher, count) in refusedBy.sorted(by: { $0.key < $1.key }) where count > SharedZone.mostRefusalsTold {
                note("\(count - SharedZone.mostRefusalsTold) more of \(publisher)'s records refused this round")
            }
        }
    }

    /// What `name`'s shared zone has new since `token`; nil when it has none, or when its
    /// store is unchanged since a complete read.
    private func fetch(_ name: String, since token: ChangeToken?, readers: Readers) throws -> ZoneChanges? {
        var (reader, stamp, unchanged) = try readers.look(name, in: folder, warnings: warnings)
        if unchanged, token != nil { return nil }
        let changes: ZoneChanges?
        do {
            changes = try Self.fetch(CloudSchema.sharedZone, from: reader, since: token)
        } catch .cloudReset {
            // The player reset their store: a new reader settles on its new generation.
            readers.forget(name)
            (reader, stamp, _) = try readers.look(name, in: folder, warnings: warnings)
            changes = try Self.fetch(CloudSchema.sharedZone, from: reader, since: token)
        }
        readers.read(name, by: reader, stamp: changes?.isComplete == false ? nil : stamp)
        return changes
    }

    private static func fetch(_ zone: ZoneID, from reader: FolderCloudDatabase, since token: ChangeToken?) throws(CloudStoreError) -> ZoneChanges? {
        let result = Result { () throws(CloudStoreError) in try reader.fetchZoneChanges(zone, since: token) }
        switch result {
        case .success(let changes): return changes
        case .failure(.zoneNotFound): return nil
        case .failure(.changeTokenExpired): return try reader.fetchZoneChanges(zone, since: nil)
        case .failure(let error): throw error
        }
    }

    static func describe(_ record: SharedRecord) -> String {
        let q = PlayerName.quoted
        return switch record {
        case .player(let name, _): "player \(q(name))"
        case .match(let match): "match \(q(match.id))"
        case .play(let play): "play of game \(play.game) of match \(q(play.match))"
        case .decline(let id): "decline of match \(q(id))"
        case .standing(let device, _): "leaderboard line of \(q(device))"
        }
    }

    /// Checks one record by Core's rules and keeps it; returns the refusal, if refused.
    /// `waiting`: how many plays of each player wait for their match, kept up to date.
    /// `kept`: the ids of the matches kept here, so a play of a match not here is told apart
    /// without asking the database.
    private func keep(_ record: SharedRecord, publishedBy publisher: String, latestDay: String,
                      waiting: inout [String: Int], kept: Set<String>) throws -> MatchRefusal? {
        do {
            try check(record, publishedBy: publisher, latestDay: latestDay, waiting: &waiting, kept: kept)
            return nil
        } catch let refusal as MatchRefusal {
            return refusal
        }
    }

    private func check(_ record: SharedRecord, publishedBy publisher: String, latestDay: String, waiting: inout [String: Int],
                       kept: Set<String>) throws {
        switch record {
        case .player(let name, _):
            if let problem = PlayerName.problem(name) { throw MatchRefusal.badName(problem) }
            guard name == publisher else { throw MatchRefusal.notThePublisher(player: name, publisher: publisher) }
            // Seen, never joined: only `friends --join` on this machine makes this player visible
            // here, so a record in their folder cannot make their machine publish for them. A
            // player is listed by their own (signed) Player record alone: a match, a play or a
            // leaderboard line does not list them (docs/trust.md).
            try player.keepFriend(name)
        case .match(let match):
            try match.check(publishedBy: publisher)
            guard match.players.contains(viewer) else {
                // Another pair's match: theirs. What waited for it here is not this player's either.
                try player.dropWaitingPlays(before: .distantPast, ofMatches: [match.id])
                return
            }
            try checkAgainstPack(match)
            if let kept = try player.keepMatch(match) { try Match.checkUnchanged(kept: kept, read: match) }
        case .play(let fields):
            if let problem = PlayerName.problem(fields.player) { throw MatchRefusal.badName(problem) }
            guard fields.player == publisher else { throw MatchRefusal.notThePublisher(player: fields.player, publisher: publisher) }
            if kept.contains(fields.match), let match = try player.match(id: fields.match) {
                _ = try MatchPlay(checking: fields, in: match, publishedBy: publisher)
                // This player's own plays are worked out from their own games here, which their
                // machines sync: one read from the folder adds nothing and is not kept.
                guard publisher != viewer else { return }
                try player.keepPlay(fields) { old, new in Self.merge(old, new, in: match) }
            } else {
                guard publisher != viewer else { return }
                // Its match has not arrived: it waits, checked when read, a bounded number and time.
                guard waiting[publisher, default: 0] < Self.mostPlaysWaiting else {
                    throw MatchRefusal.tooManyWaiting(limit: Self.mostPlaysWaiting)
                }
                waiting[publisher, default: 0] += 1
                try player.keepPlay(fields, waitingSince: player.now()) { _, new in new }
            }
        case .decline(let id):
            if kept.contains(id), let match = try player.match(id: id) {
                try MatchState.checkDecline(by: publisher, of: match)
                if publisher == match.createdBy {
                    // The maker's cancel: refused once the asked player has played any of it.
                    let asked = match.opponent(of: publisher) ?? ""
                    if try hasPlayed(asked, match) { throw MatchRefusal.cancelAfterAnswer(asked: asked, declined: false) }
                } else if try hasPlayed(publisher, match) {
                    throw MatchRefusal.declineAfterPlaying(publisher)
                }
                try player.keepDecline(matchID: id, by: publisher)
            } else {
                // One whose match has not arrived waits, bounded as a play is, checked when the match is shown.
                guard waiting[publisher, default: 0] < Self.mostPlaysWaiting else {
                    throw MatchRefusal.tooManyWaiting(limit: Self.mostPlaysWaiting)
                }
                waiting[publisher, default: 0] += 1
                try player.keepDecline(matchID: id, by: publisher)
            }
        case .standing(let device, let line):
            try line.check(latestDay: latestDay)
            try player.keepStanding(line, player: publisher, device: device)
        }
    }

    /// A match of a pack this machine has is held to the pack: its guess limit and word
    /// length are the pack's (the words themselves are checked when they are decoded).
    private func checkAgainstPack(_ match: Match) throws {
        guard let pack = try player.packLimits(of: match.pack) else { return }
        guard match.maxGuesses == pack.guessLimit else { throw MatchRefusal.notThePacks("guess limit \(match.maxGuesses)", pack: match.pack) }
        guard match.length == pack.length else { throw MatchRefusal.notThePacks("word length \(match.length)", pack: match.pack) }
    }

    /// Whether `name` has played any of the match: a play of theirs kept, or for this player a
    /// game of the match here with a guess in it.
    private func hasPlayed(_ name: String, _ match: Match) throws -> Bool {
        if name == viewer {
            return Match.games.contains { index in
                guard let saved = try? player.game(id: match.gameID(player: viewer, index: index)) else { return false }
                return saved.game.isFinished || !saved.game.guesses.isEmpty
            }
        }
        return try player.plays(ofMatch: match.id).contains { $0.player == name && ($0.guesses > 0 || $0.status != "in-progress") }
    }

    /// Two versions of a play, the one further on (an unreadable version gives way).
    public static func merge(_ old: MatchPlay.Fields, _ new: MatchPlay.Fields, in match: Match) -> MatchPlay.Fields {
        let a = try? MatchPlay(checking: old, in: match, publishedBy: old.player)
        let b = try? MatchPlay(checking: new, in: match, publishedBy: new.player)
        switch (a, b) {
        case let (a?, b?): return MatchPlay.merge(a, b).fields
        case (nil, _): return new
        case (_, nil): return old
        }
    }

    // MARK: Publishing

    /// What this device published last, by record name (and the notes kept with it); nothing
    /// when this player's shared zone is gone from the folder (the cloud was reset, or this is
    /// another folder): then everything is published again.
    public func lastPublished() throws -> [String: String] {
        guard try cloud.zones().contains(CloudSchema.sharedZone) else {
            try player.forgetPublished()
            return [:]
        }
        return try player.published()
    }

    /// Writes into this player's shared zone the records that differ from what this device
    /// published last (each record is this player's own: a play, a match they made, their
    /// decline, this device's line). Returns how many were written.
    /// `notes`: more texts to keep beside what was published (what a record was worked out from).
    /// `last`: what `lastPublished` returns, when the caller has read it already this round.
    @discardableResult
    public func publish(_ records: [SharedRecord], noting notes: [String: String] = [:], last: (() throws -> [String: String])? = nil) throws -> Int {
        guard !records.isEmpty || !notes.isEmpty else { return 0 }
        let device = player.profile.device.name
        let published = try last?() ?? lastPublished()
        var changed: [CloudRecord] = []
        var contents: [String: String] = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for shared in records {
            let record = CloudSchema.record(shared, device: device)
            let content = String(decoding: try encoder.encode(record.fields), as: UTF8.self)
            guard published[record.recordName] != content else { continue }
            changed.append(record)
            contents[record.recordName] = content
        }
        for (key, note) in notes where published[key] != note { contents[key] = note }
        guard !changed.isEmpty else {
            if !contents.isEmpty { try player.notePublished(contents) }
            return 0
        }
        // What is about to be written is no longer known as published until it is noted: a
        // process stopped between the write and the note publishes it again next time, even
        // when it is back to what was noted before the write (seed 37485).
        try player.forgetPublished(changed.map(\.recordName))
        try cloud.createZone(CloudSchema.sharedZone)
        for start in stride(from: 0, to: changed.count, by: SyncEngine.batchLimit) {
            let batch = Array(changed[start..<min(start + SyncEngine.batchLimit, changed.count)])
            _ = try cloud.modifyRecords(in: CloudSchema.sharedZone, saving: batch, deleting: [], policy: .overwrite)
        }
        try player.notePublished(contents)
        return changed.count
    }
}
