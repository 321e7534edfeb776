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
    /// The system fields for the client to keep (like `encodeSystemFields`); read them back
    /// with `init?(encoded:)`. A full fetch keeps one per record, so the usual case is short
    /// text: `<modifiedAt> <modifiedBy>` for a record its last writer created, with
    /// `<createdAt> <createdBy>` after them otherwise (HLC readings as in change tags, device
    /// IDs as folder names, so a space never occurs inside one). A change tag the cloud did not
    /// build from those two is kept whole, as JSON.
    public var encoded: Data {
        var writer = BodyWriter(capacity: 48 + modifiedBy.name.utf8.count + createdBy.name.utf8.count)
        writer.clockReading(modifiedAt)
        let space = writer.bytes.count
        writer.byte(UInt8(ascii: " "))
        writer.plain(modifiedBy.name)
        // The store's own tag is these very bytes with a dash for the space.
        guard Self.isTag(changeTag, writer.bytes, dashAt: space) else { return json }
        if createdAt != modifiedAt || createdBy != modifiedBy {
            writer.byte(UInt8(ascii: " "))
            writer.clockReading(createdAt)
            writer.byte(UInt8(ascii: " "))
            writer.plain(createdBy.name)
        }
        return Data(writer.bytes)
    }

    /// Reads what `encoded` wrote, and the JSON object earlier builds kept; nil for anything
    /// else, so a damaged row costs one extra round trip (the save is refused as stale and
    /// merged), never a crash.
    public init?(encoded data: Data) {
        if data.first == UInt8(ascii: "{") {
            guard let fields = try? JSONDecoder().decode(SystemFields.self, from: data) else { return nil }
            self = fields
            return
        }
        let parts = data.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 4,
              let modifiedAt = HLCTimestamp(text: parts[0]), let modifiedBy = DeviceID(text: parts[1]) else { return nil }
        var createdAt = modifiedAt, createdBy = modifiedBy
        if parts.count == 4 {
            guard let at = HLCTimestamp(text: parts[2]), let by = DeviceID(text: parts[3]) else { return nil }
            createdAt = at
            createdBy = by
        }
        self.init(changeTag: Self.changeTag(modifiedAt, modifiedBy), createdBy: createdBy, createdAt: createdAt,
                  modifiedBy: modifiedBy, modifiedAt: modifiedAt)
        // Only the spelling `encoded` writes (no extra zeros, no created part equal to the last
        // change), so one set of fields has one form.
        guard encoded == data else { return nil }
    }

    private static func isTag(_ tag: String, _ bytes: [UInt8], dashAt dash: Int) -> Bool {
        guard tag.utf8.count == bytes.count else { return false }
        var index = 0
        for byte in tag.utf8 {
            guard byte == (index == dash ? UInt8(ascii: "-") : bytes[index]) else { return false }
            index += 1
        }
        return true
    }

    /// The change tag the store gives a version: when and by whom it was written.
    public static func changeTag(_ at: HLCTimestamp, _ by: DeviceID) -> String {
        var writer = BodyWriter(capacity: 24 + by.name.utf8.count)
        writer.clockReading(at)
        writer.byte(UInt8(ascii: "-"))
        writer.plain(by.name)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The same object `JSONEncoder` writes, built directly.
    private var json: Data {
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

private extension HLCTimestamp {
    /// `description`'s form: digits, a dot, digits.
    init?(text: Data.SubSequence) {
        let halves = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard halves.count == 2, let millis = Self.number(halves[0]), let counter = Self.number(halves[1]),
              let count = UInt32(exactly: counter) else { return nil }
        self.init(millis: millis, counter: count)
    }

    static func number(_ digits: Data.SubSequence) -> Int64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (tens, over) = value.multipliedReportingOverflow(by: 10)
            let (sum, overAgain) = tens.addingReportingOverflow(Int64(byte - 0x30))
            guard !over, !overAgain else { return nil }
            value = sum
        }
        return value
    }
}

private extension DeviceID {
    init?(text: Data.SubSequence) {
        guard let name = String(bytes: text, encoding: .utf8), DeviceID.accepts(name) else { return nil }
        self.init(validated: name)
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
