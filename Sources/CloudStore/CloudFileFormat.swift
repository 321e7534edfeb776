import Foundation

/// Every file the store writes: one header line `QKCS <version> <kind> <crc32> <length>\n`,
/// then a body of exactly `length` bytes whose CRC-32 is `crc32` (8 hex digits). A file that is
/// short, long or damaged fails the check and is treated as not yet arrived.
///
/// Version 1 bodies are plain JSON; version 2 bodies are JSON compressed as a zlib stream.
/// Segments and snapshot parts are written as version 2 (a guess costs a fifth of the bytes),
/// heads and generation markers as version 1 (small, and readable with `cat`); both versions
/// are read. A snapshot is written as version 3: a plain JSON list of its parts, each part a
/// file of its own (`SnapshotFiles`); a snapshot of version 1 or 2 (one file holding every
/// entry) is still read. See docs/cloud-format.md.
enum CloudFileFormat {
    static let magic = "QKCS"
    private static let maxHeaderBytes = 64

    enum Kind: String {
        case segment = "seg", snapshot = "snap", part, head, generation = "gen"

        /// The version written for this kind.
        var version: Int {
            switch self {
            case .segment, .part: 2
            case .snapshot: 3
            case .head, .generation: 1
            }
        }

        /// The versions read for this kind: 1 and 2 for every kind, and 3 for a snapshot.
        func reads(_ version: Int) -> Bool { version == 1 || version == 2 || (version == 3 && self == .snapshot) }

        /// The most a body of this kind may hold once inflated.
        var bodyLimit: Int {
            switch self {
            case .segment: CloudLimits.maxSegmentBytes
            case .snapshot: CloudLimits.maxSnapshotBytes
            case .part: CloudLimits.maxSnapshotPartBytes
            case .head, .generation: CloudLimits.maxSmallFileBytes
            }
        }
    }

    static func encode<Body: Encodable>(_ body: Body, kind: Kind) -> Data {
        seal(BodyCoding.encode(body), kind: kind)
    }

    /// The file for a body already encoded as JSON: compressed if the kind is, under its header.
    static func seal(_ json: Data, kind: Kind) -> Data { sealed(json, kind: kind).file }

    /// As `seal`, telling also the checksum and length its header carries.
    static func sealed(_ json: Data, kind: Kind) -> (file: Data, checksum: UInt32, length: Int) {
        let stored = kind.version == 2 ? Deflate.compress(json) : json
        let checksum = CRC32.checksum(stored)
        return (Data(header(kind: kind, checksum: checksum, length: stored.count).utf8) + stored, checksum, stored.count)
    }

    static func header(kind: Kind, checksum: UInt32, length: Int) -> String {
        "\(magic) \(kind.version) \(kind.rawValue) \(String(format: "%08x", checksum)) \(length)\n"
    }

    /// The body, or why the bytes are not a valid file of this kind.
    static func decode<Body: Decodable>(_ data: Data, kind: Kind, as type: Body.Type) -> Result<Body, FormatProblem> {
        unseal(data, kind: kind).flatMap { json in decodeBody(json, as: type) }
    }

    static func decodeBody<Body: Decodable>(_ json: Data, as type: Body.Type) -> Result<Body, FormatProblem> {
        let body: Body
        do {
            body = try BodyCoding.decode(Body.self, from: json)
        } catch {
            return .failure(.init("unreadable body"))
        }
        if var small = body as? any BoundedBody {
            small.bound()
            if let bounded = small as? Body { return .success(bounded) }
        }
        return .success(body)
    }

    /// The body's JSON, once the header, length and checksum are checked and the body inflated.
    static func unseal(_ data: Data, kind: Kind) -> Result<Data, FormatProblem> {
        check(data, kind: kind).flatMap { inflate($0, kind: kind) }
    }

    /// A file whose header, length and checksum hold: its version, checksum and stored body.
    struct Checked {
        var version: Int
        var checksum: UInt32
        var body: Data
    }

