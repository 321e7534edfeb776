import Concurrency
import Foundation

/// Record versions put in name order in bounded memory, for a read whose versions do not come
/// in name order (segments: a log never compacted is the whole history in the order it was
/// played). The caller keeps a batch of winners (one per name, as the view keeps them); each
/// full batch is sorted and written to a temporary file as a run, in blocks; `cursor()` merges
/// the runs back, each name's versions absorbed into one winner, in name order. At most one
/// block per run is held while merging: past `batch / block` runs, the oldest are merged into
/// one first. The file is unlinked as soon as it is made (nothing is left behind by a crash).
final class SpilledRuns {
    struct Limits: Sendable {
        /// Winners kept in memory before they go to a run.
        var batch: Int
        /// Entries a block holds: read one at a time per run.
        var block: Int

        static let standard = Limits(batch: 16_384, block: 256)
    }

    /// A block of a run: where it starts in the file, its length, its entries.
    fileprivate struct Block {
        var offset: Int
        var length: Int
        var entries: Int
    }

    let limits: Limits
    private let directory: URL
    private var descriptor: Int32 = -1
    private var end = 0
    private var runs: [[Block]] = []
    /// Counts records held at once by the store (a high-water mark).
    let held: HeldRecords

    init(limits: Limits, directory: URL?, held: HeldRecords) {
        self.limits = Limits(batch: max(2, limits.batch), block: max(1, limits.block))
        self.directory = directory ?? URL(fileURLWithPath: NSTemporaryDirectory())
        self.held = held
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The winners written to runs (a name written in several runs counts in each).
    private(set) var written = 0

    /// Whether anything went to the file.
    var spilled: Bool { !runs.isEmpty }

    /// Writes `winners` as a run (sorted by name) and empties them, keeping their capacity for
    /// the next batch. Only small keys are sorted, each naming its winner's place in the table:
    /// moving a winner costs a copy of every string it holds.
    func spill(_ winners: inout [String: ZoneView.Winner]) throws(CloudStoreError) {
        guard !winners.isEmpty else { return }
        let names = winners.keys, values = winners.values
        let order = NameOrder.Keys(names)
        var sorted = winners.indices.map { (key: order.key(names[$0]), index: $0) }
        sorted.sort { a, b in a.key != b.key ? a.key < b.key : NameOrder.precedes(names[a.index], names[b.index]) }
        written += sorted.count
        var writer = RunWriter(runs: self)
        for item in sorted {
            let winner = values[item.index]
            try writer.add(winner.entry, winner.device)
        }
        try writer.close()
        winners.removeAll(keepingCapacity: true)
    }

    /// Every version written, merged into one winner per name, in name order (the winners still
    /// in memory, `rest`, as one more run). Runs beyond what may be held at once are merged first.
    func cursor(adding rest: inout [String: ZoneView.Winner]) throws(CloudStoreError) -> Cursor {
        try spill(&rest)
        let fanIn = max(2, limits.batch / limits.block)
        while runs.count > fanIn {
            var merging = Cursor(runs: self, reading: Array(runs.prefix(fanIn)))
            runs.removeFirst(fanIn)
            var writer = RunWriter(runs: self)
            while let (entry, device) = try merging.next() { try writer.add(entry, device) }
            try writer.close()
        }
        return Cursor(runs: self, reading: runs)
    }

    // MARK: - The file

    private func open() throws(CloudStoreError) {
        guard descriptor < 0 else { return }
        var template = Array(directory.appendingPathComponent(".qiktionary-spill-XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { throw .unavailable(reason: "no room to sort records in \(directory.path): \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = made
    }

    private func append(_ data: [UInt8]) throws(CloudStoreError) -> Int {
        try open()
        let offset = end
        let failed = data.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let wrote = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if wrote < 0 { if errno == EINTR { continue } else { return true } }
                done += wrote
            }
            return false
        }
        if failed { throw .unavailable(reason: "records could not be sorted on disk: \(String(cString: strerror(errno)))") }
        end += data.count
        return offset
    }

    private func read(_ block: Block) throws(CloudStoreError) -> [(RecordEntry, DeviceID)] {
        var data = [UInt8](repeating: 0, count: block.length)
        let failed = data.withUnsafeMutableBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let got = pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(block.offset + done))
                if got < 0 { if errno == EINTR { continue } else { return true } }
                if got == 0 { return true }
                done += got
            }
            return false
        }
        if failed { throw .unavailable(reason: "records sorted on disk could not be read back") }
        let entries = data.withUnsafeBytes { raw in BlockCodec.decode(raw) }
        guard let entries, entries.count == block.entries else { throw .unavailable(reason: "records sorted on disk read back damaged") }
        return entries
    }

    /// Writes one run, a block at a time.
    private struct RunWriter {
        let runs: SpilledRuns
        var blocks: [Block] = []
        var entries: [RecordEntry] = []
        var devices: [DeviceID] = []

        init(runs: SpilledRuns) { self.runs = runs }

        mutating func add(_ entry: RecordEntry, _ device: DeviceID) throws(CloudStoreError) {
            entries.append(entry)
            devices.append(device)
            if entries.count >= runs.limits.block { try flush() }
        }

        mutating func close() throws(CloudStoreError) {
            try flush()
            if !blocks.isEmpty { runs.runs.append(blocks) }
        }

        private mutating func flush() throws(CloudStoreError) {
            guard !entries.isEmpty else { return }
            let data = BlockCodec.encode(entries, devices)
            let offset = try runs.append(data)
            blocks.append(Block(offset: offset, length: data.count, entries: entries.count))
            entries.removeAll(keepingCapacity: true)
            devices.removeAll(keepingCapacity: true)
        }
    }

    /// The runs merged, one winner per name in name order, a block per run held at a time.
    struct Cursor {
        private struct Reader {
            var blocks: ArraySlice<Block>
            var entries: [(RecordEntry, DeviceID)] = []
            var index = 0
            var current: (RecordEntry, DeviceID)? { index < entries.count ? entries[index] : nil }
        }

        private let runs: SpilledRuns
        private var readers: [Reader]
        private var primed = false

        fileprivate init(runs: SpilledRuns, reading: [[Block]]) {
            self.runs = runs
            readers = reading.map { Reader(blocks: $0[...]) }
        }

        /// The next name's winner, nil after the last.
        mutating func next() throws(CloudStoreError) -> (RecordEntry, DeviceID)? {
            if !primed {
                primed = true
                for index in readers.indices { try load(index) }
            }
            guard let name = readers.lazy.compactMap({ $0.current?.0.name }).min() else { return nil }
            var winner: ZoneView.Winner?
            for index in readers.indices where readers[index].current?.0.name == name {
                let (entry, device) = readers[index].current!
                if winner == nil {
                    winner = ZoneView.Winner(entry: entry, device: device, firstSeq: FirstSeen(device, entry.seq))
                } else {
                    winner!.absorb(entry, from: device)
                }
                readers[index].index += 1
                if readers[index].current == nil { try load(index) }
            }
            return winner.map { ($0.entry, $0.device) }
        }

        /// The next block of reader `index`, if it has one.
        private mutating func load(_ index: Int) throws(CloudStoreError) {
            let before = readers[index].entries.count
            readers[index].entries = []
            readers[index].index = 0
            if let block = readers[index].blocks.first {
                readers[index].blocks = readers[index].blocks.dropFirst()
                readers[index].entries = try runs.read(block)
            }
            runs.held.change(by: readers[index].entries.count - before)
        }

        /// Gives back what the readers hold (to the store's count).
        mutating func close() {
            for index in readers.indices {
                runs.held.change(by: -readers[index].entries.count)
                readers[index].entries = []
            }
        }
    }
}

