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
    let cloud: FolderCloudDatabase
    public var warnings: CloudWarningSink?

    public init(player: PlayerDatabase, cloud: FolderCloudDatabase, warnings: CloudWarningSink? = nil) {
        self.player = player
        self.cloud = cloud
        self.warnings = warnings
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

        /// The reader of `name`'s store, and whether a read of it can be skipped.
        func look(_ name: String, in folder: any CloudFolder) throws(CloudStoreError) -> (reader: FolderCloudDatabase, stamp: String?, unchanged: Bool) {
            let kept = seen.withLock { $0[name] }
            let reader: FolderCloudDatabase
            if let kept { reader = kept.reader } else { reader = try FolderCloudDatabase.reader(of: name, in: folder) }
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

    /// Reads what every player's shared zone has new and keeps what passes; with `readers`
    /// kept from earlier rounds, a store where nothing changed is not read.
    @discardableResult
    public func read(using readers: Readers = Readers()) throws -> Reading {
        var read: [(publisher: String, record: SharedRecord, elsewhere: Bool)] = []
        let known = try player.sharedTokens()
        var tokens: [String: String] = [:]
        var reading = Reading()
        let device = player.profile.device.id
        for name in try FolderCloudDatabase.players(in: cloud.folder) where PlayerName.isValid(name) {
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
                    warn(name, refusal)
                }
            }
            let after = changes.token.serialized.base64EncodedString()
            if after != known[name] { tokens[name] = after }
        }
        // Matches first, so a play or decline read in the same round finds its match.
        let ordered = read.filter { if case .match = $0.record { true } else { false } }
            + read.filter { if case .match = $0.record { false } else { true } }
        for (publisher, record, elsewhere) in ordered {
            if let refusal = try keep(record, publishedBy: publisher) {
                reading.refused += 1
                warn(publisher, SharedRefusal(record: Self.describe(record), reason: refusal.description))
            } else if elsewhere {
                reading.arrived += 1
            }
        }
        if !tokens.isEmpty { try player.saveSharedTokens(tokens) }
        return reading
    }

    /// What `name`'s shared zone has new since `token`; nil when it has none, or when its
    /// store is unchanged since a complete read.
    private func fetch(_ name: String, since token: ChangeToken?, readers: Readers) throws -> ZoneChanges? {
        var (reader, stamp, unchanged) = try readers.look(name, in: cloud.folder)
        if unchanged, token != nil { return nil }
        let changes: ZoneChanges?
        do {
            changes = try Self.fetch(CloudSchema.sharedZone, from: reader, since: token)
        } catch .cloudReset {
            // The player reset their store: a new reader settles on its new generation.
            readers.forget(name)
            (reader, stamp, _) = try readers.look(name, in: cloud.folder)
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

    private func warn(_ publisher: String, _ refusal: SharedRefusal) {
        warnings?(CloudWarning(path: "\(publisher)'s \(refusal.record)", reason: refusal.reason))
    }

    static func describe(_ record: SharedRecord) -> String {
        switch record {
        case .player(let name, _): "player \(String(name.prefix(40)))"
        case .match(let match): "match \(String(match.id.prefix(40)))"
        case .play(let play): "play of game \(play.game) of match \(String(play.match.prefix(40)))"
        case .decline(let id): "decline of match \(String(id.prefix(40)))"
        case .standing(let device, _): "leaderboard line of \(String(device.prefix(40)))"
        }
    }

    /// Checks one record by Core's rules and keeps it; returns the refusal, if refused.
    private func keep(_ record: SharedRecord, publishedBy publisher: String) throws -> MatchRefusal? {
        do {
            try check(record, publishedBy: publisher)
            return nil
        } catch let refusal as MatchRefusal {
            return refusal
        }
    }

    private func check(_ record: SharedRecord, publishedBy publisher: String) throws {
        switch record {
        case .player(let name, let joinedAt):
            if let problem = PlayerName.problem(name) { throw MatchRefusal.badName(problem) }
            guard name == publisher else { throw MatchRefusal.notThePublisher(player: name, publisher: publisher) }
            try player.keepFriend(name, joinedAt: name == viewer ? joinedAt : nil)
        case .match(let match):
            try match.check(publishedBy: publisher)
            // Only this player's matches are kept; another pair's match is theirs.
            if match.players.contains(viewer), let kept = try player.keepMatch(match) { try Match.checkUnchanged(kept: kept, read: match) }
            try player.keepFriend(publisher)
        case .play(let fields):
            if let problem = PlayerName.problem(fields.player) { throw MatchRefusal.badName(problem) }
            guard fields.player == publisher else { throw MatchRefusal.notThePublisher(player: fields.player, publisher: publisher) }
            if let match = try player.match(id: fields.match) {
                _ = try MatchPlay(checking: fields, in: match, publishedBy: publisher)
                try player.keepPlay(fields) { old, new in Self.merge(old, new, in: match) }
            } else {
                // Its match has not arrived (or is another pair's): it waits, checked when read.
                try player.keepPlay(fields) { _, new in new }
            }
            try player.keepFriend(publisher)
        case .decline(let id):
            // One whose match has not arrived waits, checked when the match is shown.
            if let match = try player.match(id: id) { try MatchState.checkDecline(by: publisher, of: match) }
            try player.keepDecline(matchID: id, by: publisher)
        case .standing(let device, let line):
            try line.check()
            try player.keepStanding(line, player: publisher, device: device)
            try player.keepFriend(publisher)
        }
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
        try cloud.createZone(CloudSchema.sharedZone)
        for start in stride(from: 0, to: changed.count, by: SyncEngine.batchLimit) {
            let batch = Array(changed[start..<min(start + SyncEngine.batchLimit, changed.count)])
            _ = try cloud.modifyRecords(in: CloudSchema.sharedZone, saving: batch, deleting: [], policy: .overwrite)
        }
        try player.notePublished(contents)
        return changed.count
    }
}
