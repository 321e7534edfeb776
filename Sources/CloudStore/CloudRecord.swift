import Foundation

/// A record as the client sees it: its stable name, type, fields, and the system fields the
/// cloud assigned at its last save (nil for a record never saved).
public struct CloudRecord: Hashable, Sendable, Codable {
    public var recordType: String
    public var recordName: String
    public var fields: [String: FieldValue]
    public var systemFields: SystemFields?

    public init(recordType: String, recordName: String, fields: [String: FieldValue] = [:], systemFields: SystemFields? = nil) {
        self.recordType = recordType
        self.recordName = recordName
        self.fields = fields
        self.systemFields = systemFields
    }

    public subscript(field: String) -> FieldValue? {
        get { fields[field] }
        set { fields[field] = newValue }
    }
}

/// What the cloud stamps on every saved version; keep it with the local copy (like
/// CKRecord's `encodeSystemFields`) and send it back so a stale save is detected.
public struct SystemFields: Hashable, Sendable, Codable {
    /// Changes with every save; a save carrying an older tag fails with `serverRecordChanged`.
    public var changeTag: String
    public var createdBy: DeviceID
    public var createdAt: HLCTimestamp
    public var modifiedBy: DeviceID
    /// The causal timestamp that orders concurrent edits (not the wall clock).
    public var modifiedAt: HLCTimestamp

    public init(changeTag: String, createdBy: DeviceID, createdAt: HLCTimestamp, modifiedBy: DeviceID, modifiedAt: HLCTimestamp) {
        self.changeTag = changeTag
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.modifiedBy = modifiedBy
        self.modifiedAt = modifiedAt
    }
}

extension SystemFields {
    /// The system fields as JSON for the client to keep (like `encodeSystemFields`): the same
    /// object `JSONEncoder` writes, built directly because a full fetch encodes one per record.
    /// Read it back with `JSONDecoder`.
    public var encoded: Data {
        var json: [UInt8] = []
        json.reserveCapacity(96 + changeTag.utf8.count + createdBy.name.utf8.count + modifiedBy.name.utf8.count)
        Self.append("{\"changeTag\":", to: &json)
        Self.appendQuoted(changeTag, to: &json)
        Self.append(",\"createdAt\":", to: &json)
        Self.append(createdAt, to: &json)
        Self.append(",\"createdBy\":", to: &json)
        Self.appendQuoted(createdBy.name, to: &json)
        Self.append(",\"modifiedAt\":", to: &json)
        Self.append(modifiedAt, to: &json)
        Self.append(",\"modifiedBy\":", to: &json)
        Self.appendQuoted(modifiedBy.name, to: &json)
        json.append(UInt8(ascii: "}"))
        return Data(json)
    }

    private static func append(_ text: StaticString, to json: inout [UInt8]) {
        text.withUTF8Buffer { json.append(contentsOf: $0) }
    }

    private static func append(_ stamp: HLCTimestamp, to json: inout [UInt8]) {
        append("{\"counter\":", to: &json)
        json.append(contentsOf: String(stamp.counter).utf8)
        append(",\"millis\":", to: &json)
        json.append(contentsOf: String(stamp.millis).utf8)
        json.append(UInt8(ascii: "}"))
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    private static func appendQuoted(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                json.append(UInt8(ascii: "\\"))
                json.append(byte)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                json.append(contentsOf: Array("\\u00".utf8))
                json.append(hex[Int(byte >> 4)])
                json.append(hex[Int(byte & 0xf)])
            default:
                json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }
}

/// A deletion reported by a change fetch.
public struct DeletedRecord: Hashable, Sendable, Codable {
    public var recordType: String
    public var recordName: String

    public init(recordType: String, recordName: String) {
        self.recordType = recordType
        self.recordName = recordName
    }
}
