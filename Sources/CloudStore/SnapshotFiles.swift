import Concurrency
import Foundation

/// The list of a snapshot in parts (format version 3): `snapshot-<base>.snap` names how many
/// parts the snapshot has and what each must be, so a reader can tell a part that has not
/// arrived (missing, short, or an older file under its name) from one that has, before it
/// decodes anything.
struct SnapshotManifest: Codable, Equatable {
    struct Part: Codable, Equatable {
        /// The part's stored (compressed) body: its length and CRC-32, as in its header.
        var bytes: Int
        var crc32: String
        /// Its entries, and how many of them are live records (not tombstones): what a new
        /// machine is told to expect before anything is decoded.
        var entries: Int
        var live: Int
        /// The name of its first entry (none for an empty part): the parts are in name order,
        /// so a reader finds the one part that may hold a record without reading the others.
        /// Lists written before it was kept lack it (readers that do not know it ignore it).
        var first: String?
    }

    var generation: CloudGeneration
    var device: DeviceID
    var zone: ZoneID
    var base: Int
    var parts: [Part]
}

/// Writing and reading a snapshot's files. A snapshot is written as parts of about
/// `partBytes` each (JSON, before compression), then the list naming them, so no snapshot is
/// ever too large to write or to read, and its parts decode on every core. A snapshot of
/// format version 1 or 2 (one file holding every entry) is read as a snapshot of one part.
enum SnapshotFiles {
    /// The JSON a part holds before compression: about 2,000 records, 0.1 MB on disk. A new
    /// process looking one record up decodes one part, and a first sync decodes the next part
    /// while it stores this one: 1 MiB rather than 4 halved a one-shot sync's decoding and
    /// memory at 100,000 games, and let a first sync's two sides overlap more.
    static let partBytes = 1 << 20

    /// The sealed files of `body`: each part handed to `write` (with its number, from 1) as
    /// soon as it is sealed, in order, a few held at a time (parts are compressed on other
    /// cores while the next is encoded); then its list, returned (written last, so a reader
    /// that finds the list finds parts already published).
    static func seal(_ body: SnapshotBody, partBytes: Int, write: @escaping (_ part: Data, _ number: Int) throws -> Void) throws -> Data {
        var sealer = Sealer(encoder: BodyCodec.PartEncoder(generation: body.generation, device: body.device, zone: body.zone, base: body.base,
                                                           partBytes: partBytes, expected: body.entries.count), write: write)
        for entry in body.entries { try sealer.add(entry) }
        return try sealer.finish()
    }

    /// A snapshot sealed as its entries come, in name order: parts written as they fill, the
    /// list made at the end (see `seal`). Holds a few parts at a time, however long the snapshot.
    struct Sealer {
        private var encoder: BodyCodec.PartEncoder
        private let write: (_ part: Data, _ number: Int) throws -> Void
        private var listed: [SnapshotManifest.Part] = []
        private var pending: [(entries: Int, live: Int, first: String?, sealed: Background<(file: Data, checksum: UInt32, length: Int), Never>)] = []
        /// The bytes of the parts written so far.
        private(set) var written = 0
        /// The first name of each part (an empty last part has none).
        var firstNames: [String] { encoder.firstNames }

        init(encoder: BodyCodec.PartEncoder, write: @escaping (_ part: Data, _ number: Int) throws -> Void) {
            self.encoder = encoder
            self.write = write
        }

        mutating func add(_ entry: RecordEntry) throws {
            if let part = try encoder.add(entry) { try seal(part) }
        }

        /// The last part sealed and every part written; the list naming them.
        mutating func finish() throws -> Data {
            try seal(encoder.close())
            while !pending.isEmpty { try writeOldest() }
            let list = SnapshotManifest(generation: encoder.generation, device: encoder.device, zone: encoder.zone, base: encoder.base, parts: listed)
            return CloudFileFormat.encode(list, kind: .snapshot)
        }