/// A block of a run as bytes: only this process writes and reads it back, so it is plain and
/// quick rather than the folder's JSON. The devices the block names (a count, then each name),
/// then each entry: its device's and its creator's places in that list, name, type, number,
/// clock, creation clock, whether it is a deletion, and its fields (a count, -1 for none; each a
/// key, a type byte and the value). Integers little-endian, 8 bytes; a string its UTF-8 length
/// in 4 bytes, then its bytes; a date its seconds as a double's bits (exact, as held).
enum BlockCodec {
    static func encode(_ entries: [RecordEntry], _ owners: [DeviceID]) -> [UInt8] {
        var out = Writer()
        var places: [String: Int] = [:], devices: [DeviceID] = []
        func place(_ device: DeviceID) -> Int {
            if let known = places[device.name] { return known }
            devices.append(device)
            places[device.name] = devices.count - 1
            return devices.count - 1
        }
        let owned = zip(entries, owners).map { (place($1), place($0.createdBy)) }
        out.integer(devices.count)
        for device in devices { out.string(device.name) }
        for (entry, (owner, creator)) in zip(entries, owned) {
            out.integer(owner)
            out.integer(creator)
            out.string(entry.name)
            out.string(entry.type)
            out.integer(entry.seq)
            out.clock(entry.hlc)
            out.clock(entry.createdAt)
            out.bytes.append(entry.deleted ? 1 : 0)
            guard let fields = entry.fields else {
                out.integer(-1)
                continue
            }
            out.integer(fields.count)
            for (key, value) in fields {
                out.string(key)
                switch value {
                case .string(let text): out.bytes.append(0); out.string(text)
                case .int(let number): out.bytes.append(1); out.integer(number)
                case .double(let number): out.bytes.append(2); out.integer(Int64(bitPattern: number.bitPattern))
                case .bool(let flag): out.bytes.append(3); out.bytes.append(flag ? 1 : 0)
                case .date(let date): out.bytes.append(4); out.integer(Int64(bitPattern: date.timeIntervalSince1970.bitPattern))
                case .bytes(let data): out.bytes.append(5); out.length(data.count); out.bytes.append(contentsOf: data)
                case .strings(let list): out.bytes.append(6); out.integer(list.count); for item in list { out.string(item) }
                }
            }
        }
        return out.bytes
    }

