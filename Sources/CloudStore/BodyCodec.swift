import Foundation

/// Hand-written JSON for the two big cloud file bodies, segments and snapshots.
///
/// Reading a device's whole history means decoding every segment and snapshot it wrote; with
/// `JSONDecoder` that dominated a full fetch. This codec reads and writes the same bytes on its own:
///
/// - **Decoding is equivalent to `JSONDecoder`** (Foundation's, as this store uses it): every body
///   JSONDecoder accepts decodes to an equal value here, and every body it refuses is refused here.
///   That includes its leniencies, which the tests pin down:
///   - a repeated key keeps its **first** value; the later ones, like the values of keys a body does
///     not know, are only checked the way its scanner checks them (balanced, strings closed, literals
///     spelled right, at most 512 levels deep), not decoded, so `"x": 01` or a raw control character
///     inside an ignored string pass, and so do invalid UTF-8 bytes there (they never become a
///     `String`). Every string that is decoded, and every key of an object that is read, must be
///     valid UTF-8 without raw control characters or bad escapes;
///   - a trailing comma is allowed before `}` and `]`;
///   - a field object needs exactly one *known* type key: other keys beside it are ignored;
///   - integers may be spelled `4.0` or `4e0`: any spelling other than plain digits is handed to
///     `JSONDecoder` itself (as a one-number document), so its rules for those stay exact;
///   - a double that comes out zero is checked for non-zero digits as JSONDecoder checks it,
///     quirk included (`0e8` is refused, `0e-8` is not; see `isTrueZero`);
///   - a body in UTF-16 or UTF-32 (which `JSONDecoder` detects) is handed to `JSONDecoder` whole;
///     a UTF-8 byte order mark is skipped.
///   Names (device, zone, generation) go through the same validating initialisers as `Codable`.
/// - **Encoding is byte-identical to `JSONEncoder` with `.sortedKeys`**: keys in UTF-8 byte order,
///   `"`, `\`, `/` and control characters escaped as it escapes them, doubles spelled as it spells
///   them (`description` without a trailing `.0`), and, like it, an error for a non-finite double.
///
/// Reading follows the body types, so it nests only as deep as they do; values they do not read
/// are skipped with an explicit stack, so hostile nesting (refused past 512 levels, as JSONDecoder
/// refuses it) never deepens the call stack.
enum BodyCodec {
    /// Why a body is not a valid segment or snapshot, and where reading stopped.
    struct Unreadable: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    // MARK: Decoding

    static func decodeSegment(_ bytes: UnsafeRawBufferPointer) throws -> SegmentBody {
        if needsFoundation(bytes) { return try JSONDecoder().decode(SegmentBody.self, from: Data(bytes)) }
        var reader = BodyReader(bytes)
        let body = try reader.segment()
        try reader.finish()
        return body
    }

    static func decodeSnapshot(_ bytes: UnsafeRawBufferPointer) throws -> SnapshotBody {
        if needsFoundation(bytes) { return try JSONDecoder().decode(SnapshotBody.self, from: Data(bytes)) }
        var reader = BodyReader(bytes)
        let body = try reader.snapshot()
        try reader.finish()
        return body
    }

    static func decodeSegment(_ data: Data) throws -> SegmentBody {
        try data.withUnsafeBytes { try decodeSegment($0) }
    }

    static func decodeSnapshot(_ data: Data) throws -> SnapshotBody {
        try data.withUnsafeBytes { try decodeSnapshot($0) }
    }

    /// A snapshot read entry by entry: `each` sees every entry as it is read, in order, and the
    /// body returned has none. The same reader as `decodeSnapshot`, so it accepts and refuses
    /// exactly the same bodies; a refusal can come after some entries were already seen.
    static func decodeSnapshot(_ data: Data, each: (RecordEntry) throws -> Void) throws -> SnapshotBody {
        try data.withUnsafeBytes { bytes in
            if needsFoundation(bytes) {
                var body = try JSONDecoder().decode(SnapshotBody.self, from: Data(bytes))
                for entry in body.entries { try each(entry) }
                body.entries = []
                return body
            }
            var reader = BodyReader(bytes)
            let body = try reader.snapshot(each: each)
            try reader.finish()
            return body
        }
    }