        private mutating func seal(_ part: (json: Data, entries: Int, live: Int, first: String?)) throws {
            let json = part.json
            pending.append((part.entries, part.live, part.first, Background { CloudFileFormat.sealed(json, kind: .part) }))
            if pending.count > 2 { try writeOldest() }
        }

        private mutating func writeOldest() throws {
            let (entries, live, first, sealed) = pending.removeFirst()
            let part = sealed.value()
            listed.append(.init(bytes: part.length, crc32: String(format: "%08x", part.checksum), entries: entries, live: live, first: first))
            try write(part.file, listed.count)
            written += part.file.count
        }
    }

    /// Why a snapshot cannot be read yet: the file at fault and what is wrong with it.
    struct Problem: Error {
        var path: FolderPath
        var reason: String
        /// The start of a valid file whose rest may still arrive.
        var incomplete = false
    }

    /// Reads the snapshot at `base` and checks that every file of it has arrived whole (header,
    /// length, checksum, and each part as its list says), decoding nothing; nil when there is
    /// no snapshot file at all.
    static func arrived(in folder: any CloudFolder, layout: CloudLayout, _ generation: CloudGeneration, _ device: DeviceID,
                        _ zone: ZoneID, base: Int) -> Result<Arrived, Problem>? {
        guard let listed = list(in: folder, layout: layout, generation, device, zone, base: base) else { return nil }
        guard case .success(let arrived) = listed, arrived.kind == .part else { return listed }
        // Each part is read and checked now, and read again when it is decoded (it is not
        // kept meanwhile: a first sync holds a part or two, whatever the history's size).
        for part in arrived.parts {
            if case .failure(let problem) = part.read(in: folder) { return .failure(problem) }
        }
        return .success(arrived)
    }

    /// The snapshot at `base` from its list alone: no part is read, so none is known to have
    /// arrived yet (each is checked against the list when it is read). A snapshot of version 1
    /// or 2 is its one file, read and checked. Nil when there is no snapshot file at all.
    static func list(in folder: any CloudFolder, layout: CloudLayout, _ generation: CloudGeneration, _ device: DeviceID,
                     _ zone: ZoneID, base: Int) -> Result<Arrived, Problem>? {
        let path = layout.snapshot(generation, device, zone, base)
        let expected = Arrived.Origin(generation: generation, device: device, zone: zone, base: base)
        let checked: CloudFileFormat.Checked
        switch read(path, kind: .snapshot, limit: CloudLimits.maxSnapshotBytes, in: folder) {
        case nil: return nil
        case .failure(let problem): return .failure(problem)
        case .success(let file): checked = file
        }
        guard checked.version == 3 else {
            return .success(Arrived(origin: expected, folder: folder, parts: [Arrived.Part(path: path, kept: checked)], kind: .snapshot, live: nil))
        }
        let list: SnapshotManifest
        switch CloudFileFormat.decodeBody(checked.body, as: SnapshotManifest.self) {
        case .failure(let problem): return .failure(Problem(path: path, reason: problem.reason))
        case .success(let body): list = body
        }
        guard list.generation == generation, list.device == device, list.zone == zone, list.base == base,
              !list.parts.isEmpty, list.parts.count <= CloudLimits.maxListItems
        else { return .failure(Problem(path: path, reason: "its list of parts does not match its place")) }
        // Numbers read are checked before any sum: a part no larger than a part may be, no more
        // entries than its bytes could hold, no more live records than entries.
        guard list.parts.allSatisfy({ (0...CloudLimits.maxSnapshotPartBytes).contains($0.bytes)
                                      && (0...CloudLimits.maxSnapshotPartBytes).contains($0.entries) && (0...$0.entries).contains($0.live) })
        else { return .failure(Problem(path: path, reason: "its list names a part of an impossible size")) }
        let parts = list.parts.enumerated().map { offset, listed in
            Arrived.Part(path: layout.snapshotPart(generation, device, zone, base, offset + 1), listed: listed)
        }
        return .success(Arrived(origin: expected, folder: folder, parts: parts, kind: .part, live: list.parts.reduce(0) { $0 + $1.live }))
    }