    /// The entries and their devices; nil when the bytes are not a whole block.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> [(RecordEntry, DeviceID)]? {
        var input = Reader(bytes: bytes)
        guard let count = input.count(), count > 0 else { return nil }
        var devices: [DeviceID] = []
        for _ in 0..<count {
            guard let name = input.string() else { return nil }
            devices.append(DeviceID(validated: name))
        }
        func device(_ place: Int?) -> DeviceID? { place.flatMap { $0 < devices.count ? devices[$0] : nil } }
        var entries: [(RecordEntry, DeviceID)] = []
        while !input.atEnd {
            guard let owner = device(input.count()), let creator = device(input.count()), let name = input.string(), let type = input.string(),
                  let seq = input.integer(), let hlc = input.clock(), let createdAt = input.clock(), let deleted = input.byte(),
                  let fieldCount = input.integer(), fieldCount >= -1, fieldCount <= CloudLimits.maxFieldsPerRecord
            else { return nil }
            var fields: [String: FieldValue]?
            if fieldCount >= 0 {
                fields = Dictionary(minimumCapacity: Int(fieldCount))
                for _ in 0..<fieldCount {
                    guard let key = input.string(), let value = input.field() else { return nil }
                    fields![key] = value
                }
            }
            entries.append((RecordEntry(name: name, type: type, seq: Int(seq), hlc: hlc, deleted: deleted != 0, fields: fields,
                                        createdBy: creator, createdAt: createdAt), owner))
        }
        return entries
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func integer(_ value: some FixedWidthInteger) {
            withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func length(_ value: Int) {
            withUnsafeBytes(of: UInt32(value).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ text: String) {
            NameOrder.bytes(of: text) { utf8 in
                length(utf8.count)
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func clock(_ clock: HLCTimestamp) {
            integer(clock.millis)
            integer(clock.counter)
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        var atEnd: Bool { at == bytes.count }

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<at + count])
        }

        mutating func integer() -> Int64? { take(8).map { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) } }

        mutating func count() -> Int? { integer().flatMap { $0 >= 0 && $0 <= Int64(Int32.max) ? Int($0) : nil } }

        mutating func byte() -> UInt8? { take(1).map { $0[0] } }

        /// A length's bytes, taken.
        mutating func counted() -> UnsafeRawBufferPointer? {
            guard let length = take(4).map({ Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }) else { return nil }
            return take(length)
        }

        mutating func string() -> String? { counted().map { String(decoding: $0, as: UTF8.self) } }

        mutating func clock() -> HLCTimestamp? {
            guard let millis = integer(), let counter = integer(), let narrow = UInt32(exactly: counter) else { return nil }
            return HLCTimestamp(millis: millis, counter: narrow)
        }

        mutating func field() -> FieldValue? {
            switch byte() {
            case 0: return string().map { .string($0) }
            case 1: return integer().map { .int($0) }
            case 2: return integer().map { .double(Double(bitPattern: UInt64(bitPattern: $0))) }
            case 3: return byte().map { .bool($0 != 0) }
            case 4: return integer().map { .date(Date(timeIntervalSince1970: Double(bitPattern: UInt64(bitPattern: $0)))) }
            case 5: return counted().map { .bytes(Data($0)) }
            case 6:
                guard let count = count(), count <= CloudLimits.maxListItems else { return nil }
                var list: [String] = []
                for _ in 0..<count {
                    guard let item = string() else { return nil }
                    list.append(item)
                }
                return .strings(list)
            default: return nil
            }
        }
    }
}

/// The records a store holds at once in its bounded reads, and the most it has held: what
/// tests look at to see that a read's memory does not grow with the history.
final class HeldRecords: @unchecked Sendable {
    private let counts = Locked((now: 0, most: 0))

    func change(by delta: Int) {
        counts.withLock { counts in
            counts.now += delta
            counts.most = max(counts.most, counts.now)
        }
    }

    /// Notes `count` held on top of what is counted, without keeping it.
    func note(_ count: Int) {
        counts.withLock { $0.most = max($0.most, $0.now + count) }
    }

    var most: Int { counts.withLock { $0.most } }

    func reset() { counts.withLock { $0 = (0, 0) } }
}
