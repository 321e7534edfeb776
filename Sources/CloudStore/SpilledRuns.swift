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

    /// Writes `winners` as a run (sorted by name) and empties them.
    func spill(_ winners: inout [String: ZoneView.Winner]) throws(CloudStoreError) {
        guard !winners.isEmpty else { return }
        let order = NameOrder.Keys(winners.keys)
        var sorted = winners.map { (key: order.key($0.key), name: $0.key, winner: $0.value) }
        winners = [:]
        written += sorted.count
        sorted.sort { a, b in a.key != b.key ? a.key < b.key : NameOrder.precedes(a.name, b.name) }
        var writer = RunWriter(runs: self)
        for item in sorted { try writer.add(item.winner.entry, item.winner.device) }
        try writer.close()
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

    private func append(_ data: Data) throws(CloudStoreError) -> Int {
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
        var data = Data(count: block.length)
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
        // A block: the devices, one name a line, a NUL, then the entries as a snapshot body.
        guard let split = data.firstIndex(of: 0) else { throw .unavailable(reason: "records sorted on disk read back damaged") }
        let devices = String(decoding: data[..<split], as: UTF8.self).split(separator: "\n").map { DeviceID(validated: String($0)) }
        let body: SnapshotBody
        do { body = try BodyCodec.decodeSnapshot(Data(data[(split + 1)...])) } catch {
            throw .unavailable(reason: "records sorted on disk read back damaged: \(error)")
        }
        guard body.entries.count == devices.count, body.entries.count == block.entries else {
            throw .unavailable(reason: "records sorted on disk read back damaged")
        }
        return Array(zip(body.entries, devices))
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
            var data = Data(devices.map(\.name).joined(separator: "\n").utf8)
            data.append(0)
            do {
                // The identity fields are not read back: any valid names do.
                data.append(try BodyCodec.encode(SnapshotBody(generation: .initial, device: devices[0], zone: SpilledRuns.zone,
                                                              base: 0, entries: entries)))
            } catch {
                throw .unavailable(reason: "records could not be sorted on disk: \(error)")
            }
            let offset = try runs.append(data)
            blocks.append(Block(offset: offset, length: data.count, entries: entries.count))
            entries.removeAll(keepingCapacity: true)
            devices.removeAll(keepingCapacity: true)
        }
    }

    fileprivate static let zone = try! ZoneID("Spill")

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