    /// A file checked, or nil when it is missing.
    fileprivate static func read(_ path: FolderPath, kind: CloudFileFormat.Kind, limit: Int, in folder: any CloudFolder) -> Result<CloudFileFormat.Checked, Problem>? {
        switch folder.read(path, limit: limit) {
        case .missing: return nil
        case .rejected(let reason): return .failure(Problem(path: path, reason: reason))
        case .data(let data):
            return CloudFileFormat.check(data, kind: kind).mapError { Problem(path: path, reason: $0.reason, incomplete: $0.incomplete) }
        }
    }

    /// A snapshot whose every file has arrived whole, its parts not yet inflated or decoded.
    struct Arrived {
        struct Origin: Equatable {
            var generation: CloudGeneration
            var device: DeviceID
            var zone: ZoneID
            var base: Int
        }

        /// A file of the snapshot: a part its list names (read when needed), or the single
        /// file of a version 1 or 2 snapshot (kept as read).
        struct Part {
            var path: FolderPath
            var listed: SnapshotManifest.Part?
            var kept: CloudFileFormat.Checked?

            /// The part checked against its list: an older part under its name (a compaction
            /// redone, a replicator behind) is waited for like a missing one.
            func read(in folder: any CloudFolder) -> Result<CloudFileFormat.Checked, Problem> {
                if let kept { return .success(kept) }
                guard let listed else { return .failure(Problem(path: path, reason: "not listed")) }
                switch SnapshotFiles.read(path, kind: .part, limit: listed.bytes + 64, in: folder) {
                case nil: return .failure(Problem(path: path, reason: "not arrived yet", incomplete: true))
                case .failure(let problem): return .failure(problem)
                case .success(let file):
                    guard file.body.count == listed.bytes, String(format: "%08x", file.checksum) == listed.crc32, file.version == 2 else {
                        return .failure(Problem(path: path, reason: "not the part its list names (not arrived yet)", incomplete: true))
                    }
                    return .success(file)
                }
            }
        }

        let origin: Origin
        let folder: any CloudFolder
        let parts: [Part]
        /// `.snapshot` for a single file of version 1 or 2, `.part` for the parts of version 3.
        let kind: CloudFileFormat.Kind
        /// The live entries its list announces (nil for a single file: count them in its JSON).
        let live: Int?

        /// Part `index` read (again), checked and inflated: its JSON.
        func json(_ index: Int) -> Result<Data, Problem> {
            parts[index].read(in: folder).flatMap { file in
                CloudFileFormat.inflate(file, kind: kind).mapError { Problem(path: parts[index].path, reason: $0.reason) }
            }
        }

        /// Whether a decoded part is of this snapshot.
        func belongs(_ body: SnapshotBody) -> Bool {
            Origin(generation: body.generation, device: body.device, zone: body.zone, base: body.base) == origin
        }

        /// Every entry, each part inflated and decoded on a core of its own; all or nothing.
        func entries() -> Result<[RecordEntry], Problem> {
            var entries: [RecordEntry] = []
            for result in concurrently(parts.count, decode) {
                switch result {
                case .success(let part): entries += part
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(entries)
        }

        /// Part `index`'s entries, checked as every snapshot entry is: no later than the
        /// snapshot's base, and within the limits of a record.
        func decode(_ index: Int) -> Result<[RecordEntry], Problem> {
            json(index).flatMap { json in
                let path = parts[index].path
                guard case .success(let body) = CloudFileFormat.decodeBody(json, as: SnapshotBody.self) else {
                    return .failure(Problem(path: path, reason: "unreadable body"))
                }
                guard belongs(body), body.entries.allSatisfy({ $0.seq <= origin.base }) else {
                    return .failure(Problem(path: path, reason: "its contents do not match its place"))
                }
                if let unsound = body.entries.lazy.compactMap(\.unsound).first { return .failure(Problem(path: path, reason: unsound)) }
                return .success(body.entries)
            }
        }
    }
}