    /// Bodies `JSONDecoder` would read as UTF-16 or UTF-32 (a zero byte among the first two, or a
    /// UTF-16/32 byte order mark), and empty ones. The store never writes these, so they are left
    /// to `JSONDecoder`, which answers them exactly.
    private static func needsFoundation(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return true }
        return first == 0 || first == 0xFE || first == 0xFF || (bytes.count > 1 && bytes[1] == 0)
    }

    // MARK: Encoding

    /// The same bytes as `JSONEncoder` with `.sortedKeys`. Throws, as it does, for a non-finite double.
    static func encode(_ body: SegmentBody) throws -> Data {
        var writer = BodyWriter(capacity: estimatedSize(of: body.entries))
        writer.raw("{\"device\":")
        writer.string(body.device.name)
        writer.raw(",\"entries\":")
        try writer.entries(body.entries)
        writer.raw(",\"generation\":")
        writer.string(body.generation.name)
        writer.raw(",\"hlc\":")
        writer.hlc(body.hlc)
        writer.raw(",\"seq\":")
        writer.integer(Int64(body.seq))
        writer.raw(",\"zone\":")
        writer.string(body.zone.name)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// The same bytes as `JSONEncoder` with `.sortedKeys`. Throws, as it does, for a non-finite double.
    static func encode(_ body: SnapshotBody) throws -> Data {
        var writer = BodyWriter(capacity: estimatedSize(of: body.entries))
        writer.raw("{\"base\":")
        writer.integer(Int64(body.base))
        writer.raw(",\"device\":")
        writer.string(body.device.name)
        writer.raw(",\"entries\":")
        try writer.entries(body.entries)
        writer.raw(",\"generation\":")
        writer.string(body.generation.name)
        writer.raw(",\"zone\":")
        writer.string(body.zone.name)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// A game record takes 300 to 500 bytes; reserving about that avoids most regrowth.
    private static func estimatedSize(of entries: [RecordEntry]) -> Int { 256 + entries.count * 448 }
}

// MARK: - Reading

/// A key of a known object, packed for quick comparison (every key the bodies use fits in 16 bytes).
private struct KeyName: Equatable {
    let count: Int
    let low: UInt64
    let high: UInt64

    static let unknown = KeyName(count: -1, low: 0, high: 0)

    private init(count: Int, low: UInt64, high: UInt64) {
        self.count = count
        self.low = low
        self.high = high
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16, let start = bytes.baseAddress else {
            self = bytes.isEmpty ? KeyName(count: 0, low: 0, high: 0) : .unknown
            return
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: start, byteCount: bytes.count) }
        self.init(count: bytes.count, low: words.0, high: words.1)
    }

    init(_ name: StaticString) {
        self = name.withUTF8Buffer { KeyName($0) }
    }

    // Bodies
    static let generation = KeyName("generation"), device = KeyName("device"), zone = KeyName("zone")
    static let seq = KeyName("seq"), hlc = KeyName("hlc"), base = KeyName("base"), entries = KeyName("entries")
    // Record entries
    static let name = KeyName("name"), type = KeyName("type"), deleted = KeyName("deleted"), fields = KeyName("fields")
    static let createdBy = KeyName("createdBy"), createdAt = KeyName("createdAt")
    // Clock readings
    static let millis = KeyName("millis"), counter = KeyName("counter")
    // Field types
    static let string = KeyName("string"), int = KeyName("int"), double = KeyName("double"), bool = KeyName("bool")
    static let date = KeyName("date"), bytes = KeyName("bytes"), strings = KeyName("strings")
}

/// Which keys of an object have been read already: a repeated key keeps its first value.
private struct SeenKeys {
    private var bits: UInt32 = 0

    /// True the first time `key` (a small index) is seen.
    mutating func insert(_ key: Int) -> Bool {
        let bit: UInt32 = 1 << UInt32(key)
        defer { bits |= bit }
        return bits & bit == 0
    }
}

/// The span of a string in the body, between its quotes, as scanned.
private struct StringSpan {
    var start: Int
    var count: Int
    /// No escapes and no control characters: the bytes are the string, if they are valid UTF-8.
    var simple: Bool
    /// Every byte below 0x80.
    var ascii: Bool
}

private enum Byte {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: "."), zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
    static let e = UInt8(ascii: "e"), capitalE = UInt8(ascii: "E")
    static let t = UInt8(ascii: "t"), f = UInt8(ascii: "f"), n = UInt8(ascii: "n"), u = UInt8(ascii: "u")

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte <= 0x20 && (UInt64(1) << 0x20 | 1 << 0x0A | 1 << 0x0D | 1 << 0x09) & (UInt64(1) << byte) != 0
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// A byte the scanner keeps in a number once one has started.
    @inline(__always) static func continuesNumber(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == dot || byte == plus || byte == minus || byte == e || byte == capitalE
    }
}

