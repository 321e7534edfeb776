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
        var writer = BodyWriter(capacity: 96 + changeTag.utf8.count + createdBy.name.utf8.count + modifiedBy.name.utf8.count)
        writer.raw("{\"changeTag\":")
        writer.string(changeTag)
        writer.raw(",\"createdAt\":")
        writer.hlc(createdAt)
        writer.raw(",\"createdBy\":")
        writer.string(createdBy.name)
        writer.raw(",\"modifiedAt\":")
        writer.hlc(modifiedAt)
        writer.raw(",\"modifiedBy\":")
        writer.string(modifiedBy.name)
        writer.raw("}")
        return Data(writer.bytes)
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