    /// The header, length and checksum checked; the body not yet inflated.
    static func check(_ data: Data, kind: Kind) -> Result<Checked, FormatProblem> {
        guard let newline = data.prefix(maxHeaderBytes).firstIndex(of: UInt8(ascii: "\n")),
              let header = String(data: data[data.startIndex..<newline], encoding: .utf8)
        else { return .failure(.init("no header line")) }
        let parts = header.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == magic else { return .failure(.init("not a cloud store file")) }
        guard let version = Int(parts[1]), kind.reads(version) else { return .failure(.init("format version \(parts[1]) is not supported")) }
        guard parts[2] == kind.rawValue else { return .failure(.init("a \(parts[2]) file where a \(kind.rawValue) file belongs")) }
        guard parts[3].count == 8, let checksum = UInt32(parts[3], radix: 16),
              let length = Int(parts[4]), length >= 0
        else { return .failure(.init("bad header")) }
        let body = Data(data[data.index(after: newline)...])
        guard body.count == length else {
            return .failure(.init("\(body.count) of \(length) bytes (incomplete or too long)", incomplete: body.count < length))
        }
        guard CRC32.checksum(body) == checksum else { return .failure(.init("checksum mismatch")) }
        return .success(Checked(version: version, checksum: checksum, body: body))
    }

    /// A checked file's body as JSON: inflated when it is stored compressed (version 2).
    static func inflate(_ checked: Checked, kind: Kind) -> Result<Data, FormatProblem> {
        guard checked.version == 2 else { return .success(checked.body) }
        guard let inflated = Deflate.decompress(checked.body, limit: kind.bodyLimit) else {
            return .failure(.init("the compressed body is damaged or larger than \(kind.bodyLimit) bytes"))
        }
        return .success(inflated)
    }
}

/// JSON for file bodies: sorted keys, no spaces. Segments and snapshots, which hold the
/// records, go through a codec of their own (`BodyCodec`, which reads exactly what it writes
/// and refuses the rest with a reason); the small bodies (heads) through Foundation's.
enum BodyCoding {
    static func encode<Body: Encodable>(_ body: Body) -> Data {
        // The bodies are plain structs of strings and numbers; encoding fails only on a double
        // that is not finite, which `RecordEntry.problem` refuses before anything is written.
        if let segment = body as? SegmentBody { return (try? BodyCodec.encode(segment)) ?? Data() }
        if let snapshot = body as? SnapshotBody { return (try? BodyCodec.encode(snapshot)) ?? Data() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(body)) ?? Data()
    }

    static func decode<Body: Decodable>(_ type: Body.Type, from json: Data) throws -> Body {
        if type == SegmentBody.self, let segment = try BodyCodec.decodeSegment(json) as? Body { return segment }
        if type == SnapshotBody.self, let snapshot = try BodyCodec.decodeSnapshot(json) as? Body { return snapshot }
        return try JSONDecoder().decode(Body.self, from: json)
    }
}

struct FormatProblem: Error, Equatable {
    let reason: String
    /// A whole header over a short body: the start of a valid file whose rest may still arrive.
    let incomplete: Bool
    init(_ reason: String, incomplete: Bool = false) {
        self.reason = reason
        self.incomplete = incomplete
    }
}

/// One version of one record, as kept in segments and snapshots.
struct RecordEntry: Codable, Equatable, Sendable {
    var name: String
    var type: String
    /// The segment that first carried this version (kept in snapshots, so token checks still work).
    var seq: Int
    var hlc: HLCTimestamp
    var deleted: Bool
    var fields: [String: FieldValue]?
    var createdBy: DeviceID
    var createdAt: HLCTimestamp

    func changeTag(device: DeviceID) -> String { SystemFields.changeTag(hlc, device) }

    func record(device: DeviceID) -> CloudRecord {
        CloudRecord(
            recordType: type, recordName: name, fields: fields ?? [:],
            systemFields: SystemFields(changeTag: changeTag(device: device), createdBy: createdBy, createdAt: createdAt,
                                       modifiedBy: device, modifiedAt: hlc))
    }

    /// Why this entry, as read, is not one a writer could have made: a clock reading no clock
    /// could have written, or beyond the limits `problem` sets. Nil for every entry a reader may take.
    var unsound: String? {
        if !hlc.isReadable || !createdAt.isReadable { return "a clock reading before 1970 or past the year 3000" }
        return Self.problem(name: name, type: type, fields: fields)
    }