/// One pass over a body's bytes, decoding what the body types read and skipping the rest the way
/// `JSONDecoder`'s scanner checks it.
private struct BodyReader {
    /// Objects and arrays nest at most this deep, as `JSONDecoder` allows.
    static let maxDepth = 512

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var index: Int
    private var depth = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []
    /// The last `createdBy` read: a segment's entries almost always share it, so it is validated once.
    private var lastCreator: (start: Int, count: Int, id: DeviceID)?

    init(_ bytes: UnsafeRawBufferPointer) {
        // `needsFoundation` has turned empty bodies away, so there is a base address.
        base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        end = bytes.count
        // A UTF-8 byte order mark is skipped, as JSONDecoder skips it.
        index = end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF ? 3 : 0
    }

    // MARK: Bodies

    mutating func segment() throws -> SegmentBody {
        var generation: CloudGeneration?, device: DeviceID?, zone: ZoneID?, seq: Int?, hlc: HLCTimestamp?
        var entries: [RecordEntry]?
        var seen = SeenKeys(), first = true
        try openObject()
        while let key = try nextKey(&first) {
            switch try keyName(key) {
            case .generation where seen.insert(0): generation = try folderName()
            case .device where seen.insert(1): device = try folderName()
            case .zone where seen.insert(2): zone = try folderName()
            case .seq where seen.insert(3): seq = try integer()
            case .hlc where seen.insert(4): hlc = try clock()
            case .entries where seen.insert(5): entries = try recordEntries()
            default: try skipValue()
            }
        }
        guard let generation, let device, let zone, let seq, let hlc, let entries else { throw missingKey() }
        return SegmentBody(generation: generation, device: device, zone: zone, seq: seq, hlc: hlc, entries: entries)
    }

    mutating func snapshot() throws -> SnapshotBody {
        var entries: [RecordEntry] = []
        var body = try snapshot { entries.append($0) }
        body.entries = entries
        return body
    }

    /// The snapshot with its entries handed to `each` as they are read rather than kept.
    mutating func snapshot(each: (RecordEntry) throws -> Void) throws -> SnapshotBody {
        var generation: CloudGeneration?, device: DeviceID?, zone: ZoneID?, base: Int?, hasEntries = false
        var seen = SeenKeys(), first = true
        try openObject()
        while let key = try nextKey(&first) {
            switch try keyName(key) {
            case .generation where seen.insert(0): generation = try folderName()
            case .device where seen.insert(1): device = try folderName()
            case .zone where seen.insert(2): zone = try folderName()
            case .base where seen.insert(3): base = try integer()
            case .entries where seen.insert(4):
                try recordEntries(each: each)
                hasEntries = true
            default: try skipValue()
            }
        }
        guard let generation, let device, let zone, let base, hasEntries else { throw missingKey() }
        return SnapshotBody(generation: generation, device: device, zone: zone, base: base, entries: [])
    }

    /// Only whitespace may follow the body.
    mutating func finish() throws {
        while index < end, Byte.isWhitespace(base[index]) { index += 1 }
        guard index == end else { throw unreadable("bytes after the body") }
    }

    // MARK: Records

    private mutating func recordEntries() throws -> [RecordEntry] {
        var entries: [RecordEntry] = []
        try recordEntries { entries.append($0) }
        return entries
    }

    private mutating func recordEntries(each: (RecordEntry) throws -> Void) throws {
        var first = true
        try openArray()
        while try nextElement(&first) {
            try each(try recordEntry())
        }
    }

    private mutating func recordEntry() throws -> RecordEntry {
        var name: String?, type: String?, seq: Int?, hlc: HLCTimestamp?, deleted: Bool?
        var fields: [String: FieldValue]?, createdBy: DeviceID?, createdAt: HLCTimestamp?
        var seen = SeenKeys(), first = true
        try openObject()
        while let key = try nextKey(&first) {
            switch try keyName(key) {
            case .name where seen.insert(0): name = try string()
            case .type where seen.insert(1): type = try string()
            case .seq where seen.insert(2): seq = try integer()
            case .hlc where seen.insert(3): hlc = try clock()
            case .deleted where seen.insert(4): deleted = try bool()
            case .fields where seen.insert(5): fields = try recordFields()
            case .createdBy where seen.insert(6): createdBy = try creator()
            case .createdAt where seen.insert(7): createdAt = try clock()
            default: try skipValue()
            }
        }
        guard let name, let type, let seq, let hlc, let deleted, let createdBy, let createdAt else { throw missingKey() }
        return RecordEntry(name: name, type: type, seq: seq, hlc: hlc, deleted: deleted, fields: fields,
                           createdBy: createdBy, createdAt: createdAt)
    }

