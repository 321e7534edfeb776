import Concurrency
import Foundation

/// What a store has read of one zone: per device, how far its log was read without a gap, and
/// per record the winning version. Merging is a max (highest HLC, then device ID), so reading a
/// version twice, late, or from a snapshot after its segment never changes the outcome, and
/// every reader that has read the same files agrees.
struct ZoneView {
    struct Winner {
        var entry: RecordEntry
        var device: DeviceID
        /// Per device, the lowest segment that carried a version of this record: tells whether
        /// a reader at some token had seen the record at all.
        var firstSeq: FirstSeen

        func beats(_ other: RecordEntry, from device: DeviceID) -> Bool {
            (entry.hlc, self.device.name) > (other.hlc, device.name)
        }

        /// Takes in another version of the record: it wins if this one does not beat it.
        mutating func absorb(_ other: RecordEntry, from device: DeviceID) {
            firstSeq.note(device, other.seq)
            if !beats(other, from: device) {
                entry = other
                self.device = device
            }
        }
    }

    var positions: [DeviceID: Int] = [:]
    var winners: [String: Winner] = [:]
    /// The latest HLC read, so this device's next edit is stamped after everything it has seen.
    var latestHLC = HLCTimestamp.zero
    /// Devices whose next announced file has not arrived intact.
    var waitingFor: Set<DeviceID> = []
    /// Left by a streamed full fetch: the records its snapshots alone held were handed over and
    /// not kept, so the view holds only what segments touched. Positions and clock are whole;
    /// anything needing every record reads the folder again.
    var partial = false
    /// Per device, its snapshot not read into `winners`: a record of it is looked up by name
    /// when something needs it (`fault`): to check a commit, to settle the winner of a record a
    /// newer segment touched. So a new process that sends or fetches a few changes reads the
    /// snapshots' lists and the segments after them, and one part per snapshot, whatever the
    /// history's length; and a store that has just sent a long history keeps almost nothing of it.
    var unread: [DeviceID: UnreadSnapshot] = [:]
    /// A lookup in `unread` failed (a part no longer reads, is not yet whole, or is not what its
    /// list says): the view must be read again from the folder, whole.
    var unreadFailed = false

    /// Brings the unread snapshots' versions of `name` into `winners`, once each; false when a
    /// snapshot could not be read.
    @discardableResult
    mutating func fault(_ name: String) -> Bool {
        guard !unread.isEmpty else { return true }
        guard !unreadFailed else { return false }
        for owner in Array(unread.keys) where unread[owner]!.looked.insert(name).inserted {
            switch unread[owner]!.entry(named: name) {
            case .failure:
                unreadFailed = true
                return false
            case .success(nil):
                continue
            case .success(let entry?):
                latestHLC = max(latestHLC, entry.hlc)
                if var winner = winners[name] {
                    winner.absorb(entry, from: owner)
                    winners[name] = winner
                } else {
                    winners[name] = Winner(entry: entry, device: owner, firstSeq: FirstSeen(owner, entry.seq))
                }
            }
        }
        return true
    }

    /// Before `changes(since:reader:)` on a view with unread snapshots: brings in the snapshots'
    /// versions of every record a reader at `positions` may be given (its winner so far lies
    /// beyond them), so each one's winner is the one a whole view would pick. Any other record's
    /// versions all lie within the reader's positions (a snapshot's within its base, which the
    /// caller checked the reader is past), so it is not given whatever a snapshot holds.
    /// False when a snapshot could not be read.
    mutating func faultChanges(since positions: [DeviceID: Int], reader: DeviceID) -> Bool {
        guard !unread.isEmpty else { return true }
        var names: [String] = []
        for (name, winner) in winners where winner.device != reader && winner.entry.seq > positions[winner.device] ?? 0 {
            names.append(name)
        }
        // In name order, so the names of one part are looked up while that part is at hand.
        for name in names.sorted() where !fault(name) { return false }
        return true
    }

    mutating func merge(_ entry: RecordEntry, from device: DeviceID) {
        latestHLC = max(latestHLC, entry.hlc)
        guard var winner = winners[entry.name] else {
            winners[entry.name] = Winner(entry: entry, device: device, firstSeq: FirstSeen(device, entry.seq))
            return
        }
        winner.absorb(entry, from: device)
        winners[entry.name] = winner
    }

