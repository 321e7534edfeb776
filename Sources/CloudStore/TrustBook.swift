import Concurrency
import Foundation

/// What this machine trusts (docs/trust.md): its own key, and for each player the machines
/// pinned for them (its own player's set, and each friend's as first seen, like SSH's known
/// hosts). Kept in the data dir beside the key; the device sets read from the folder are
/// checked against it, and grow only by signed additions from a pinned machine.
public final class TrustBook: Sendable {
    public let player: String
    public let device: DeviceID
    /// This machine's name for people (`--device`), written in its key file.
    public let label: String
    public let key: DeviceKey
    /// Where the pins are kept (nil: in memory only, for tests).
    let file: URL?
    let warnings: CloudWarningSink?
    let now: @Sendable () -> Date

    struct Pin: Codable, Equatable {
        var members: [String: DeviceSet.Member] = [:]
        var removed: Set<String> = []
    }

    struct Kept: Codable {
        var pins: [String: Pin] = [:]
        /// This machine's own key file as it wrote it, to write again if it goes missing.
        var ownKeyFile: Data?
        /// The newest counter read in each head, by path: a head rolled back is refused by a
        /// later process too (absent in pins written before it was kept).
        var heads: [String: UInt64]?
    }

    struct State {
        var kept = Kept()
        var sets: [String: (stamp: String?, set: DeviceSet?)] = [:]
        var warned: Set<String> = []
        /// The newest counter read in each head (a rolled-back copy is refused).
        var heads: [FolderPath: UInt64] = [:]
        /// A head's counter rose since the pins were last written.
        var headsMoved = false
        var lastCounter: UInt64 = 0
        /// Small files already verified, as they were read (a head read again each round).
        var verified: [FolderPath: Data] = [:]
    }

    static let verifiedCacheBytes = 16 << 10
    static let verifiedCacheEntries = 4096

    let state: Locked<State>

    public init(player: String, device: DeviceID, label: String? = nil, key: DeviceKey, file: URL?, warnings: CloudWarningSink? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.player = player
        self.device = device
        self.label = label ?? device.name
        self.key = key
        self.file = file
        self.warnings = warnings
        self.now = now
        var initial = State()
        if let file, let data = FileManager.default.contents(atPath: file.path), let kept = try? JSONDecoder().decode(Kept.self, from: data) {
            initial.kept = kept
            for (path, counter) in kept.heads ?? [:] {
                initial.heads[FolderPath(path.split(separator: "/").map(String.init))] = counter
            }
        }
        self.state = Locked(initial)
    }

    /// The members pinned for `player` (empty: none yet).
    public func pinned(_ player: String) -> [DeviceSet.Member] {
        state.withLock { ($0.kept.pins[player]?.members.values).map(Array.init) ?? [] }.sorted { $0.key.id < $1.key.id }
    }

    /// Whether this machine's key is in its own player's pinned set.
    public var enrolled: Bool { state.withLock { $0.kept.pins[player]?.members[key.publicKey.id] != nil } }

    /// `player`'s machines as the folder's signed files and this machine's pin say; nil when
    /// none can be trusted yet (no machine of theirs signed in, or two sets claim them: told once).
    public func deviceSet(of player: String, in folder: any CloudFolder) -> DeviceSet? {
        let directory = KeyFolder.directory(player)
        let stamp = folder.stamp(directory)
        if let stamp, let cached = state.withLock({ $0.sets[player] }), cached.stamp == stamp { return cached.set }
        let contents = KeyFolder.read(player, in: folder) { path, reason in warnOnce(path.description, reason) }
        let kept = state.withLock { $0.kept.pins[player] }
        var set: DeviceSet?
        if let kept, !kept.members.isEmpty {
            set = KeyFolder.deviceSet(player, pinned: kept.members, removed: kept.removed, contents: contents)
        } else if player != self.player {
            let founders = KeyFolder.founders(player, contents: contents)
            if founders.count == 1, let founder = founders.first {
                set = KeyFolder.deviceSet(player, pinned: [founder.key.id: .init(device: founder.device, key: founder.key, label: founder.label)], removed: [],
                                          contents: contents)
            } else if founders.count > 1 {
                warnOnce(directory.description, "\(founders.count) machines each say they started \(player)'s machines (\(founders.map(\.key.fingerprint).joined(separator: "; "))); compare with \(player) and run 'qiktionary friends trust \(player) FINGERPRINT'")
            } else if folder.fileExists(FolderPath(["players", player, "generations"])) || !((try? folder.list(FolderPath(["players", player]))) ?? []).isEmpty {
                warnOnce(directory.description, "no machine of \(player) has signed its files yet (a version before signing?); \(player) is shown once one does")
            }
        }
        if let set {
            for stranger in set.strangers {
                let advice = player == self.player
                    ? "add it with 'qiktionary devices add' on a machine already in and 'qiktionary devices join CODE' on it"
                    : "if \(player) added it, run 'qiktionary friends trust \(player)'"
                warnOnce(KeyFolder.keyPath(player, stranger.key.id).description,
                         "the machine '\(stranger.name)' (\(stranger.key.fingerprint)) is not signed in by a machine of \(player) this machine knows; it is not read; \(advice)")
            }
            pin(player, members: set.members, removed: set.removed, refreshing: true)
        }
        state.withLock { $0.sets[player] = (stamp, set) }
        return set
    }