    /// A record's fields, or nil for `null` (a deletion's entry has none).
    private mutating func recordFields() throws -> [String: FieldValue]? {
        if try peekValue() == Byte.n {
            try literal("null")
            return nil
        }
        // Room for a game's dozen fields at once, rather than growing (and rehashing) three times.
        var fields = [String: FieldValue](minimumCapacity: 12)
        var first = true
        try openObject()
        while let key = try nextKey(&first) {
            let name = try string(key)
            if fields[name] == nil {
                fields[name] = try fieldValue()
            } else {
                try skipValue()
            }
        }
        return fields
    }

    /// `{"int": 4}` and the like: exactly one known type key.
    private mutating func fieldValue() throws -> FieldValue {
        var value: FieldValue?, kind = KeyName.unknown
        var first = true
        try openObject()
        while let key = try nextKey(&first) {
            let name = try keyName(key)
            switch name {
            case .string, .int, .double, .bool, .date, .bytes, .strings:
                if kind == .unknown {
                    kind = name
                    value = try fieldValue(of: name)
                } else if kind == name {
                    try skipValue()
                } else {
                    throw unreadable("a field has exactly one type key")
                }
            default:
                try skipValue()
            }
        }
        guard let value else { throw unreadable("a field has exactly one type key") }
        return value
    }

    private mutating func fieldValue(of kind: KeyName) throws -> FieldValue {
        switch kind {
        case .string: return .string(try string())
        case .int: return .int(try integer())
        case .double: return .double(try double())
        case .bool: return .bool(try bool())
        // Milliseconds since 1970, turned into a date exactly as FieldValue's init(from:) does.
        case .date: return .date(Date(timeIntervalSince1970: Double(try integer() as Int64) / 1000))
        case .bytes:
            guard let data = Data(base64Encoded: try string()) else { throw unreadable("bad base64") }
            return .bytes(data)
        default:
            var list: [String] = []
            var first = true
            try openArray()
            while try nextElement(&first) {
                list.append(try string())
                guard list.count <= CloudLimits.maxListItems else { throw unreadable("list too long") }
            }
            return .strings(list)
        }
    }

    private mutating func clock() throws -> HLCTimestamp {
        var millis: Int64?, counter: UInt32?
        var seen = SeenKeys(), first = true
        try openObject()
        while let key = try nextKey(&first) {
            switch try keyName(key) {
            case .millis where seen.insert(0): millis = try integer()
            case .counter where seen.insert(1): counter = try integer()
            default: try skipValue()
            }
        }
        guard let millis, let counter else { throw missingKey() }
        return HLCTimestamp(millis: millis, counter: counter)
    }

    /// A device, zone or generation name, checked by the same initialiser as its `Codable` form.
    private mutating func folderName<Name: FolderNamed>() throws -> Name {
        try Name(string())
    }

    /// `createdBy`: when it spells the same bytes as the last one, the same (already checked) ID.
    private mutating func creator() throws -> DeviceID {
        let span = try stringSpan()
        if span.simple, let last = lastCreator, last.count == span.count,
           memcmp(base + last.start, base + span.start, span.count) == 0 {
            return last.id
        }
        let id = try DeviceID(string(span))
        if span.simple { lastCreator = (span.start, span.count, id) }
        return id
    }

    // MARK: Objects and arrays

    private mutating func openObject() throws {
        guard try peekValue() == Byte.openBrace else { throw unreadable("expected an object") }
        try enterContainer()
    }

    private mutating func openArray() throws {
        guard try peekValue() == Byte.openBracket else { throw unreadable("expected an array") }
        try enterContainer()
    }

    private mutating func enterContainer() throws {
        guard depth < Self.maxDepth else { throw unreadable("nested too deeply") }
        depth += 1
        index += 1
    }

    /// The next key of the object being read, its `:` consumed; nil once its `}` is consumed.
    private mutating func nextKey(_ first: inout Bool) throws -> StringSpan? {
        var byte = try peekValue()
        if byte == Byte.closeBrace {
            index += 1
            depth -= 1
            return nil
        }
        if first {
            first = false
        } else {
            guard byte == Byte.comma else { throw unreadable("expected , or } in an object") }
            index += 1
            byte = try peekValue()
            // A trailing comma before the closing brace is accepted, as JSONDecoder accepts it.
            if byte == Byte.closeBrace {
                index += 1
                depth -= 1
                return nil
            }
        }
        guard byte == Byte.quote else { throw unreadable("expected a key") }
        let key = try stringSpan()
        guard try peekValue() == Byte.colon else { throw unreadable("expected : after a key") }
        index += 1
        return key
    }