    func liveRecord(named name: String) -> CloudRecord? {
        guard let winner = winners[name], !winner.entry.deleted else { return nil }
        return winner.entry.record(device: winner.device)
    }

    /// Coalesced changes for a reader at `positions` (nil: a reader that has nothing): each
    /// record once in its latest state; deletions only of records the reader may have had;
    /// nothing whose latest version is `reader`'s own.
    func changes(since positions: [DeviceID: Int]?, reader: DeviceID) -> (changed: [CloudRecord], deleted: [DeletedRecord]) {
        // What the reader gets is picked first, through the table's own positions (no name is
        // hashed again), and only that is put in name order: a reader that is nearly up to date
        // sorts a few names, not the whole zone.
        let names = winners.keys, values = winners.values
        var picked: [(index: Dictionary<String, Winner>.Index, deleted: Bool)] = []
        if positions == nil { picked.reserveCapacity(winners.count) }
        for index in winners.indices {
            let winner = values[index]
            guard let positions else {
                if !winner.entry.deleted { picked.append((index, false)) }
                continue
            }
            guard winner.device != reader, winner.entry.seq > positions[winner.device] ?? 0 else { continue }
            if !winner.entry.deleted {
                picked.append((index, false))
            } else if winner.firstSeq.contains(where: { device, seq in device == reader || seq <= positions[device] ?? 0 }) {
                picked.append((index, true))
            }
        }
        let order = NameOrder.Keys(picked.lazy.map { names[$0.index] })
        var sorted = picked.map { (key: order.key(names[$0.index]), pick: $0) }
        sorted.sort { a, b in a.key != b.key ? a.key < b.key : NameOrder.precedes(names[a.pick.index], names[b.pick.index]) }
        var changed: [CloudRecord] = []
        var deleted: [DeletedRecord] = []
        changed.reserveCapacity(picked.count)
        for (_, (index, isDeletion)) in sorted {
            let winner = values[index]
            if isDeletion {
                deleted.append(DeletedRecord(recordType: winner.entry.type, recordName: names[index]))
            } else {
                changed.append(winner.entry.record(device: winner.device))
            }
        }
        return (changed, deleted)
    }
}

/// Record names in the order of their UTF-8 bytes (for the ASCII names the game writes, the
/// order of comparing the strings), sorted cheaply. Names often share a long start (ids made in
/// sequence share 24 characters), so each gets a key: the sixteen bytes after the start all of
/// them share, as two big-endian integers. Most pairs differ there; names equal there too (a
/// game's guesses) are compared whole (`precedes`). Sorting a zone of 850,000 names by comparing
/// the strings took about 1.7 s of a first sync read from segments (docs/performance.md).
enum NameOrder {
    struct Key: Comparable {
        fileprivate let high: UInt64
        fileprivate let low: UInt64

        static func < (a: Key, b: Key) -> Bool { (a.high, a.low) < (b.high, b.low) }
    }

    /// The keys of one set of names: where their shared start ends.
    struct Keys {
        let offset: Int

        init(_ names: some Sequence<String>) {
            var first: String?, shared = 0
            for name in names {
                guard let start = first else {
                    first = name
                    shared = name.utf8.count
                    continue
                }
                shared = NameOrder.bytes(of: start) { start in
                    NameOrder.bytes(of: name) { name in
                        var length = 0
                        let limit = min(shared, name.count)
                        while length < limit, start[length] == name[length] { length += 1 }
                        return length
                    }
                }
                if shared == 0 { break }
            }
            offset = shared
        }

        func key(_ name: String) -> Key {
            NameOrder.bytes(of: name) { bytes in
                var high: UInt64 = 0, low: UInt64 = 0, shift = 120
                for byte in bytes.dropFirst(offset).prefix(16) {
                    if shift >= 64 { high |= UInt64(byte) << (shift - 64) } else { low |= UInt64(byte) << shift }
                    shift -= 8
                }
                return Key(high: high, low: low)
            }
        }
    }