    /// Replaces `player`'s pin with `members` (the folder's set as it is now), or adds to it.
    /// `refreshing`: the members given replace those kept under the same key (a device folder renamed).
    func pin(_ player: String, members: [String: DeviceSet.Member], removed: Set<String>, replacing: Bool = false, refreshing: Bool = false) {
        let changed = state.withLock { state -> Bool in
            var pin = replacing ? Pin() : (state.kept.pins[player] ?? Pin())
            let before = state.kept.pins[player]
            pin.members.merge(members) { old, new in refreshing ? new : old }
            pin.removed.formUnion(removed)
            for id in pin.removed { pin.members[id] = nil }
            state.kept.pins[player] = pin
            if replacing { state.sets[player] = nil }
            return before != pin
        }
        if changed { save() }
    }

    /// Forgets the cached sets, so the next read looks at the folder's keys again.
    func forgetSets() { state.withLock { $0.sets = [:] } }

    /// Writes the pins, merged with what another process of this data dir kept meanwhile.
    func save() {
        guard let file else { return }
        let kept = state.withLock { state -> Kept in
            if let data = FileManager.default.contents(atPath: file.path), let other = try? JSONDecoder().decode(Kept.self, from: data) {
                for (name, pin) in other.pins {
                    var mine = state.kept.pins[name] ?? Pin()
                    mine.members.merge(pin.members) { old, _ in old }
                    mine.removed.formUnion(pin.removed)
                    for id in mine.removed { mine.members[id] = nil }
                    state.kept.pins[name] = mine
                }
                if state.kept.ownKeyFile == nil { state.kept.ownKeyFile = other.ownKeyFile }
                for (path, counter) in other.heads ?? [:] {
                    let key = FolderPath(path.split(separator: "/").map(String.init))
                    state.heads[key] = max(state.heads[key] ?? 0, counter)
                }
            }
            state.kept.heads = Dictionary(uniqueKeysWithValues: state.heads.map { ($0.key.description, $0.value) })
            state.headsMoved = false
            return state.kept
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(kept) else { return }
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        do {
            try data.write(to: temporary)
            _ = rename(temporary.path, file.path)
        } catch {
            warnOnce(file.path, "could not be written: \(error.localizedDescription)")
        }
    }

    func warnOnce(_ path: String, _ reason: String) {
        let warning = CloudWarning(path: path, reason: reason)
        guard state.withLock({ $0.warned.insert(path + "\n" + reason).inserted }) else { return }
        warnings?(warning)
    }

    /// Writes the pins when a head's counter rose since they were written (the end of a sync
    /// round), so a later process refuses a head rolled back behind what this one read.
    public func keepHeads() {
        if state.withLock({ $0.headsMoved }) { save() }
    }

    /// A counter for a file about to be signed: the wall clock in milliseconds, never below one
    /// already used or read for it.
    func counter(for path: FolderPath) -> UInt64 {
        let wall = UInt64(max(0, now().timeIntervalSince1970 * 1000))
        return state.withLock { state in
            let next = max(wall, state.lastCounter + 1, (state.heads[path] ?? 0) + 1)
            state.lastCounter = next
            return next
        }
    }
}