    /// Limits on what a record may hold, checked on save and again on every read.
    static func problem(name: String, type: String, fields: [String: FieldValue]?) -> String? {
        if name.isEmpty || name.utf8.count > CloudLimits.maxNameBytes { return "record names have 1 to \(CloudLimits.maxNameBytes) bytes" }
        if type.isEmpty || type.utf8.count > CloudLimits.maxNameBytes { return "record types have 1 to \(CloudLimits.maxNameBytes) bytes" }
        if (fields?.count ?? 0) > CloudLimits.maxFieldsPerRecord { return "more than \(CloudLimits.maxFieldsPerRecord) fields" }
        // JSON has no NaN or infinity: such a value could not be written at all.
        if fields?.values.contains(where: { if case .double(let d) = $0 { !d.isFinite } else { false } }) == true {
            return "a double field is not a finite number"
        }
        return nil
    }
}

/// A commit: one zone, one device, the next number in that device's log of the zone.
struct SegmentBody: Codable, Equatable {
    var generation: CloudGeneration
    var device: DeviceID
    var zone: ZoneID
    var seq: Int
    var hlc: HLCTimestamp
    var entries: [RecordEntry]
}

/// A device's own versions of a zone's records up to segment `base`, latest per record.
struct SnapshotBody: Codable, Equatable {
    var generation: CloudGeneration
    var device: DeviceID
    var zone: ZoneID
    var base: Int
    var entries: [RecordEntry]
}

/// A device's summary of its logs: a hint that lets readers answer "what changed" cheaply.
/// Readers also probe the next segment number, so a head left stale by a crash is harmless.
/// A small body whose numbers are brought within range once decoded, before anything is worked
/// out from them: a head's numbers are a writer's claims, read as hints (where a log ends, how
/// large it is, how far its writer's clock had gone), so a number past what any writer writes
/// is taken at the nearest value one could have written, and no sum, difference or ratio of
/// them can overflow.
protocol BoundedBody {
    mutating func bound()
}

struct HeadBody: Codable, Equatable, BoundedBody {
    struct ZoneLog: Codable, Equatable {
        var seq: Int
        var snapshotBase: Int
        /// Bytes of this device's segments after its snapshot, and of the snapshot: what
        /// compaction weighs, kept here so deciding costs no listing. Absent in older heads.
        var logBytes: Int?
        var snapshotBytes: Int?

        init(seq: Int, snapshotBase: Int, logBytes: Int? = nil, snapshotBytes: Int? = nil) {
            self.seq = seq
            self.snapshotBase = snapshotBase
            self.logBytes = logBytes
            self.snapshotBytes = snapshotBytes
        }
    }

    var generation: CloudGeneration
    var device: DeviceID
    var clock: HLCTimestamp
    var zones: [String: ZoneLog]

    /// Every number in range: a clock a clock could have written (else none), and for each
    /// zone `0 <= snapshotBase <= seq <= CloudLimits.maxSequence` (a base past the end moves
    /// the end to it, as a snapshot does), sizes from 0 to `CloudLimits.maxLogBytes` (else unknown).
    mutating func bound() {
        if !clock.isReadable { clock = .zero }
        for (name, log) in zones {
            var bounded = log
            bounded.snapshotBase = min(max(log.snapshotBase, 0), CloudLimits.maxSequence)
            bounded.seq = max(min(max(log.seq, 0), CloudLimits.maxSequence), bounded.snapshotBase)
            let sizes = 0...CloudLimits.maxLogBytes
            if let size = log.logBytes, !sizes.contains(size) { bounded.logBytes = nil }
            if let size = log.snapshotBytes, !sizes.contains(size) { bounded.snapshotBytes = nil }
            if bounded != log { zones[name] = bounded }
        }
    }
}

/// Written once by the device that resets the cloud; the greatest valid one is current.
struct GenerationBody: Codable, Equatable, BoundedBody {
    var generation: CloudGeneration
    var createdBy: DeviceID
    var createdAt: HLCTimestamp

    mutating func bound() { if !createdAt.isReadable { createdAt = .zero } }
}
