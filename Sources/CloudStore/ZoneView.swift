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
    /// This device's snapshot written by a first upload and not read into `winners`: a record of
    /// it is looked up by name when something needs it (`fault`), so a store that has just sent
    /// a long history keeps almost nothing of it and still commits in milliseconds.
    var unread: UnreadSnapshot?
    /// A lookup in `unread` failed (a part of it no longer reads): the view must be read again
    /// from the folder.
    var unreadFailed = false

    /// Brings the unread snapshot's version of `name` into `winners`, once; false when the
    /// snapshot could not be read.
    @discardableResult
    mutating func fault(_ name: String) -> Bool {
        guard unread != nil, !unreadFailed, unread!.looked.insert(name).inserted else { return !unreadFailed }
        switch unread!.entry(named: name) {
        case .failure:
            unreadFailed = true
            return false
        case .success(nil):
            return true
        case .success(let entry?):
            let owner = unread!.device
            if var winner = winners[name] {
                winner.absorb(entry, from: owner)
                winners[name] = winner
            } else {
                winners[name] = Winner(entry: entry, device: owner, firstSeq: FirstSeen(owner, entry.seq))
            }
            return true
        }
    }

    mutating func merge(_ entry: RecordEntry, from device: DeviceID) {
        fault(entry.name)
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

/// A snapshot this device wrote by a first upload, kept unread: the first name of each part (the
/// parts are in name order) and the hash of every name in it, so a name it lacks costs a binary
/// search and a name it holds costs decoding one part (kept until another is needed).
struct UnreadSnapshot {
    let device: DeviceID
    let arrived: SnapshotFiles.Arrived
    let firstNames: [String]
    /// Every name's hash, sorted: 8 bytes a record.
    let hashes: [Int]
    /// Names already looked up (their version, if any, is in the view's winners).
    var looked: Set<String> = []
    private var cached: (part: Int, entries: [RecordEntry])?

    init(device: DeviceID, arrived: SnapshotFiles.Arrived, firstNames: [String], hashes: [Int]) {
        (self.device, self.arrived, self.firstNames, self.hashes) = (device, arrived, firstNames, hashes.sorted())
    }

    /// The snapshot's version of `name`; nil when it has none.
    mutating func entry(named name: String) -> Result<RecordEntry?, SnapshotFiles.Problem> {
        let hash = name.hashValue, candidate = hashes.partitionPoint { $0 < hash }
        guard candidate < hashes.count, hashes[candidate] == hash else { return .success(nil) }
        // The last part whose first name is not after `name`.
        let part = firstNames.partitionPoint { $0 <= name } - 1
        guard part >= 0, part < arrived.parts.count else { return .success(nil) }
        if cached?.part != part {
            switch arrived.decode(part) {
            case .failure(let problem): return .failure(problem)
            case .success(let entries): cached = (part, entries)
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
