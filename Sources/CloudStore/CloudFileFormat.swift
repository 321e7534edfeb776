import Foundation

/// Every file the store writes: one header line `QKCS 1 <kind> <crc32> <length>\n`, then a JSON
/// body of exactly `length` bytes whose CRC-32 is `crc32` (8 hex digits). A file that is short,
/// long or damaged fails the check and is treated as not yet arrived. See docs/cloud-format.md.
enum CloudFileFormat {
    static let magic = "QKCS"
    static let version = 1
    private static let maxHeaderBytes = 64

    enum Kind: String {
        case segment = "seg", snapshot = "snap", head, generation = "gen"
    }

    static func encode<Body: Encodable>(_ body: Body, kind: Kind) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // The bodies are plain structs of strings and numbers; encoding them cannot fail.
        let json = (try? encoder.encode(body)) ?? Data()
        let header = "\(magic) \(version) \(kind.rawValue) \(String(format: "%08x", CRC32.checksum(json))) \(json.count)\n"
        return Data(header.utf8) + json
    }

    /// The body, or why the bytes are not a valid file of this kind.
    static func decode<Body: Decodable>(_ data: Data, kind: Kind, as type: Body.Type) -> Result<Body, FormatProblem> {
        guard let newline = data.prefix(maxHeaderBytes).firstIndex(of: UInt8(ascii: "\n")),
              let header = String(data: data[data.startIndex..<newline], encoding: .utf8)
        else { return .failure(.init("no header line")) }
        let parts = header.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == magic else { return .failure(.init("not a cloud store file")) }
        guard parts[1] == "\(version)" else { return .failure(.init("format version \(parts[1]) is not supported")) }
        guard parts[2] == kind.rawValue else { return .failure(.init("a \(parts[2]) file where a \(kind.rawValue) file belongs")) }
        guard parts[3].count == 8, let checksum = UInt32(parts[3], radix: 16),
              let length = Int(parts[4]), length >= 0
        else { return .failure(.init("bad header")) }
        let body = data[data.index(after: newline)...]
        guard body.count == length else {
            return .failure(.init("\(body.count) of \(length) bytes (incomplete or too long)", incomplete: body.count < length))
        }
        guard CRC32.checksum(Data(body)) == checksum else { return .failure(.init("checksum mismatch")) }
        do {
            return .success(try JSONDecoder().decode(Body.self, from: Data(body)))
        } catch {
            return .failure(.init("unreadable body"))
        }
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

    func changeTag(device: DeviceID) -> String { "\(hlc)-\(device.name)" }

    func record(device: DeviceID) -> CloudRecord {
        CloudRecord(
            recordType: type, recordName: name, fields: fields ?? [:],
            systemFields: SystemFields(changeTag: changeTag(device: device), createdBy: createdBy, createdAt: createdAt,
                                       modifiedBy: device, modifiedAt: hlc))
    }

    /// Limits on what a record may hold, checked on save and again on every read.
    static func problem(name: String, type: String, fields: [String: FieldValue]?) -> String? {
        if name.isEmpty || name.utf8.count > CloudLimits.maxNameBytes { return "record names have 1 to \(CloudLimits.maxNameBytes) bytes" }
        if type.isEmpty || type.utf8.count > CloudLimits.maxNameBytes { return "record types have 1 to \(CloudLimits.maxNameBytes) bytes" }
        if (fields?.count ?? 0) > CloudLimits.maxFieldsPerRecord { return "more than \(CloudLimits.maxFieldsPerRecord) fields" }
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
struct HeadBody: Codable, Equatable {
    struct ZoneLog: Codable, Equatable {
        var seq: Int
        var snapshotBase: Int
    }

    var generation: CloudGeneration
    var device: DeviceID
    var clock: HLCTimestamp
    var zones: [String: ZoneLog]
}

/// Written once by the device that resets the cloud; the greatest valid one is current.
struct GenerationBody: Codable, Equatable {
    var generation: CloudGeneration
    var createdBy: DeviceID
    var createdAt: HLCTimestamp
}