    /// True when another element of the array being read follows; false once its `]` is consumed.
    private mutating func nextElement(_ first: inout Bool) throws -> Bool {
        let byte = try peekValue()
        if byte == Byte.closeBracket {
            index += 1
            depth -= 1
            return false
        }
        if first {
            first = false
            return true
        }
        guard byte == Byte.comma else { throw unreadable("expected , or ] in an array") }
        index += 1
        // A trailing comma before the closing bracket is accepted, as JSONDecoder accepts it.
        if try peekValue() == Byte.closeBracket {
            index += 1
            depth -= 1
            return false
        }
        return true
    }

    /// Which known key `span` spells. Every key of an object that is read must be a valid string,
    /// known or not, as JSONDecoder decodes them all.
    private mutating func keyName(_ span: StringSpan) throws -> KeyName {
        if span.simple {
            let bytes = UnsafeBufferPointer(start: base + span.start, count: span.count)
            if span.ascii { return KeyName(bytes) }
            _ = try validated(bytes)
            return .unknown  // every known key is ASCII
        }
        var name = try string(span)
        return name.withUTF8 { KeyName($0) }
    }

    // MARK: Values

    /// Skips whitespace; the byte a value (or a separator) starts with.
    @inline(__always)
    private mutating func peekValue() throws -> UInt8 {
        while index < end {
            let byte = base[index]
            if !Byte.isWhitespace(byte) { return byte }
            index += 1
        }
        throw unreadable("unexpected end of the body")
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard end - index >= count, memcmp(base + index, word.utf8Start, count) == 0 else {
            throw unreadable("expected \(word)")
        }
        index += count
    }

    private mutating func bool() throws -> Bool {
        switch try peekValue() {
        case Byte.t: try literal("true"); return true
        case Byte.f: try literal("false"); return false
        default: throw unreadable("expected true or false")
        }
    }

    private mutating func string() throws -> String {
        try string(stringSpan())
    }

    /// Finds the end of the string at the reader (its closing quote consumed) by the scanner's
    /// rules: `\` takes the next byte, `\u` the next four, none of them a quote. Nothing is
    /// validated here; `string(_:)` does that for the strings that are read.
    private mutating func stringSpan() throws -> StringSpan {
        guard try peekValue() == Byte.quote else { throw unreadable("expected a string") }
        index += 1
        let start = index
        var simple = true, high: UInt8 = 0
        while index < end {
            let byte = base[index]
            if byte == Byte.quote {
                index += 1
                return StringSpan(start: start, count: index - 1 - start, simple: simple, ascii: high < 0x80)
            }
            if byte == Byte.backslash {
                simple = false
                index += 1
                guard index < end else { break }
                if base[index] == Byte.u {
                    index += 1
                    guard end - index >= 4 else { break }
                    for offset in 0..<4 where base[index + offset] == Byte.quote {
                        throw unreadable("bad \\u escape")
                    }
                    index += 4
                } else {
                    index += 1
                }
                continue
            }
            if byte < 0x20 { simple = false }
            high |= byte
            index += 1
        }
        throw unreadable("unterminated string")
    }