    /// `body` of the name's UTF-8 bytes, in place when the string has them contiguous (a native
    /// string always does).
    static func bytes<T>(of name: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let result = name.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(name.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether `a`'s bytes come before `b`'s (a proper prefix first): the whole order, for names
    /// whose first sixteen bytes are the same.
    static func precedes(_ a: String, _ b: String) -> Bool {
        bytes(of: a) { a in
            bytes(of: b) { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }
}

/// The lowest segment per device that carried a record. Almost every record was only ever
/// written by one device, so that one is kept inline and a dictionary only made for more:
/// a full fetch keeps one of these per record, and a dictionary each would double the view.
struct FirstSeen {
    private var device: DeviceID
    private var seq: Int
    private var others: [DeviceID: Int]?

    init(_ device: DeviceID, _ seq: Int) {
        self.device = device
        self.seq = seq
    }

    mutating func note(_ device: DeviceID, _ seq: Int) {
        if device == self.device {
            self.seq = min(self.seq, seq)
        } else {
            others = others ?? [:]
            others![device] = min(others![device] ?? Int.max, seq)
        }
    }

    func contains(where predicate: (DeviceID, Int) -> Bool) -> Bool {
        predicate(device, seq) || (others?.contains { predicate($0.key, $0.value) } ?? false)
    }
}

/// A snapshot kept unread: the first name of each part (the parts are in name order, and the
/// list names each part's first), and, for one this store wrote itself, the hash of every name.
/// A name before a part's first costs a binary search; any other costs reading and decoding the
/// one part that may hold it (kept until another part is needed), or, with the hashes, a binary
/// search when the snapshot lacks it. A part is checked against its list as it is read (length,
/// checksum, its first name, names in order): one that is not whole or not what the list says
/// fails the lookup, and the store reads the zone whole, as before, and waits for it there.
struct UnreadSnapshot {
    let device: DeviceID
    let arrived: SnapshotFiles.Arrived
    /// Each part that has entries: its first name and its index, in order.
    let starts: [(first: String, part: Int)]
    /// Every name's hash, sorted, when known: 8 bytes a record.
    var hashes: [Int]?
    /// Names already looked up (their version, if any, is in the view's winners).
    var looked: Set<String> = []
    /// Counts the entries decoded (the store's `recordsDecoded`).
    let counter: Locked<Int>?
    private var cached: (part: Int, entries: [RecordEntry])?

    var base: Int { arrived.origin.base }

    /// The unread snapshot of a list that names the first of every part that has entries, in
    /// order; nil for one that does not (written before lists named them, or a single file).
    init?(device: DeviceID, arrived: SnapshotFiles.Arrived, counter: Locked<Int>? = nil) {
        guard arrived.kind == .part else { return nil }
        var starts: [(first: String, part: Int)] = []
        for (index, part) in arrived.parts.enumerated() {
            guard let listed = part.listed else { return nil }
            guard listed.entries > 0 else { continue }
            guard let first = listed.first, starts.last.map({ $0.first < first }) ?? true else { return nil }
            starts.append((first, index))
        }
        (self.device, self.arrived, self.starts, self.counter) = (device, arrived, starts, counter)
    }

    /// The snapshot's version of `name`; nil when it has none.
    mutating func entry(named name: String) -> Result<RecordEntry?, SnapshotFiles.Problem> {
        if let hashes {
            let hash = name.hashValue, candidate = hashes.partitionPoint { $0 < hash }
            guard candidate < hashes.count, hashes[candidate] == hash else { return .success(nil) }
        }
        // The last part whose first name is not after `name`.
        let slot = starts.partitionPoint { $0.first <= name } - 1
        guard slot >= 0 else { return .success(nil) }
        let part = starts[slot].part
        if cached?.part != part {
            switch arrived.decode(part) {
            case .failure(let problem): return .failure(problem)
            case .success(let entries):
                counter?.withLock { $0 += entries.count }
                // What the lookup relies on: the part starts where its list says, its names
                // are in order, and it ends before the next part's first name.
                let next = slot + 1 < starts.count ? starts[slot + 1].first : nil
                guard entries.first?.name == starts[slot].first,
                      zip(entries, entries.dropFirst()).allSatisfy({ $0.name < $1.name }),
                      next.map({ entries.last!.name < $0 }) ?? true
                else { return .failure(SnapshotFiles.Problem(path: arrived.parts[part].path, reason: "not in the name order its list gives")) }
                cached = (part, entries)
            }
        }
        let entries = cached!.entries, index = entries.partitionPoint { $0.name < name }
        return .success(index < entries.count && entries[index].name == name ? entries[index] : nil)
    }
}

extension RandomAccessCollection where Index == Int {
    /// In a collection whose elements that satisfy `before` all come first: the index of the
    /// first that does not (a binary search).
    func partitionPoint(_ before: (Element) -> Bool) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if before(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