    /// The string a scanned span holds: escapes decoded, control characters and bad UTF-8 refused.
    private mutating func string(_ span: StringSpan) throws -> String {
        let start = base + span.start
        if span.simple {
            let bytes = UnsafeBufferPointer(start: start, count: span.count)
            return span.ascii ? String(decoding: bytes, as: UTF8.self) : try validated(bytes)
        }
        scratch.removeAll(keepingCapacity: true)
        var offset = 0
        while offset < span.count {
            let byte = start[offset]
            if byte < 0x20 { throw unreadable("control character in a string", at: span.start + offset) }
            if byte != Byte.backslash {
                scratch.append(byte)
                offset += 1
                continue
            }
            // The scan guarantees a byte after every backslash inside the span.
            guard offset + 1 < span.count else { throw unreadable("bad escape", at: span.start + offset) }
            let escaped = start[offset + 1]
            offset += 2
            switch escaped {
            case Byte.quote, Byte.backslash, Byte.slash: scratch.append(escaped)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case Byte.u:
                guard let unit = Self.hexUnit(start + offset, available: span.count - offset) else {
                    throw unreadable("bad \\u escape", at: span.start + offset)
                }
                offset += 4
                let scalar: Unicode.Scalar?
                if UTF16.isLeadSurrogate(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard span.count - offset >= 6, start[offset] == Byte.backslash, start[offset + 1] == Byte.u,
                          let trail = Self.hexUnit(start + offset + 2, available: span.count - offset - 2),
                          UTF16.isTrailSurrogate(trail)
                    else { throw unreadable("unpaired surrogate", at: span.start + offset) }
                    offset += 6
                    scalar = Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(trail) - 0xDC00))
                } else {
                    scalar = Unicode.Scalar(unit)
                }
                guard let scalar else { throw unreadable("unpaired surrogate", at: span.start + offset) }
                Self.appendUTF8(scalar, to: &scratch)
            default:
                throw unreadable("bad escape", at: span.start + offset - 1)
            }
        }
        return try scratch.withUnsafeBufferPointer { try validated($0) }
    }

    /// Four hex digits, upper or lower case.
    private static func hexUnit(_ digits: UnsafePointer<UInt8>, available: Int) -> UInt16? {
        guard available >= 4 else { return nil }
        var unit: UInt16 = 0
        for offset in 0..<4 {
            let byte = digits[offset]
            let value: UInt8
            switch byte {
            case Byte.zero...Byte.nine: value = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(value)
        }
        return unit
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(0xC0 | UInt8(value >> 6))
            bytes.append(0x80 | UInt8(value & 0x3F))
        case 0x800..<0x10000:
            bytes.append(0xE0 | UInt8(value >> 12))
            bytes.append(0x80 | UInt8(value >> 6 & 0x3F))
            bytes.append(0x80 | UInt8(value & 0x3F))
        default:
            bytes.append(0xF0 | UInt8(value >> 18))
            bytes.append(0x80 | UInt8(value >> 12 & 0x3F))
            bytes.append(0x80 | UInt8(value >> 6 & 0x3F))
            bytes.append(0x80 | UInt8(value & 0x3F))
        }
    }

    /// The string the bytes spell, if they are valid UTF-8. Decoding repairs invalid bytes, so the
    /// bytes are valid exactly when the decoded string gives them back unchanged.
    private func validated(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count, text.utf8.elementsEqual(bytes) else {
            throw unreadable("invalid UTF-8 in a string")
        }
        return text
    }

    /// An integer. Plain digits are read here; any other spelling JSONDecoder may accept for an
    /// integer (`4.0`, `4e0`, `-0` for an unsigned type) or refuse is handed to JSONDecoder itself
    /// as a one-number document, so both answer it the same way.
    private mutating func integer<Integer: FixedWidthInteger & Decodable>() throws -> Integer {
        let first = try peekValue()
        guard first == Byte.minus || Byte.isDigit(first) else { throw unreadable("expected a number") }
        let token = numberToken()
        if let value: Integer = plainInteger(token) { return value }
        let text = Data(UnsafeBufferPointer(start: base + token.lowerBound, count: token.count))
        return try JSONDecoder().decode(Integer.self, from: text)
    }

    /// The number at the reader as JSONDecoder's scanner delimits it: `-` or a digit, then every
    /// following digit, `.`, `+`, `-`, `e` or `E`.
    private mutating func numberToken() -> Range<Int> {
        let start = index
        index += 1
        while index < end, Byte.continuesNumber(base[index]) { index += 1 }
        return start..<index
    }

    /// `-?(0|[1-9][0-9]*)` of at most 19 digits that fits `Integer`; nil for anything else.
    private func plainInteger<Integer: FixedWidthInteger>(_ token: Range<Int>) -> Integer? {
        var position = token.lowerBound
        let negative = base[position] == Byte.minus
        if negative { position += 1 }
        let digits = token.upperBound - position
        guard digits > 0, digits <= 19, base[position] != Byte.zero || digits == 1 else { return nil }
        var magnitude: UInt64 = 0
        while position < token.upperBound {
            let digit = base[position] &- Byte.zero
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            position += 1
        }
        guard negative else { return Integer(exactly: magnitude) }
        if magnitude == UInt64(Int64.max) + 1 { return Integer(exactly: Int64.min) }
        guard let positive = Int64(exactly: magnitude) else { return nil }
        return Integer(exactly: -positive)
    }

    /// A double, read as JSONDecoder reads one: a strict JSON number, parsed by `strtod` (through
    /// `Double(_:)`), refused when it overflows, or when it comes out zero and `isTrueZero` says
    /// its digits were not all zero (an underflow).
    private mutating func double() throws -> Double {
        let first = try peekValue()
        guard first == Byte.minus || Byte.isDigit(first) else { throw unreadable("expected a number") }
        let token = numberToken()
        guard isJSONNumber(token) else { throw unreadable("malformed number", at: token.lowerBound) }
        let text = String(decoding: UnsafeBufferPointer(start: base + token.lowerBound, count: token.count), as: UTF8.self)
        guard let value = Double(text), value.isFinite, value != 0 || isTrueZero(token) else {
            throw unreadable("number out of range", at: token.lowerBound)
        }
        return value
    }

    /// JSONDecoder's test that a number parsed as zero was written as zero: the first `e`/`E` or
    /// non-zero digit decides. It reads four bytes at a time from the front, then the last one to
    /// three bytes *last first*, so a zero such as `0e8` or `0.000E1` (whose tail puts a digit of
    /// the exponent before the `e`) counts as an underflow and is refused. Kept exactly, quirk and
    /// all: the tests will say if Foundation changes it.
    private func isTrueZero(_ token: Range<Int>) -> Bool {
        func decides(_ byte: UInt8) -> Bool? {
            if byte >= UInt8(ascii: "1") && byte <= Byte.nine { return false }
            if byte == Byte.e || byte == Byte.capitalE { return true }
            return nil
        }
        var position = token.lowerBound
        while token.upperBound - position >= 4 {
            for offset in 0..<4 {
                if let answer = decides(base[position + offset]) { return answer }
            }
            position += 4
        }
        var last = token.upperBound - 1
        while last >= position {
            if let answer = decides(base[last]) { return answer }
            last -= 1
        }
        return true
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, all of the token.
    private func isJSONNumber(_ token: Range<Int>) -> Bool {
        var position = token.lowerBound
        func digits() -> Int {
            let start = position
            while position < token.upperBound, Byte.isDigit(base[position]) { position += 1 }
            return position - start
        }
        if base[position] == Byte.minus { position += 1 }
        guard position < token.upperBound else { return false }
        if base[position] == Byte.zero {
            position += 1
        } else if digits() == 0 {
            return false
        }
        if position < token.upperBound, base[position] == Byte.dot {
            position += 1
            guard digits() > 0 else { return false }
        }
        if position < token.upperBound, base[position] == Byte.e || base[position] == Byte.capitalE {
            position += 1
            if position < token.upperBound, base[position] == Byte.plus || base[position] == Byte.minus { position += 1 }
            guard digits() > 0 else { return false }
        }
        return position == token.upperBound
    }

    // MARK: Skipping

    /// Skips a value the body types do not read (an unknown key's, or a repeated key's), checking
    /// it only as JSONDecoder's scanner does. Iterative: nesting costs a byte of stack each.
    private mutating func skipValue() throws {
        var open: [Bool] = []  // per open container: true for an object
        nextValue: while true {
            let byte = try peekValue()
            switch byte {
            case Byte.quote:
                _ = try stringSpan()
            case Byte.openBrace, Byte.openBracket:
                try enterContainer()
                let isObject = byte == Byte.openBrace
                if try peekValue() == (isObject ? Byte.closeBrace : Byte.closeBracket) {
                    index += 1
                    depth -= 1
                } else {
                    open.append(isObject)
                    if isObject { try skipKey() }
                    continue nextValue
                }
            case Byte.t: try literal("true")
            case Byte.f: try literal("false")
            case Byte.n: try literal("null")
            case Byte.minus, Byte.zero...Byte.nine: _ = numberToken()
            default: throw unreadable("unexpected character")
            }
            // After a value: close what ends here, or go on to the next element.
            while let isObject = open.last {
                let close = isObject ? Byte.closeBrace : Byte.closeBracket
                let separator = try peekValue()
                if separator == close {
                    index += 1
                    depth -= 1
                    open.removeLast()
                    continue
                }
                guard separator == Byte.comma else { throw unreadable("expected , or a closing bracket") }
                index += 1
                if try peekValue() == close {  // a trailing comma
                    index += 1
                    depth -= 1
                    open.removeLast()
                    continue
                }
                if isObject { try skipKey() }
                continue nextValue
            }
            return
        }
    }

    private mutating func skipKey() throws {
        _ = try stringSpan()
        guard try peekValue() == Byte.colon else { throw unreadable("expected : after a key") }
        index += 1
    }

    // MARK: Errors

    private func unreadable(_ reason: String, at offset: Int? = nil) -> BodyCodec.Unreadable {
        BodyCodec.Unreadable(reason: reason, offset: offset ?? index)
    }

    private func missingKey() -> BodyCodec.Unreadable { unreadable("a required key is missing") }
}

// MARK: - Writing

/// Appends a body's JSON exactly as `JSONEncoder` with `.sortedKeys` writes it.
/// Writes JSON the way `JSONEncoder` with sorted keys does; the bodies' writer, and the
/// system fields' (`SystemFields.encoded`).
struct BodyWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Keys sorted by their UTF-8 bytes: `createdAt`, `createdBy`, `deleted`, `fields` (left out
    /// when nil, as the synthesised `encode(to:)` leaves it out), `hlc`, `name`, `seq`, `type`.
    mutating func entries(_ entries: [RecordEntry]) throws {
        bytes.append(Byte.openBracket)
        for (offset, entry) in entries.enumerated() {
            if offset > 0 { bytes.append(Byte.comma) }
            raw("{\"createdAt\":")
            hlc(entry.createdAt)
            raw(",\"createdBy\":")
            string(entry.createdBy.name)
            raw(entry.deleted ? ",\"deleted\":true" : ",\"deleted\":false")
            if let fields = entry.fields {
                raw(",\"fields\":")
                try self.fields(fields)
            }
            raw(",\"hlc\":")
            hlc(entry.hlc)
            raw(",\"name\":")
            string(entry.name)
            raw(",\"seq\":")
            integer(Int64(entry.seq))
            raw(",\"type\":")
            string(entry.type)
            bytes.append(Byte.closeBrace)
        }
        bytes.append(Byte.closeBracket)
    }

    mutating func hlc(_ clock: HLCTimestamp) {
        raw("{\"counter\":")
        integer(Int64(clock.counter))
        raw(",\"millis\":")
        integer(clock.millis)
        bytes.append(Byte.closeBrace)
    }

    private mutating func fields(_ fields: [String: FieldValue]) throws {
        bytes.append(Byte.openBrace)
        for (offset, field) in fields.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
            if offset > 0 { bytes.append(Byte.comma) }
            string(field.key)
            bytes.append(Byte.colon)
            try value(field.value)
        }
        bytes.append(Byte.closeBrace)
    }

    /// As `FieldValue.encode(to:)` writes each kind.
    private mutating func value(_ value: FieldValue) throws {
        switch value {
        case .string(let text):
            raw("{\"string\":")
            string(text)
        case .int(let number):
            raw("{\"int\":")
            integer(number)
        case .double(let number):
            guard number.isFinite else {
                throw EncodingError.invalidValue(number, .init(codingPath: [], debugDescription: "Unable to encode Double.\(number) directly in JSON."))
            }
            raw("{\"double\":")
            // JSONEncoder's spelling: the shortest round-tripping form, without a trailing ".0".
            var text = number.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case .bool(let flag):
            raw(flag ? "{\"bool\":true" : "{\"bool\":false")
        case .date(let date):
            raw("{\"date\":")
            integer(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case .bytes(let data):
            raw("{\"bytes\":")
            string(data.base64EncodedString())
        case .strings(let list):
            raw("{\"strings\":[")
            for (offset, text) in list.enumerated() {
                if offset > 0 { bytes.append(Byte.comma) }
                string(text)
            }
            bytes.append(Byte.closeBracket)
        }
        bytes.append(Byte.closeBrace)
    }

    /// JSONEncoder's order for sorted keys: UTF-8 bytes, lexicographically.
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let answer = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
        return (answer ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// A quoted string, escaped as JSONEncoder escapes: `"`, `\` and `/` with a backslash,
    /// `\b \f \n \r \t`, other control characters as `\u00xx`; everything else as it is.
    mutating func string(_ text: String) {
        bytes.append(Byte.quote)
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for offset in 0..<utf8.count {
                let byte = utf8[offset]
                guard byte < 0x20 || byte == Byte.quote || byte == Byte.backslash || byte == Byte.slash else { continue }
                if offset > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<offset])) }
                mark = offset + 1
                bytes.append(Byte.backslash)
                switch byte {
                case Byte.quote, Byte.backslash, Byte.slash: bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    bytes.append(contentsOf: [Byte.u, Byte.zero, Byte.zero, hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)]])
                }
            }
            if utf8.count > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...])) }
        }
        bytes.append(Byte.quote)
    }

    /// Bytes as they are: text that needs no escaping, such as a folder name.
    mutating func plain(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// A clock reading as `HLCTimestamp.description` spells it: milliseconds in at least 13
    /// digits, a dot, the counter in at least 5.
    mutating func clockReading(_ clock: HLCTimestamp) {
        integer(clock.millis, width: 13)
        bytes.append(UInt8(ascii: "."))
        integer(Int64(clock.counter), width: 5)
    }

    /// Decimal digits, as `description` spells them, with leading zeros up to `width`.
    mutating func integer(_ value: Int64, width: Int = 1) {
        if value < 0 { bytes.append(Byte.minus) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = Byte.zero + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            for _ in 0..<max(0, width - (20 - start)) { bytes.append(Byte.zero) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
